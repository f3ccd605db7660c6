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

    #: Whether several server processes may share the store (PostgreSQL): they then
    #: take turns at a game's bots through leases (``claim``).
    shared: bool

    def create(
        self,
        game_id: str,
        record: GameRecord,
        tokens: dict[str, int | None],
        invites: dict[str, int] | None = None,
    ) -> None:
        """Keep a new game, its tokens (token -> seat, None for the host's) and its
        invites (invite -> seat, each usable once: ``bind``)."""

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
        """The host ended the game: it takes no more moves (an append after this, by
        any server process, is refused with ``GameEnded``)."""

    def invited(self, invite: str) -> tuple[str, int] | None:
        """(game id, seat) of an invite not used yet, or None."""

    def bind(self, invite: str, secret: str) -> tuple[str, int] | None:
        """Use an invite once: the seat it opens is from now on opened by ``secret``
        (a token the joining client made and keeps), and the invite opens nothing.
        (game id, seat), or None for an unknown or already used invite."""

    def status(self, game_id: str) -> tuple[int, bool]:
        """(actions kept, whether its host ended it): what another server process
        compares its game with when told of a change."""

    def keep_result(self, game_id: str, body: bytes) -> None:
        """Keep what a finished game's seats are told when they join (compressed
        JSON, made by the hall), so that a join is answered without a replay."""

    def result(self, game_id: str) -> bytes | None:
        """The finished game's kept answer (``keep_result``), or None."""

    def claim(self, game_id: str, owner: str, seconds: float) -> bool:
        """Take or keep the lease on the game's bot turns (see ``SqlGameStore``)."""

    def renew(self, owner: str, games: list[str], seconds: float) -> None:
        """Keep ``owner``'s leases on ``games`` running."""

    def drop_lease(self, game_id: str, owner: str) -> None:
        """Give up ``owner``'s lease on the game."""

    def close(self) -> None:
        """Let the database go."""


class WriteRefused(Exception):
    """A change the store did not keep because another writer (another server process
    sharing the database) got to the game first: the game moved on, or its host ended
    it. The server's table reloads the game from the store, which is the truth."""


class GameEnded(WriteRefused):
    """The host ended the game (a fetch before its end): it takes no more moves."""


