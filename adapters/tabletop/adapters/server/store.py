"""Where the server keeps its games: the ``GameStore`` port and its SQLite adapter.

A game is kept as the record a save file holds (seed, options, seats, the action log,
the digest), never as a state: the server rebuilds a game by replaying it, exactly as
``tabletop replay`` does, so what the store holds is always an ordinary save.

The port lives here and not in the framework's ports: only the server needs it, and the
framework has no notion of tokens or of many games open at once. One action is one row,
appended in its own transaction; the server acknowledges a move only after that commit,
so a killed server loses no move a client was told about.

Seat tokens are stored as their SHA-256, never as they are: a copy of the database does
not let anyone sit at a table.

The SQLite file is the server's alone: it is created readable by its owner only (it
holds every unfinished game's seed), marked as Tabletop's (``PRAGMA application_id``)
with its schema's version (``user_version``), and checked before anything is written
to it: another program's database, a schema that is not this one, or a damaged file
(``PRAGMA quick_check``) is refused with one line, and the file is left as it was.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import stat
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from tabletop.framework.errors import SaveError
from tabletop.framework.record import GameRecord

#: Who a token belongs to: a seat of a game, or the game's host (seat None).
HOST = None


def token_hash(token: str) -> str:
    """What the store keeps of a token: its SHA-256 (tokens are long random strings,
    so a plain hash is enough; no salt or slow hash is needed for 192 random bits)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


@dataclass(frozen=True)
class StoredGame:
    """A game as the store has it: the record (with every committed action) and
    whether its host ended it early (an abandoned game takes no more moves)."""

    game_id: str
    record: GameRecord
    abandoned: bool


class GameStore(Protocol):
    """The server's persistence port: games as records, appended one action at a time."""

    def create(self, game_id: str, record: GameRecord, tokens: dict[str, int | None]) -> None:
        """Keep a new game and its tokens (token -> seat, None for the host's)."""

    def append(
        self,
        game_id: str,
        index: int,
        seat: int,
        action: str,
        *,
        digest: str,
        progress: str,
        finished: bool,
    ) -> None:
        """Keep action number ``index`` (from 1); returns once it is durable."""

    def truncate(
        self, game_id: str, count: int, *, digest: str, progress: str, finished: bool
    ) -> None:
        """Keep only the first ``count`` actions (an undo took the others back), with
        the game's digest and progress after them; returns once it is durable."""

    def load(self, game_id: str) -> StoredGame | None:
        """The game with its committed actions, or None when there is no such game."""

    def actions_after(self, game_id: str, count: int) -> list[tuple[int, str]]:
        """The game's actions after the first ``count`` (another server process's)."""

    def length(self, game_id: str) -> int:
        """How many actions the game has kept (fewer than a server holds: an undo
        through another server process)."""

    def owner(self, token: str) -> tuple[str, int | None] | None:
        """(game id, seat or None for the host) of a token; None for an unknown one."""

    def abandon(self, game_id: str) -> None:
        """The host ended the game: it takes no more moves."""

    def close(self) -> None:
        """Let the database go."""


