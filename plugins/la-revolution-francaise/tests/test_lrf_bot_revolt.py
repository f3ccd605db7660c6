"""The revolt plan (issue 27): a Current outside the Assembly declares a revolt where
it pays better than a plot (7.4.2: met on an A or a B), and keeps its Personalities
for it."""

from __future__ import annotations

from lrf_helpers import engine_at, fresh, hinted_attempt, hinted_declaration, seat

from tabletop.framework.decisions import SecretChoices
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise, RevolutionHints
from tabletop.games.la_revolution_francaise.bot_plan import (
    best_plot,
    own_plan,
    shared_plan,
    unwanted,
)
from tabletop.games.la_revolution_francaise.bot_revolt import best_revolt, revolt_odds

GAME = LaRevolutionFrancaise()


def test_a_revolt_is_surer_than_a_plot_on_the_same_column() -> None:
    """A revolt meets its objective on an A or a B; the region comes with an A only."""
    state = fresh(4)
    met, taken = revolt_odds(state, "R", "Caen", ["Cadoudal"], 3)
    assert 0 < taken < met < 1
    one_met, one_taken = revolt_odds(state, "R", "Caen", ["Cadoudal"], 1)
    assert one_met < met and one_taken < taken


def test_only_a_current_outside_the_assembly_plans_a_revolt() -> None:
    """R.1.2.1: under the Legislative the Feuillant sits in the Assembly and may not
    start revolts (7.4.2); the Royalist may, and not without the money for a roll."""
    state = fresh(4)
    state["currents"]["F"]["money"] = 1000
    assert best_revolt(state, "F") is None
    plan = best_revolt(state, "R")
    assert plan is not None
    region, met, taken = plan
    assert state["regions"][region]["revolt"] is False and met > taken
    state["currents"]["R"]["money"] = 100  # a revolt costs 150
    assert best_revolt(state, "R") is None


def test_the_royalist_declares_a_revolt_and_keeps_its_men_for_it() -> None:
    """At set-up the Royalist plans a plot (Caen, 62%); at fame 2 no plot is likely
    enough, but a revolt still is (met on a B too): the kind and the region are the
    revolt's, its Personality is sent there and does not plot there first (plots come
    before revolts, 7.4), and the revolt is tried with every roll it can pay for."""
    hints = RevolutionHints()
    state = fresh(4)
    assert best_plot(state, "R") is not None
    state["currents"]["R"]["fame"] = 2
    assert best_plot(state, "R") is None
    plan = best_revolt(state, "R")
    assert plan is not None
    state["gov"]["controller"] = "F"
    r = seat(state, "R")
    assert hinted_declaration(state, "R") == (["kind:revolt"], [f"objective:revolt:{plan[0]}"])

    state = fresh(4)
    state["declared"] = {"R": "revolt:Caen"}
    engine = engine_at(state, [{"kind": "placement", "order": ["R"], "index": 0}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == r
    person = next(n for n, p in engine.state["persons"].items() if p["current"] == "R")
    assert person == "d'Antraigues"  # not influential in Caen: Caen is off his short list
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["more"]
    engine.act(r, "more")
    prompt = engine.prompt
    assert prompt is not None
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["place:Caen"]

    state = fresh(4)
    state["currents"]["R"]["money"] = 1000
    state["persons"]["Cadoudal"]["where"] = "Caen"
    state["persons"]["Charette"]["where"] = "Brest"  # neutral: a plot may go there
    state["declared"] = {"R": "revolt:Caen"}
    engine = engine_at(state, [{"kind": "act", "segment": "plot", "actor": "R"}])
    prompt = engine.prompt
    assert prompt is not None and "try:Caen" in prompt.actions()
    assert unwanted(engine.state, prompt.actions()) == ["try:Caen"]
    searched = list(hints.candidates(GAME, engine.state, prompt))
    assert "try:Caen" not in searched and "try:Brest" in searched

    engine = engine_at(state, [{"kind": "act", "segment": "revolt", "actor": "R"}])
    hinted_attempt(engine, "Caen")


def test_the_sans_culotte_shares_the_montagnes_revolt_at_four_players() -> None:
    """At four players one seat plays the Montagne and the Sans-Culotte (15.2.2). A
    Sans-Culotte with no plan of its own (no money: no roll to pay) declares the
    revolt the Montagne plans, since anyone's revolt meets it (6.4); once the Montagne
    has sealed another kind of objective, there is nothing to share."""
    state = fresh(4)
    state["gov"]["controller"] = "F"
    state["currents"]["SC"]["money"] = 0
    state["currents"]["MT"]["fame"] = 1  # no likely plot: the Montagne plans a revolt
    assert own_plan(state, "SC") is None
    mt_plan = own_plan(state, "MT")
    assert mt_plan is not None and mt_plan[0] == "revolt"
    assert shared_plan(state, "SC") == mt_plan
    m = seat(state, "SC")
    shared = hinted_declaration(state, "SC")
    assert shared == (["kind:revolt"], [f"objective:revolt:{mt_plan[1]}"])
    sealed = SecretChoices.new("objective of the Montagne", [m])
    sealed["chosen"] = ["plot:Lyon"]
    state["objectives"] = {"MT": sealed}
    assert shared_plan(state, "SC") is None
    assert shared_plan(fresh(6), "SC") is None  # a seat of its own: nobody to share with
