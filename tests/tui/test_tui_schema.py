"""The generic game screen with Pilot: the view schema drawn section by section, choices
explained before they are made, the log naming the seat an event concerns, and the board
widget hook that now belongs to the UI adapter."""

from __future__ import annotations

from contextlib import AbstractAsyncContextManager
from typing import Any

import pytest
from toygames import EVENT_CONSEQUENCE, EVENT_DETAIL, Explained
from tui_support import (
    after_keys,
    engine_of,
    game_on,
    game_screen,
    make_registry,
    pilot_test,
    press,
    screen_text,
    snapshot_of,
)

from tabletop.adapters.tui import hookspecs as tui_hookspecs
from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.hookspecs import board_widget_class
from tabletop.adapters.tui.widgets import ChoiceList, GameLog, ViewPanel
from tabletop.framework import hookimpl
from tabletop.framework import hookspecs as core_hookspecs
from tabletop.framework.plugins import GameRegistry, load_registry
from tabletop.games import pig

HOT_SEAT = ("human", "human")
HUMAN_V_BOT = ("human", "random")


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


def explained_game(board: Any = None) -> AbstractAsyncContextManager[tuple[TabletopApp, Any]]:
    """Explained, hot-seat (an open game: no hand-off), on a registry with ``board``."""
    return game_on("explained", registry=registry(board), seats=HOT_SEAT)


@pilot_test
async def test_the_generic_screen_draws_every_schema_section() -> None:
    opened = game_on("explained", registry=registry(), seats=HUMAN_V_BOT, size=(100, 40))
    async with opened as (app, pilot):
        text = screen_text(app)
        assert "Round 1, play 1" in text
        assert "Commune (you)" in text and "Versailles" in text
        assert "VP" in text and "Hand" in text  # table columns from the fields
        assert "─ You ─" in text and "Objective: Hold Montmartre" in text
        assert "Final Crisis ███░░░░░ 3 (0 to 8)" in text
        assert "Montmartre: Commune 2, Versailles 1" in text
        assert "Thiers (hand)" in text  # listed under the board, its text on demand
        assert "Place 2 cubes in Versailles." not in text
        await press(pilot, "c")  # to the cards: the highlighted one's text is shown
        screen = game_screen(app)
        pane = screen.query_one("#choices", ChoiceList).explanation
        assert pane.detail_text == "Thiers (hand)\nPlace 2 cubes in Versailles."
        assert "Place 2 cubes in Versailles." in screen_text(app)
        await press(pilot, "c")  # back to the choices: the choice is explained again
        assert pane.detail_text == EVENT_DETAIL
        assert "More" in text and "Deck: 17" in text


@pilot_test
async def test_pig_reads_as_a_status_line_and_a_seat_table() -> None:
    secret = {"banks": "secret"}
    opened = game_on("pig", registry=registry(), seats=HUMAN_V_BOT, options=secret)
    async with opened as (app, _pilot):
        text = screen_text(app)
        assert "Turn 1: Player 1 to roll. First to 50 wins." in text
        assert "Player 1 (you)" in text and "Bank" in text
        row = next(line for line in text.splitlines() if "Player 2 " in line)
        assert "?" in row  # a secret bank is not shown, and not as a guess


@pilot_test
async def test_the_highlighted_choice_is_explained_before_it_is_made() -> None:
    async with explained_game() as (app, pilot):
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
        assert engine_of(screen).log == []  # moving the highlight commits nothing
        # The number keys still mean the positions they had: 2 is the operations.
        await press(pilot, "2")
        assert [entry.action for entry in engine_of(screen).log] == ["ops"]


@pilot_test
async def test_pointing_at_a_choice_explains_it_before_a_click_commits_it() -> None:
    async with explained_game() as (app, pilot):
        choices = game_screen(app).query_one("#choices", ChoiceList)
        await pilot.hover("#choices", offset=(4, 3))  # 3 lines: choice 1, its warning
        await pilot.pause()
        assert choices.explanation.detail_text == "Place or move up to 3 cubes."
        assert choices.highlighted == 0  # pointing moves no highlight
        await pilot.hover("#prompt-text")
        await pilot.pause()
        assert choices.explanation.detail_text == EVENT_DETAIL


@pilot_test
async def test_a_prompt_without_details_keeps_the_panel_compact() -> None:
    async with game_on("pig", registry=registry(), seats=HOT_SEAT) as (app, _pilot):
        assert not game_screen(app).query_one("#choices", ChoiceList).explanation.display


@pilot_test
async def test_the_log_names_the_seat_an_event_concerns() -> None:
    async with explained_game() as (app, pilot):
        await press(pilot, "2")
        entries = game_screen(app).query_one("#log", GameLog).entries()
        assert [(entry.number, entry.plain) for entry in entries[-3:]] == [
            (1, "Commune chose: Play Thiers for 3 operations"),
            (None, "Commune: plays ops"),
            (None, "Versailles: loses a cube"),  # about, not actor
        ]


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


@pilot_test
async def test_a_board_class_that_is_no_widget_falls_back_to_the_generic_screen() -> None:
    async with explained_game(board=NotAWidget) as (app, _pilot):
        board = game_screen(app).query_one("#board", ViewPanel)
        assert board.board_error is not None and "not a Textual widget" in board.board_error
        assert "Round 1, play 1" in screen_text(app)


@pytest.mark.parametrize("size", [pytest.param((100, 30), id="100x30")])
def test_explained_choice_snapshot(snap_compare: Any, size: tuple[int, int]) -> None:
    """The schema's sections and an explained choice with its consequence, for the docs."""

    play = after_keys("explained", seats=HOT_SEAT)
    assert snapshot_of(snap_compare, size, play, registry=registry())
