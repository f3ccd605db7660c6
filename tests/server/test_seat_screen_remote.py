"""A server seat on the seat screen every front end shares (issue 35): ``tabletop join
URL TOKEN`` and ``tabletop web --join`` open the same ``SeatScreen`` as ``tabletop
play``, over a ``RemoteConnection``. Driven by Pilot against a real server on a thread.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pluggy
from serverhelp import ServerThread, make_hall, small_registry
from textual.widgets import Static
from toygames import Recaps
from tui_support import game_screen as seat_screen
from tui_support import make_app, my_turn, pilot_test, screen_text, wait_until

from tabletop.adapters.server.client import RemoteConnection, request
from tabletop.adapters.server.server import Server
from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.hint import HintScreen
from tabletop.adapters.tui.screens.rules import RulesScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.screens.summary import SummaryScreen
from tabletop.adapters.tui.widgets import ChoiceList, GameLog, ViewPanel
from tabletop.adapters.workers import ThreadWorkers
from tabletop.framework.hookspecs import PROJECT, hookimpl
from tabletop.framework.plugins import GameRegistry, InstalledGame


def seat_app(url: str, token: str, registry: GameRegistry | None = None) -> TabletopApp:
    """``tabletop join``'s app: the seat screen on the seat's line to the server."""
    screen = SeatScreen([RemoteConnection(url, token=token)])
    return make_app(registry or small_registry(), first=screen)


async def host(url: str, game: str, seats: list[str], **more: Any) -> dict[str, Any]:
    return await request(url, {"type": "host", "game": game, "seats": seats, **more})


@pilot_test
async def test_a_person_plays_a_server_seat_on_the_seat_screen_to_its_end(
    served: ServerThread,
) -> None:
    hosted = await host(served.url, "liars-dice", ["human", "random"])
    app = seat_app(served.url, hosted["invites"]["0"])
    bells = 0

    def bell() -> None:
        nonlocal bells
        bells += 1

    app.bell = bell  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(200):  # until the game is over: always the first choice
            await wait_until(
                pilot, lambda: my_turn(app) or isinstance(app.screen, GameOverScreen), 10
            )
            if isinstance(app.screen, GameOverScreen):
                break
            screen = seat_screen(app)
            choices = screen.query_one("#choices", ChoiceList)
            assert choices.prompt is not None and choices.prompt.rule == "§2"
            text = screen_text(app)
            assert "Rule §2 (r: the rules)" in text
            lines = "\n".join(screen.query_one("#log", GameLog).text_lines())
            assert "Player 2: secret roll" not in lines  # the other seat's dice: never
            await pilot.press(choices.keys[0] or "1")
            await wait_until(pilot, lambda: not my_turn(app) or seat_screen(app)._sent is None)
        over = app.screen
        assert isinstance(over, GameOverScreen)
        assert bells >= 1  # the bell rang on the seat's turn
        await pilot.press("l")  # the log's tab
        await pilot.pause()
        log = "\n".join(over.query_one("#final-log", GameLog).text_lines())
        assert "Player 1: secret roll: " in log
        await pilot.press("enter")  # the end dismissed: join's app ends
    assert app.ending.startswith("Game over after ")


@pilot_test
async def test_leaving_the_screen_leaves_the_game_waiting(served: ServerThread) -> None:
    hosted = await host(served.url, "liars-dice", ["human", "human"])
    app = seat_app(served.url, hosted["invites"]["1"])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "Waiting for Player 1" in screen_text(app))
        screen = seat_screen(app)
        assert screen.sub_title == "Player 2's view"
        assert screen.query_one("#choices", ChoiceList).prompt is None
        await pilot.press("1")  # not its decision: nothing is sent
        await pilot.pause()
        assert screen._sent is None
        await pilot.press("escape")
    assert app.ending == "You left the table; the game waits. Join again with the same token."


@pilot_test
async def test_an_unknown_token_is_said_on_the_screen(served: ServerThread) -> None:
    app = seat_app(served.url, "not-a-token")
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: "unknown token" in screen_text(app))
        await pilot.press("escape")
    assert app.ending.startswith("tabletop: error: unknown token, or an invite already used")


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
    hosted = await host(served.url, "liars-dice", ["human", "human"])
    app = seat_app(served.url, hosted["invites"]["0"], registry)
    async with app.run_test() as pilot:
        await wait_until(pilot, lambda: bool(app.query(CupsBoard)))
        board = app.query_one(CupsBoard)
        assert app.query_one("#board", ViewPanel).board_error is None
        assert str(board.render()).startswith("Cups board: [2, 2] dice, your dice [")


@pilot_test
async def test_r_opens_the_rules_and_question_mark_the_servers_hint(served: ServerThread) -> None:
    hosted = await host(served.url, "liars-dice", ["human", "random"])
    app = seat_app(served.url, hosted["invites"]["0"])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, RulesScreen))
        rules = app.screen
        assert isinstance(rules, RulesScreen) and rules.rules_title == "Liar's Dice"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, SeatScreen))
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HintScreen), 30)
        await pilot.pause()
        text = str(app.screen.query_one("#hint-text", Static).render())
        assert text.startswith("Suggested: ")
        await pilot.press("escape")
        await pilot.pause()
        choices = seat_screen(app).query_one("#choices", ChoiceList)
        assert choices.prompt is not None and choices.highlighted is not None
        suggested = choices.prompt.choices[choices.highlighted].label
        assert text.splitlines()[0] == f"Suggested: {suggested}"


@pilot_test
async def test_a_recap_the_seat_may_read_pauses_its_screen_until_dismissed(
    tmp_path: Path,
) -> None:
    registry = small_registry()
    registry.games["recaps"] = InstalledGame(Recaps(), "tests", "tests", "1")
    workers = ThreadWorkers()
    hall = make_hall(tmp_path / "server.sqlite3", registry, workers=workers)
    with ServerThread(Server(hall)) as served:
        hosted = await host(served.url, "recaps", ["random", "human"], options={"secret": "yes"})
        app = seat_app(served.url, hosted["invites"]["1"], registry)
        recaps: list[str] = []
        async with app.run_test() as pilot:
            for _ in range(400):
                await pilot.pause(0.02)
                screen = app.screen
                if isinstance(screen, SummaryScreen):
                    recaps.append(screen.text)
                    await pilot.press("n" if len(recaps) == 2 else "enter")
                    continue
                if isinstance(screen, GameOverScreen):
                    break
                if my_turn(app):
                    await pilot.press("1")
            assert isinstance(app.screen, GameOverScreen)
    workers.stop()
    # East reads each round's recap, never West's private note; after n, no more pauses.
    assert recaps[0].startswith("Round 1 ends") and len(recaps) == 2
    assert not any("West's note" in text or "West holds" in text for text in recaps)


@pilot_test
async def test_a_spectator_watches_a_server_game_from_its_public_view(
    served: ServerThread,
) -> None:
    hosted = await host(served.url, "liars-dice", ["human", "random"])
    screen = SeatScreen([], spectator=RemoteConnection(served.url, watch_game=hosted["game"]))
    app = make_app(small_registry(), first=screen)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: "spectator view" in screen_text(app))
        assert screen.viewer.seat is None and screen._my_prompt() is None
        assert "secret roll:" not in "\n".join(screen.query_one("#log", GameLog).text_lines())
        await pilot.press("escape")
    assert app.ending == ""  # a spectator leaves nothing waiting for it


@pilot_test
async def test_join_s_app_comes_from_the_container_and_remembers_the_seat(
    served: ServerThread, container: Any
) -> None:
    """``tabletop join`` asks the composition root for its app (``seat_app``): the seat
    screen on a line to the server, the seat kept in the home screen's list once the
    table welcomes it."""
    hosted = await host(served.url, "liars-dice", ["human", "random"])
    container.registry.override(small_registry())
    app = container.seat_app(url=served.url, token=hosted["invites"]["0"])
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_until(pilot, lambda: my_turn(app))
        assert isinstance(app.screen, SeatScreen) and app.screen is app.first
        # remembered with the secret the invite was bound to (the invite opens nothing)
        seats = container.server_games().seats()
        assert len(seats) == 1 and seats[0].token != hosted["invites"]["0"]
        await pilot.press("escape")
    assert app.ending.startswith("You left the table")
