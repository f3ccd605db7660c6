"""The rules' shortcuts agree with the plain statements of the rules they stand for.

For speed (issue 10) the rules build each distinct prompt and choice once and reuse it,
and read control and presence through fast paths. These tests play random games and
check, at every decision, that a prompt built from warm caches equals one built from
empty caches (a cache keyed on too little would hand out words from another state),
and that the fast paths of ``board`` give what the space-by-space rules give.
"""

from __future__ import annotations

import copy
import importlib
import itertools
import pkgutil
from collections.abc import Iterator
from typing import Protocol, runtime_checkable

import pytest

from tabletop.framework import Context, State
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.games import red_flag_over_paris
from tabletop.games.red_flag_over_paris import RedFlagOverParis, board
from tabletop.games.red_flag_over_paris.data import (
    BOARD,
    CUBE_LIMIT,
    DIM_SPACES,
    DIMENSIONS,
    SPACES,
    VERSAILLES,
)
from tabletop.games.red_flag_over_paris.rules import bonus_actions, operations

GAME = RedFlagOverParis()


@runtime_checkable
class _Cached(Protocol):
    def cache_clear(self) -> None: ...


def _caches() -> list[_Cached]:
    """Every memoised function of the plugin (the rules package included)."""
    found: dict[int, _Cached] = {}
    prefix = red_flag_over_paris.__name__ + "."
    for info in pkgutil.walk_packages(red_flag_over_paris.__path__, prefix):
        if info.name.endswith(".widget"):
            continue  # imports Textual, and caches nothing
        for value in vars(importlib.import_module(info.name)).values():
            if callable(value) and isinstance(value, _Cached):
                found[id(value)] = value
    return list(found.values())


def _clear(caches: list[_Cached]) -> None:
    for cached in caches:
        cached.cache_clear()


def _states(seed: int, options: dict[str, str]) -> Iterator[State]:
    """Every state of a random game at which a decision waits."""
    rng = rng_factory(seed)
    dice = dice_factory(rng)
    chooser = rng_factory(seed + 10_000)
    state = GAME.setup(2, options, Context(rng, dice))
    while (prompt := GAME.prompt(state)) is not None:
        yield state
        action = prompt.choices[chooser.randbelow(len(prompt.choices))].action
        GAME.apply(state, prompt.seat, action, Context(rng, dice, actor=prompt.seat))


GAMES = [(seed, {"solo": solo}) for seed, solo in ((1, "off"), (2, "off"), (3, "versailles"))]
GAMES.append((4, {"solo": "commune"}))


def test_the_rules_have_caches_to_check() -> None:
    # Without this the test below would pass vacuously if the caches were renamed away.
    assert len(_caches()) >= 10


@pytest.mark.parametrize(("seed", "options"), GAMES)
def test_prompts_from_warm_caches_equal_fresh_ones(seed: int, options: dict[str, str]) -> None:
    caches = _caches()
    for warm_seed in (100, 101, 102):  # fill the caches from other games first
        for state in _states(warm_seed, options):
            GAME.prompt(state)
    # Warm: every cache filled by the games above and the game's own earlier decisions.
    warm = [(copy.deepcopy(state), GAME.prompt(state)) for state in _states(seed, options)]
    for decision, (state, prompt) in enumerate(warm):
        _clear(caches)
        assert GAME.prompt(state) == prompt, f"decision {decision} of game {seed}"
    decisions = len(warm)
    assert decisions > 20


def test_board_fast_paths_agree_with_the_rules() -> None:
    with_discs = 0
    for seed in range(1, 9):
        for state in _states(seed, {"solo": ("off", "versailles", "commune")[seed % 3]}):
            with_discs += bool(state["discs"])
            _check_board(state)
    assert with_discs, "no state with a disc: the disc path went untested"


def _check_board(state: State) -> None:
    for seat in (0, 1):
        assert board.snapshot(state, seat) == {
            "controlled": [s for s in SPACES if board.controls(state, s, seat)],
            "present": [s for s in BOARD if board.present(state, s, seat)],
        }
    owners = board.controllers(state)
    for s in SPACES:
        by_rule = next((seat for seat in (0, 1) if board.controls(state, s, seat)), None)
        assert board.controller(state, s) == owners[s] == by_rule
        if s in BOARD:  # §3.2: more pieces than the opponent
            lead = board.pieces(state, s, VERSAILLES) - board.pieces(state, s, 1)
            assert board.controls(state, s, VERSAILLES) == (lead > 0)
    for dim in DIMENSIONS:
        by_rule = next(
            (seat for seat in (0, 1) if board.controls_dimension(state, dim, seat)), None
        )
        assert board.dimension_controller(state, dim) == by_rule


def test_operations_shortcuts_agree_with_the_choices() -> None:
    """``removal_possible`` and ``placement_possible`` (early-exit loops, asked after
    every cube) say what the choices they stand for say: at every operations decision
    of a few games, and where a short cut could go wrong: the side's open spaces full,
    the enemy's cubes gone, or only an enemy disc left to attack with a single point."""
    checked = 0
    for seed in range(1, 7):
        for state in _states(seed, {"solo": ("off", "versailles", "commune")[seed % 3]}):
            if state["stack"][-1]["name"] != "operations":
                continue
            if state["stack"][-1]["stage"] == "space_kind":
                continue
            for variant in ("as played", "full", "no enemy cube", "a disc, one point"):
                copied = copy.deepcopy(state)
                task = copied["stack"][-1]
                seat, eligible = task["seat"], task["assessment"]["eligible"]
                for s in eligible:
                    if variant == "full":
                        copied["cubes"][s][seat] = CUBE_LIMIT
                    elif variant != "as played":
                        copied["cubes"][s][1 - seat] = 0
                if variant == "a disc, one point" and eligible:
                    copied["discs"][eligible[0]] = 1 - seat  # 2 OP to attack (§7.4)
                    task["points"] = 1
                checked += 1
                assert operations.removal_possible(copied, task) == bool(
                    operations.remove_choices(copied, task)
                ), (seed, variant)
                assert operations.placement_possible(copied, task) == bool(
                    operations.place_choices(copied, task)
                ), (seed, variant)
    assert checked > 80


def test_spread_sources_agree_with_the_rule() -> None:
    """A cube can spread out of a space holding one when another space of the dimension
    has room: every count from 0 to the limit in each of a dimension's spaces."""
    state = GAME.setup(2, {}, Context(rng_factory(1), dice_factory(rng_factory(1))))
    spaces = DIM_SPACES[next(iter(DIMENSIONS))]
    for counts in itertools.product(range(CUBE_LIMIT + 1), repeat=len(spaces)):
        for seat in (0, 1):
            for s, count in zip(spaces, counts, strict=True):
                state["cubes"][s][seat] = count
            by_rule = [
                s
                for s, count in zip(spaces, counts, strict=True)
                if count and any(t != s and state["cubes"][t][seat] < CUBE_LIMIT for t in spaces)
            ]
            assert bonus_actions.spread_sources(state, seat, spaces) == by_rule, counts
