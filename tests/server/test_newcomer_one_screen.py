"""A newcomer on the one seat screen (issue 35), through Pilot: a round of Red Flag Over
Paris hot-seat on one terminal, a decision at a server seat with the hint (?), the
zoomed board (z) and the card list (c), and the same game watched as a spectator."""

from __future__ import annotations

from serverhelp import ServerThread, make_hall
from textual.pilot import Pilot
from tui_support import (
    FrozenStore,
    first_choices,
    make_app,
    pilot_test,
    screen_text,
    start_game,
    wait_until,
)

from tabletop.adapters.server.client import RemoteConnection, request
from tabletop.adapters.server.server import Server
from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.hint import HintScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.screens.summary import SummaryScreen
from tabletop.adapters.tui.widgets import CardList, ChoiceList, ViewPanel
from tabletop.adapters.workers import ThreadWorkers
from tabletop.framework.plugins import load_registry

GAME = "red-flag-over-paris"
REGISTRY = load_registry()


def round_of(screen: SeatScreen) -> int:
    view = screen.viewer.update.view if screen.viewer.update else {}
    return int(view.get("round", 0))


@pilot_test
async def test_a_round_of_red_flag_hot_seat_hands_over_and_hides_each_hand() -> None:
    app = make_app(REGISTRY, FrozenStore())
    async with app.run_test(size=(120, 40)) as pilot:
        await start_game(pilot, GAME, seats=("human", "human"), seed=3)
        handoffs = decisions = 0
        async for shown in first_choices(pilot, limit=400):
            if isinstance(shown, HandoffScreen):
                text = screen_text(app)
                assert "Pass the keyboard" in text and "Your hand" not in text
                handoffs += 1
                continue
            decisions += 1
            if round_of(shown) >= 2:  # the first round is over
                break
        assert handoffs >= 4 and decisions >= 8
        screen = app.screen
        assert isinstance(screen, SeatScreen) and round_of(screen) == 2


async def at_my_decision(pilot: Pilot[None]) -> SeatScreen:
    app = pilot.app

    def ready() -> bool:
        screen = app.screen
        if isinstance(screen, SummaryScreen):
            return True
        return isinstance(screen, SeatScreen) and screen._my_prompt() is not None

    await wait_until(pilot, ready, 30)
    while isinstance(app.screen, SummaryScreen):
        await pilot.press("enter")
        await wait_until(pilot, ready, 30)
    await pilot.pause()
    screen = app.screen
    assert isinstance(screen, SeatScreen)
    return screen


@pilot_test
async def test_a_server_seat_has_the_hint_the_zoom_and_the_cards_and_a_spectator_watches(
    tmp_path: object,
) -> None:
    from pathlib import Path

    workers = ThreadWorkers()
    hall = make_hall(Path(str(tmp_path)) / "server.sqlite3", REGISTRY, workers=workers)
    with ServerThread(Server(hall)) as served:
        hosted = await request(
            served.url, {"type": "host", "game": GAME, "seats": ["human", "random"]}
        )
        token, game_id = hosted["invites"]["0"], hosted["game"]
        app = make_app(REGISTRY, first=SeatScreen([RemoteConnection(served.url, token=token)]))
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await at_my_decision(pilot)
            assert "Versailles's view" in (screen.sub_title or "")
            # ?: the server's search suggests, the suggestion is highlighted, not played
            seq = screen.viewer.state.seq
            await pilot.press("question_mark")
            await wait_until(pilot, lambda: isinstance(app.screen, HintScreen), 60)
            await pilot.press("escape")
            await pilot.pause()
            assert screen.viewer.state.seq == seq
            # z: the board on the whole screen, and back to the menu
            await pilot.press("z")
            await pilot.pause()
            assert screen.maximized is screen.query_one("#board", ViewPanel)
            await pilot.press("z")
            await pilot.pause()
            assert screen.maximized is None and app.focused is not None
            assert app.focused.id == "choices"
            # c: the cards, their text in the details pane, and back
            cards = screen.query_one("#cards", CardList)
            assert cards.cards, "Red Flag's view lists the seat's cards"
            await pilot.press("c")
            await pilot.pause()
            assert cards.has_focus
            details = screen.query_one("#choices", ChoiceList).explanation
            assert details.detail_text  # the highlighted card's text
            await pilot.press("c")
            await pilot.pause()
            assert screen.query_one("#choices", ChoiceList).has_focus
            # the decision itself
            keys = screen.query_one("#choices", ChoiceList).keys
            await pilot.press(keys[0] or "1")
            await wait_until(pilot, lambda: screen.viewer.state.seq > seq, 30)
            await pilot.press("escape")
        assert app.ending.startswith("You left the table")

        watcher = SeatScreen([], spectator=RemoteConnection(served.url, watch_game=game_id))
        watching = make_app(REGISTRY, first=watcher)
        async with watching.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: "spectator view" in screen_text(watching), 20)
            text = screen_text(watching)
            assert "Your hand" not in text and watcher._my_prompt() is None
            assert "(hand)" not in text  # nobody's hand in the card list either
            await pilot.press("escape")
    workers.stop()
