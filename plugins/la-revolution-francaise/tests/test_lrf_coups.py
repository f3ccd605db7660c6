"""Who may attempt which popular coup under each regime (R.x.7.2): each case is a
position where the rulebook allows it, and the same position with the one condition
that fails (the Commune a level lower, or at war rather than at peace, or the reverse),
where it must not be offered."""

from __future__ import annotations

from typing import Any

import pytest
from lrf_helpers import context, engine_at, fresh, place, seat

from tabletop.framework import State
from tabletop.framework.decisions import OrderedVote
from tabletop.games.la_revolution_francaise.coups.candidates import (
    limited_candidates,
    military_candidates,
    popular_candidates,
)
from tabletop.games.la_revolution_francaise.coups.outcome import (
    coup_failure,
    coup_roll,
    coup_success,
)
from tabletop.games.la_revolution_francaise.political.install import install
from tabletop.games.la_revolution_francaise.tasks import CoupAttempt
from tabletop.games.la_revolution_francaise.verbs import REACT

LEVEL = {1: 4, 2: 12, 3: 18}  # a Commune track value at each level (B10)

# (section, regime, Government, Commune's controller, its level, foreign war, civil war,
#  the Current, the regime it may install, what breaks it: a field and its new value)
POPULAR: list[tuple[str, str, str, str, int, bool, bool, str, str, tuple[str, Any]]] = [
    ("R.1.7.2.1", "legislative", "F", "SC", 2, False, False, "G", "convention", ("level", 1)),
    ("R.2.7.2.1", "convention", "G", "SC", 1, True, True, "MT", "terror", ("leader", "G")),
    ("R.2.7.2.1", "convention", "G", "MT", 2, False, False, "MT", "mercy", ("level", 1)),
    ("R.3.7.2.1", "terror", "MT", "SC", 3, False, False, "M", "mercy", ("level", 2)),
    ("R.3.7.2.2", "terror", "MT", "SC", 3, True, True, "SC", "wrath", ("civil", False)),
    ("R.4.7.2.1", "thermidor", "M", "MT", 3, True, False, "MT", "prairial", ("war", False)),
    ("R.4.7.2.2", "thermidor", "M", "SC", 3, False, True, "SC", "prairial", ("level", 2)),
    ("R.5.7.2.1", "wrath", "SC", "MT", 2, False, False, "M", "thermidor", ("level", 1)),
    ("R.6.7.2.1", "mercy", "M", "SC", 3, False, False, "MT", "terror", ("level", 2)),
    ("R.7.7.2.1", "directorate", "M", "MT", 3, False, False, "MT", "prairial", ("level", 2)),
    ("R.7.7.2.2", "directorate", "M", "SC", 2, False, False, "SC", "prairial", ("level", 1)),
    ("R.7.7.2.3", "directorate", "M", "R", 2, False, False, "R", "vendemiaire", ("level", 1)),
    ("R.8.7.2.1", "prairial", "MT", "R", 3, True, False, "R", "vendemiaire", ("war", False)),
    ("R.9.7.2.1", "ffr", "G", "SC", 2, True, False, "MT", "terror", ("level", 1)),
    ("R.9.7.2.2", "ffr", "G", "MT", 3, False, False, "MT", "mercy", ("level", 2)),
]


def position(regime: str, gov: str, leader: str, level: int, war: bool, civil: bool) -> State:
    state = fresh(scenario="open")
    state["regime"] = regime
    state["gov"]["controller"] = gov
    state["commune"] = {"raised": True, "controller": leader}
    state["tracks"]["commune"] = LEVEL[level]
    state["war"] = war
    for region in ("Brest", "Nîmes", "Caen", "Rouen") if civil else ():
        state["regions"][region]["revolt"] = True  # four revolts: civil war (7.4.2.1)
    return state


def offered(state: State, current: str, target: str) -> bool:
    return any(c == current and target in t for c, t in popular_candidates(state))


@pytest.mark.parametrize(
    ("section", "regime", "gov", "leader", "level", "war", "civil", "current", "target", "fail"),
    POPULAR,
    ids=[f"{row[0]}-{row[8]}" for row in POPULAR],
)
def test_r_x_7_2_popular_coups_by_regime(
    section: str,
    regime: str,
    gov: str,
    leader: str,
    level: int,
    war: bool,
    civil: bool,
    current: str,
    target: str,
    fail: tuple[str, Any],
) -> None:
    assert offered(position(regime, gov, leader, level, war, civil), current, target), section
    field, value = fail
    leader = value if field == "leader" else leader
    level = value if field == "level" else level
    war = value if field == "war" else war
    civil = value if field == "civil" else civil
    assert not offered(position(regime, gov, leader, level, war, civil), current, target)


