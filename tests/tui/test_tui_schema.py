"""The generic game screen with Pilot: the view schema drawn section by section, choices
explained before they are made, the log naming the seat an event concerns, and the board
widget hook that now belongs to the UI adapter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from tui_support import FrozenStore, make_app, make_registry, press, run, screen_text, start_game

from tabletop.adapters.tui import hookspecs as tui_hookspecs
from tabletop.adapters.tui.hookspecs import board_widget_class
from tabletop.adapters.tui.screens.game import GameScreen
from tabletop.adapters.tui.widgets import ChoiceList, GameLog, ViewPanel
from tabletop.framework import (
    Action,
    Choice,
    Context,
    GameDefinition,
    GameInfo,
    Prompt,
    Result,
    State,
    hookimpl,
    views,
)
from tabletop.framework import hookspecs as core_hookspecs
from tabletop.framework.plugins import GameRegistry, load_registry
from tabletop.games import pig

SIZE = (100, 30)
EVENT_DETAIL = "Thiers: place 2 cubes in Versailles and gain 1 momentum."
EVENT_CONSEQUENCE = "breaches your Final Crisis zone: -1 Political VP"


class Explained(GameDefinition):
    """Every schema key in its view, and choices that carry detail and consequence."""

    info = GameInfo(id="explained", title="Explained", min_players=2, max_players=2)

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Commune", "Versailles")

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        return {"plays": 0}

    def prompt(self, state: State) -> Prompt | None:
        if state["plays"] >= 4:
            return None
        return Prompt(
            state["plays"] % 2,
            "Play Thiers",
            (
                Choice("event", "Play Thiers as an event", EVENT_DETAIL, EVENT_CONSEQUENCE),
                Choice("ops", "Play Thiers for 3 operations", "Place or move up to 3 cubes."),
                Choice("pass", "Pass"),
            ),
            rule="§6",
        )

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["plays"] += 1
        ctx.emit("play", f"plays {action}")
        if action == "ops":
            ctx.emit("loss", "loses a cube", about=1 - seat)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "status": f"Round 1, play {state['plays'] + 1}",
            "seats": views.seats(
                ["Commune", "Versailles"], [{"VP": 3, "Hand": 4}, {"VP": "?", "Hand": 5}]
            ),
            "you": {"Objective": "Hold Montmartre"} if seat is not None else {},
            "tracks": [views.track("Final Crisis", 3, 0, 8)],
            "zones": [views.zone("Montmartre", counts={"Commune": 2, "Versailles": 1})],
            "cards": [views.card("Thiers", "Place 2 cubes in Versailles.", where="hand")],
            "deck": 17,
        }

    def result(self, state: State) -> Result | None:
        return Result((0,), (3.0, 1.0), "Commune held.") if state["plays"] >= 4 else None


class NotAWidget:
    """A board class a plugin got wrong: it builds and updates, but is no Textual widget."""

    def __init__(self, *, view: dict[str, Any]) -> None:
        self.view = view

    def update_view(self, view: dict[str, Any]) -> None:
        self.view = view


class ExplainedPlugin:
    def __init__(self, board: Any = None) -> None:
        self.board = board

    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(Explained())

    @hookimpl
    def tabletop_board_widget(self, game_id: str) -> Any:
        return self.board if game_id == "explained" else None


def registry(board: Any = None) -> GameRegistry:
    return load_registry(
        plugins=[("pig", pig), ("explained", ExplainedPlugin(board))], use_entry_points=False
    )


def game_screen(app: Any) -> GameScreen:
    screen = app.screen
    assert isinstance(screen, GameScreen), screen
    return screen


def test_the_generic_screen_draws_every_schema_section() -> None:
    async def main() -> None:
        app = make_app(registry(), FrozenStore())
        async with app.run_test(size=(100, 40)) as pilot:
            await start_game(pilot, "explained", seats=("human", "random"))
            text = screen_text(app)
            assert "Round 1, play 1" in text
            assert "Commune (you)" in text and "Versailles" in text
            assert "VP" in text and "Hand" in text  # table columns from the fields
            assert "─ You ─" in text and "Objective: Hold Montmartre" in text
            assert "Final Crisis ███░░░░░ 3 (0 to 8)" in text
            assert "Montmartre: Commune 2, Versailles 1" in text
            assert "Thiers (hand)" in text  # listed under the board, its text on demand
            assert "Place 2 cubes in Versailles." not in text
            await pilot.press("c")  # to the cards: the highlighted one's text is shown
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen)
            pane = screen.query_one("#choices", ChoiceList).explanation
            assert pane.detail_text == "Thiers (hand)\nPlace 2 cubes in Versailles."
            assert "Place 2 cubes in Versailles." in screen_text(app)
            await pilot.press("c")  # back to the choices: the choice is explained again
            await pilot.pause()
            assert pane.detail_text == EVENT_DETAIL
            assert "More" in text and "Deck: 17" in text

    run(main)


def test_pig_reads_as_a_status_line_and_a_seat_table() -> None:
    async def main() -> None:
        app = make_app(registry(), FrozenStore())
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot, "pig", seats=("human", "random"), options={"banks": "secret"})
            text = screen_text(app)
            assert "Turn 1: Player 1 to roll. First to 50 wins." in text
            assert "Player 1 (you)" in text and "Bank" in text
            row = next(line for line in text.splitlines() if "Player 2 " in line)
            assert "?" in row  # a secret bank is not shown, and not as a guess

    run(main)


def test_the_highlighted_choice_is_explained_before_it_is_made() -> None:
    async def main() -> None:
        app = make_app(registry(), FrozenStore())
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot, "explained", seats=("human", "human"))
            screen = game_screen(app)
            choices = screen.query_one("#choices", ChoiceList)
            pane = choices.explanation
            assert pane.display and pane.detail_text == EVENT_DETAIL
            assert pane.consequence_text == f"⚠ {EVENT_CONSEQUENCE}"
            text = screen_text(app)
            assert "1 Play Thiers as an event" in text
            assert "⚠ breaches your Final Crisis zone" in text  # listed, not only highlighted
            await press(pilot, "down")
            assert pane.detail_text == "Place or move up to 3 cubes."
            assert pane.consequence_text == ""
            await press(pilot, "down")
            assert pane.detail_text == "Pass: nothing more to know."
            assert screen.engine.log == []  # moving the highlight commits nothing
            # The number keys still mean the positions they had: 2 is the operations.
            await press(pilot, "2")
            assert [entry.action for entry in screen.engine.log] == ["ops"]

    run(main)


def test_pointing_at_a_choice_explains_it_before_a_click_commits_it() -> None:
    async def main() -> None:
        app = make_app(registry(), FrozenStore())
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot, "explained", seats=("human", "human"))
            choices = game_screen(app).query_one("#choices", ChoiceList)
            await pilot.hover("#choices", offset=(4, 3))  # 3 lines: choice 1, its warning
            await pilot.pause()
            assert choices.explanation.detail_text == "Place or move up to 3 cubes."
            assert choices.highlighted == 0  # pointing moves no highlight
            await pilot.hover("#prompt-text")
            await pilot.pause()
            assert choices.explanation.detail_text == EVENT_DETAIL

    run(main)


def test_a_prompt_without_details_keeps_the_panel_compact() -> None:
    async def main() -> None:
        app = make_app(registry(), FrozenStore())
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot, "pig", seats=("human", "human"))
            choices = game_screen(app).query_one("#choices", ChoiceList)
            assert not choices.explanation.display

    run(main)


def test_the_log_names_the_seat_an_event_concerns() -> None:
    async def main() -> None:
        app = make_app(registry(), FrozenStore())
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot, "explained", seats=("human", "human"))
            screen = game_screen(app)
            await press(pilot, "2")
            entries = screen.query_one("#log", GameLog).entries()
            assert [(entry.number, entry.plain) for entry in entries[-3:]] == [
                (1, "Commune chose: Play Thiers for 3 operations"),
                (None, "Commune: plays ops"),
                (None, "Versailles: loses a cube"),  # about, not actor
            ]

    run(main)


def test_the_board_widget_hook_belongs_to_the_ui_not_the_core() -> None:
    assert not hasattr(core_hookspecs, "tabletop_board_widget")
    assert hasattr(tui_hookspecs, "tabletop_board_widget")
    tui_registry = make_registry()
    board = board_widget_class(tui_registry, "faulty")
    assert board is not None and board.__name__ == "CounterBoard"
    assert board_widget_class(tui_registry, "pig") is None  # asking twice is fine
    plain = load_registry(plugins=[("pig", pig)], use_entry_points=False)
    assert board_widget_class(plain, "pig") is None  # no plugin implements it
    assert board_widget_class(GameRegistry(), "pig") is None  # no plugin manager


def test_a_board_class_that_is_no_widget_falls_back_to_the_generic_screen() -> None:
    async def main() -> None:
        app = make_app(registry(board=NotAWidget), FrozenStore())
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot, "explained", seats=("human", "human"))
            board = game_screen(app).query_one("#board", ViewPanel)
            assert board.board_error is not None and "not a Textual widget" in board.board_error
            assert "Round 1, play 1" in screen_text(app)

    run(main)


@pytest.mark.parametrize("size", [pytest.param((100, 30), id="100x30")])
def test_explained_choice_snapshot(snap_compare: Any, size: tuple[int, int]) -> None:
    """The schema's sections and an explained choice with its consequence, for the docs."""

    async def play(pilot: Any) -> None:
        await start_game(pilot, "explained", seats=("human", "human"))
        await pilot.pause()

    assert snap_compare(make_app(registry(), FrozenStore()), terminal_size=size, run_before=play)
