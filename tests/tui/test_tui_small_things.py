"""Small things a new player met (issue 25, the 2026-12-01 finding): the table back at
its top after a zoom, the save list's Progress column whole at 120 columns, and the
first copy's name in an empty save folder."""

from __future__ import annotations

from typing import Any

from textual.widgets import Input
from tui_support import FrozenStore, app_on, current, game_on, game_screen, pilot_test, press
from tui_support import screen_text as text_of

from tabletop.adapters.tui.screens.save_as import SaveAsScreen
from tabletop.adapters.tui.widgets import ViewPanel
from tabletop.framework.plugins import load_registry


@pilot_test
async def test_after_a_zoom_the_table_is_back_at_its_top() -> None:
    """Red Flag at 80x24: the map is below the window; read to its end zoomed, then
    back (by z, then by Escape), the table shows its top again."""
    opened = game_on(
        "red-flag-over-paris",
        registry=load_registry(),
        size=(80, 24),
        seats=("human", "random"),
    )
    async with opened as (app, pilot):
        game = game_screen(app)
        board = game.query_one("#board", ViewPanel)
        for back in ("z", "escape"):
            await press(pilot, "z")
            assert game.maximized is board
            board.scroll_end(animate=False, immediate=True)
            await pilot.pause()
            assert board.scroll_y > 0
            await press(pilot, back)
            assert game.maximized is None and current(app) is game
            assert board.scroll_y == 0, back
            board.scroll_end(animate=False, immediate=True)  # scrolled in place...
            await pilot.pause()
            assert board.max_scroll_y > 0 and board.scroll_y > 0  # ... it stays put


@pilot_test
async def test_the_first_copy_in_an_empty_folder_is_copy_1_then_copy_2() -> None:
    async with game_on("pig", seats=("human", "human"), store=FrozenStore()) as (app, pilot):
        await press(pilot, "1", "1", "1")  # a few actions: the number is not theirs
        for number in (1, 2):
            await press(pilot, "s")
            dialog = current(app)
            assert isinstance(dialog, SaveAsScreen)
            assert dialog.query_one("#save-name", Input).value == f"pig-copy-{number}"
            await press(pilot, "enter")
            assert f"pig-copy-{number}" in app.store.records  # type: ignore[attr-defined]


def long_named_store() -> FrozenStore:
    store = FrozenStore()
    game = "charlemagne-master-of-europe"
    for tag in ("ab12", "cd34"):
        name = f"{game}-20261201-143000-{tag}"
        store.keep(name, game, ["human"], [(0, "a")] * 3, "Turn 1, campaign phase")
    name, game = "red-flag-over-paris-20261201-150000-ef56", "red-flag-over-paris"
    store.keep(name, game, ["procedure", "human"], [(0, "a")] * 3, "Round 2, Commune to play")
    return store


@pilot_test
async def test_the_save_lists_progress_shows_whole_at_120_columns() -> None:
    registry: Any = load_registry()
    async with app_on(size=(120, 40), registry=registry, store=long_named_store()) as (
        app,
        pilot,
    ):
        await pilot.pause()
        shown = text_of(app)
        assert "Turn 1, campaign phase" in shown
        assert "Round 2, Commune to play" in shown
        assert "procedure, human" in shown
        # two saves of the same game still read apart: their tags are kept
        assert "ab12" in shown and "cd34" in shown
