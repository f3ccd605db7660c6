"""Red Flag Over Paris on screen in rulebook situations (issue 11): a Turncoat that
breaches the player's own Final Crisis zone carries its warning in the menu and in the
details pane before it is taken, the pass keeps key 0 from one bonus prompt to the
next, and snapshots at 80x24, 100x30 and 160x50 of the board with a card's details and
that warning, and of the game-over screen.

Positions are built with the plugin's test helpers (``rfop_helpers``, on pytest's
pythonpath) and opened in the app as a session whose other seat is the greedy bot.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from rfop_helpers import GAME, C, Driver, turncoat_ready
from textual.pilot import Pilot
from tui_support import (
    app_on,
    current,
    engine_of,
    open_finished,
    pilot_test,
    press,
    screen_text,
    snapshot_of,
    wait_until,
)

from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.presenting import NewGameSpec
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.framework import PASS_KEY
from tabletop.framework.plugins import load_registry
from tabletop.framework.session import GameSession
from tabletop.framework.testing import engine_from_state
from tabletop.games.red_flag_over_paris import GreedyBot
from tabletop.games.red_flag_over_paris.render import render_board

TURNCOAT = "turn:butte_aux_cailles"
SIZES = [
    pytest.param((80, 24), id="80x24"),
    pytest.param((100, 30), id="100x30"),
    pytest.param((160, 50), id="160x50"),
]


def position_session(driver: Driver) -> GameSession:
    """The Commune played by a person from ``driver``'s state, Versailles by the bot."""
    engine = engine_from_state(GAME, driver.state, players=2, seed=1)
    return GameSession(engine, ["rfop-greedy", "human"], {0: GreedyBot()})


async def open_position(pilot: Any, driver: Driver) -> SeatScreen:
    app = pilot.app
    app.open_game(position_session(driver))
    await wait_until(pilot, lambda: isinstance(current(app), SeatScreen))
    await pilot.pause()
    screen = current(app)
    assert isinstance(screen, SeatScreen)
    return screen


@asynccontextmanager
async def position_on(
    driver: Driver, size: tuple[int, int] = (100, 30)
) -> AsyncIterator[tuple[TabletopApp, Pilot[None], SeatScreen]]:
    """The app on the installed games at ``size``, ``driver``'s position open in it."""
    async with app_on(size=size, registry=load_registry()) as (app, pilot):
        yield app, pilot, await open_position(pilot, driver)


def grown(screen: SeatScreen, before: int) -> Callable[[], bool]:
    """True once the screen shows a position after ``before`` (its messages, not the
    engine: the table may be a step ahead of what the screen has drawn)."""
    return lambda: (
        (screen.viewer.state.seq > before and screen.viewer.caught_up)
        or screen.app.screen is not screen
    )


async def highlight(pilot: Any, screen: SeatScreen, action: str) -> ChoiceList:
    choices = screen.query_one("#choices", ChoiceList)
    prompt = engine_of(screen).prompt
    assert prompt is not None
    choices.highlighted = prompt.actions().index(action)
    await pilot.pause()
    return choices


@pytest.mark.parametrize("final_zone_next", [True, False])
@pilot_test
async def test_a_turncoat_breaching_your_final_crisis_zone_is_warned_before_it_is_taken(
    final_zone_next: bool,
) -> None:
    driver = turncoat_ready(final_zone_next=final_zone_next)
    async with position_on(driver) as (_app, pilot, screen):
        choices = await highlight(pilot, screen, TURNCOAT)
        prompt = engine_of(screen).prompt
        assert prompt is not None
        index = prompt.actions().index(TURNCOAT)
        in_menu = str(choices.get_option_at_index(index).prompt)
        warned = "Final Crisis zone" in choices.explanation.consequence_text
        assert warned == final_zone_next
        assert ("Final Crisis zone" in in_menu) == final_zone_next  # in the list itself
        political = engine_of(screen).state["vp"]["political"]
        await press(pilot, choices.keys[index])
        lost = political - engine_of(screen).state["vp"]["political"]
        # the warning said what came true: the Commune's Political VP fell by one
        assert (lost != 0) == final_zone_next


@pilot_test
async def test_the_pass_keeps_key_0_from_one_bonus_prompt_to_the_next() -> None:
    async with position_on(turncoat_ready(final_zone_next=False)) as (_app, pilot, screen):
        seen: list[tuple[str, str]] = []
        for _ in range(6):
            prompt = screen._my_prompt()  # the Commune's decision, as its screen shows it
            if prompt is None or prompt.seat != C:
                break
            choices = screen.query_one("#choices", ChoiceList)
            passes = [i for i, c in enumerate(prompt.choices) if c.key == PASS_KEY]
            for index in passes:
                seen.append((prompt.choices[index].label, choices.keys[index]))
            others = [i for i in range(len(prompt.choices)) if i not in passes]
            if not others:
                break
            before = screen.viewer.state.seq
            await pilot.press(choices.keys[others[0]])  # act, and see the next prompt
            await wait_until(pilot, grown(screen, before))
            await pilot.pause()
            if current(_app) is not screen:  # the end of a round: a recap, or the end
                break
        assert len(seen) >= 2, seen  # a pass offered in at least two prompts in a row
        assert {key for _, key in seen} == {"0"}, seen


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_board_details_and_warning(snap_compare: Any, size: tuple[int, int]) -> None:
    """The Red Flag board, the bonus-action menu with the warned Turncoat highlighted,
    its warning and details, and the log."""

    async def play(pilot: Any) -> None:
        screen = await open_position(pilot, turncoat_ready(final_zone_next=True))
        await highlight(pilot, screen, TURNCOAT)

    assert snapshot_of(snap_compare, size, play, registry=load_registry())


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_game_over(snap_compare: Any, size: tuple[int, int]) -> None:
    """The result of a whole game: who won, how, the final VP with every change's cause."""

    async def play(pilot: Any) -> None:
        bots = ["rfop-greedy", "random"]
        await open_finished(pilot, NewGameSpec(GAME.info.id, 2, {}, bots, seed=5))

    assert snapshot_of(snap_compare, size, play, registry=load_registry())


@pilot_test
async def test_the_board_rows_do_not_wrap_at_80x24() -> None:
    """The board's table rows (42 columns at most) stand whole on an 80-column screen."""

    driver = turncoat_ready(final_zone_next=True)
    async with position_on(driver, size=(80, 24)) as (app, _pilot, screen):
        rows = render_board(engine_of(screen).view(C)).splitlines()
        text = screen_text(app)
        top = [row for row in rows[:12] if len(row) <= 42]
        assert len(top) >= 10
        missing = [row for row in top if row not in text]
        assert not missing, missing
