"""The Assembly's votes, each rule on its own: vote-based justice (R.1.4.2, R.7.4.2,
R.9.4.2, R.10.4.2), the vote of confidence and its ties (8.2, R.1.5), deputies' votes on
laws and their tie-break (7.5.2.3.1, R.1.3), and the automated Marais' ballots
(15.2.1.4)."""

from __future__ import annotations

import pytest
from lrf_helpers import context, engine_at, fresh, jail, law_vote_task, seat

from tabletop.framework import State
from tabletop.framework.decisions import OrderedVote
from tabletop.games.la_revolution_francaise.core import seat_of
from tabletop.games.la_revolution_francaise.patriot import challenger, criticism_start
from tabletop.games.la_revolution_francaise.political.king import trial_verdict
from tabletop.games.la_revolution_francaise.political.proposals import trial_allowed
from tabletop.games.la_revolution_francaise.political.voters import deputy_voters, marais_auto_vote
from tabletop.games.la_revolution_francaise.political.votes import fame_voters


def set_deputies(state: State, **counts: int) -> None:
    for current, count in counts.items():
        state["assembly"][current]["count"] = count


def justice_vote(state: State, person: str, votes: dict[str, str]) -> State:
    """Jail ``person``, hold the justice vote with each seat's answer, return the state."""
    jail(state, person)
    voters = [s for s, _ in deputy_voters(state)]
    engine = engine_at(
        state,
        [{"kind": "justice_vote", "person": person, "vote": OrderedVote.new("fate", voters)}],
    )
    for voter in voters:
        current = next(c for c, s in ((c, seat_of(state, c)) for c in votes) if s == voter)
        engine.act(voter, f"vote:{votes[current]}")
    return engine.state


# Justice by vote ---------------------------------------------------------------------------

EVERYONE_GUILTY = {c: "guilty" for c in ("R", "F", "M", "G", "MT", "SC")}


def test_r_1_4_2_a_majority_of_deputies_decides_the_prisoners_fate() -> None:
    """Roux before the Legislative: F 8 + R 2 + G 4 guilty = 14 against M 10 + MT 1 +
    SC 1 innocent = 12: he stays; with the Gironde's 4 on the other side he goes free."""
    votes = {**EVERYONE_GUILTY, "M": "innocent", "MT": "innocent", "SC": "innocent"}
    assert justice_vote(fresh(), "Roux", votes)["persons"]["Roux"]["status"] == "prison"
    votes["G"] = "innocent"
    assert justice_vote(fresh(), "Roux", votes)["persons"]["Roux"]["status"] == "fled"


def test_r_1_4_2_a_tie_is_decided_by_the_kings_holder() -> None:
    """10 against 10: the Feuillant holds the King, and its own vote decides."""
    for feuillant, fate in (("guilty", "prison"), ("innocent", "fled")):
        state = fresh()
        set_deputies(state, F=10, M=10, R=0, G=0, MT=0, SC=0)
        other = "innocent" if feuillant == "guilty" else "guilty"
        votes = {**EVERYONE_GUILTY, "F": feuillant, "M": other}
        assert justice_vote(state, "Roux", votes)["persons"]["Roux"]["status"] == fate


def test_r_9_4_2_under_the_federal_republic_the_government_breaks_a_tie() -> None:
    """R.9.4.2 (and R.7.4.2, R.10.4.2): the Government, not the King, decides a tie."""
    for gironde, fate in (("innocent", "fled"), ("guilty", "prison")):
        state = fresh(scenario="open")
        state["regime"] = "ffr"
        state["gov"]["controller"] = "G"
        set_deputies(state, F=0, M=6, R=0, G=6, MT=0, SC=0)
        other = "guilty" if gironde == "innocent" else "innocent"
        votes = {**EVERYONE_GUILTY, "G": gironde, "M": other}
        assert justice_vote(state, "Roux", votes)["persons"]["Roux"]["status"] == fate


def test_8_1_justice_is_by_vote_or_by_dice_as_the_regime_says() -> None:
    """The Legislative asks the Assembly; the Terror rolls on the Government's fame."""
    for regime, rule in (("legislative", "8.1"), ("terror", None)):
        state = fresh()
        state["regime"] = regime
        jail(state, "Roux")
        engine = engine_at(state, [{"kind": "patriot_start"}], first=[6, 6])
        prompt = engine.prompt
        if rule is None:  # the Terror: the dice (12 on fame 10: A) send him to die
            assert engine.state["persons"]["Roux"]["status"] == "dead"
        else:
            assert prompt is not None and prompt.rule == rule and "Roux" in prompt.text


