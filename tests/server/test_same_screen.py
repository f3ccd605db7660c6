"""The same seat at the same position renders the same screen, locally and remotely
(issue 35): a seat's screen is drawn from its messages only, and a server sends the
same messages a local table does. For each historical game, at 80x24 and 120x40, the
position is opened once as a local game (``tabletop play``) and once as a server game
joined over a websocket (``tabletop join``); the two terminals, colours included, are
the same, and the remote one is kept as a snapshot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from serverhelp import ServerThread, make_hall
from test_tui_game_screens import POSITIONS, REGISTRY, session_at
from textual.pilot import Pilot
from tui_support import make_app, screen_text, wait_until

from tabletop.adapters.server.client import RemoteConnection
from tabletop.adapters.server.server import Server
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.workers import ThreadWorkers

#: One position a person decides at, in each historical game.
GAMES = ["cme-campaign", "lrf-main", "rfop-main"]
SIZES = [pytest.param((80, 24), id="80x24"), pytest.param((120, 40), id="120x40")]
TOKEN = "a-seat-token-for-the-test"


async def settled(pilot: Pilot[None]) -> None:
    """Until the seat's decision is on screen, whole, and laid out."""

    def ready() -> bool:
        screen = pilot.app.screen
        return isinstance(screen, SeatScreen) and screen._my_prompt() is not None

    await wait_until(pilot, ready, 20)
    for _ in range(3):
        await pilot.pause()
    await pilot.wait_for_scheduled_animations()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[ServerThread, Any]]:
    workers = ThreadWorkers()
    hall = make_hall(tmp_path / "server.sqlite3", REGISTRY, workers=workers)
    with ServerThread(Server(hall)) as served:
        yield served, hall
    workers.stop()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("game", GAMES)
def test_a_seat_looks_the_same_locally_and_remotely(
    game: str, size: tuple[int, int], server: tuple[ServerThread, Any], snap_compare: Any
) -> None:
    served, hall = server
    table, actions, _ = POSITIONS[game]()
    local = session_at(table, actions)
    seat = local.humans()[0]
    # the server holds the very same game: its record, the seat's token
    record = local.engine.record(seats=list(local.controllers))
    hall.store.create("the-game", record, {TOKEN: seat, "host-token": None})

    seen: dict[str, str] = {}

    async def remote_play(pilot: Pilot[None]) -> None:
        await settled(pilot)
        seen["remote"] = screen_text(pilot.app, styles=True)

    async def take_local() -> None:
        app = make_app(REGISTRY, bot_delay=0.4)
        async with app.run_test(size=size) as pilot:
            app.open_game(session_at(table, actions))
            await settled(pilot)
            seen["local"] = screen_text(app, styles=True)

    asyncio.run(take_local())
    remote = make_app(
        REGISTRY, bot_delay=0.4, first=SeatScreen([RemoteConnection(served.url, token=TOKEN)])
    )
    assert snap_compare(remote, terminal_size=size, run_before=remote_play)
    assert "Decision" in seen["local"] and "view" in seen["local"]
    assert seen["remote"] == seen["local"]
