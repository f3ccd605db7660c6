"""Pauses where the game changes (issue 25): a move that brings a recap (an event of
kind SUMMARY, ``Context.summary``) shows it on a screen of its own, which the player
dismisses; no bot moves behind it, and none is lost. On the Recaps toy game: a recap
every two moves (a round), a second from the same move every four (a half)."""

from __future__ import annotations

from typing import Any

from toygames import RECAP_MOVES, Recaps
from tui_support import (
    current,
    engine_of,
    game_on,
    game_screen,
    pilot_test,
    press,
    screen_text,
    session_of,
    snapshot_of,
    start_game,
    wait_until,
)

from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.summary import SummaryScreen
from tabletop.framework import hookimpl
from tabletop.framework.plugins import GameRegistry, load_registry


class RecapsPlugin:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(Recaps())


def registry() -> GameRegistry:
    return load_registry(plugins=[("recaps", RecapsPlugin())], use_entry_points=False)


def summary(app: Any) -> SummaryScreen:
    screen = current(app)
    assert isinstance(screen, SummaryScreen), screen
    return screen


def persons_turn(app: Any) -> bool:
    game = game_screen(app)
    prompt = engine_of(game).prompt
    return prompt is not None and session_of(game).is_human(prompt.seat)


def moves(app: Any) -> int:
    return len(engine_of(game_screen_below(app)).log)


def game_screen_below(app: Any) -> Any:
    from tabletop.adapters.tui.screens.seat import SeatScreen

    for screen in reversed(app.screen_stack):
        if isinstance(screen, SeatScreen):
            return screen
    raise AssertionError("no game screen")


@pilot_test
async def test_a_persons_move_that_ends_a_round_pauses_and_the_bot_waits() -> None:
    """East (a person) ends the round: the recap shows; the screen shows no move of
    West's bot while it is up (the bot may have moved at the table: the screen holds
    it), and goes on once it is dismissed."""
    opened = game_on("recaps", registry=registry(), seats=("random", "human"))
    async with opened as (app, pilot):
        await wait_until(pilot, lambda: moves(app) == 1)  # West's bot moved
        assert not isinstance(current(app), SummaryScreen)
        await press(pilot, "1")
        await wait_until(pilot, lambda: isinstance(current(app), SummaryScreen))
        text = summary(app).text
        assert "Round 1 ends" in text and "East 1" in text
        assert "Round 1 ends" in screen_text(app)
        for _ in range(5):
            await pilot.pause(0.02)
        below = game_screen_below(app)
        assert below.viewer.state.seq == 2  # the bot's move waits behind the recap
        await press(pilot, "enter")
        await wait_until(pilot, lambda: game_screen(app).viewer.state.seq == 3)
        game = game_screen(app)
        assert game._my_prompt() is not None and game.viewer.seat == 1


@pilot_test
async def test_recaps_from_one_move_show_together_and_none_is_lost() -> None:
    """The fourth move ends a round and a half: both recaps on one screen, in order.
    Here the bot's move brings them (West is the person)."""
    opened = game_on("recaps", registry=registry(), seats=("human", "random"))
    async with opened as (app, pilot):
        seen: list[str] = []
        while moves(app) < RECAP_MOVES:
            screen = current(app)
            if isinstance(screen, SummaryScreen):
                seen += [recap.text for recap in screen.recaps]
                await press(pilot, "space" if len(seen) % 2 else "escape")
            elif persons_turn(app):
                await press(pilot, "2")
            else:
                await pilot.pause(0.01)
        await wait_until(pilot, lambda: isinstance(current(app), SummaryScreen))
        last = summary(app)
        assert [recap.text for recap in last.recaps] == ["Round 4 ends", "Half 2 ends"]
        seen += [recap.text for recap in last.recaps]
        await press(pilot, "enter")
        await wait_until(pilot, lambda: isinstance(current(app), GameOverScreen))
        assert seen == [
            "Round 1 ends",
            "Round 2 ends",
            "Half 1 ends",
            "Round 3 ends",
            "Round 4 ends",
            "Half 2 ends",
        ]


@pilot_test
async def test_n_stops_the_pauses_for_the_apps_run_and_the_palette_brings_them_back() -> None:
    opened = game_on("recaps", registry=registry(), seats=("human", "human"))
    async with opened as (app, pilot):
        await press(pilot, "1", "1")
        summary(app)
        await press(pilot, "n")
        game = game_screen(app)
        assert app.pause_on_summaries is False
        assert "Pauses off" in screen_text(app)
        await press(pilot, "1", "1")  # the next round ends with no pause
        assert engine_of(game).prompt is not None and len(engine_of(game).log) == 4
        assert current(app) is game
        # a new game in the same run does not pause either
        await press(pilot, "escape")
        await start_game(pilot, "recaps", seats=("human", "human"))
        await press(pilot, "1", "1")
        assert not isinstance(current(app), SummaryScreen)
        commands = {command.title: command for command in game_screen(app).palette_commands()}
        assert "turn on" in commands["Pauses"].help
        commands["Pauses"].callback()
        await pilot.pause()
        assert app.pause_on_summaries is True
        assert "Pauses off" not in screen_text(app)
        await press(pilot, "1", "1")
        assert "Round 2 ends" in summary(app).text


