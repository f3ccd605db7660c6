"""Dialogs that fit (issue 25): the new-game dialog scrolls, so that every field of a
6-seat La Révolution française game (each seat, the bot strength, the seed) is
reachable with Tab and in sight when focused, at 80x24 and 120x40; each seat's open
list says whose seat it is; a solitaire game a person plays asks no bot strength."""

from __future__ import annotations

from typing import Any

import pytest
from textual.widget import Widget
from textual.widgets import Select
from tui_support import app_on, current, pilot_test, press, screen_text

from tabletop.adapters.bots import register_search_bots
from tabletop.adapters.tui.screens.new_game import NewGameForm, NewGameScreen, SeatSelect
from tabletop.framework.plugins import GameRegistry, load_registry

LRF = "la-revolution-francaise"
CHARLEMAGNE = "charlemagne-master-of-europe"


def registry() -> GameRegistry:
    return register_search_bots(load_registry())


async def dialog_for(pilot: Any, game_id: str) -> NewGameScreen:
    await pilot.app.push_screen(NewGameScreen(game_id))
    await pilot.pause()
    await pilot.pause()
    dialog = current(pilot.app)
    assert isinstance(dialog, NewGameScreen)
    return dialog


def in_sight(widget: Widget, form: NewGameForm) -> bool:
    """Whether ``widget`` is drawn whole inside the form's window on screen."""
    region, window = widget.region, form.content_region
    return bool(region.height) and window.contains_region(region)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
@pilot_test
async def test_every_field_of_a_six_seat_game_is_reached_and_seen(size: tuple[int, int]) -> None:
    async with app_on(size=size, registry=registry()) as (app, pilot):
        dialog = await dialog_for(pilot, LRF)
        dialog.query_one("#players", Select).value = 6
        await pilot.pause()
        await pilot.pause()
        form = dialog.query_one(NewGameForm)
        assert form.max_scroll_y > 0  # the form is taller than its window: it scrolls
        wanted = {f"seat-{seat}" for seat in range(6)} | {"strength", "seed"}
        reached: set[str] = set()
        for _ in range(20):
            await press(pilot, "tab")
            focused = app.focused
            assert focused is not None
            if focused.id in wanted:
                assert in_sight(focused, form), (focused.id, focused.region, form.region)
                reached.add(focused.id)
                if focused.id == "seed":
                    assert "Seed" in screen_text(app)
            if reached == wanted:
                break
        assert reached == wanted


@pilot_test
async def test_a_seats_open_list_says_whose_seat_it_is() -> None:
    async with app_on(size=(80, 24), registry=registry()) as (app, pilot):
        dialog = await dialog_for(pilot, LRF)
        names = dialog.seat_names()
        select = dialog.query_one("#seat-2", SeatSelect)
        select.focus()
        await press(pilot, "enter")
        assert select.expanded
        assert f"Who plays {names[2]}?" in screen_text(app)


@pilot_test
async def test_a_solitaire_game_played_by_a_person_asks_no_bot_strength() -> None:
    async with app_on(size=(100, 30), registry=registry()) as (app, pilot):
        dialog = await dialog_for(pilot, CHARLEMAGNE)
        assert dialog.strengths  # the search bot could play it...
        assert "Bot strength" not in screen_text(app)  # ... but nobody asked for it
        dialog.query_one("#seat-0", Select).value = "mcts"
        await pilot.pause()
        assert "Bot strength" in screen_text(app)
        dialog.query_one("#seat-0", Select).value = "human"
        await pilot.pause()
        assert "Bot strength" not in screen_text(app)
