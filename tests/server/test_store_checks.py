"""The server's SQLite file is its own (issue 39, D4; issue 36, item 8): another
program's database, a schema that is not the server's or a damaged file is refused at
start with one line and left byte for byte as it was; a new file is its owner's only;
a game whose row is damaged is one line naming the game, not a failed request."""

from __future__ import annotations

import hashlib
import os
import random
import re
import sqlite3
import stat
from pathlib import Path

import pytest
from sessions import CliRun

from tabletop.adapters.server.store import APPLICATION_ID, SqliteGameStore, StoreError
from tabletop.framework.errors import SaveError
from tabletop.framework.record import GameRecord
from tabletop.framework.testing import new_engine
from tabletop.games.pig import Pig


def _record(seed: int) -> GameRecord:
    """A finished game of Pig played at random, as the server keeps one."""
    engine = new_engine(Pig(), seed=seed)
    chooser = random.Random(seed)
    while (prompt := engine.prompt) is not None:
        engine.act(prompt.seat, chooser.choice(prompt.actions()))
    return engine.record(seats=["random", "random"])


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _foreign(path: Path, schema: str) -> str:
    with sqlite3.connect(path) as db:
        db.executescript(schema)
    db.close()
    return _digest(path)


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        (
            "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT);"
            "INSERT INTO notes (text) VALUES ('buy milk');",
            "is not a Tabletop server database (its tables: notes)",
        ),
        (
            "CREATE TABLE games (name TEXT, score INTEGER);",
            "is not a Tabletop server database (its tables: games)",
        ),
        ("PRAGMA application_id=1234;", "another program's: application id 0x4d2"),
    ],
    ids=["another-apps-database", "wrong-schema", "another-application-id"],
)
def test_a_database_that_is_not_the_servers_is_refused_unchanged(
    tmp_path: Path, schema: str, said: str
) -> None:
    path = tmp_path / "other.sqlite3"
    before = _foreign(path, schema)
    with pytest.raises(StoreError, match=re.escape(said)):
        SqliteGameStore(path)
    assert _digest(path) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.sqlite3"]  # no WAL left


def test_serve_refuses_it_in_one_line(tmp_path: Path, cli: CliRun) -> None:
    path = tmp_path / "notes.sqlite3"
    before = _foreign(path, "CREATE TABLE notes (text TEXT);")
    code, out, err = cli("serve", "--port", "0", "--db", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"tabletop: error: cannot open the server's database {path}: ")
    assert "is not a Tabletop server database" in err and len(err.splitlines()) == 1
    assert _digest(path) == before


def test_a_damaged_file_is_refused_before_anything_is_written(tmp_path: Path) -> None:
    """32 kB of random bytes in the middle: the server started, served the games it
    could read and went on writing into the damaged file."""
    path = tmp_path / "server.sqlite3"
    store = SqliteGameStore(path)
    for number in range(60):
        store.create(f"game-{number}", _record(number), {f"token-{number}": 0})
    store.close()
    size = path.stat().st_size
    assert size > 64 * 1024
    noise = random.Random(7).randbytes(32 * 1024)
    with path.open("r+b") as handle:
        handle.seek(size // 2 // 4096 * 4096)  # whole pages in the middle, not the header
        handle.write(noise)
    before = _digest(path)
    with pytest.raises(StoreError, match=r"is damaged .*restore it from a backup"):
        SqliteGameStore(path)
    assert _digest(path) == before


def test_a_game_whose_record_is_damaged_is_one_line_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "server.sqlite3"
    store = SqliteGameStore(path)
    store.create("good", _record(1), {"a": 0})
    store.create("bad", _record(2), {"b": 0})
    store._db.execute("UPDATE games SET record = '{not json' WHERE id = 'bad'")
    assert store.load("good") is not None
    with pytest.raises(SaveError, match=r"game bad in .*: its record is damaged"):
        store.load("bad")
    store.close()


def test_a_new_database_is_its_owners_only_and_marked_as_the_servers(tmp_path: Path) -> None:
    path = tmp_path / "new" / "server.sqlite3"
    store = SqliteGameStore(path)
    store.create("one", _record(3), {"t": 0})
    for part in (path, Path(f"{path}-wal")):
        assert stat.S_IMODE(part.stat().st_mode) == 0o600, part
    assert store._db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    store.close()
    again = SqliteGameStore(path)  # its own file: opened as it is
    loaded = again.load("one")
    assert loaded is not None and loaded.record.digest == _record(3).digest
    again.close()


def test_a_database_from_before_the_mark_is_adopted_and_narrowed(tmp_path: Path) -> None:
    """A server of 0.2 made the same tables with no application id, readable by all."""
    path = tmp_path / "server.sqlite3"
    store = SqliteGameStore(path)
    store.create("old", _record(4), {"t": 0})
    store._db.execute("PRAGMA application_id=0")
    store.close()
    os.chmod(path, 0o644)
    adopted = SqliteGameStore(path)
    assert adopted.load("old") is not None
    assert adopted._db.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    adopted.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