class StaleWrite(WriteRefused):
    """The action's number is not the next one the store expects: another server
    process moved (or undid) first."""


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
CREATE TABLE IF NOT EXISTS invites (
    hash TEXT PRIMARY KEY,
    game TEXT NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS results (
    game TEXT PRIMARY KEY REFERENCES games(id),
    body BLOB NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS leases (
    game TEXT PRIMARY KEY REFERENCES games(id),
    owner TEXT NOT NULL,
    until REAL NOT NULL
) WITHOUT ROWID;
"""


class SqlGameStore(ABC):
    """What the SQLite and PostgreSQL stores share: the same tables, and the same
    statements, written with ``?`` for a parameter. A subclass connects, names its
    driver's placeholder, says how a transaction is run, how a game's row is locked
    and what time it is.

    **One writer per game.** Every change of a game (an action, an undo, its end by
    its host) runs in a transaction that first locks the game's row (``_hold``) and
    checks, under that lock, that the game is not ended and that the action is the
    next one: two server processes sharing the database can never both append action
    ``n``, nor append anything after a host ended the game through another process.
    The loser's ``WriteRefused`` makes its table reload the game from the store."""

    path: str
    _lock: threading.Lock
    _db: Any
    #: The driver's parameter placeholder, put where the statements say ``?``.
    placeholder = "?"
    #: What follows the SELECT that locks a game's row (PostgreSQL: FOR UPDATE; SQLite
    #: locks the whole database at BEGIN IMMEDIATE).
    row_lock = ""
    #: The database's clock in seconds since 1970, as SQL (leases are timed by the
    #: database's clock, the one every server process sharing it reads).
    clock = "((julianday('now') - 2440587.5) * 86400.0)"
    #: Whether several server processes may share this store (they hear of each
    #: other's changes through ``listen`` and take turns at bots through leases).
    shared = False

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

    def _changed(self, game_id: str, count: int | str) -> None:  # noqa: B027 - an optional hook
        """Called inside the transaction that leaves the game with ``count`` actions
        (an append or a truncation), or ended (``"ended"``)."""

    def _hold(self, game_id: str) -> tuple[int, bool]:
        """Lock the game's row for this transaction; (actions kept, ended by its host).
        Every writer of a game passes here first, so writers of one game take turns."""
        row = self._execute(
            "SELECT abandoned FROM games WHERE id = ?" + self.row_lock, (game_id,)
        ).fetchone()
        if row is None:
            raise StaleWrite(f"no game {game_id} in {self.path}")
        kept = self._execute(
            "SELECT coalesce(max(idx), 0) FROM actions WHERE game = ?", (game_id,)
        ).fetchone()
        return int(kept[0]), bool(row[0])

    def create(
        self,
        game_id: str,
        record: GameRecord,
        tokens: dict[str, int | None],
        invites: dict[str, int] | None = None,
    ) -> None:
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
                "INSERT INTO invites (hash, game, seat) VALUES (?, ?, ?)",
                [(token_hash(invite), game_id, seat) for invite, seat in (invites or {}).items()],
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
            kept, ended = self._hold(game_id)
            if ended:
                raise GameEnded(f"game {game_id}: its host ended it")
            if kept != index - 1:
                raise StaleWrite(f"game {game_id} has {kept} actions, not {index - 1}")
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
            _, ended = self._hold(game_id)
            if ended:
                raise GameEnded(f"game {game_id}: its host ended it")
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

    def status(self, game_id: str) -> tuple[int, bool]:
        with self._lock:
            row = self._execute(
                "SELECT (SELECT count(*) FROM actions WHERE game = ?), abandoned "
                "FROM games WHERE id = ?",
                (game_id, game_id),
            ).fetchone()
        return (0, False) if row is None else (int(row[0]), bool(row[1]))

    def owner(self, token: str) -> tuple[str, int | None] | None:
        with self._lock:
            row = self._execute(
                "SELECT game, seat FROM tokens WHERE hash = ?", (token_hash(token),)
            ).fetchone()
        return None if row is None else (str(row[0]), row[1])

    def invited(self, invite: str) -> tuple[str, int] | None:
        """(game id, seat) of an invite not used yet, or None."""
        with self._lock:
            row = self._execute(
                "SELECT game, seat FROM invites WHERE hash = ?", (token_hash(invite),)
            ).fetchone()
        return None if row is None else (str(row[0]), int(row[1]))

    def bind(self, invite: str, secret: str) -> tuple[str, int] | None:
        with self._lock, self._transaction():
            row = self._execute(
                "DELETE FROM invites WHERE hash = ? RETURNING game, seat", (token_hash(invite),)
            ).fetchone()
            if row is None:
                return None
            self._execute(
                "INSERT INTO tokens (hash, game, seat) VALUES (?, ?, ?)",
                (token_hash(secret), row[0], row[1]),
            )
        return str(row[0]), int(row[1])

    def abandon(self, game_id: str) -> None:
        with self._lock, self._transaction():
            _, ended = self._hold(game_id)
            if not ended:
                self._execute("UPDATE games SET abandoned = ? WHERE id = ?", (True, game_id))
                self._changed(game_id, "ended")

    def keep_result(self, game_id: str, body: bytes) -> None:
        with self._lock, self._transaction():
            self._execute(
                "INSERT INTO results (game, body) VALUES (?, ?) "
                "ON CONFLICT (game) DO UPDATE SET body = excluded.body",
                (game_id, body),
            )

    def result(self, game_id: str) -> bytes | None:
        with self._lock:
            row = self._execute("SELECT body FROM results WHERE game = ?", (game_id,)).fetchone()
        return None if row is None else bytes(row[0])

    # Leases: which server process plays a game's bots -------------------------------

    def claim(self, game_id: str, owner: str, seconds: float) -> bool:
        """Take (or keep) the lease on the game's bot turns for ``seconds``: True when
        ``owner`` holds it now, False while another process's lease runs. A process
        that stops renewing its lease (it died) loses it when it runs out."""
        with self._lock, self._transaction():
            row = self._execute(
                f"INSERT INTO leases (game, owner, until) VALUES (?, ?, {self.clock} + ?) "
                "ON CONFLICT (game) DO UPDATE SET owner = excluded.owner, until = excluded.until "
                f"WHERE leases.owner = excluded.owner OR leases.until < {self.clock} "
                "RETURNING owner",
                (game_id, owner, seconds),
            ).fetchone()
        return row is not None

    def renew(self, owner: str, games: list[str], seconds: float) -> None:
        """Keep ``owner``'s leases on ``games`` for ``seconds`` more."""
        if not games:
            return
        marks = ", ".join("?" * len(games))
        with self._lock, self._transaction():
            self._execute(
                f"UPDATE leases SET until = {self.clock} + ? WHERE owner = ? AND game IN ({marks})",
                (seconds, owner, *games),
            )

    def drop_lease(self, game_id: str, owner: str) -> None:
        """``owner`` plays the game's bots no more (it let the game go)."""
        with self._lock, self._transaction():
            self._execute("DELETE FROM leases WHERE game = ? AND owner = ?", (game_id, owner))

    def count(self) -> int:
        """How many games the store holds (for the server's limit on open games)."""
        with self._lock:
            return int(self._execute("SELECT count(*) FROM games").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()


#: ``PRAGMA application_id`` of a Tabletop server database ("TbSv").
APPLICATION_ID = 0x54625376
#: ``PRAGMA user_version``: the version of the schema above (2: invites, the answers
#: of finished games and bot leases; a file of version 1 gets those tables added).
SCHEMA_VERSION = 2
#: The tables and columns of that schema (a file that has them, with no application id,
#: was made by a server from before the id was written, and is adopted).
TABLES_V1 = {
    "games": {"id", "record", "digest", "progress", "finished", "abandoned", "created"},
    "actions": {"game", "idx", "seat", "action"},
    "tokens": {"hash", "game", "seat"},
}
TABLES = {
    **TABLES_V1,
    "invites": {"hash", "game", "seat"},
    "results": {"game", "body"},
    "leases": {"game", "owner", "until"},
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
        if not (set(TABLES_V1) <= set(tables) <= set(TABLES)) or any(
            columns != TABLES[name] for name, columns in tables.items()
        ):
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
        if version < SCHEMA_VERSION:  # its new tables are made by the schema's script
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
