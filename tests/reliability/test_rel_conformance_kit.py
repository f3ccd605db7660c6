"""The conformance kit fails games that break its promises (a kit that cannot fail
proves nothing), and skips, rather than passes, what it cannot check."""

from __future__ import annotations

import random
from typing import Any

import pytest
from toygames import HighCard

from tabletop.framework import Action, Context, GameDefinition, RandomSource, State
from tabletop.framework.testing import GameConformance, conformance_kit
from tabletop.games.pig import Pig


class LeakyPig(Pig):
    """Secret banks that are not secret: the view shows every bank."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "all_banks": list(state["banks"])}


class FlakyPig(Pig):
    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        super().apply(state, seat, action, ctx)
        state["noise"] = random.random()


class SetView(Pig):
    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {**super().view(state, seat), "seats": {seat}}


def _pig_variants(state: State, seat: int, rng: RandomSource) -> State:
    variant = {**state, "banks": list(state["banks"])}
    if state["secret"] and state["winner"] is None:
        for other in range(len(variant["banks"])):
            if other != seat:
                variant["banks"][other] = rng.randint(0, state["target"] - 1)
    return variant


class Kit(GameConformance):
    seeds = (1,)
    players = (2,)
    fuzz_games = 5

    def hidden_variants(self, state: State, seat: int, rng: RandomSource) -> State:
        return _pig_variants(state, seat, rng)


def _kit(game: GameDefinition, base: type[GameConformance] = Kit) -> GameConformance:
    return conformance_kit(game, base)


def test_a_leaking_view_fails_the_hidden_information_check() -> None:
    with pytest.raises(AssertionError, match="a leak"):
        _kit(LeakyPig()).test_views_hide_hidden_information()
    _kit(Pig()).test_views_hide_hidden_information()  # the real Pig passes


def test_nondeterminism_fails_the_determinism_and_fuzz_checks() -> None:
    kit = _kit(FlakyPig())
    with pytest.raises(AssertionError, match="same seed and actions, another game"):
        kit.test_same_seed_and_actions_give_the_same_game()
    with pytest.raises(AssertionError, match="fuzzing found"):
        kit.test_fuzz()


def test_a_view_that_is_not_json_fails() -> None:
    with pytest.raises(AssertionError, match="not JSON data"):
        _kit(SetView()).test_views_are_json_and_leave_the_state_alone()


def test_what_cannot_be_checked_is_skipped_not_passed() -> None:
    kit = _kit(HighCard(), GameConformance)  # hidden cards, no determinize, no override
    with pytest.raises(pytest.skip.Exception, match="no way to resample hidden information"):
        kit.test_views_hide_hidden_information()


def test_default_configurations_cover_player_counts_and_each_option() -> None:
    configs = _kit(Pig(), GameConformance).configurations()
    assert {players for players, _ in configs} == {2, 6}
    options = [opts for players, opts in configs if players == 2]
    assert options == [{}, {"target": "100"}, {"dice": "two"}, {"banks": "secret"}]
