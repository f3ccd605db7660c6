"""The left-wing plan (issue 27): the Gironde and the Montagne win only with a
Revolution majority (14.2.2, 14.3), so their plots aim at the Marais's regions."""

from __future__ import annotations

import pytest
from lrf_helpers import engine_at, fresh, hinted_attempt, seat

from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise, bot_plan
from tabletop.games.la_revolution_francaise.bot_plan import best_plot, marais_plot, worth
from tabletop.games.la_revolution_francaise.core import controller, influential

GAME = LaRevolutionFrancaise()


def test_the_gironde_plots_against_the_marais(monkeypatch: pytest.MonkeyPatch) -> None:
    """At set-up the Gironde's likeliest plot is in a neutral region (+2, 7.4.1), but a
    region taken from the Marais moves the Marais towards 25 VP: the plan takes that."""
    state = fresh(4)
    plan = best_plot(state, "G")
    assert plan is not None and controller(state, plan[0]) == "M"
    assert plan[1] >= bot_plan.PLAN_ODDS
    monkeypatch.setattr(bot_plan, "MARAIS_BONUS", 0.0)
    plain = best_plot(state, "G")
    assert plain is not None and controller(state, plain[0]) != "M"


def test_the_right_wing_plans_as_before(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Royalist and the Feuillant gain nothing from the left's bonus: their plans
    do not change with it (the Feuillant weighs the Marais by its own rule,
    ``FEUILLANT_SWING``, in test_lrf_bot_feuillant)."""
    state = fresh(4)
    assert worth(state, "R", "Lyon", 0.5) == 0.5
    assert worth(state, "G", "Lyon", 0.5) > worth(state, "G", "Brest", 0.5)
    assert worth(state, "MT", "Lyon", 0.5) > worth(state, "MT", "Brest", 0.5)
    before = {c: best_plot(state, c) for c in ("R", "F")}
    monkeypatch.setattr(bot_plan, "MARAIS_BONUS", 0.0)
    assert {c: best_plot(state, c) for c in ("R", "F")} == before


def test_a_left_plan_skips_unlikely_marais_regions(monkeypatch: pytest.MonkeyPatch) -> None:
    """A Marais region under the plan's odds does not hide a likely plot elsewhere: at
    fame 3 Lyon (the Marais's, one helper) is worth more than neutral Brest (weighed
    here without the neutral region's own bonus) but is too unlikely, so the Gironde
    plans Brest (+2 neutral, 7.4.1) rather than nothing."""
    monkeypatch.setattr(bot_plan, "NEUTRAL_BONUS", 0.0)
    state = fresh(4)
    state["currents"]["G"]["fame"] = 3
    assert bot_plan.plot_chance(state, "G", "Lyon", 1, 3) < bot_plan.PLAN_ODDS
    assert worth(state, "G", "Lyon", bot_plan.plot_chance(state, "G", "Lyon", 1, 3)) > worth(
        state, "G", "Brest", bot_plan.plot_chance(state, "G", "Brest", 1, 3)
    )
    plan = best_plot(state, "G")
    assert plan is not None and plan[0] == "Brest"


def test_a_left_current_plots_a_marais_region_without_an_objective() -> None:
    """With no declared plot to make, the Gironde's plot goes to the Marais region
    where its Personality stands (Lyon), with every roll it can pay for; the Feuillant
    in the same place is left to the search."""
    state = fresh(4)
    state["persons"]["Roland"]["where"] = "Lyon"
    assert marais_plot(state, "G") == "Lyon"
    g = seat(state, "G")
    engine = engine_at(state, [{"kind": "act", "segment": "plot", "actor": "G"}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == g and "try:Lyon" in prompt.actions()
    assert len(prompt.actions()) > 1
    hinted_attempt(engine, "Lyon", rolls=None)
    state = fresh(4)
    state["currents"]["G"]["fame"] = 0  # too unlikely: no plan
    state["persons"]["Roland"]["where"] = "Lyon"
    assert marais_plot(state, "G") is None
    assert marais_plot(state, "F") is None  # the Feuillant has no one there


def test_a_left_current_also_plots_a_neutral_region_the_marais_would_elect() -> None:
    """A neutral region elects a Marais deputy (R.1.6): with no declared plot left, the
    Gironde's Personality in neutral Brest plots there; worth half a Marais region's
    swing more than another Current's region at the same odds."""
    state = fresh(4)
    assert controller(state, "Brest") is None
    helper = next(
        n for n, p in state["persons"].items() if p["current"] == "G" and influential(n, "Brest")
    )
    state["persons"][helper]["where"] = "Brest"
    assert marais_plot(state, "G") == "Brest"
    other = next(r for r in state["regions"] if controller(state, r) == "R" and r != "Paris")
    assert worth(state, "G", "Lyon", 0.5) > worth(state, "G", "Brest", 0.5)
    assert worth(state, "G", "Brest", 0.5) > worth(state, "G", other, 0.5) == 0.5
