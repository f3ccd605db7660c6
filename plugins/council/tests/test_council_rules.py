"""Council's rules, one test per section, driven through the engine with loaded dice."""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from tabletop.framework import IllegalAction
from tabletop.framework.bots import RandomBot
from tabletop.framework.chance import LoadedDice, rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.errors import UndoRefused
from tabletop.framework.session import GameSession
from tabletop.framework.testing import new_engine
from tabletop.games.council import Council


def _engine(players: int = 3, faces: Iterable[int] = ()) -> Engine:
    return new_engine(Council(), players=players, dice=lambda rng: LoadedDice(faces))


def _seal(engine: Engine, agendas: list[str]) -> None:
    for agenda in agendas:
        prompt = engine.prompt
        assert prompt is not None and prompt.rule == "§2.1"
        engine.act(prompt.seat, f"agenda:{agenda}")


def _vote(engine: Engine, votes: list[str]) -> None:
    for vote in votes:
        prompt = engine.prompt
        assert prompt is not None and prompt.rule == "§2.3"
        engine.act(prompt.seat, f"vote:{vote}")


def test_s2_1_sealed_agendas_stay_hidden_until_all_are_in() -> None:
    engine = _engine()
    engine.act(0, "agenda:grain")
    assert engine.view(0)["you"]["agenda"] == "grain"
    for seat in (1, 2, None):
        view = engine.view(seat)
        assert "grain" not in str(view["agendas"])
        assert view["seats"][0]["fields"]["agenda"] == "sealed"
    public = [e.text for e in engine.events_for(1)]
    assert "has chosen (agenda)" in public and not any("grain" in t for t in public)
    engine.act(1, "agenda:walls")
    engine.act(2, "agenda:walls")
    reveal = [e for e in engine.history if e[1].kind == "reveal"]
    assert len(reveal) == 1 and "Councillor 1: grain" in reveal[0][1].text
    # an agenda nobody shares is worth 2, a shared one 1
    assert engine.state["influence"] == [2, 1, 1]


def test_s2_1_a_seat_must_seal_in_turn() -> None:
    engine = _engine()
    with pytest.raises(IllegalAction):
        engine.act(1, "agenda:grain")


def test_s2_2_the_proposal_is_drawn_from_the_bag_in_public() -> None:
    engine = _engine()
    _seal(engine, ["grain", "walls", "temple"])
    proposal = engine.state["proposal"]
    assert proposal in ("grain", "walls", "temple")
    assert sorted(engine.state["bag"] + [proposal]) == sorted(
        ["grain", "grain", "walls", "walls", "temple", "temple"]
    )
    draw = [e for e in engine.events_for(None) if e.kind == "draw"]
    assert draw and proposal in draw[0].text


def test_s2_3_votes_go_round_in_seat_order_and_a_majority_passes() -> None:
    engine = _engine()
    _seal(engine, ["grain", "grain", "walls"])
    engine.state["proposal"] = "grain"  # as if grain had been drawn
    before = list(engine.state["influence"])
    assert engine.prompt is not None and engine.prompt.seat == 0
    engine.act(0, "vote:yes")
    assert engine.view(2)["seats"][0]["fields"]["vote"] == "yes"  # votes are public
    with pytest.raises(IllegalAction):
        engine.act(2, "vote:no")  # seat 1 votes before seat 2
    engine.act(1, "vote:yes")
    engine.act(2, "vote:no")
    assert engine.state["influence"] == [before[0] + 3, before[1] + 3, before[2]]


def test_s2_3_each_vote_is_told_once_by_its_own_public_event() -> None:
    """Issue 26: a vote is public, but the vote's own event ("votes yes (proposal)")
    already tells every seat, so the choice is not marked public as well: the other
    seats read "Councillor 1 decided." and the event once, not the vote twice."""
    engine = _engine()
    _seal(engine, ["grain", "grain", "walls"])
    engine.act(0, "vote:yes")
    told = [line.text for line in engine.story(1) if line.action == 4]
    assert told == ["Councillor 1 decided.", "Councillor 1: votes yes (proposal)"]
    engine.state["proposal"] = "grain"
    _vote(engine, ["yes", "no"])  # the outcome concerns no councillor: no name leads it
    assert "The grain proposal passes, 2 to 1" in [line.text for line in engine.story(1)]


