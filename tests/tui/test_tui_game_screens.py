"""The three historical games' screens as a player meets them (issue 25): the main
screen, a vote, a battle and the recap at a turn's end, at 80x24, 120x40 and 160x50.

Why positions come from random play and not from hand-built states: each is the first
moment of its kind in a seeded game, reached through the engine as a player would, so a
snapshot shows a real log, a real board and the game's own words. The person sits on the
seat that decides at that moment; the other seats are random bots that never move while
the person's decision is pending.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from tui_support import current, engine_of, pilot_test, press, screen_text, snapshot_of, wait_until

from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.screens.summary import SummaryScreen
from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.framework import SUMMARY, Prompt
from tabletop.framework.bots import RandomBot
from tabletop.framework.chance import SeededDice, rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.plugins import load_registry
from tabletop.framework.session import GameSession

SIZES = [
    pytest.param((80, 24), id="80x24"),
    pytest.param((120, 40), id="120x40"),
    pytest.param((160, 50), id="160x50"),
]
REGISTRY = load_registry()


@dataclass(frozen=True)
class Table:
    game: str
    players: int
    seed: int
    options: tuple[tuple[str, str], ...] = ()


CME = Table("charlemagne-master-of-europe", 1, 3)
#: A seed whose random campaign goes to battle in turn 1.
CME_BATTLE = Table("charlemagne-master-of-europe", 1, 7)
LRF = Table("la-revolution-francaise", 4, 2)
RFOP = Table("red-flag-over-paris", 2, 3)


def _engine(table: Table) -> Engine:
    return Engine(
        REGISTRY.get(table.game).definition,
        seed=table.seed,
        players=table.players,
        options=dict(table.options),
        rng_factory=rng_factory,
        dice_factory=SeededDice,
    )


def _random_moves(table: Table) -> Iterator[tuple[Engine, Prompt, str]]:
    """A seeded random game of ``table``, move by move: the engine, the prompt and the
    action drawn for it, which the caller takes (or not, where it stops)."""
    engine = _engine(table)
    pick = random.Random(table.seed)
    for _ in range(20_000):
        prompt = engine.prompt
        assert prompt is not None, "the game ended before the position came"
        yield engine, prompt, pick.choice(prompt.choices).action
    raise AssertionError("the position never came")


def _walk(table: Table, stop: Callable[[Prompt], bool]) -> list[str]:
    """The actions of a random game up to the first prompt ``stop`` holds for."""
    actions: list[str] = []
    for engine, prompt, action in _random_moves(table):
        if stop(prompt):
            return actions
        engine.act(prompt.seat, action)
        actions.append(action)
    raise AssertionError("unreachable: the moves end by raising")


def _decision(rule: str = "", words: str = "") -> Callable[[Prompt], bool]:
    """A prompt of two or more choices citing ``rule`` (a prefix) whose text holds
    ``words``."""

    def stop(prompt: Prompt) -> bool:
        return (
            len(prompt.choices) > 1
            and (prompt.rule or "").startswith(rule)
            and words.lower() in prompt.text.lower()
        )

    return stop


def session_at(table: Table, actions: list[str]) -> GameSession:
    """The game after ``actions``: the seat now deciding is the person's."""
    engine = _engine(table)
    for action in actions:
        prompt = engine.prompt
        assert prompt is not None
        engine.act(prompt.seat, action)
    prompt = engine.prompt
    assert prompt is not None
    controllers = ["random"] * table.players
    controllers[prompt.seat] = "human"
    bots = {seat: RandomBot() for seat in range(table.players) if seat != prompt.seat}
    return GameSession(engine, controllers, dict(bots))


async def open_session(pilot: Any, session: GameSession) -> SeatScreen:
    pilot.app.open_game(session)
    await wait_until(pilot, lambda: isinstance(current(pilot.app), SeatScreen))
    await pilot.pause()
    screen = current(pilot.app)
    assert isinstance(screen, SeatScreen)
    return screen


def opening(table: Table, actions: list[str], then: str | None = None) -> Any:
    """A ``run_before`` for the snapshot: the position open, and ``then`` (the next
    action) taken by its key when given."""

    async def play(pilot: Any) -> None:
        screen = await open_session(pilot, session_at(table, actions))
        if then is not None:
            prompt = engine_of(screen).prompt
            assert prompt is not None
            keys = screen.query_one("#choices", ChoiceList).keys
            await press(pilot, keys[prompt.actions().index(then)])
            await wait_until(pilot, lambda: isinstance(current(pilot.app), SummaryScreen))
            # The game under the recap has laid out its next decision (the panel's
            # scrollbar, its held height) before the picture is taken.
            await pilot.wait_for_scheduled_animations()
            await pilot.pause(0.3)
        await pilot.pause()

    return play


def _recap_position(table: Table) -> tuple[list[str], str]:
    """The actions before the first one whose events hold a public recap, and that
    action (the person takes it by its key, and the recap comes on screen)."""
    actions: list[str] = []
    for engine, prompt, action in _random_moves(table):
        events = engine.act(prompt.seat, action)
        if any(event.kind == SUMMARY and event.seats is None for event in events):
            return actions, action
        actions.append(action)
    raise AssertionError("unreachable: the moves end by raising")


POSITIONS: dict[str, Callable[[], tuple[Table, list[str], str | None]]] = {
    "cme-campaign": lambda: (CME, _walk(CME, _decision("§5")), None),
    "cme-battle": lambda: (CME_BATTLE, _walk(CME_BATTLE, _decision("§7")), None),
    "cme-turn-end": lambda: (CME, *_recap_position(CME)),
    "lrf-main": lambda: (LRF, _walk(LRF, _decision("", "")), None),
    "lrf-vote": lambda: (LRF, _walk(LRF, _decision("", "vote")), None),
    "lrf-turn-end": lambda: (LRF, *_recap_position(LRF)),
    "rfop-main": lambda: (RFOP, _walk(RFOP, _decision("§5")), None),
    "rfop-round-end": lambda: (RFOP, *_recap_position(RFOP)),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("position", sorted(POSITIONS))
def test_snapshot(snap_compare: Any, position: str, size: tuple[int, int]) -> None:
    table, actions, then = POSITIONS[position]()
    play = opening(table, actions, then)
    assert snapshot_of(snap_compare, size, play, registry=REGISTRY)


@pytest.mark.parametrize("position", ["cme-turn-end", "lrf-turn-end", "rfop-round-end"])
@pilot_test
async def test_the_recap_pauses_the_game_until_the_player_goes_on(position: str) -> None:
    """The turn's end stops on its recap (the game's own lines on screen); Enter goes
    back to the game, where the next decision is waiting."""
    from tui_support import app_on

    table, actions, then = POSITIONS[position]()
    async with app_on(size=(120, 40), registry=REGISTRY) as (app, pilot):
        await opening(table, actions, then)(pilot)
        recap = current(app)
        assert isinstance(recap, SummaryScreen)
        shown = screen_text(app)
        for event in recap.recaps:
            assert event.text in shown
            assert event.data["lines"][0][:40] in shown
        await press(pilot, "enter")
        await wait_until(pilot, lambda: isinstance(current(app), SeatScreen))
