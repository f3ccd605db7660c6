"""The server's games in PostgreSQL (``tabletop serve --db postgresql://...``).

The same ``GameStore`` port and the same tables as the SQLite store, on a server
database, so that the games outlive the machine the server runs on and a database
administrator's backups cover them. psycopg (version 3) is imported only when this
store is made: it is an optional dependency (``tabletop install 'tabletop-app[postgres]'``).
Each action is appended in its own transaction, committed before the server
acknowledges the move, as with SQLite.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Any, cast

from tabletop.adapters.server.store import SqlGameStore

#: The notification channel: one message per committed change (an action, an undo, the
#: end of a game by its host), "game_id:actions" or "game_id:ended".
CHANNEL = "tabletop_moves"

_SCHEMA = (
    """CREATE TABLE IF NOT EXISTS games (
        id TEXT PRIMARY KEY,
        record TEXT NOT NULL,
        digest TEXT NOT NULL,
        progress TEXT NOT NULL DEFAULT '',
        finished BOOLEAN NOT NULL DEFAULT FALSE,
        abandoned BOOLEAN NOT NULL DEFAULT FALSE,
        created TIMESTAMPTZ NOT NULL DEFAULT now()
    )""",
    """CREATE TABLE IF NOT EXISTS actions (
        game TEXT NOT NULL REFERENCES games(id),
        idx INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        action TEXT NOT NULL,
        PRIMARY KEY (game, idx)
    )""",
    """CREATE TABLE IF NOT EXISTS tokens (
        hash TEXT PRIMARY KEY,
        game TEXT NOT NULL REFERENCES games(id),
        seat INTEGER
    )""",
    """CREATE TABLE IF NOT EXISTS invites (
        hash TEXT PRIMARY KEY,
        game TEXT NOT NULL REFERENCES games(id),
        seat INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS results (
        game TEXT PRIMARY KEY REFERENCES games(id),
        body BYTEA NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS leases (
        game TEXT PRIMARY KEY REFERENCES games(id),
        owner TEXT NOT NULL,
        until DOUBLE PRECISION NOT NULL
    )""",
)


class PostgresGameStore(SqlGameStore):
    """``GameStore`` on PostgreSQL: one connection, shared by the server's threads
    under a lock. Several server processes may share the database: each change of a
    game locks the game's row first (``SELECT ... FOR UPDATE``), so they write a game
    one at a time, and each commit notifies the others (``listen``)."""

    placeholder = "%s"
    row_lock = " FOR UPDATE"
    clock = "extract(epoch from clock_timestamp())::double precision"
    shared = True

    def __init__(self, dsn: str) -> None:
        import psycopg

        self.path = dsn.split("@")[-1]  # shown in messages: never the password
        self._dsn = dsn
        self._lock = threading.Lock()
        self._db: Any = psycopg.connect(dsn, autocommit=True)
        with self._lock, self._db.transaction():
            for statement in _SCHEMA:
                self._db.execute(statement)

    def _executemany(self, statement: str, rows: list[tuple[Any, ...]]) -> None:
        with self._db.cursor() as cursor:
            cursor.executemany(statement.replace("?", self.placeholder), rows)

    def _transaction(self) -> AbstractContextManager[Any]:
        return cast("AbstractContextManager[Any]", self._db.transaction())

    @contextmanager
    def _reading(self) -> Iterator[None]:
        """A read of several statements sees one moment of the database: PostgreSQL's
        default (read committed) gives each statement a snapshot of its own, so a game
        loaded while another server process appended to it had the digest of n actions
        and n + 1 actions, and could not be opened. Writers are not held up."""
        with self._db.transaction():
            self._db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield

    def _changed(self, game_id: str, count: int | str) -> None:
        # Delivered at commit, to every server process listening (``listen``).
        self._execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{game_id}:{count}"))

    def listen(self, changed: Callable[[str], None]) -> Callable[[], None]:
        """Call ``changed(game_id)`` (on a thread of its own) whenever any server
        process sharing this database commits an action; returns a function that stops
        listening. This is how several server processes behind one address share games:
        each hears of the moves the others kept."""
        import psycopg

        stop = threading.Event()
        connection: Any = psycopg.connect(self._dsn, autocommit=True)
        connection.execute(f"LISTEN {CHANNEL}")

        def loop() -> None:
            try:
                while not stop.is_set():
                    for note in connection.notifies(timeout=0.5):
                        changed(note.payload.rsplit(":", 1)[0])
            except Exception:  # the database went away: this process stops listening
                pass
            finally:
                connection.close()

        threading.Thread(target=loop, name="tabletop-pg-listen", daemon=True).start()
        return stop.set
