"""The small things of issue 38: labels other seats read say no "you", the kit fuzzes
only the player counts it is told to, a caught leak's advice never offers a reveal
without saying what a reveal declares, and ``testing.sample`` shows an author what a
search bot sees."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from hiddencards import KeepsCards, UntoldDrawCards, WhisperCards
from toygames import HighCard

from tabletop.framework import GameDefinition, Prompt, State
from tabletop.framework.fuzz import fuzz
from tabletop.framework.leaks import REVEAL_WARNING
from tabletop.framework.testing import GameConformance, conformance_kit, new_engine, sample
from tabletop.games.pig import Pig


class YouPig(Pig):
    """Every label speaks to the reader: fine for the deciding seat, wrong in the
    others' logs, which read "Player 1 chose: Hold your 12"."""

    def prompt(self, state: State) -> Prompt | None:
        prompt = super().prompt(state)
        if prompt is None:
            return None
        choices = tuple(
            dataclasses.replace(c, label=f"{c.label} (your call)") for c in prompt.choices
        )
        return dataclasses.replace(prompt, choices=choices)


def test_a_label_other_seats_read_may_not_say_you() -> None:
    report = fuzz(YouPig(), games=1, seed=1, options={"banks": "open"})
    assert report.errors == 1
    assert "yet it says 'your': name the seat instead" in report.failures[0].reason
    assert fuzz(Pig(), games=3, seed=1, options={"banks": "open"}).errors == 0


def test_a_private_label_in_a_game_that_hides_may_say_you() -> None:
    """With secret banks the others read "Player 1 decided.": the label is the deciding
    seat's alone."""
    assert fuzz(YouPig(), games=2, seed=1, options={"banks": "secret"}).errors == 0


class CrowdedPig(Pig):
    """Breaks an invariant at six players (a game declared for 2-6 whose author only
    supports 2-4 for now, and says so to the kit)."""

    def invariants(self, state: State) -> Sequence[str]:
        return ["six players"] if len(state["banks"]) == 6 else super().invariants(state)


class TwoToFour(GameConformance):
    players = (2, 4)
    seeds = (1,)
    fuzz_games = 6


def test_the_kits_fuzz_test_plays_only_the_player_counts_it_is_given() -> None:
    conformance_kit(CrowdedPig(), TwoToFour).test_fuzz()
    with pytest.raises(AssertionError, match="six players"):
        conformance_kit(CrowdedPig(), TwoToFour, players=(6,)).test_fuzz()


def test_sample_is_a_world_the_seat_cannot_tell_from_the_real_one() -> None:
    engine = new_engine(Pig(), seed=4, players=3, options={"banks": "secret"})
    for action in ("roll", "roll", "hold", "roll", "hold"):
        prompt = engine.prompt
        assert prompt is not None
        engine.act(prompt.seat, action)
    worlds = [sample(engine, 0, seed=seed) for seed in range(6)]
    assert all(world["banks"][0] == engine.state["banks"][0] for world in worlds)
    assert len({tuple(world["banks"][1:]) for world in worlds}) > 1  # the others' drawn again
    assert all(Pig().view(world, 0) == engine.view(0) for world in worlds)
    with pytest.raises(ValueError, match="seat 5"):
        sample(engine, 5)


def test_sample_refuses_a_game_that_cannot_be_sampled() -> None:
    engine = new_engine(HighCard(), seed=1)
    with pytest.raises(Exception, match="determiniz"):
        sample(engine, 0)


@pytest.mark.parametrize("game", [KeepsCards(), UntoldDrawCards(), WhisperCards()])
def test_a_caught_leak_never_offers_a_reveal_without_saying_what_it_declares(
    game: GameDefinition,
) -> None:
    """Issue 38: "tell it with ctx.reveal(...)" turned a caught leak into an uncaught
    one. Every message that mentions a reveal says that it declares the information
    public by the rules, and that the checks then trust it."""
    report = fuzz(game, games=8, seed=5)
    assert report.failures, "the leaking game must be caught"
    for failure in report.failures:
        if "ctx.reveal" in failure.reason:
            assert REVEAL_WARNING in failure.reason
            assert failure.reason.index("leave the") < failure.reason.index("ctx.reveal")