# The vote of confidence ------------------------------------------------------------------


def confidence(state: State, votes: dict[str, str]) -> State:
    voters = [seat(state, c) for c in votes]
    engine = engine_at(
        state, [{"kind": "confidence", "vote": OrderedVote.new("confidence", voters)}]
    )
    for current, vote in votes.items():
        engine.act(seat(state, current), f"vote:{vote}")
    return engine.state


def test_8_2_a_tie_is_no_absolute_majority_and_the_government_stays() -> None:
    state = fresh()
    set_deputies(state, F=8, G=8, M=10)
    after = confidence(state, {"F": "confidence", "G": "disapproval", "M": "abstention"})
    assert after["gov"]["controller"] == "F"
    state = fresh()
    set_deputies(state, F=8, G=9, M=10)  # one more disapproving deputy topples it
    after = confidence(state, {"F": "confidence", "G": "disapproval", "M": "abstention"})
    assert after["gov"]["controller"] == "G"


def test_8_2_abstentions_are_not_counted() -> None:
    """The Gironde's 4 alone against a Feuillant and a Marais who both abstain: 4 of 4
    votes cast is an absolute majority."""
    after = confidence(fresh(), {"F": "abstention", "G": "disapproval", "M": "abstention"})
    assert after["gov"]["controller"] == "G"


def test_r_1_5_no_vote_of_confidence_when_the_opposite_current_is_outlawed() -> None:
    state = fresh()
    criticism_start(state, {"kind": "criticism_start"}, context())
    assert state["tasks"] and state["tasks"][-1]["kind"] == "confidence"
    state = fresh()
    state["outlawed"].append("G")
    criticism_start(state, {"kind": "criticism_start"}, context())
    assert not state["tasks"]


# Deputies' votes on laws -------------------------------------------------------------------


def law_vote(state: State, law: str, proposer: str, votes: dict[str, str]) -> State:
    voters = [s for s, _ in deputy_voters(state)]
    engine = engine_at(state, [law_vote_task(law, proposer, voters)])
    for voter in voters:
        current = next(c for c in votes if seat_of(state, c) == voter)
        engine.act(voter, f"vote:{votes[current]}")
        prompt = engine.prompt
        if prompt is not None and prompt.rule == "11.1":  # the King's veto: none
            engine.act(prompt.seat, "veto:no")
    return engine.state


def test_7_5_2_3_1_a_majority_of_deputies_passes_a_law() -> None:
    """Civic Law proposed by the Gironde: F 8 + M 10 against G 4 + the hidden 4 fails;
    with the Marais' 10 on the Gironde's side it passes (+1 fame, 13.4)."""
    no = {"R": "yes", "F": "no", "M": "no", "G": "yes", "MT": "yes", "SC": "yes"}
    state = law_vote(fresh(), "civic", "G", no)
    assert state["currents"]["G"]["fame"] == 11
    state = law_vote(fresh(), "civic", "G", {**no, "M": "yes"})
    assert state["currents"]["G"]["fame"] == 12


def test_r_1_3_a_tie_is_broken_by_the_current_holding_the_king() -> None:
    """Legislative tie, 10 against 10: the King's holder (the Feuillant) decides by its
    own vote."""
    for feuillant, fame in (("yes", 12), ("no", 11)):
        state = fresh()
        set_deputies(state, F=10, M=10, R=0, G=0, MT=0, SC=0)
        other = "no" if feuillant == "yes" else "yes"
        votes = {"R": "yes", "F": feuillant, "M": other, "G": "yes", "MT": "yes", "SC": "yes"}
        assert law_vote(state, "civic", "G", votes)["currents"]["G"]["fame"] == fame


# 15.2.1.4 The automated Marais votes by a die -----------------------------------------------


def test_15_2_1_4_the_automated_marais_votes_by_a_die() -> None:
    state = fresh(5)
    assert [marais_auto_vote(state, context([f])) for f in (1, 2, 3, 4, 5, 6)] == [
        "with",
        "with",
        "abstain",
        "abstain",
        "against",
        "against",
    ]