def test_r_10_7_2_1_the_marais_coup_under_one_and_indivisible_needs_the_commune_down() -> None:
    state = position("froi", "MT", "MT", 3, False, False)
    assert not offered(state, "M", "thermidor")
    state["commune"] = {"raised": False, "controller": None}
    assert offered(state, "M", "thermidor")


def test_r_1_7_1_limited_coups_in_the_legislative() -> None:
    """The Feuillant may seize a Gironde Government; the Gironde a Feuillant one only
    after the Feuillant's own coup or with the Commune at level III."""
    state = position("legislative", "G", "SC", 1, False, False)
    assert limited_candidates(state) == ["F"]
    state = position("legislative", "F", "SC", 2, False, False)
    assert limited_candidates(state) == []
    state["tracks"]["commune"] = LEVEL[3]
    assert limited_candidates(state) == ["G"]


def test_r_7_7_1_any_of_the_three_may_seize_sole_power_in_the_directorate() -> None:
    """The Marais' partner (here the Gironde) as well as the others; not an outlaw."""
    state = position("directorate", "M", "SC", 1, False, False)
    state["gov"]["partner"] = "G"
    assert sorted(limited_candidates(state)) == ["F", "G", "MT"]
    state["outlawed"].append("MT")
    assert sorted(limited_candidates(state)) == ["F", "G"]


@pytest.mark.parametrize(
    ("section", "regime", "gov", "war", "civil", "current", "target"),
    [
        ("R.1.7.3.1", "legislative", "F", False, False, "G", "convention"),
        ("R.2.7.3.1", "convention", "G", True, True, "MT", "terror"),
        ("R.2.7.3.1", "convention", "G", True, False, "MT", "mercy"),
        ("R.3.7.3.1", "terror", "MT", True, False, "M", "mercy"),
        ("R.5.7.3.1", "wrath", "SC", False, False, "M", "thermidor"),
        ("R.6.7.3.1", "mercy", "MT", False, False, "M", "directorate"),
        ("R.6.7.3.1", "mercy", "M", False, False, "M", "directorate"),  # even governing
        ("R.6.7.3.2", "mercy", "M", False, False, "MT", "terror"),
        ("R.7.7.3.1", "directorate", "M", False, False, "MT", "prairial"),
        ("R.9.7.3.1", "ffr", "G", True, False, "MT", "terror"),
        ("R.9.7.3.2", "ffr", "G", False, False, "MT", "mercy"),
        ("R.10.7.3.1", "froi", "MT", False, False, "M", "thermidor"),
    ],
)
def test_r_x_7_3_military_coups_by_regime(
    section: str, regime: str, gov: str, war: bool, civil: bool, current: str, target: str
) -> None:
    state = position(regime, gov, "SC", 1, war, civil)
    assert (current, [target]) in military_candidates(state), section
    state["outlawed"].append(current)
    assert all(c != current for c, _ in military_candidates(state)), section


def test_r_x_7_3_no_military_coup_where_the_regime_has_none() -> None:
    """Thermidor and Prairial have none (R.4.7.3, R.8.7.3); the Terror at war has none
    (R.3.7.3.1 needs peace); the Montagne's against Mercy only when the Marais governs."""
    for regime, gov, war, civil in (
        ("thermidor", "M", False, False),
        ("prairial", "MT", False, False),
        ("terror", "MT", True, True),
    ):
        assert military_candidates(position(regime, gov, "SC", 1, war, civil)) == []
    state = position("mercy", "MT", "SC", 1, False, False)
    assert all(c != "MT" for c, _ in military_candidates(state))


