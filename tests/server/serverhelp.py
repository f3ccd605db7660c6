"""Helpers of the server tests: a hall of small games and a server on a thread."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

from liars import LiarsDice

from tabletop.adapters.server.hall import Hall
from tabletop.adapters.server.server import Server, run
from tabletop.adapters.server.store import SqliteGameStore
from tabletop.framework import chance
from tabletop.framework.bots import RandomBot
from tabletop.framework.plugins import GameRegistry, InstalledGame


def small_registry() -> GameRegistry:
    """Liar's dice (hidden dice, reveals) and the random bot: a registry made here, so
    the tests do not wait for every installed plugin to load."""
    return GameRegistry(
        games={"liars-dice": InstalledGame(LiarsDice(), "tests", "tests", "1")},
        bots={"random": (lambda game: RandomBot(), "")},
    )


def make_hall(path: Path, registry: GameRegistry | None = None) -> Hall:
    return Hall(
        SqliteGameStore(path),
        registry or small_registry(),
        rng_factory=chance.rng_factory,
        dice_factory=chance.dice_factory,
    )


class ServerThread:
    """``server.run`` on a loop of its own thread: the tests talk to it as clients."""

    def __init__(self, server: Server) -> None:
        self.server = server
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
                run(self.server, "127.0.0.1", 0, ready=ready, stop=self._stop)
            )
        finally:
            # Closed here, not left to the garbage collector: a loop finalised later,
            # inside another test, failed in __del__ and, on CPython 3.11.7, upset the
            # ast module's recursion check of whatever that test was parsing.
            self._loop.close()

    def __enter__(self) -> ServerThread:
        self._thread.start()
        assert self._ready.wait(10), "the server did not start"
        return self

    def __exit__(self, *exc: object) -> None:
        stop = self._stop
        assert stop is not None
        self._loop.call_soon_threadsafe(stop.set_result, None)
        self._thread.join(10)
