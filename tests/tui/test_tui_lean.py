"""The game screen does per key press only what changed: a seat's log comes back after
a hand-off without being drawn again (and says exactly what a fresh log would), the
footer keeps its keys when they did not change, and the same table is not redrawn."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from tui_support import (
    calls_to,
    engine_of,
    game_on,
    game_screen,
    human_turn,
    pilot_test,
    press,
    retell,
    wait_until,
)

from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import GameLog, ViewPanel
from tabletop.adapters.tui.widgets.footer import StableFooter


@pilot_test
async def test_a_seats_log_comes_back_after_hand_offs_as_a_fresh_log_would_show_it() -> None:
    async with game_on("secrets", seats=("human", "human")) as (app, pilot):
        game: SeatScreen | None = None
        for turn in range(5):  # North, South, North... each pass hands the device over
            assert isinstance(app.screen, HandoffScreen)
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, SeatScreen))
            game = game_screen(app)
            log = game.query_one("#log", GameLog)
            shown = log.text_lines()
            assert shown == retell(game).text_lines()  # as drawn from scratch
            # from each seat's second turn on, its own private event is in its log
            assert turn < 2 or any("looks at" in line for line in shown)
            await pilot.press("1")
            await wait_until(pilot, lambda: isinstance(app.screen, HandoffScreen))
        assert game is not None and len(engine_of(game).log) == 5
        # while the device changes hands, nothing of the last seat is on the hidden
        # screen: its log and prompt are empty, its board shows the spectator's view
        assert game.query_one("#log", GameLog).text_lines() == []
        for line in ("#prompt-seat", "#prompt-text", "#prompt-rule"):
            assert str(game.query_one(line, Static).render()).strip() == ""
        assert "SECRET" not in game.query_one("#board", ViewPanel).plain


@pilot_test
async def test_the_footer_keeps_its_keys_through_moves_that_do_not_change_them() -> None:
    async with game_on("pig", seats=("human", "human")) as (app, pilot):
        game = game_screen(app)
        footer = game.query_one(StableFooter)
        await pilot.pause()
        keys = list(footer.children)
        assert keys, "the footer shows the screen's keys"
        for _ in range(3):
            before = len(engine_of(game).log)
            await pilot.press("1")

            def moved(before: int = before) -> bool:
                return len(engine_of(game).log) > before

            await wait_until(pilot, moved)
            await pilot.pause()
        assert list(footer.children) == keys  # the same widgets: never rebuilt
        shown = [getattr(key, "description", "") for key in keys]
        assert "Undo" in shown and "Rules" in shown  # and they are the screen's keys


@pilot_test
async def test_the_same_table_is_not_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    async with game_on("pig", seats=("human", "human")) as (app, _pilot):
        game = game_screen(app)
        panel = game.query_one("#board", ViewPanel)
        generic = panel.query_one("#generic-view", Static)
        drawn = calls_to(monkeypatch, generic, "update")  # this widget's draws, counted
        seat = game.viewer.seat
        assert game.info is not None
        view = engine_of(game).view(seat)
        names, title = game.info.seat_names, game.info.title
        panel.show(view, names, seat, title)
        panel.show(engine_of(game).view(seat), names, seat, title)
        assert drawn == []  # what is on screen already
        panel.show(engine_of(game).view(None), names, None, title)
        assert len(drawn) == 1  # another seat's table is drawn


@pilot_test
async def test_the_log_wraps_only_what_changed_when_seats_switch_and_moves_are_undone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Hot-seat at an open table switches the viewer at every turn, and undo takes
    entries back: the log wraps the new entries only, never the whole game again, and
    still reads as a log told from scratch."""

    async with game_on("menu", seats=("human", "human")) as (app, pilot):
        game = game_screen(app)
        log = game.query_one("#log", GameLog)
        wrapped = calls_to(monkeypatch, log, "_wrap")  # counts the work done
        for key in "12":
            await press(pilot, key)
        # Commune's first view was told before; each move added at most its own
        # entries (and the other seat's story caught up from where it was).
        new = [entry.text for entry in log.entries()]
        assert len(wrapped) <= 2 * len(new)
    async with game_on("menu", seats=("human", "random")) as (app, pilot):
        game = game_screen(app)
        log = game.query_one("#log", GameLog)
        await pilot.press("2")  # Commune, then the bot
        await human_turn(pilot)
        assert "You chose: Place a cube in district 2" in [e.plain for e in log.entries()]
        wrapped = calls_to(monkeypatch, log, "_wrap")
        await pilot.press("u")  # Commune's move and the bot's answer are taken back
        await pilot.pause()
        assert len(engine_of(game).log) == 0 and wrapped == []  # dropped, not re-told
        shown = log.text_lines()
        assert not any("district 2" in line for line in shown)
        assert shown == retell(game).text_lines()  # as told from scratch