@pilot_test
async def test_after_undo_the_round_ends_again_and_its_recap_shows_again() -> None:
    opened = game_on("recaps", registry=registry(), seats=("human", "random"))
    async with opened as (app, pilot):
        await press(pilot, "1")
        await wait_until(pilot, lambda: isinstance(current(app), SummaryScreen))
        await press(pilot, "enter")
        game = game_screen(app)
        assert len(engine_of(game).log) == 2
        await press(pilot, "u")  # takes back the bot's move and West's
        assert len(engine_of(game).log) == 0 and current(app) is game
        await press(pilot, "2")
        await wait_until(pilot, lambda: isinstance(current(app), SummaryScreen))
        assert "West 2" in summary(app).text  # the round as played the second time


@pilot_test
async def test_hot_seat_each_person_reads_what_they_may_see_around_the_hand_off() -> None:
    """Secret scores, two people: East ends the round and reads the public recap
    before the hand-off; West reads it after, with the recap only West may read."""
    opened = game_on(
        "recaps", registry=registry(), seats=("human", "human"), options={"secret": "yes"}
    )
    async with opened as (app, pilot):
        if isinstance(current(app), HandoffScreen):
            await press(pilot, "enter")
        await press(pilot, "1")  # West moves; hand-off to East
        assert isinstance(current(app), HandoffScreen)
        await press(pilot, "enter")
        await press(pilot, "2")  # East ends the round
        east = summary(app)
        assert [recap.text for recap in east.recaps] == ["Round 1 ends"]
        assert "West holds" not in screen_text(app)
        await press(pilot, "enter")
        assert isinstance(current(app), HandoffScreen)  # then the device changes hands
        await press(pilot, "enter")
        west = summary(app)
        assert [recap.text for recap in west.recaps] == ["Round 1 ends", "West's note 1"]
        assert "West holds 1" in west.text
        await press(pilot, "enter")
        game = game_screen(app)
        assert game.viewer.seat == 0 and engine_of(game).prompt is not None


@pilot_test
async def test_a_game_of_bots_does_not_pause() -> None:
    opened = game_on("recaps", registry=registry(), seats=("random", "random"))
    async with opened as (app, pilot):
        await wait_until(pilot, lambda: isinstance(current(app), GameOverScreen))


async def at_a_recap(pilot: Any) -> None:
    await start_game(pilot, "recaps", seats=("human", "human"))
    for _ in range(4):
        await press(pilot, "2")
        shown = current(pilot.app)
        if isinstance(shown, SummaryScreen) and len(shown.recaps) == 1:
            await press(pilot, "enter")
    await pilot.pause()


def test_snapshot_summary_80x24(snap_compare: Any) -> None:
    assert snapshot_of(snap_compare, (80, 24), at_a_recap, registry=registry())


def test_snapshot_summary_120x40(snap_compare: Any) -> None:
    assert snapshot_of(snap_compare, (120, 40), at_a_recap, registry=registry())


def test_snapshot_summary_160x50(snap_compare: Any) -> None:
    assert snapshot_of(snap_compare, (160, 50), at_a_recap, registry=registry())


@pilot_test
async def test_a_recap_longer_than_its_window_says_there_is_more_below() -> None:
    """At 80x24 a long recap does not fit: the keys line says so until it is read to
    its end (issue 37)."""
    from textual.app import App
    from textual.containers import VerticalScroll
    from textual.widgets import Static

    from tabletop.framework.game import SUMMARY, Event

    long = Event(SUMMARY, "End of Turn 3", {"lines": [f"line {n}" for n in range(40)]})
    short = Event(SUMMARY, "End of Turn 1", {"lines": ["one line"]})
    for recap, more in ((long, True), (short, False)):
        app: App[None] = App()
        async with app.run_test(size=(80, 24)) as pilot:
            screen = SummaryScreen([recap])
            await app.push_screen(screen)
            await pilot.pause()
            await pilot.pause()
            keys = str(screen.query_one("#summary-keys", Static).content)
            assert ("More below" in keys) == more, keys
            if more:
                screen.query_one("#summary-scroll", VerticalScroll).scroll_end(animate=False)
                await pilot.pause()
                keys = str(screen.query_one("#summary-keys", Static).content)
                assert "More below" not in keys
