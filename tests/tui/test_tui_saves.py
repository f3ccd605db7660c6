"""Saves through the UI: autosave, a named copy, quit, reload, continue; bad files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from textual.widgets import DataTable, Input
from tui_support import (
    app_on,
    engine_of,
    game_on,
    game_screen,
    pilot_test,
    press,
    screen_text,
    session_of,
    wait_until,
)

from tabletop.adapters.saves import JsonSaveStore, encode_record
from tabletop.adapters.tui.screens.error import ErrorScreen
from tabletop.adapters.tui.screens.home import HomeScreen
from tabletop.adapters.tui.screens.save_as import SaveAsScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.framework.record import GameRecord


async def refused(pilot: Any, key: str) -> str:
    """Open the highlighted save on the home screen with ``key`` (Enter or the load key):
    the app must refuse it with an error screen, whose text is returned."""
    pilot.app.screen.query_one("#saves", DataTable).focus()
    await press(pilot, key)
    assert isinstance(pilot.app.screen, ErrorScreen)
    return screen_text(pilot.app)


@pilot_test
async def test_save_quit_reload_continue_and_undo(store: JsonSaveStore, save_dir: Path) -> None:
    opened = game_on("pig", store=store, seats=("human", "human"), via_dialog=True)
    async with opened as (app, pilot):
        game = game_screen(app)
        while engine_of(game).state["turn_total"] == 0 or engine_of(game).state["active"] != 0:
            await press(pilot, "1")
        await pilot.press("2")  # hold; Player 2's turn
        await pilot.pause()
        actions = list(engine_of(game).log)
        digest = engine_of(game).digest()
        save_id = str(session_of(game).save_id)
        await press(pilot, "s")
        assert isinstance(app.screen, SaveAsScreen)
        app.screen.query_one(Input).value = "my-copy"
        await press(pilot, "enter")
        assert any("Saved a copy as my-copy" in n.message for n in app._notifications)
        await press(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)
        text = screen_text(app)
        assert "my-copy" in text and save_id in text
        await pilot.press("ctrl+q")
    assert (save_dir / "my-copy.json").exists()
    assert (save_dir / f"{save_id}.json").exists()

    async with app_on(store=store) as (app, pilot):  # a new app on the same saves
        await pilot.pause()
        saves = app.screen.query_one("#saves", DataTable)
        saves.focus()
        saves.move_cursor(row=saves.get_row_index(save_id))
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SeatScreen))
        game = game_screen(app)
        assert list(engine_of(game).log) == actions
        assert engine_of(game).digest() == digest
        prompt = engine_of(game).prompt
        assert prompt is not None and prompt.seat == 1
        await pilot.press("u")  # take back Player 1's hold
        await pilot.pause()
        assert len(engine_of(game).log) == len(actions) - 1
        prompt = engine_of(game).prompt
        assert prompt is not None and prompt.seat == 0
        await pilot.press("2")  # hold again, and continue with Player 2
        await press(pilot, "1")
        assert len(engine_of(game).log) == len(actions) + 1
    assert len(store.load(save_id).actions) == len(actions) + 1


@pilot_test
async def test_unreadable_save_is_listed_with_its_error_and_kept(
    store: JsonSaveStore, save_dir: Path
) -> None:
    save_dir.mkdir(parents=True)
    broken = save_dir / "broken.json"
    broken.write_text("{not json")
    async with app_on(store=store) as (app, pilot):
        await pilot.pause()
        text = screen_text(app)
        assert "unreadable" in text and "not valid JSON" in text
        assert "kept" in await refused(pilot, "enter")
        await press(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)
    assert broken.read_text() == "{not json"


@pilot_test
async def test_a_save_that_no_longer_replays_shows_why_and_is_kept(
    store: JsonSaveStore, save_dir: Path
) -> None:
    async with game_on("pig", store=store, seats=("human", "human")) as (_app, pilot):
        await press(pilot, "1")
    (path,) = save_dir.glob("*.json")
    record = store.load(path.stem)
    record.digest = "0" * 64  # as if the rules had changed since
    path.write_text(encode_record(record, "2026-01-02T10:30:00Z"))
    before = path.read_text()
    async with app_on(store=store) as (_app, pilot):
        await pilot.pause()
        text = await refused(pilot, "enter")
        assert "does not match" in text and "kept" in text
    assert path.read_text() == before


@pilot_test
async def test_a_save_of_a_game_not_installed_is_refused_clearly(
    store: JsonSaveStore, save_dir: Path
) -> None:
    save_dir.mkdir(parents=True)
    data = json.loads(encode_record(store_record_for("chess"), "2026-01-02T10:30:00Z"))
    (save_dir / "chess.json").write_text(json.dumps(data))
    async with app_on(store=store) as (_app, pilot):
        await pilot.pause()
        assert "no game 'chess' is installed" in await refused(pilot, "l")


def store_record_for(game: str) -> GameRecord:
    return GameRecord(
        game=game, seed=1, players=2, options={}, seats=["human", "human"], digest="0" * 64
    )
