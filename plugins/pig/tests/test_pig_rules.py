"""Pig's rules, each checked with loaded dice (sections as in the rules summary)."""

from __future__ import annotations

from collections.abc import Iterable

from tabletop.framework.chance import LoadedDice
from tabletop.framework.engine import Engine
from tabletop.framework.testing import new_engine
from tabletop.games.pig import HOLD, ROLL, Pig


def _engine(faces: Iterable[int], players: int = 2, **options: str) -> Engine:
    loaded = list(faces)
    return new_engine(Pig(), players=players, options=options, dice=lambda rng: LoadedDice(loaded))


def test_rolls_add_to_the_turn_total_and_hold_banks_it() -> None:  # §2, §2.2
    engine = _engine([4, 5])
    engine.act(0, ROLL())
    engine.act(0, ROLL())
    assert engine.state["turn_total"] == 9
    engine.act(0, HOLD())
    assert engine.state["banks"] == [9, 0]
    assert engine.prompt is not None and engine.prompt.seat == 1


def test_hold_is_offered_only_with_points_at_risk() -> None:  # §2.2
    engine = _engine([3])
    assert engine.prompt is not None and engine.prompt.actions() == (ROLL(),)
    engine.act(0, ROLL())
    assert engine.prompt is not None and engine.prompt.actions() == (ROLL(), HOLD())


def test_a_one_loses_the_turn_total_and_passes_the_die() -> None:  # §2.1
    engine = _engine([6, 1])
    engine.act(0, ROLL())
    events = engine.act(0, ROLL())
    assert engine.state["turn_total"] == 0 and engine.state["banks"] == [0, 0]
    assert engine.prompt is not None and engine.prompt.seat == 1
    assert any(e.kind == "bust" for e in events)


def test_reaching_the_target_wins() -> None:  # §1
    engine = _engine([6] * 9)
    for _ in range(9):
        engine.act(0, ROLL())
    engine.act(0, HOLD())
    result = engine.result
    assert result is not None and result.winners == (0,) and result.scores == (54.0, 0.0)


def test_two_dice_and_snake_eyes() -> None:  # §3
    engine = _engine([3, 4, 1, 1], dice="two")
    engine.act(0, ROLL())
    assert engine.state["turn_total"] == 7
    engine.act(0, HOLD())
    assert engine.state["banks"] == [7, 0]
    engine2 = _engine([5, 5, 1, 1], dice="two")
    engine2.act(0, ROLL())
    engine2.act(0, HOLD())
    engine2.act(1, ROLL())  # seat 1 rolls double 1s on an empty bank: no change
    assert engine2.state["banks"] == [10, 0]
    engine3 = _engine([5, 5, 2, 2, 1, 1], dice="two")
    engine3.act(0, ROLL())
    engine3.act(0, HOLD())
    engine3.act(1, ROLL())
    engine3.act(1, HOLD())
    engine3.act(0, ROLL())  # snake eyes wipes seat 0's bank of 10
    assert engine3.state["banks"] == [0, 4]


def test_secret_banks_are_hidden_until_the_end() -> None:  # §4
    engine = _engine([6] * 9 + [5, 4], players=3, banks="secret")
    engine.act(0, ROLL())
    engine.act(0, HOLD())
    assert engine.view(0)["banks"] == [6, None, None]
    assert engine.view(1)["banks"] == [None, 0, None]
    assert engine.view(None)["banks"] == [None, None, None]
    assert Pig().hides_information({"banks": "secret"})
    assert not Pig().hides_information({"banks": "open"})


def test_invariants_catch_a_broken_state() -> None:
    engine = _engine([])
    state = dict(engine.state, banks=[-1, 60], winner=None)
    problems = Pig().invariants(state)
    assert "a bank is negative" in problems
    assert "someone reached the target but nobody won" in problems
    assert Pig().invariants(engine.state) == []
