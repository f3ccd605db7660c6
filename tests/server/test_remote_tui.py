"""``tabletop join URL TOKEN`` in its Textual screen, driven by Pilot (issue 24)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pluggy
from rich.text import Text
from serverhelp import ServerThread, make_hall, small_registry
from textual.widgets import RichLog, Static
from toygames import Recaps
from tui_support import pilot_test

from tabletop.adapters.server.client import request
from tabletop.adapters.server.remote_tui import (
    WAITING_HINT,
    YOUR_TURN,
    RemoteSeatApp,
    RemoteSeatScreen,
    SeatLog,
)
from tabletop.adapters.server.server import Server
from tabletop.adapters.tui.screens.rules import RulesScreen
from tabletop.adapters.tui.screens.summary import SummaryScreen
from tabletop.adapters.tui.widgets import ChoiceList, ViewPanel
from tabletop.adapters.workers import ThreadWorkers
from tabletop.framework.hookspecs import PROJECT, hookimpl
from tabletop.framework.plugins import InstalledGame


def status_of(app: RemoteSeatApp) -> str:
    return str(app.query_one("#status", Static).render())


@pilot_test
async def test_a_person_plays_a_seat_in_the_textual_screen(served: ServerThread) -> None:
    hosted = await request(
        served.url, {"type": "host", "game": "liars-dice", "seats": ["human", "random"]}
    )
    app = RemoteSeatApp(RemoteSeatScreen(served.url, hosted["tokens"]["0"], small_registry()))
    bells = 0

    def bell() -> None:
        nonlocal bells
        bells += 1

    app.bell = bell  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(400):  # until the game is over: always the first choice
            await pilot.pause(0.02)
            status = status_of(app)
            if status.startswith("Game over"):
                break
            if status == YOUR_TURN:
                choices = app.query_one("#choices", ChoiceList)
                assert choices.prompt is not None and choices.keys[0] == "1"
                assert str(app.query_one("#prompt", Static).render()).endswith("(§2)")
                await pilot.press("1")
        assert status_of(app).startswith("Game over after ")
        await pilot.pause()
        assert str(app.query_one("#prompt", Static).render()) == ""  # no question left over
        quit_key = app.active_bindings["q"]
        assert quit_key.enabled and quit_key.binding.description == "Close"
        assert bells >= 1  # the bell rang on the seat's turn
        lines = [str(line.text) for line in app.query_one("#log", RichLog).lines]
        text = "\n".join(lines)
        assert "Player 1: secret roll: " in text and "Player 2: secret roll" not in text
        assert "'you': {'dice':" in app.query_one("#board", ViewPanel).plain
        await pilot.press("q")
    assert app.return_value is not None and app.return_value.startswith("Game over")


@pilot_test
async def test_leaving_the_screen_leaves_the_game_waiting(served: ServerThread) -> None:
    hosted = await request(served.url, {"type": "host", "game": "liars-dice", "players": 2})
    app = RemoteSeatApp(RemoteSeatScreen(served.url, hosted["tokens"]["1"], small_registry()))
    async with app.run_test() as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if status_of(app).startswith("Waiting for "):
                break
        assert status_of(app) == f"Waiting for Player 1. {WAITING_HINT}"
        assert app.screen.sub_title == "Liar's Dice, you play Player 2"
        assert app.active_bindings["q"].binding.description == "Leave (the game waits)"
        choices = app.query_one("#choices", ChoiceList)
        assert choices.prompt is None and not choices.display  # no empty box
        log = app.query_one("#log", SeatLog)  # wrapped to its column at 80x24, not cut
        log.add(Text("a long line of the log " * 6))  # as a long event line comes
        await pilot.pause()
        width = log.scrollable_content_region.width
        assert width < 78 and len(log.lines) >= 5
        assert max(line.cell_length for line in log.lines) <= width
        before = len(log.lines)
        await pilot.resize_terminal(120, 30)  # a wider column: the lines wrapped again
        await pilot.pause()
        wider = log.scrollable_content_region.width
        assert wider > width and len(log.lines) < before
        assert max(line.cell_length for line in log.lines) <= wider
        await pilot.press("1")  # not its decision: nothing is sent
        await pilot.press("q")
    assert app.return_value == (
        "You left the table; the game waits. Join again with the same token."
    )


@pilot_test
async def test_an_unknown_token_is_said_on_the_screen(served: ServerThread) -> None:
    app = RemoteSeatApp(RemoteSeatScreen(served.url, "not-a-token", small_registry()))
    async with app.run_test() as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if status_of(app).startswith("tabletop: error"):
                break
        assert status_of(app) == "tabletop: error: unknown token"
        await pilot.press("q")
    assert app.return_value == "tabletop: error: unknown token"


class CupsBoard(Static):
    """A game's own board widget, as a plugin gives one: drawn from the view alone."""

    def __init__(self, *, view: dict[str, Any]) -> None:
        super().__init__(self.words(view), markup=False)

    @staticmethod
    def words(view: dict[str, Any]) -> str:
        return f"Cups board: {view['counts']} dice, your dice {view['you']['dice']}"

    def update_view(self, view: dict[str, Any]) -> None:
        self.update(self.words(view))


