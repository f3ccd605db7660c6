"""The server's games in PostgreSQL (``tabletop serve --db postgresql://...``).

The same ``GameStore`` port and the same tables as the SQLite store, on a server
database, so that the games outlive the machine the server runs on and a database
administrator's backups cover them. psycopg (version 3) is imported only when this
store is made: it is an optional dependency (``pip install 'tabletop-app[postgres]'``).
Each action is appended in its own transaction, committed before the server
acknowledges the move, as with SQLite.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from typing import Any

from tabletop.adapters.server.store import StoredGame, token_hash
from tabletop.framework.errors import SaveError
from tabletop.framework.record import GameRecord

#: The notification channel: one message per committed action, "game_id:index".
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
)


class PostgresGameStore:
    """``GameStore`` on PostgreSQL: one connection, shared by the server's threads
    under a lock (a game's moves are serialised by the server anyway)."""

    def __init__(self, dsn: str) -> None:
        import psycopg

        self.path = dsn.split("@")[-1]  # shown in messages: never the password
        self._dsn = dsn
        self._lock = threading.Lock()
        self._db: Any = psycopg.connect(dsn, autocommit=True)
        with self._lock, self._db.transaction():
            for statement in _SCHEMA:
                self._db.execute(statement)

    def create(self, game_id: str, record: GameRecord, tokens: dict[str, int | None]) -> None:
        body = record.to_json()
        body["actions"] = []
        with self._lock, self._db.transaction():
            self._db.execute(
                "INSERT INTO games (id, record, digest, progress, finished) "
                "VALUES (%s, %s, %s, %s, %s)",
                (game_id, json.dumps(body), record.digest, record.progress, record.finished),
            )
            with self._db.cursor() as cursor:
                cursor.executemany(
                    "INSERT INTO tokens (hash, game, seat) VALUES (%s, %s, %s)",
                    [(token_hash(token), game_id, seat) for token, seat in tokens.items()],
                )
                cursor.executemany(
                    "INSERT INTO actions (game, idx, seat, action) VALUES (%s, %s, %s, %s)",
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
        with self._lock, self._db.transaction():
            self._db.execute(
                "INSERT INTO actions (game, idx, seat, action) VALUES (%s, %s, %s, %s)",
                (game_id, index, seat, action),
            )
            self._db.execute(
                "UPDATE games SET digest = %s, progress = %s, finished = %s WHERE id = %s",
                (digest, progress, finished, game_id),
            )
            # Delivered at commit, to every server process listening (``listen``).
            self._db.execute("SELECT pg_notify(%s, %s)", (CHANNEL, f"{game_id}:{index}"))

    def load(self, game_id: str) -> StoredGame | None:
        with self._lock, self._db.transaction():
            row = self._db.execute(
                "SELECT record, digest, progress, finished, abandoned FROM games WHERE id = %s",
                (game_id,),
            ).fetchone()
            if row is None:
                return None
            actions = self._db.execute(
                "SELECT seat, action FROM actions WHERE game = %s ORDER BY idx", (game_id,)
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
            rows = self._db.execute(
                "SELECT seat, action FROM actions WHERE game = %s AND idx > %s ORDER BY idx",
                (game_id, count),
            ).fetchall()
        return [(int(seat), str(action)) for seat, action in rows]

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

    def owner(self, token: str) -> tuple[str, int | None] | None:
        with self._lock:
            row = self._db.execute(
                "SELECT game, seat FROM tokens WHERE hash = %s", (token_hash(token),)
            ).fetchone()
        return None if row is None else (str(row[0]), row[1])

    def abandon(self, game_id: str) -> None:
        with self._lock:
            self._db.execute("UPDATE games SET abandoned = TRUE WHERE id = %s", (game_id,))

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM games").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
