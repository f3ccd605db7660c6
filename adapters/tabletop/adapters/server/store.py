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
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
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

    def load(self, game_id: str) -> StoredGame | None:
        """The game with its committed actions, or None when there is no such game."""

    def actions_after(self, game_id: str, count: int) -> list[tuple[int, str]]:
        """The game's actions after the first ``count`` (another server process's)."""

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

    def _appended(self, game_id: str, index: int) -> None:  # noqa: B027 - an optional hook
        """Called inside the transaction that appends action ``index``."""

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
            self._appended(game_id, index)

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
        body = json.loads(row[0])
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
            Path(self.path).parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(f"PRAGMA synchronous={'FULL' if durable else 'NORMAL'}")
        self._db.execute("PRAGMA foreign_keys=ON")
        self._db.execute("PRAGMA busy_timeout=5000")
        with self._lock:
            self._db.executescript(_SCHEMA)

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
