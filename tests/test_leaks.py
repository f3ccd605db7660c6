"""Secrets never leak: the Liar's Dice cases that once passed every check now fail
the conformance kit and the fuzzer, naming the event; the correct game passes both."""

from __future__ import annotations

import pytest
from liars import DroppedSeatsLiars, LiarsDice, LiveStateLiars, PublicRollLiars

from tabletop.framework import Event, GameDefinition
from tabletop.framework.chance import LoadedDice, dice_factory, rng_factory
from tabletop.framework.fuzz import fuzz
from tabletop.framework.testing import GameConformance, conformance_kit, new_engine

LEAKY = [
    (PublicRollLiars(), "event 'dice'"),
    (DroppedSeatsLiars(), "event 'cup'"),
    (LiveStateLiars(), "event 'bid'"),
]


class TestLiarsDiceConformance(GameConformance):
    """The correct game passes the whole kit, leak checks included."""

    game = LiarsDice()
    fuzz_games = 20


def _kit(game: GameDefinition) -> GameConformance:
    return conformance_kit(game, seeds=(1, 2))


@pytest.mark.parametrize(("game", "named"), LEAKY, ids=lambda x: getattr(x, "info", x))
def test_a_leaking_game_fails_the_conformance_kit_naming_the_event(
    game: GameDefinition, named: str
) -> None:
    with pytest.raises(AssertionError, match="a leak") as failure:
        _kit(game).test_nothing_a_seat_receives_leaks()
    assert named in str(failure.value)


@pytest.mark.parametrize(("game", "named"), LEAKY, ids=lambda x: getattr(x, "info", x))
def test_a_leaking_game_fails_tabletop_fuzz_naming_the_event(
    game: GameDefinition, named: str
) -> None:
    report = fuzz(game, games=4, seed=3, rng_factory=rng_factory, dice_factory=dice_factory)
    assert report.errors == 4
    assert all("leak" in f.reason and named in f.reason for f in report.failures), [
        f.reason for f in report.failures
    ]


def test_the_correct_game_passes_fuzz() -> None:
    report = fuzz(LiarsDice(), games=30, seed=3, rng_factory=rng_factory, dice_factory=dice_factory)
    assert report.errors == 0, [f.reason for f in report.failures]
    assert report.completed == 30


def test_private_rolls_show_faces_only_to_their_seat_and_work_with_loaded_dice() -> None:
    engine = new_engine(LiarsDice(), seed=1, dice=lambda rng: LoadedDice([6, 5, 2, 2]))
    assert engine.view(0)["you"]["dice"] == [6, 5]
    assert engine.view(1)["you"]["dice"] == [2, 2]
    mine = [e.text for e in engine.events_for(0) if e.kind == "dice"]
    public = [e.text for e in engine.events_for(None) if e.kind == "dice"]
    assert "secret roll: 6, 5 (cup)" in mine and "secret roll: 2, 2 (cup)" not in mine
    assert all("secret roll" not in text for text in public)
    assert public == ["rolled 2d6 in secret (cup)"] * 2
    assert [e.concerns for e in engine.events_for(None) if e.kind == "dice"] == [0, 1]


def test_event_data_keeps_what_was_true_when_it_happened() -> None:
    """The reveal carries the cups as they were, not the next round's secret dice."""
    engine = new_engine(LiarsDice(), seed=5, dice=lambda rng: LoadedDice([1, 1, 2, 2, 3, 4, 5]))
    engine.act(0, "bid:1:1")
    engine.act(1, "challenge")  # two 1s shown: the challenger loses; new round rolled
    reveal = next(e for e in engine.events_for(None) if e.kind == "reveal")
    assert reveal.data["dice"] == [[1, 1], [2, 2]]
    assert engine.state["dice"] == [[3, 4], [5]]
    assert engine.events_for(None)[-1].kind == "dice"


def test_a_logged_event_is_the_event_with_its_data_copied() -> None:
    """``Event.logged`` (the context's fast path) makes what ``Event(...)`` makes."""
    cups = [[1, 2], [3]]
    made = Event("reveal", "cups lifted", {"dice": cups, "n": 3}, frozenset({0}), 1, 0)
    logged = Event.logged("reveal", "cups lifted", {"dice": cups, "n": 3}, frozenset({0}), 1, 0)
    assert logged == made and logged.to_json() == made.to_json()
    cups[0].append(6)
    assert logged.data["dice"] == [[1, 2], [3]] == made.data["dice"]
    for name in ("kind", "text", "data", "seats"):  # frozen, as every event is
        with pytest.raises(AttributeError):
            setattr(logged, name, None)


def test_a_challenge_is_told_in_full_and_a_bid_by_its_own_event() -> None:
    """Issue 26: the challenge is public ("Player 1 chose: Challenge the last bid"); a bid
    stays a secret choice line, since the game's own public "bids" event says it."""
    engine = new_engine(LiarsDice(), seed=1, players=2)
    bid = engine.prompt
    assert bid is not None and bid.seat == 0
    engine.act(0, bid.choices[0].action)
    assert engine.choice_line(engine.log[-1], 1) == "Player 1 decided."
    assert any(line.text.startswith("Player 1: bids ") for line in engine.story(1))
    engine.act(1, "challenge")
    assert engine.choice_line(engine.log[-1], 0) == "Player 2 chose: Challenge the last bid"