def test_s2_3_a_failed_proposal_rewards_the_no_votes() -> None:
    engine = _engine()
    _seal(engine, ["grain", "walls", "temple"])
    before = list(engine.state["influence"])
    _vote(engine, ["yes", "no", "no"])
    assert engine.state["influence"] == [before[0], before[1] + 1, before[2] + 1]


def test_s2_4_consuls_who_agree_each_gain_one() -> None:
    engine = _engine()
    _seal(engine, ["grain", "walls", "temple"])
    _vote(engine, ["no", "no", "no"])
    before = list(engine.state["influence"])
    engine.act(0, "consul:feast")
    assert "feast" not in str(engine.view(1)["consuls"])  # sealed from the colleague
    engine.act(1, "consul:feast")
    assert engine.state["influence"] == [before[0] + 1, before[1] + 1, before[2]]


def test_s2_4_a_disagreement_goes_to_a_die_off_rolled_again_on_a_tie() -> None:
    engine = _engine(faces=[4, 4, 2, 5])
    _seal(engine, ["grain", "walls", "temple"])
    _vote(engine, ["no", "no", "no"])
    before = list(engine.state["influence"])
    engine.act(0, "consul:feast")
    engine.act(1, "consul:fleet")
    assert engine.state["influence"] == [before[0], before[1] + 2, before[2]]
    rolls = [e.text for e in engine.events_for(None) if e.kind == "dice"]
    assert rolls == [
        "rolled 4 (die-off)",
        "rolled 4 (die-off)",
        "rolled 2 (die-off)",
        "rolled 5 (die-off)",
    ]
    assert any(
        "wins the die-off: fleet" in e.text and e.concerns == 1 for e in engine.events_for(None)
    )


def test_s2_5_the_first_councillor_moves_each_round_and_three_rounds_end_it() -> None:
    engine = new_engine(Council(), seed=3, players=3)
    firsts = []
    while engine.prompt is not None:
        if engine.state["first"] not in firsts:
            firsts.append(engine.state["first"])
        prompt = engine.prompt
        engine.act(prompt.seat, prompt.choices[0].action)
    assert firsts == [0, 1, 2]
    result = engine.result
    assert result is not None and result.winners
    assert max(engine.state["influence"]) == engine.state["influence"][result.winners[0]]


def test_undo_cannot_take_back_a_sealed_agenda_once_the_next_seat_has_sealed() -> None:
    session = GameSession.start(
        Council(),
        seed=1,
        players=2,
        options={},
        controllers=["human", "random"],
        bot_factories={"random": lambda game: RandomBot()},
        rng_factory=rng_factory,
        dice_factory=lambda rng: LoadedDice([]),
    )
    session.act(0, "agenda:grain")
    session.play_bot()  # the bot seals and the agendas are revealed
    with pytest.raises(UndoRefused):
        session.undo(by=0)


def test_s2_5_each_round_ends_with_a_public_recap_of_the_agendas_vote_and_influence() -> None:
    from tabletop.framework import SUMMARY

    engine = new_engine(Council(), seed=3, players=3)
    recaps = []
    while engine.prompt is not None:
        prompt = engine.prompt
        before = list(engine.state["influence"])
        events = engine.act(prompt.seat, prompt.choices[0].action)
        recaps += [(e, before) for e in events if e.kind == SUMMARY]
    titles = [event.text for event, _ in recaps]
    assert titles == ["End of round 1 of 3", "End of round 2 of 3", "End of round 3 of 3"]
    final, _ = recaps[-1]
    assert final.seats is None and final.concerns is None
    lines = final.data["lines"]
    assert lines[0].startswith("Agendas: Councillor 1 ")
    influence = engine.state["influence"]
    assert f"Influence now: Councillor 1 {influence[0]}, Councillor 2 {influence[1]}" in lines[2]
    assert lines[-1].startswith("The council rises")
    assert recaps[0][0].data["lines"][-1] == "Next: round 2, Councillor 2 first (§2.5)"