def test_15_2_1_4_plus_one_on_outlawing_the_merciful_under_the_terror() -> None:
    state = fresh(5)
    state["regime"] = "terror"
    assert marais_auto_vote(state, context([2]), "outlaw_indulgents") == "abstain"
    assert marais_auto_vote(state, context([4]), "outlaw_indulgents") == "against"
    assert marais_auto_vote(state, context([2]), "civic") == "with"
    state["regime"] = "thermidor"
    assert marais_auto_vote(state, context([2]), "outlaw_indulgents") == "with"


def test_7_5_2_3_2_who_may_modify_a_fame_vote_and_how_much() -> None:
    """Under the Terror with the Commune raised by the Sans-Culotte: the Marais +-2, the
    Montagne (present) +-1, the Sans-Culotte +-3 though absent from the Assembly; the
    Feuillant, the Gironde and the Royalist (absent) nothing. Under Prairial (R.8.3) the
    Marais has no say."""
    state = fresh()
    state["regime"] = "terror"
    state["commune"] = {"raised": True, "controller": "SC"}
    ranges = {
        c: r
        for c in ("F", "G", "M", "R", "MT", "SC")
        for s, r in fame_voters(state)
        if s == seat(state, c)
    }
    assert ranges == {"M": 2, "MT": 1, "SC": 3}
    state["regime"] = "prairial"
    ranges = {c: r for c in ("M", "MT", "SC") for s, r in fame_voters(state) if s == seat(state, c)}
    assert ranges == {"MT": 1, "SC": 3}


@pytest.mark.parametrize(
    ("regime", "government", "challenger_"),
    [
        ("legislative", "F", "G"),  # R.1.5
        ("legislative", "G", "F"),
        ("convention", "G", None),  # R.2.5: none
        ("terror", "MT", None),  # R.3.5
        ("thermidor", "M", None),  # R.4.5
        ("wrath", "SC", None),  # R.5.5
        ("mercy", "MT", "M"),  # R.6.5
        ("mercy", "M", "MT"),
        ("prairial", "MT", None),  # R.8.5
        ("ffr", "G", "M"),  # R.9.5
        ("ffr", "M", "G"),
        ("froi", "MT", "SC"),  # R.10.5
        ("froi", "SC", "MT"),
    ],
)
def test_r_x_5_who_takes_the_government_when_confidence_fails(
    regime: str, government: str, challenger_: str | None
) -> None:
    """Each regime's criticism: the opposite Current, or no vote of confidence at all."""
    state = fresh(scenario="open")
    state["regime"] = regime
    state["gov"]["controller"] = government
    assert challenger(state) == challenger_
    criticism_start(state, {"kind": "criticism_start"}, context())
    assert bool(state["tasks"]) == (challenger_ is not None)


@pytest.mark.parametrize(
    ("regime", "tried", "gov_voted_guilty", "allowed"),
    [
        ("legislative", 0, False, False),  # not a provisional regime
        ("convention", 0, False, True),
        ("convention", 1, True, False),  # once only
        ("terror", 3, False, True),  # as often as it wishes
        ("wrath", 2, False, True),
        ("prairial", 1, False, True),
        ("thermidor", 0, False, True),
        ("thermidor", 1, True, True),  # again, as the Government voted guilty
        ("thermidor", 1, False, False),
        ("mercy", 2, True, False),  # never a third
        ("directorate", 0, False, False),
    ],
)
def test_11_4_when_the_king_may_be_tried(
    regime: str, tried: int, gov_voted_guilty: bool, allowed: bool
) -> None:
    state = fresh(scenario="open")
    state["regime"] = regime
    jail(state, "Louis XVI")
    state["king"].update({"tried": tried, "gov_voted_guilty": gov_voted_guilty})
    assert trial_allowed(state) == allowed
    state["persons"]["Louis XVI"]["status"] = "free"
    assert not trial_allowed(state)  # never while he is free


def test_11_4_a_king_found_innocent_stays_in_prison_and_the_tracks_fall() -> None:
    state = fresh()
    state["regime"] = "convention"
    jail(state, "Louis XVI")
    state["tracks"].update({"coalition": 12, "clergy": 12})
    trial_verdict(state, False, context())
    assert state["persons"]["Louis XVI"]["status"] == "prison" and not state["king"]["dead"]
    assert (state["tracks"]["coalition"], state["tracks"]["clergy"]) == (7, 7)
    fames = {c: state["currents"][c]["fame"] for c in ("SC", "MT", "G", "F")}
    assert fames == {"SC": 5, "MT": 6, "G": 13, "F": 14}
    assert state["king"]["tried"] == 1
