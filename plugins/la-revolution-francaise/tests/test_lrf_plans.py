"""The phrases three actions carry, as data with a type (issue 38): a declared objective
(6.4), an attempt's target (7.3-7.4) and a coup's plan (12). The verbs check them when
an action is built or read, and the strings are the ones saves always held."""

from __future__ import annotations

import pytest
from lrf_helpers import fresh

from tabletop.framework.actions import ActionError
from tabletop.games.la_revolution_francaise.actions.targets import targets
from tabletop.games.la_revolution_francaise.data import REGION_NAMES
from tabletop.games.la_revolution_francaise.initial.objectives import objective_kinds
from tabletop.games.la_revolution_francaise.plans import (
    NO_COUP,
    RAISE_TARGET,
    CoupPlan,
    Objective,
    commune_action,
)
from tabletop.games.la_revolution_francaise.verbs import COUP, OBJECTIVE, TRY


def test_every_objective_the_menu_offers_is_one_and_reads_back() -> None:
    state = fresh(scenario="open")
    offered = [
        value
        for who in ("gov", "R", "F", "G", "M", "MT", "SC")
        for pairs in objective_kinds(state, who, joint=False).values()
        for value, _ in pairs
    ]
    assert len(offered) > 100
    for value in offered:
        objective = Objective.read(value)
        assert objective.value == value
        assert OBJECTIVE.value(OBJECTIVE(value)) == value
    assert Objective.read("arrest:Barnave") == Objective("arrest", "Barnave")
    assert Objective.read("raise_commune") == Objective("raise_commune")


def test_a_deed_names_its_author_only_where_the_objective_needs_it() -> None:
    """6.4: a plot or a persuasion meets the objective only if it profits the declarer;
    any other deed meets it whoever does it."""
    assert Objective("plot", "Brest").deed("G") == "plot:Brest:G"
    assert Objective("persuade", "Danton").deed("M") == "persuade:Danton:M"
    assert Objective("revolt", "Lyon").deed("R") == "revolt:Lyon"
    assert Objective("raise_commune").deed("SC") == "raise_commune"


@pytest.mark.parametrize(
    "value", ["arrest:Nobody", "plot:Atlantis", "raise_commune:Paris", "conquer:Lyon", "law"]
)
def test_an_objective_that_names_nothing_of_its_kind_is_no_action(value: str) -> None:
    with pytest.raises(ActionError, match="an objective"):
        OBJECTIVE(value)
    with pytest.raises(ActionError, match="an objective"):
        OBJECTIVE.value(f"objective:{value}")


def test_every_target_offered_is_a_try_action_and_nothing_else_is() -> None:
    state = fresh()
    state["commune"] = {"raised": False, "controller": None}
    offered = [
        target
        for segment in ("arrest", "persuade", "plot", "revolt", "suppress", "commune")
        for actor in ("gov", "R", "F", "G", "M", "MT", "SC")
        if not (actor == "gov" and segment not in ("arrest", "suppress"))
        for target, _ in targets(state, segment, actor)
    ]
    assert offered
    for target in [*offered, *REGION_NAMES, RAISE_TARGET]:
        assert TRY.value(TRY(target)) == target
    assert commune_action(RAISE_TARGET) == "raise"
    with pytest.raises(ActionError, match="a Personality, a region"):
        TRY("raise:Lyon")
    with pytest.raises(ActionError, match="a Personality, a region"):
        TRY.value("try:Nobody")


@pytest.mark.parametrize(
    ("word", "plan"),
    [
        ("none", NO_COUP),
        ("gov:2", CoupPlan("gov", 2)),
        ("vendemiaire:1", CoupPlan("vendemiaire", 1)),
        ("convention:Amiens:3", CoupPlan("convention", 3, "Amiens")),
    ],
)
def test_a_coup_plan_reads_and_writes_its_phrase(word: str, plan: CoupPlan) -> None:
    assert CoupPlan.read(word) == plan
    assert plan.word == word
    assert COUP(plan.word) == f"coup:{word}"
    assert CoupPlan.read(COUP.value(f"coup:{word}")) == plan


@pytest.mark.parametrize(
    "word", ["", "gov", "gov:0", "gov:x", "empire:1", "convention:Atlantis:1", "a:b:c:d"]
)
def test_a_coup_plan_that_does_not_fit_is_no_action(word: str) -> None:
    with pytest.raises(ActionError, match="none, <aim>:<n>"):
        COUP(word)