def test_r_9_7_1_and_r_10_7_1_limited_coups_in_the_republics() -> None:
    """Federal: the Marais against a Gironde Government, the Gironde back only after
    the Marais' own coup. One & Indivisible: the other of the Montagne and the
    Sans-Culotte, unless the Government's Current holds the Commune."""
    state = position("ffr", "G", "SC", 1, False, False)
    assert limited_candidates(state) == ["M"]
    state["gov"]["controller"] = "M"
    assert limited_candidates(state) == []
    state["marais_couped"] = True
    assert limited_candidates(state) == ["G"]
    state = position("froi", "MT", "SC", 1, False, False)
    assert limited_candidates(state) == ["SC"]
    state["commune"]["controller"] = "MT"
    assert limited_candidates(state) == []


def test_r_10_7_2_a_limited_coup_switches_the_variant_with_the_commune() -> None:
    """The Sans-Culotte seizes the Government of the Montagne's One & Indivisible
    Republic; holding the Commune at level II it makes it the Sans-Culotte variant, at
    level I it does not."""
    for level, variant in ((2, "SC"), (1, "MT")):
        state = position("froi", "MT", "SC", level, False, False)
        state["froi_variant"] = "MT"
        attempt = CoupAttempt(
            kind="coup_roll", coup="limited", current="SC", target="gov", persons=[]
        )
        coup_success(state, attempt, context())
        assert state["gov"]["controller"] == "SC"
        assert state["froi_variant"] == variant


def test_r_6_7_3_2_a_failed_montagne_march_frees_only_its_own_commune() -> None:
    """Under Mercy a failed popular coup of the Montagne leaves the Commune neutral
    (R.6.7.2.1); a failed military one only if the Montagne held it (R.6.7.3.2)."""
    for coup, holder, after in (
        ("popular", "SC", None),
        ("military", "SC", "SC"),
        ("military", "MT", None),
    ):
        state = position("mercy", "M", holder, 3, False, False)
        attempt = CoupAttempt(
            kind="coup_roll", coup=coup, current="MT", target="terror", persons=[]
        )
        coup_failure(state, attempt, context())
        assert state["commune"]["controller"] == after, (coup, holder)
        assert "MT" in state["outlawed"]


def installed(regime: str, before: str = "legislative", gov: str = "F") -> State:
    """A four-seat Open game whose regime ``regime`` was installed by the rules (its
    outlaws set by ``install``, R.x.1.1), from ``before`` governed by ``gov``."""
    state = fresh(players=4, scenario="open")
    state["regime"], state["gov"]["controller"] = before, gov
    install(state, regime, context())
    return state


