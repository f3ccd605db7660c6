"""The Commune plan (issue 27): the Montagne declares the raising of the Commune where
its Personalities make it likely (7.4.4.1), the Sans-Culotte shares it (6.4, 15.2.2),
both keep their Personalities and money for the Commune segment (7.4) and try it with
everyone and every roll."""

from __future__ import annotations

from lrf_helpers import engine_at, fresh, hinted_attempt, hinted_declaration, seat

from tabletop.framework import State
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise, RevolutionHints
from tabletop.games.la_revolution_francaise.bot_commune import (
    RAISE_COMMUNE,
    commune_pending,
    raise_chance,
    regime_plan,
)
from tabletop.games.la_revolution_francaise.bot_plan import own_plan, shared_plan
from tabletop.games.la_revolution_francaise.core import track_level
from tabletop.games.la_revolution_francaise.data import ADJACENT
from tabletop.games.la_revolution_francaise.interphase import victory_points
from tabletop.games.la_revolution_francaise.political.regime import regime_window

GAME = LaRevolutionFrancaise()


def test_a_raised_commune_is_the_left_seats_largest_swing() -> None:
    """14.1: the Commune's controller holds Paris (5 VP and the region) and the
    Sans-Culotte scores 5 while it stands; the Gironde, which holds Paris at the start,
    loses both. This is why the plan exists."""
    state = fresh(4)
    before = victory_points(state)
    state["commune"] = {"raised": True, "controller": "MT"}
    after = victory_points(state)
    assert after["MT"] - before["MT"] == 6
    assert after["SC"] - before["SC"] == 5
    assert after["G"] - before["G"] == -6


def test_the_montagne_plans_the_commune_where_its_men_make_it_likely() -> None:
    """Four Personalities influential in Paris (+2 each) outweigh the Montagne's -2
    (7.4.4): at set-up one roll raises it on an A at 42%; without money for a roll, or
    with the Commune already up, there is no Commune plan; the Sans-Culotte alone (one
    Personality, no penalty) is too unlikely (17%) and shares the Montagne's."""
    state = fresh(4)
    chance = raise_chance(state, "MT")
    assert 0.35 < chance < 0.5
    assert own_plan(state, "MT") == ("commune", RAISE_COMMUNE)
    assert raise_chance(state, "SC") < 0.35
    assert raise_chance(state, "G") == 0.0  # the Gironde holds Paris already: no gain
    assert shared_plan(state, "SC") == ("commune", RAISE_COMMUNE)
    m = seat(state, "MT")
    assert seat(state, "SC") == m
    assert hinted_declaration(state, "MT") == (["kind:commune"], [f"objective:{RAISE_COMMUNE}"])

    broke = fresh(4)
    broke["currents"]["MT"]["money"] = 100  # a Commune roll costs 200
    assert raise_chance(broke, "MT") == 0.0
    assert own_plan(broke, "MT") != ("commune", RAISE_COMMUNE)
    up = fresh(4)
    up["commune"] = {"raised": True, "controller": None}
    assert raise_chance(up, "MT") == 0.0

    richer = fresh(4)
    richer["currents"]["MT"]["money"] = 600
    assert raise_chance(richer, "MT") > chance  # three rolls, the best kept (7.1)


def test_the_montagne_keeps_its_men_and_money_for_the_commune() -> None:
    """Declared: every Personality goes to Paris (6.5), nothing is tried in the
    segments before the Commune's (they would use up the Personalities or the money,
    7.4), then the Commune is tried with everyone and every roll it can pay for."""
    hints = RevolutionHints()
    state = fresh(4)
    state["currents"]["MT"]["money"] = 600
    state["declared"] = {"MT": RAISE_COMMUNE}
    assert commune_pending(state, "MT")
    m = seat(state, "MT")
    engine = engine_at(state, [{"kind": "placement", "order": ["MT"], "index": 0}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == m
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["place:Paris"]

    for person in ("Robespierre", "Saint-Just", "Marat", "Danton"):
        state["persons"][person]["where"] = "Paris"
    engine = engine_at(state, [{"kind": "act", "segment": "plot", "actor": "MT"}])
    prompt = engine.prompt
    assert prompt is not None and "try:Paris" in prompt.actions()
    assert list(hints.candidates(GAME, engine.state, prompt)) == ["done"]

    engine = engine_at(state, [{"kind": "act", "segment": "commune", "actor": "MT"}])
    hinted_attempt(engine, "raise:Paris")

    state["achieved"] = [RAISE_COMMUNE]  # raised by anyone: the plan is over (6.4)
    assert not commune_pending(state, "MT")


def threatened(players: int = 4) -> State:
    """A four-player game at set-up with an Allied army next to Paris (R.1.8) and the
    Commune track at level II."""
    state = fresh(players)
    state["armies"].append(
        {
            "id": "brunswick",
            "side": "allied",
            "kind": "allied",
            "where": sorted(ADJACENT["Paris"])[0],
            "step": 0,
        }
    )
    for value in range(1, 20):
        state["tracks"]["commune"] = value
        if track_level(state, "commune") == 2:
            return state
    raise AssertionError("no level II on the Commune track")


def test_the_left_seat_declares_and_installs_the_regime_its_commune_opens() -> None:
    """R.1.8: with Paris threatened, the Commune's controller may install the
    Convention, and the Terror if it is the Sans-Culotte at level II or more. The
    change comes at the start of the Political Phase (7.5.1), so declared as an
    objective it is met (6.4.2); the Montagne and the Sans-Culotte both declare the
    Terror, the better of the two for them (14.3), and install it. Under the
    Montagne at level II only the Convention is open; under the Gironde, nothing for
    them."""
    state = threatened()
    state["commune"] = {"raised": True, "controller": "SC"}
    assert regime_plan(state, "SC") == "terror"
    assert regime_plan(state, "MT") == "terror"  # the same seat at four players (15.2.2)
    assert own_plan(state, "MT") == ("regime", "terror")
    assert hinted_declaration(state, "MT") == (["kind:regime"], ["objective:regime:terror"])
    assert regime_plan(fresh(4), "MT") is None  # no Commune, no threat

    state["commune"] = {"raised": True, "controller": "MT"}
    assert regime_plan(state, "MT") == "convention"
    state["commune"] = {"raised": True, "controller": "G"}
    assert regime_plan(state, "MT") is None
    six = threatened(6)
    six["commune"] = {"raised": True, "controller": "SC"}
    assert regime_plan(six, "MT") is None  # a seat of its own: the Sans-Culotte decides

    state["commune"] = {"raised": True, "controller": "SC"}
    m = seat(state, "SC")
    engine = engine_at(state, [{"kind": "regime_change", "window": regime_window(state)}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == m
    assert {"install:terror", "install:convention"} <= set(prompt.actions())
    assert list(RevolutionHints().candidates(GAME, engine.state, prompt)) == ["install:terror"]
