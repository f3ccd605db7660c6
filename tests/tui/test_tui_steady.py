"""The game screen keeps its parts' heights while one seat decides several times in a
row (issue 10): each change of a widget's size made Textual lay the whole screen out a
second time, and moved the log up and down between the steps of one turn. Nothing is
hidden by it: a longer menu still grows, and the next turn fits every part again.
(How fast a move is, is measured by ``tabletop bench --ui``, not here.)"""

from __future__ import annotations

from typing import Any

import pytest
from toygames import MENUS, Steps
from tui_support import calls_to, game_on, game_screen, pilot_test, press, screen_text

from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import CardList, ChoiceList, GameLog
from tabletop.framework import hookimpl
from tabletop.framework.plugins import GameRegistry, load_registry


class StepsPlugin:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(Steps())


def registry() -> GameRegistry:
    return load_registry(plugins=[("steps", StepsPlugin())], use_entry_points=False)


def heights(game: SeatScreen) -> dict[str, int]:
    """The outer heights of the parts that follow their content, and of the log."""
    choices = game.query_one("#choices", ChoiceList)
    return {
        "choices": choices.outer_size.height,
        "details": choices.explanation.outer_size.height,
        "panel": game.query_one("#prompt-panel").outer_size.height,
        "log": game.query_one("#log", GameLog).outer_size.height,
    }


def opened() -> Any:
    return game_on("steps", registry=registry(), seats=("human", "human"), size=(100, 40))


@pilot_test
async def test_on_a_small_terminal_held_parts_never_push_the_log_out_of_sight() -> None:
    """80x24: a long explanation held, then a long menu, would be taller together than
    the side column: the parts fit their contents again, and the log stays whole."""
    small = game_on("steps", registry=registry(), seats=("human", "human"), size=(80, 24))
    async with small as (app, pilot):
        game = game_screen(app)
        choices = game.query_one("#choices", ChoiceList)
        column = game.query_one("#side-column")
        log = game.query_one("#log", GameLog)
        for _ in range(len(MENUS)):
            assert log.region.bottom <= column.region.bottom  # its bottom border in sight
            assert heights(game)["log"] >= 5
            assert len(choices.keys) == len(choices.options)  # every choice on its key
            await press(pilot, "1")
        assert game.viewer.seat == 1 and log.region.bottom <= column.region.bottom


@pilot_test
async def test_a_shorter_menu_in_the_same_turn_keeps_every_height_and_blanks_the_details() -> None:
    """The list keeps its lines (blank under the two choices) and the details pane its
    place, blank: the panel and the log stay where they were."""
    async with opened() as (app, pilot):
        game = game_screen(app)
        choices = game.query_one("#choices", ChoiceList)
        pane = choices.explanation
        before = heights(game)
        assert before["choices"] == MENUS[0] and pane.showing
        await press(pilot, "1")  # the same seat: a 2-choice menu with no details
        assert len(choices.options) == 2 and game.viewer.seat == 0
        assert heights(game) == before  # the log did not move, nor the panel
        assert pane.display and not pane.showing  # blank, in its place
        assert pane.detail_text == ""
        assert "nothing more to know" not in screen_text(app)  # nothing of it drawn


@pilot_test
async def test_a_longer_menu_still_grows_then_the_next_turn_fits_again() -> None:
    """Holding never hides a choice: a longer menu grows the list at once."""
    async with opened() as (app, pilot):
        game = game_screen(app)
        choices = game.query_one("#choices", ChoiceList)
        await press(pilot, "1", "1")  # the third step: 7 choices, all in sight
        assert len(choices.options) == MENUS[2]
        assert heights(game)["choices"] == MENUS[2]
        assert choices.explanation.showing
        await press(pilot, "1")  # Versailles' turn: every part fits its content
        assert game.viewer.seat == 1 and len(choices.options) == MENUS[0]
        assert heights(game)["choices"] == MENUS[0]
        await press(pilot, "1")  # ... and held again within that turn
        assert heights(game)["choices"] == MENUS[0]
        await press(pilot, "1")  # the 7 choices again
        assert heights(game)["choices"] == MENUS[2]


@pilot_test
async def test_a_move_in_the_same_turn_lays_the_screen_out_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The point of holding: a move makes one layout of the screen, not two."""
    async with opened() as (app, pilot):
        game = game_screen(app)
        await press(pilot, "1")  # settle into the turn
        layouts = calls_to(monkeypatch, game, "_refresh_layout")
        await press(pilot, "1")  # 2 choices to 7: grows, so laid out twice
        grown = len(layouts)
        await press(pilot, "1")  # Versailles' turn: fitted again
        del layouts[:]
        await press(pilot, "1")  # 5 choices to 2, held
        assert len(layouts) == 1
        assert grown == 2  # the counting does see a second layout when there is one


@pilot_test
async def test_a_resize_lets_every_part_fit_its_content_again() -> None:
    """Held heights belong to one size of the terminal (and may not fit another)."""
    async with opened() as (app, pilot):
        game = game_screen(app)
        choices = game.query_one("#choices", ChoiceList)
        await press(pilot, "1")  # held at 5 lines for 2 choices
        assert heights(game)["choices"] == MENUS[0]
        await pilot.resize_terminal(100, 36)
        await pilot.pause()
        assert heights(game)["choices"] == 2
        assert not choices.explanation.display  # nothing to explain: taken away


@pilot_test
async def test_holding_or_letting_go_of_a_part_does_not_draw_it_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A part's hold changes where things are laid out, never what the part shows:
    the list of cards, the same all game, is not drawn again at any move."""
    async with opened() as (app, pilot):
        game = game_screen(app)
        cards = game.query_one("#cards", CardList)
        assert cards.display and len(cards.options) == 1
        redrawn = calls_to(monkeypatch, cards, "_set_dirty")
        for _ in range(2 * len(MENUS) - 1):  # held, grown, let go at the next turn ...
            await press(pilot, "1")
        assert game.viewer.seat == 1
        assert redrawn == []
        cards.refresh()  # ... and the counting sees a drawing when there is one
        assert len(redrawn) == 1


@pilot_test
async def test_the_logs_scrollbar_is_drawn_up_to_date_once_per_move(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The log's scrollbar follows its length and position at every move, and a move
    that keeps the log's size draws it once: a layout of the screen no longer draws
    it a second time."""
    short = game_on("steps", registry=registry(), seats=("human", "human"), size=(100, 24))
    async with short as (app, pilot):
        game = game_screen(app)
        log = game.query_one("#log", GameLog)
        bar = log.vertical_scrollbar
        drawn = calls_to(monkeypatch, bar, "render_lines")
        for step in range(2 * len(MENUS) - 1):
            held = step % len(MENUS) == 0  # 5 choices to 2: nothing changes size
            before, height = len(drawn), log.size.height
            await press(pilot, "1")
            assert bar.window_virtual_size == len(log.text_lines())
            assert bar.window_size == log.size.height
            assert log.scroll_y == log.max_scroll_y == bar.position  # following the newest
            if held:
                assert log.size.height == height
                assert len(drawn) - before == 1  # drawn once, with the screen
        assert len(log.text_lines()) > log.size.height  # the bar has a thumb to place
        region = bar.size.region
        shown = [strip.text for strip in bar.render_lines(region)]
        bar.refresh()  # drawn afresh: the same
        assert [strip.text for strip in bar.render_lines(region)] == shown
