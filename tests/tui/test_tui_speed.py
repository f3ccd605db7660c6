"""What keeps a key press on the game screen cheap (issue 10), checked as behaviour:
the hand-off screen is made once per game, the next seat's view is drawn before it
goes, a decision drawn again unchanged touches no widget, a change of height only keeps
the lists' drawn options, and Python's collector is tuned only while the app runs.
(How fast it is, is measured by ``tabletop bench --ui``, not here.)"""

from __future__ import annotations

import gc
from typing import Any

import pytest
from textual.widgets import Static
from tui_support import app_on, calls_to, game_on, game_screen, pilot_test, press, wait_until

from tabletop.adapters.collector import YOUNG_THRESHOLD
from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import CardList, ChoiceList, GameLog, ViewPanel
from tabletop.adapters.tui.widgets.footer import StableFooter


async def hand_off(pilot: Any) -> HandoffScreen:
    """Pass (key 1) and wait for the hand-off screen; return it."""
    await pilot.press("1")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HandoffScreen))
    screen = pilot.app.screen
    assert isinstance(screen, HandoffScreen)
    return screen


@pilot_test
async def test_one_hand_off_screen_serves_the_whole_game_naming_each_next_seat() -> None:
    """Composing, styling and drawing a fresh hand-off screen cost most of a hand-off:
    the same screen (and footer) comes back, with the next seat's name."""
    async with game_on("secrets", seats=("human", "human")) as (app, pilot):
        first = app.screen
        assert isinstance(first, HandoffScreen) and first.seat_name == "North"
        footer_keys = list(first.query_one(StableFooter).children)
        seen = []
        for expected in ("South", "North", "South"):
            await press(pilot, "enter")
            game_screen(app)  # the board is back between hand-offs
            screen = await hand_off(pilot)
            seen.append(screen)
            assert screen.seat_name == expected
            text = str(screen.query_one("#handoff-text", Static).render())
            assert f"Pass the keyboard to {expected}" in text
        assert all(screen is first for screen in seen)
        assert list(first.query_one(StableFooter).children) == footer_keys


@pilot_test
async def test_the_next_seats_view_is_drawn_under_the_hand_off_before_it_goes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The person said they are ready: their view is drawn on the covered game screen
    before the hand-off screen goes, so that the game screen is laid out and drawn once
    (not first as it was). Until then it holds nothing of anyone's."""
    async with game_on("secrets", seats=("human", "human")) as (app, pilot):
        await press(pilot, "enter")
        game = game_screen(app)
        handoff = await hand_off(pilot)  # North passed: to South
        board = game.query_one("#board", ViewPanel)
        assert "SECRET" not in board.plain  # covered, and blank of secrets meanwhile
        at_dismissal: list[tuple[str, str, bool]] = []
        original = handoff.dismiss

        def dismiss(result: None = None) -> Any:
            prompt = str(game.query_one("#prompt-text", Static).render())
            at_dismissal.append((board.plain, prompt, app.screen is handoff))
            return original(result)

        monkeypatch.setattr(handoff, "dismiss", dismiss)
        await press(pilot, "enter")
        [(shown, prompt, covered)] = at_dismissal
        assert covered  # still under the hand-off screen when drawn
        assert "SECRET-SOUTH-3" in shown and "SECRET-NORTH-7" not in shown
        assert prompt.strip()  # South's decision is already on it
        assert game_screen(app) is game and game.viewer.seat == 1


@pilot_test
async def test_a_decision_drawn_again_unchanged_touches_no_widget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each widget update lays out and draws again; the screen is drawn again at
    every sync (a dialog closed, a hand-off back), mostly with nothing changed."""
    async with game_on("menu", seats=("human", "human")) as (app, pilot):
        await press(pilot, "2")  # a move: a log entry, a new decision
        game = game_screen(app)
        widgets: list[Any] = [
            game.query_one("#board", ViewPanel),
            game.query_one("#log", GameLog),
            game.query_one("#choices", ChoiceList),
            game.query_one("#cards", CardList),
            *(game.query_one(line, Static) for line in ("#prompt-seat", "#prompt-text")),
            game.query_one("#prompt-rule", Static),
            game.query_one("#status", Static),
            *game.query_one("#choices", ChoiceList).explanation.query(Static),
        ]
        refreshed = [calls_to(monkeypatch, widget, "refresh") for widget in widgets]
        game._draw()
        assert [len(calls) for calls in refreshed] == [0] * len(widgets)
        # ... and the counting sees a change when there is one: another seat's view
        game.viewer = game.people[0] if game.viewer.seat == 1 else game.people[1]
        game._draw()
        assert sum(len(calls) for calls in refreshed) > 0


@pilot_test
async def test_the_lists_keep_their_drawn_options_when_only_their_height_changes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The decision panel's height changes at most moves; Textual's option list drew
    every option again at each resize, though they depend on its width only."""
    async with game_on("menu", seats=("human", "human"), size=(100, 30)) as (app, pilot):
        game = game_screen(app)
        choices = game.query_one("#choices", ChoiceList)
        forgotten = calls_to(monkeypatch, choices, "_clear_caches")
        also = calls_to(monkeypatch, choices, "forget_drawn")
        before = choices.size
        await pilot.resize_terminal(100, 40)
        await pilot.pause()
        assert choices.size.width == before.width and choices.size != before
        assert forgotten == also == []
        await pilot.resize_terminal(120, 40)  # wider: the options are drawn again
        await pilot.pause()
        assert choices.size.width != before.width
        assert len(forgotten) + len(also) >= 1


@pilot_test
async def test_the_collector_is_tuned_while_the_app_runs_and_restored_after() -> None:
    """A key press makes tens of thousands of short-lived objects: while the app runs
    the young generation is collected less often and the start-up objects are set
    aside, and the process gets its settings back when the app ends."""
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    async with app_on() as (_app, pilot):
        await pilot.pause()
        assert gc.get_threshold()[0] == max(YOUNG_THRESHOLD, before[0])
        assert gc.get_threshold()[1:] == before[1:]
        assert gc.get_freeze_count() > frozen
    assert gc.get_threshold() == before
    assert gc.get_freeze_count() == frozen


@pilot_test
async def test_a_game_screen_leaving_takes_its_hand_off_screen_with_it() -> None:
    """The hand-off screen is installed in the app for its game; leaving the game
    (Escape on the hand-off) uninstalls it, so that games do not pile screens up."""
    async with game_on("secrets", seats=("human", "human")) as (app, pilot):
        handoff = app.screen
        assert isinstance(handoff, HandoffScreen)
        assert app.is_screen_installed(handoff)
        await press(pilot, "escape")
        assert not isinstance(app.screen, (HandoffScreen, SeatScreen))
        assert not app.is_screen_installed(handoff)
