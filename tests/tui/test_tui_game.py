"""Driving the game screen with Pilot: decisions, bots, undo, errors, game over."""

from __future__ import annotations

from typing import Any

from tui_support import (
    FullDiskStore,
    app_on,
    current,
    engine_of,
    game_on,
    game_screen,
    human_turn,
    pilot_test,
    press,
    roll_until_points_at_risk,
    screen_text,
    start_game,
    wait_until,
)

from tabletop.adapters.tui.screens.error import ErrorScreen
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.home import HomeScreen
from tabletop.adapters.tui.screens.rules import RulesScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import ChoiceList, GameLog


async def hold_while_the_bot_thinks(pilot: Any, screen: SeatScreen, delay: float) -> int:
    """Pig against the random bot: roll until Player 1 has points at risk, then hold and
    see the bot thinking over its move for ``delay`` seconds. Returns the number of
    moves made before the hold."""
    await roll_until_points_at_risk(pilot, screen)
    moves = len(engine_of(screen).log)
    screen.bot_delay = delay
    await pilot.press("2")  # hold: the bot's turn (its thinking shows: test_tui_thinking)
    await pilot.pause(0.05)
    return moves


@pilot_test
async def test_decisions_are_applied_and_logged() -> None:
    async with game_on("pig", seats=("human", "human")) as (app, pilot):
        screen = game_screen(app)
        await press(pilot, "1")
        assert len(engine_of(screen).log) == 1
        lines = screen.query_one("#log", GameLog).text_lines()
        assert any("Player 1" in line and "rolled" in line for line in lines)
        assert "Turn total" in screen_text(app)


@pilot_test
async def test_mouse_click_on_a_choice_plays_it() -> None:
    async with game_on("faulty") as (app, pilot):
        screen = game_screen(app)
        assert "Counter board: 0" in screen_text(app)  # the plugin's own board widget
        await pilot.click("#choices", offset=(3, 0))
        await pilot.pause()
        assert engine_of(screen).state["n"] == 1
        assert "Counter board: 1" in screen_text(app)


@pilot_test
async def test_stale_and_out_of_range_input_is_ignored_with_a_note() -> None:
    async with game_on("pig", seats=("human", "human")) as (app, pilot):
        screen = game_screen(app)
        await pilot.press("5")  # only one choice ("Roll") at the start
        await pilot.pause()
        assert engine_of(screen).log == []
        assert any("No choice has the key 5" in n.message for n in app._notifications)
        old = screen.query_one("#choices", ChoiceList).generation
        await press(pilot, "1")
        moves = len(engine_of(screen).log)
        screen._choose(0, old)  # a selection from the previous prompt arrives late
        await pilot.pause()
        assert len(engine_of(screen).log) == moves
        assert any("no longer available" in n.message for n in app._notifications)


@pilot_test
async def test_plugin_fault_shows_an_error_and_the_game_goes_on() -> None:
    async with game_on("faulty") as (app, pilot):
        screen = game_screen(app)
        await pilot.press("2")  # Explode: the game's code raises
        await pilot.pause()
        assert isinstance(app.screen, ErrorScreen)
        assert "kaboom" in screen_text(app)
        await press(pilot, "escape")
        assert current(app) is screen
        assert engine_of(screen).state == {"n": 0}
        for _ in range(3):
            await press(pilot, "1")
        assert isinstance(app.screen, GameOverScreen)
        assert "Counted to three." in screen_text(app)


@pilot_test
async def test_a_bot_seat_plays_its_turn_and_the_person_is_asked_again() -> None:
    async with game_on("pig", seats=("human", "random")) as (app, pilot):
        screen = game_screen(app)
        await hold_while_the_bot_thinks(pilot, screen, delay=0.3)
        screen.bot_delay = 0.0  # seen it; let the rest of the bot's turn go fast
        await human_turn(pilot)
        lines = screen.query_one("#log", GameLog).text_lines()
        assert any("Player 2" in line for line in lines)
        prompt = engine_of(screen).prompt
        assert prompt is not None and prompt.seat == 0