class BoardPlugin:
    @hookimpl
    def tabletop_board_widget(self, game_id: str) -> Any:
        return CupsBoard if game_id == "liars-dice" else None


@pilot_test
async def test_the_games_own_board_widget_draws_the_seats_view(served: ServerThread) -> None:
    registry = small_registry()
    registry.manager = pluggy.PluginManager(PROJECT)
    registry.manager.register(BoardPlugin())
    hosted = await request(served.url, {"type": "host", "game": "liars-dice", "players": 2})
    app = RemoteSeatApp(RemoteSeatScreen(served.url, hosted["tokens"]["0"], registry))
    async with app.run_test() as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if app.query(CupsBoard):
                break
        board = app.query_one(CupsBoard)
        panel = app.query_one("#board", ViewPanel)
        assert panel.board_error is None
        assert str(board.render()).startswith("Cups board: [2, 2] dice, your dice [")
        await pilot.press("q")


@pilot_test
async def test_r_opens_the_rules_at_the_cited_section_when_the_game_is_here(
    served: ServerThread,
) -> None:
    hosted = await request(served.url, {"type": "host", "game": "liars-dice", "players": 2})
    app = RemoteSeatApp(RemoteSeatScreen(served.url, hosted["tokens"]["0"], small_registry()))
    async with app.run_test() as pilot:
        for _ in range(200):
            await pilot.pause(0.02)
            if status_of(app) == YOUR_TURN:
                break
        await pilot.press("r")
        await pilot.pause()
        assert isinstance(app.screen, RulesScreen)
        assert app.screen.rules_title == "Liar's Dice"
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, RulesScreen)
        await pilot.press("q")


@pilot_test
async def test_a_recap_the_seat_may_read_pauses_its_screen_until_dismissed(
    tmp_path: Path,
) -> None:
    registry = small_registry()
    registry.games["recaps"] = InstalledGame(Recaps(), "tests", "tests", "1")
    hall = make_hall(tmp_path / "server.sqlite3", registry, workers=ThreadWorkers())
    with ServerThread(Server(hall)) as served:
        hosted = await request(
            served.url,
            {
                "type": "host",
                "game": "recaps",
                "seats": ["random", "human"],
                "options": {"secret": "yes"},
            },
        )
        app = RemoteSeatApp(RemoteSeatScreen(served.url, hosted["tokens"]["1"], registry))
        recaps: list[str] = []
        async with app.run_test() as pilot:
            for _ in range(400):
                await pilot.pause(0.02)
                if isinstance(app.screen, SummaryScreen):
                    recaps.append(app.screen.text)
                    await pilot.press("n" if len(recaps) == 2 else "enter")
                    continue
                status = status_of(app)
                if status.startswith("Game over"):
                    break
                if status == YOUR_TURN:
                    await pilot.press("1")
            assert status_of(app).startswith("Game over")
            await pilot.press("q")
    # East reads each round's recap, never West's private note; after n, no more pauses.
    assert recaps[0].startswith("Round 1 ends") and len(recaps) == 2
    assert not any("West's note" in text or "West holds" in text for text in recaps)
