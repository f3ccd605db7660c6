"""Helpers of the server tests: a hall of small games, a front end that keeps what it
is told, and a server on a thread."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from pathlib import Path

from liars import LiarsDice

from tabletop.adapters.server.client import new_secret
from tabletop.adapters.server.hall import Hall
from tabletop.adapters.server.limits import Limits
from tabletop.adapters.server.server import Server, run
from tabletop.adapters.server.store import SqliteGameStore
from tabletop.framework import chance
from tabletop.framework.bots import RandomBot
from tabletop.framework.plugins import GameRegistry, InstalledGame
from tabletop.framework.ports import SessionObserver, Workers
from tabletop.framework.seats import (
    Move,
)
from tabletop.framework.session import SessionStarter
from tabletop.framework.table import QueuedWorkers, SeatLink


def small_registry() -> GameRegistry:
    """Liar's dice (hidden dice, reveals) and the random bot: a registry made here, so
    the tests do not wait for every installed plugin to load."""
    return GameRegistry(
        games={"liars-dice": InstalledGame(LiarsDice(), "tests", "tests", "1")},
        bots={"random": (lambda game: RandomBot(), "")},
    )


def make_hall(
    path: Path,
    registry: GameRegistry | None = None,
    *,
    workers: Workers | None = None,
    observer: type[SessionObserver] | None = None,
    limits: Limits | None = None,
) -> Hall:
    """A hall on a SQLite file; its workers run nothing until drained
    (``QueuedWorkers``) unless others are given (a server needs ``ThreadWorkers``)."""
    sessions = SessionStarter(
        registry or small_registry(),
        chance.rng_factory,
        chance.dice_factory,
        observer=observer,
    )
    return Hall(SqliteGameStore(path), sessions, workers or QueuedWorkers(), limits=limits)


def bind(hall: Hall, invite: str) -> str:
    """Use an invite as a client's first join does: bound to a new secret of the
    client's, which opens the seat from then on (returned)."""
    secret = new_secret()
    hall.bind(invite, secret)
    return secret


def keys(hall: Hall, invites: dict[int, str]) -> dict[int, str]:
    """Every invite bound (``bind``): seat -> the secret that opens it."""
    return {seat: bind(hall, invite) for seat, invite in invites.items()}


def play_out(links: dict[int, SeatLink], moves: int | None = None, last: bool = True) -> int:
    """Answer each prompt from the seat whose turn it is (its last choice, or its
    first), through its link; return how many moves were made."""
    made = 0
    table = next(iter(links.values())).table
    while moves is None or made < moves:
        prompt = table.engine.prompt
        if prompt is None or prompt.seat not in links:
            break
        choice = prompt.choices[-1 if last else 0]
        assert links[prompt.seat].send(Move(len(table.engine.log), choice.action))
        made += 1
    return made


class ServerThread:
    """``server.run`` on a loop of its own thread: the tests talk to it as clients."""

    def __init__(self, server: Server, port: int = 0) -> None:
        self.server = server
        self.port = port
        self.url = ""
        self._ready = threading.Event()
        self._loop = asyncio.new_event_loop()
        self._stop: asyncio.Future[None] | None = None
        self._thread = threading.Thread(target=self._main, daemon=True)

    def _main(self) -> None:
        asyncio.set_event_loop(self._loop)
        self._stop = self._loop.create_future()

        def ready(url: str) -> None:
            self.url = url
            self._ready.set()

        try:
            self._loop.run_until_complete(
                run(self.server, "127.0.0.1", self.port, ready=ready, stop=self._stop)
            )
        finally:
            # Closed here, not left to the garbage collector: a loop finalised later,
            # inside another test, failed in __del__ and, on CPython 3.11.7, upset the
            # ast module's recursion check of whatever that test was parsing.
            self._loop.close()

    def __enter__(self) -> ServerThread:
        assert not isinstance(self.server.workers, QueuedWorkers), (
            "a served hall needs workers that run by themselves (ThreadWorkers)"
        )
        self._thread.start()
        assert self._ready.wait(10), "the server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        stop = self._stop
        assert stop is not None
        self._loop.call_soon_threadsafe(stop.set_result, None)
        self._thread.join(10)


class SilentProxy:
    """A TCP relay in front of a server, on the running asyncio loop, that can go
    silent: ``freeze`` keeps every connection open and drops what either side sends (a
    server that stopped answering without closing anything, a lost network) and lets
    new connections hang the same way; ``thaw`` closes the frozen connections and
    relays again, as a server that came back."""

    def __init__(self, target: str) -> None:
        self.target_port = int(target.rsplit(":", 1)[1])
        self.frozen = False
        self.url = ""
        self._server: asyncio.Server | None = None
        self._writers: set[asyncio.StreamWriter] = set()

    async def __aenter__(self) -> SilentProxy:
        self._server = await asyncio.start_server(self._relay, "127.0.0.1", 0)
        port = self._server.sockets[0].getsockname()[1]
        self.url = f"ws://127.0.0.1:{port}"
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        self._drop()
        await self._server.wait_closed()

    def freeze(self) -> None:
        self.frozen = True

    def thaw(self) -> None:
        self._drop()
        self.frozen = False

    def _drop(self) -> None:
        for writer in list(self._writers):
            writer.transport.abort()
        self._writers.clear()

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self._writers.add(writer)
        if self.frozen:  # accepted, and never answered
            return
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        self._writers.add(up_writer)

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            try:
                while data := await source.read(65536):
                    if not self.frozen:
                        sink.write(data)
            except (ConnectionError, OSError):
                pass
            finally:
                sink.transport.abort()

        await asyncio.gather(pump(reader, up_writer), pump(up_reader, writer))


def tabletop(*argv: str) -> list[str]:
    """The command line of a ``tabletop`` process on this interpreter."""
    return [sys.executable, "-m", "tabletop", *argv]


def process_env(tmp_path: Path, plugins: str) -> dict[str, str]:
    """The environment of a ``tabletop`` process a test starts: its saves and log under
    ``tmp_path``, only ``plugins`` loaded, nothing logged to the console."""
    env = dict(os.environ)
    env.update(
        TABLETOP_SAVE_DIR=str(tmp_path / "saves"),
        TABLETOP_LOG_FILE=str(tmp_path / "log.jsonl"),
        TABLETOP_LOAD_PLUGINS=plugins,
    )
    env.pop("TABLETOP_LOG_CONSOLE", None)
    return env