@pytest.mark.parametrize(
    ("section", "regime", "level"), [("R.7.7.2.3", "directorate", 2), ("R.8.7.2.1", "prairial", 3)]
)
def test_the_outlawed_royalist_is_offered_vendemiaire(
    section: str, regime: str, level: int
) -> None:
    """The Directorate and Prairial outlaw the Royalist (R.7.4.1, R.8.4.1) and give him
    the coup to Vendémiaire all the same (R.7.7.2.3, R.8.7.2.1): the offer reaches his
    seat through the engine."""
    state = installed(regime, before="thermidor" if regime == "directorate" else "directorate")
    assert "R" in state["outlawed"], section
    state["commune"] = {"raised": True, "controller": "R"}
    state["tracks"]["commune"] = LEVEL[level]
    state["war"] = True
    state["currents"]["R"]["money"] = 1000
    place(state, Cadoudal="Paris")
    engine = engine_at(state, [{"kind": "coup_offer_start", "coup": "popular"}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat(state, "R"), section
    assert "coup:vendemiaire:1" in prompt.actions(), section


def test_r_7_7_2_3_the_royalist_has_one_attempt_in_the_directorate() -> None:
    state = installed("directorate", before="thermidor")
    state["commune"] = {"raised": True, "controller": "R"}
    state["tracks"]["commune"] = LEVEL[2]
    assert offered(state, "R", "vendemiaire")
    state["royalist_couped"] = True
    assert not offered(state, "R", "vendemiaire")


@pytest.mark.parametrize(
    ("section", "regime"), [("R.7.7.2.3", "directorate"), ("R.8.7.2.1", "prairial")]
)
def test_a_successful_vendemiaire_coup_ends_the_game_with_the_royalists_win(
    section: str, regime: str
) -> None:
    """Vendémiaire installed ends the game at once, the Royalist first (R.11.1, 14.0):
    a result, not a fault, and every seat's view still reads it."""
    state = installed(regime, before="thermidor" if regime == "directorate" else "directorate")
    state["commune"] = {"raised": True, "controller": "R"}
    state["tracks"]["commune"] = LEVEL[3]
    state["war"] = True
    state["currents"]["R"]["money"] = 1000
    place(state, Cadoudal="Paris")
    engine = engine_at(state, [{"kind": "coup_offer_start", "coup": "popular"}], faces=[6, 6])
    royalist = seat(state, "R")
    engine.act(royalist, "coup:vendemiaire:1")
    while engine.prompt is not None:  # the others' reactions (12.1): none lowers the roll
        engine.act(engine.prompt.seat, REACT("0"))
    result = engine.result
    assert result is not None, section
    assert result.winners == (royalist,)
    assert "Vendémiaire" in result.summary and "14.0" in result.summary
    assert engine.state["gov"]["controller"] == "R"
    for s in range(4):
        assert "Vendémiaire" in engine.view(s)["status"]


def test_vendemiaire_ends_the_game_whatever_the_turn_still_held() -> None:
    """In a game the popular coup is offered in the Military Phase (9.5, 12.0), with the
    rest of the turn still to come below it; the Royalist's win ends it there (14.0).
    The end used to hand the rules a new, empty task list while the stack ran on the
    old one, so the rest of the turn went on and the game stopped on a step."""
    state = installed("directorate", before="thermidor")
    state["commune"] = {"raised": True, "controller": "R"}
    state["tracks"]["commune"] = LEVEL[3]
    state["war"] = True
    state["currents"]["R"]["money"] = 1000
    place(state, Cadoudal="Paris")
    rest_of_turn = [
        {"kind": kind}
        for kind in ("pinning_start", "allied_move", "combat", "military_control", "interphase")
    ]
    engine = engine_at(
        state,
        [
            {"kind": "coup_offer_start", "coup": "popular"},
            {"kind": "coup_offer_start", "coup": "military"},
            *rest_of_turn,
            {"kind": "turn_end"},
        ],
        faces=[6, 6],
    )
    engine.act(seat(state, "R"), "coup:vendemiaire:1")
    while engine.prompt is not None:
        engine.act(engine.prompt.seat, REACT("0"))
    assert engine.state["tasks"] == []
    assert engine.state["phase"] == "over"
    result = engine.result
    assert result is not None and result.winners == (seat(state, "R"),)


def test_r_4_7_2_thermidors_outlawed_left_may_attempt_prairial() -> None:
    """Thermidor outlaws the left Current that governed before it (R.4.4.1) and names
    both left Currents for the coup to Prairial (R.4.7.2.1, R.4.7.2.2); a Current
    outlawed for its own failed coup waits out its outlawry (12.2.1)."""
    state = installed("thermidor", before="terror", gov="MT")
    assert "MT" in state["outlawed"]
    state["commune"] = {"raised": True, "controller": "MT"}
    state["tracks"]["commune"] = LEVEL[3]
    state["war"] = True
    assert offered(state, "MT", "prairial")
    state["outlaw_until"]["MT"] = state["turn"] + 1
    assert not offered(state, "MT", "prairial")


def test_r_9_7_2_3_the_marais_may_seize_power_with_any_raised_commune() -> None:
    """After the Montagne's failed coup the Marais may try to seize power with the
    Commune raised; a new regime needs the Montagne's strong Commune (R.9.7.2.3)."""
    state = position("ffr", "G", "SC", 1, False, False)
    assert not offered(state, "M", "gov")
    state["mt_failed_coup"] = True
    assert ("M", ["gov"]) in popular_candidates(state)
    state["tracks"]["commune"] = LEVEL[2]
    assert ("M", ["gov", "mercy"]) in popular_candidates(state)
    state["commune"] = {"raised": False, "controller": None}
    assert not offered(state, "M", "gov")


def test_a_coups_lines_credit_the_plotters_seat_not_the_last_to_react() -> None:
    state = position("directorate", "M", "SC", 2, False, False)
    state["gov"]["partner"] = "G"
    ctx = context([1, 1])
    attempt = CoupAttempt(
        kind="coup_roll",
        coup="popular",
        current="SC",
        target="prairial",
        persons=[],
        vote=OrderedVote.new("reactions", []),
    )
    ctx.actor = seat(state, "F")
    coup_roll(state, attempt, ctx)
    lines = [e for e in ctx.events if e.kind in ("coup", "outlaw")]
    assert lines and all(e.about == seat(state, "SC") for e in lines)