_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    digest TEXT NOT NULL,
    progress TEXT NOT NULL DEFAULT '',
    finished INTEGER NOT NULL DEFAULT 0,
    abandoned INTEGER NOT NULL DEFAULT 0,
    created TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE TABLE IF NOT EXISTS actions (
    game TEXT NOT NULL REFERENCES games(id),
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (game, idx)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER
) WITHOUT ROWID;
"""


class SqlGameStore(ABC):
    """What the SQLite and PostgreSQL stores share: the same tables, and the same
    statements, written with ``?`` for a parameter. A subclass connects, names its
    driver's placeholder, and says how a transaction is run."""

    path: str
    _lock: threading.Lock
    _db: Any
    #: The driver's parameter placeholder, put where the statements say ``?``.
    placeholder = "?"

    def _execute(self, statement: str, params: tuple[Any, ...] = ()) -> Any:
        return self._db.execute(statement.replace("?", self.placeholder), params)

    @abstractmethod
    def _executemany(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        """Run ``statement`` once per row (each driver batches its own way)."""

    @abstractmethod
    def _transaction(self) -> AbstractContextManager[Any]:
        """One transaction around the block, rolled back when it raises."""

    def _reading(self) -> AbstractContextManager[Any]:
        """What a read of several statements runs in (by default a transaction)."""
        return self._transaction()

    def _changed(self, game_id: str, count: int) -> None:  # noqa: B027 - an optional hook
        """Called inside the transaction that leaves the game with ``count`` actions
        (an append or a truncation)."""

    def create(self, game_id: str, record: GameRecord, tokens: dict[str, int | None]) -> None:
        body = record.to_json()
        body["actions"] = []  # the actions are rows of their own
        with self._lock, self._transaction():
            self._execute(
                "INSERT INTO games (id, record, digest, progress, finished) VALUES (?, ?, ?, ?, ?)",
                (game_id, json.dumps(body), record.digest, record.progress, record.finished),
            )
            self._executemany(
                "INSERT INTO tokens (hash, game, seat) VALUES (?, ?, ?)",
                [(token_hash(token), game_id, seat) for token, seat in tokens.items()],
            )
            self._executemany(
                "INSERT INTO actions (game, idx, seat, action) VALUES (?, ?, ?, ?)",
                [
                    (game_id, index, seat, action)
                    for index, (seat, action) in enumerate(record.actions, start=1)
                ],
            )

    def append(
        self,
        game_id: str,
        index: int,
        seat: int,
        action: str,
        *,
        digest: str,
        progress: str,
        finished: bool,
    ) -> None:
        with self._lock, self._transaction():
            self._execute(
                "INSERT INTO actions (game, idx, seat, action) VALUES (?, ?, ?, ?)",
                (game_id, index, seat, action),
            )
            self._execute(
                "UPDATE games SET digest = ?, progress = ?, finished = ? WHERE id = ?",
                (digest, progress, finished, game_id),
            )
            self._changed(game_id, index)

    def truncate(
        self, game_id: str, count: int, *, digest: str, progress: str, finished: bool
    ) -> None:
        with self._lock, self._transaction():
            self._execute("DELETE FROM actions WHERE game = ? AND idx > ?", (game_id, count))
            self._execute(
                "UPDATE games SET digest = ?, progress = ?, finished = ? WHERE id = ?",
                (digest, progress, finished, game_id),
            )
            self._changed(game_id, count)

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock, self._reading():
            row = self._execute(
                "SELECT record, digest, progress, finished, abandoned FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            actions = self._execute(
                "SELECT seat, action FROM actions WHERE game = ? ORDER BY idx", (game_id,)
            ).fetchall()
        try:
            body = json.loads(row[0])
        except ValueError:
            raise SaveError(f"game {game_id} in {self.path}: its record is damaged") from None
        if not isinstance(body, dict):
            raise SaveError(f"game {game_id} in {self.path}: its record is damaged")
        body["actions"] = [[seat, action] for seat, action in actions]
        body["digest"], body["progress"], body["finished"] = row[1], row[2], bool(row[3])
        try:
            record = GameRecord.from_json(body)
        except SaveError as exc:
            raise SaveError(f"game {game_id} in {self.path}: {exc}") from None
        return StoredGame(game_id, record, bool(row[4]))

    def actions_after(self, game_id: str, count: int) -> list[tuple[int, str]]:
        with self._lock:
            rows = self._execute(
                "SELECT seat, action FROM actions WHERE game = ? AND idx > ? ORDER BY idx",
                (game_id, count),
            ).fetchall()
        return [(int(seat), str(action)) for seat, action in rows]

    def length(self, game_id: str) -> int:
        with self._lock:
            row = self._execute(
                "SELECT count(*) FROM actions WHERE game = ?", (game_id,)
            ).fetchone()
        return int(row[0])

    def owner(self, token: str) -> tuple[str, int | None] | None:
        with self._lock:
            row = self._execute(
                "SELECT game, seat FROM tokens WHERE hash = ?", (token_hash(token),)
            ).fetchone()
        return None if row is None else (str(row[0]), row[1])

    def abandon(self, game_id: str) -> None:
        with self._lock:
            self._execute("UPDATE games SET abandoned = ? WHERE id = ?", (True, game_id))

    def count(self) -> int:
        """How many games the store holds (for the server's limit on open games)."""
        with self._lock:
            return int(self._execute("SELECT count(*) FROM games").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


#: ``PRAGMA application_id`` of a Tabletop server database ("TbSv").
APPLICATION_ID = 0x54625376
#: ``PRAGMA user_version``: the version of the schema above.
SCHEMA_VERSION = 1
#: The tables and columns of that schema (a file that has them, with no application id,
#: was made by a server from before the id was written, and is adopted).
TABLES = {
    "games": {"id", "record", "digest", "progress", "finished", "abandoned", "created"},
    "actions": {"game", "idx", "seat", "action"},
    "tokens": {"hash", "game", "seat"},
}


class StoreError(Exception):
    """The database cannot be used as the server's (another program's, another schema,
    damaged): one line that says which file and why."""


class SqliteGameStore(SqlGameStore):
    """The default store: one SQLite file in WAL mode (the standard library's sqlite3).

    WAL lets a reader (a fetch) run beside the writer; ``synchronous=NORMAL`` makes a
    commit durable against the process being killed (what the server promises: kill -9
    loses no acknowledged move); ``synchronous=FULL`` (``durable=True``) also against a
    power cut, for one more fsync per move. One connection, shared by the server's
    threads under a lock: the server writes one move at a time per game anyway, and
    SQLite serialises writers.
    """

    def __init__(self, path: Path | str, *, durable: bool = False) -> None:
        self.path = str(path)
        if self.path != ":memory:":
            _create_private(Path(self.path))
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            fresh = self._check()
        except BaseException:
            self._db.close()
            raise
        if self.path != ":memory:":
            _narrow(Path(self.path))
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        with self._lock:
            self._db.executescript(_SCHEMA)
            if fresh:
                self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
                self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    def _check(self) -> bool:
        """Whether the file is a new database (True) or this server's (False); refuse
        anything else before a byte is written. The WAL and its index are made with
        the file's own permissions (owner only)."""
        tables = {
            str(name): {
                str(column[1])
                for column in self._db.execute(
                    'PRAGMA table_info("{}")'.format(str(name).replace('"', '""'))
                )
            }
            for (name,) in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            ).fetchall()
        }
        application = int(self._db.execute("PRAGMA application_id").fetchone()[0])
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if not tables and application in (0, APPLICATION_ID):
            return True
        if application not in (0, APPLICATION_ID):
            raise StoreError(
                f"{self.path} is not a Tabletop server database (another program's: "
                f"application id {application:#x}); nothing was changed"
            )
        if tables != TABLES:
            names = ", ".join(sorted(tables)) or "none"
            raise StoreError(
                f"{self.path} is not a Tabletop server database (its tables: {names}); "
                "nothing was changed: give tabletop serve --db a file of its own"
            )
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was made by a newer Tabletop (schema {version}, this one reads "
                f"{SCHEMA_VERSION}): upgrade tabletop-app; nothing was changed"
            )
        found = [str(row[0]) for row in self._db.execute("PRAGMA quick_check(3)")]
        if found != ["ok"]:
            lines = [line for text in found for line in text.splitlines()]
            problems = [line.strip() for line in lines if line.strip() and "***" not in line]
            raise StoreError(
                f"{self.path} is damaged ({'; '.join(problems)[:300]}): restore it from a "
                "backup, or move it away to start a new one; nothing was changed"
            )
        if application == 0:  # a server from before the mark: adopt its file
            self._db.execute(f"PRAGMA application_id={APPLICATION_ID}")
            self._db.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        return False

    def load(self, game_id: str) -> StoredGame | None:
        """The game, or a ``SaveError`` naming it when its rows cannot be read (a
        damaged page), as for a damaged record: one line, not a failed request."""
        try:
            return super().load(game_id)
        except sqlite3.DatabaseError as exc:
            raise SaveError(
                f"game {game_id} in {self.path}: the database is damaged: {exc}"
            ) from None

    def _executemany(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        self._db.executemany(statement, rows)

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    def _reading(self) -> AbstractContextManager[Any]:
        return nullcontext()


def _create_private(path: Path) -> None:
    """A new database file is created readable by its owner only (it holds seeds);
    SQLite gives its WAL and index files the same permissions."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with suppress(FileExistsError):
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))


def _narrow(path: Path) -> None:
    """An existing database of this server (checked) that others could read is made
    its owner's only, with its WAL and index files."""
    for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
        try:
            info = part.stat()
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and info.st_uid == os.getuid() and info.st_mode & 0o077:
            with suppress(OSError):
                os.chmod(part, stat.S_IMODE(info.st_mode) & 0o700)