@pilot_test
async def test_bot_speed_cycles_per_game_and_every_action_is_in_the_palette() -> None:
    """The speed is this game's setting: the next game starts at the default again."""

    async with app_on(bot_delay=0.4) as (app, pilot):
        home = [c.title for c in app.get_system_commands(app.screen)]
        assert {"New game", "Load save"} <= set(home)
        await start_game(pilot, "pig", seats=("human", "random"))
        screen = game_screen(app)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert {"Undo", "Save a copy", "Rules", "Bot speed", "Home"} <= set(titles)
        await pilot.press("b")  # the first press: faster
        assert screen.bot_delay == 0.05
        await pilot.press("b")
        assert screen.bot_delay == 1.2
        await press(pilot, "ctrl+p")
        await pilot.press(*"Bot speed")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.1)
        assert screen.bot_delay == 0.4
        await pilot.press("b")
        await pilot.press("b")
        assert screen.bot_delay == 1.2 and "Bots: slow" in screen_text(app)
        await press(pilot, "escape")
        await start_game(pilot, "pig", seats=("human", "random"))
        assert game_screen(app).bot_delay == 0.4 and app.bot_delay == 0.4
        assert "Bots: normal" in screen_text(app)


@pilot_test
async def test_rules_reference_cites_the_rule_and_shows_the_summary() -> None:
    async with game_on("pig", seats=("human", "human")) as (app, pilot):
        assert "Rule §2" in screen_text(app)
        await press(pilot, "r")
        assert isinstance(app.screen, RulesScreen)
        text = screen_text(app)
        assert "Rules of Pig" in text and "turn total" in text
        await press(pilot, "escape")
        assert isinstance(app.screen, SeatScreen)


@pilot_test
async def test_undo_takes_back_a_decision_but_not_a_roll() -> None:
    async with game_on("pig", seats=("human", "human")) as (app, pilot):
        screen = game_screen(app)
        await press(pilot, "u")
        assert any("Cannot undo" in n.message for n in app._notifications)
        await roll_until_points_at_risk(pilot, screen, bots=False)
        total = engine_of(screen).state["turn_total"]
        moves = len(engine_of(screen).log)
        await pilot.press("2")  # hold
        await pilot.pause()
        assert engine_of(screen).state["banks"][0] == total
        await press(pilot, "u")
        assert len(engine_of(screen).log) == moves
        assert engine_of(screen).state["banks"][0] == 0
        assert engine_of(screen).state["turn_total"] == total
        assert "Hold and bank" in screen_text(app)


@pilot_test
async def test_game_over_shows_result_scores_and_how_it_was_decided() -> None:
    async with game_on("secrets", seats=("random", "random")) as (app, pilot):
        await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen))
        await pilot.pause()
        text = screen_text(app)
        assert "North wins!" in text
        assert "North holds 7, South 3: higher wins." in text
        assert "winner" in text
        await press(pilot, "enter")
        assert isinstance(app.screen, HomeScreen)
        assert "finished" in screen_text(app)


@pilot_test
async def test_a_single_human_against_bots_sees_their_own_view() -> None:
    secret = {"banks": "secret"}
    async with game_on("pig", seats=("random", "human"), options=secret) as (app, pilot):
        await human_turn(pilot)
        screen = game_screen(app)
        assert screen.viewer.seat == 1
        text = screen_text(app)
        assert "Player 2 (you)" in text
        rows = [line.split("│")[1].split() for line in text.splitlines() if "│ Player" in line]
        assert ["Player", "1", "?"] in rows  # the bot's secret bank
        assert "Pass the keyboard" not in text


@pilot_test
async def test_a_failing_bot_is_reported_and_can_retry() -> None:
    async with game_on("secrets", seats=("human", "crashy")) as (app, pilot):
        await pilot.press("1")  # North passes; South's bot raises in its thread
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorScreen))
        text = screen_text(app)
        assert "ValueError" in text and "crashy" in text  # what failed, and how
        assert "SECRET-CARD" not in text  # its message quotes the bot's hidden card
        await press(pilot, "escape")
        screen = game_screen(app)
        assert "press t to retry" in screen_text(app)
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, ErrorScreen))
        assert len(engine_of(screen).log) == 1


@pilot_test
async def test_undo_after_the_bot_rolled_is_refused_and_says_why() -> None:
    """A bot moves as soon as it decides (the bot speed is a pause for reading its
    move): once its dice are rolled, the person's hold before them cannot be taken
    back (undo never crosses chance), and the refusal says so."""
    async with game_on("pig", seats=("human", "random")) as (app, pilot):
        screen = game_screen(app)
        moves = await hold_while_the_bot_thinks(pilot, screen, delay=3.0)
        await wait_until(pilot, lambda: len(engine_of(screen).log) > moves + 1)
        before = len(engine_of(screen).log)
        await pilot.press("u")
        await wait_until(pilot, lambda: any("Cannot undo" in n.message for n in app._notifications))
        notes = [n.message for n in app._notifications]
        assert any("chance or a reveal came after" in note for note in notes)
        assert len(engine_of(screen).log) == before


@pilot_test
async def test_a_failing_autosave_warns_and_the_game_goes_on() -> None:
    async with game_on("faulty", store=FullDiskStore()) as (app, pilot):
        await press(pilot, "1")
        screen = game_screen(app)
        assert engine_of(screen).state["n"] == 1
        assert "autosave failed" in screen_text(app)
        assert any("No space left on device" in n.message for n in app._notifications)


@pilot_test
async def test_the_cards_key_is_offered_only_once_the_game_has_shown_cards() -> None:
    """``c Cards`` in the footer of a game with cards, not of one without (issue 37)."""
    async with game_on("pig", seats=("human", "human")) as (app, pilot):
        await pilot.pause()
        assert "Cards" not in screen_text(app).splitlines()[-1]
    async with game_on("menu", seats=("human", "human")) as (app, pilot):  # it has cards
        await pilot.pause()
        assert "c Cards" in screen_text(app).splitlines()[-1]


@pilot_test
async def test_back_from_the_zoomed_board_the_arrows_move_in_the_menu_again() -> None:
    """After z and back, the focus is on the choices, not the table (issue 37)."""
    async with game_on("menu", seats=("human", "human")) as (app, pilot):
        screen = game_screen(app)
        await press(pilot, "z")
        assert screen.maximized is not None
        await press(pilot, "z")
        assert screen.maximized is None and app.focused is not None
        assert app.focused.id == "choices"
        before = screen.query_one("#choices", ChoiceList).highlighted
        await press(pilot, "down")
        assert screen.query_one("#choices", ChoiceList).highlighted != before


@pilot_test
async def test_when_a_decision_comes_the_log_shows_or_says_what_just_happened() -> None:
    """At 80x24 the other side's moves since the person's last decision do not all fit
    in the log: its title says how many are above, and l shows them from the first
    (issue 35)."""
    from tabletop.framework.plugins import load_registry

    registry = load_registry()
    opened = game_on(
        "red-flag-over-paris", registry=registry, seats=("human", "random"), size=(80, 24)
    )
    async with opened as (app, pilot):
        screen = game_screen(app)
        log = screen.query_one("#log", GameLog)
        for _ in range(6):  # until a decision comes after a long turn of the bot's
            keys = screen.query_one("#choices", ChoiceList).keys
            await pilot.press(keys[0] or "1")
            await human_turn(pilot)
            await pilot.pause()
            if log.new_above():
                break
        above = log.new_above()
        assert above and f"↑ {above} new above (l)" in str(log.border_title)
        await press(pilot, "l")
        assert screen.maximized is log
        first = log._new_line(log._told)
        top, height = round(log.scroll_offset.y), log.scrollable_content_region.height
        assert first is not None and top <= first < top + height  # the first new one shows
        assert "▌" in screen_text(app)  # the new entries are marked
        await press(pilot, "l")
        assert screen.maximized is None
