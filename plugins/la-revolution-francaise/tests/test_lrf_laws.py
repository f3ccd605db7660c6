"""Every law of chapter 13 as enacted (13.1-13.8): the Government pays its cost times
the Economy level, the proposer's fame and the tracks move as the law says, and each
law's own effect happens (war, conscription, the levée, the Fatherland in danger,
outlawed factions arrested in Paris)."""

from __future__ import annotations

import pytest
from lrf_helpers import context, fresh, place

from tabletop.games.la_revolution_francaise.core import clamp, end_war, track_level
from tabletop.games.la_revolution_francaise.data import LAWS, PERSONS
from tabletop.games.la_revolution_francaise.political import enact, law_allowed


@pytest.mark.parametrize("key", sorted(LAWS))
def test_13_every_law_does_what_its_entry_says(key: str) -> None:
    law = LAWS[key]
    state = fresh()
    state["regime"] = law.get("regimes", ["legislative"])[0]
    state["gov"]["money"] = 2000
    faction = law.get("faction")
    member = next((n for n, p in PERSONS.items() if faction and p["faction"] == faction), None)
    if member is not None:
        state["persons"][member].update({"status": "free", "where": "Paris"})
    level = track_level(state, "economy")
    tracks = dict(state["tracks"])
    fame = state["currents"]["G"]["fame"]
    enact(state, key, "G", context())
    assert state["gov"]["money"] == 2000 - law["cost"] * level
    assert state["currents"]["G"]["fame"] == clamp(fame + law["fame"])
    for track, delta in law["tracks"].items():
        assert state["tracks"][track] == clamp(tracks[track] + delta), track
    assert f"law:{key}" in state["achieved"]
    assert state["war"] == (key == "war")
    assert bool(state.get("conscription")) == (key == "conscription")
    assert state["patrie"] == (key == "patrie")
    assert state["volunteers_due"] == (3 if key == "levee" else 0)
    if faction is not None:
        assert faction in state["factions_outlawed"]
        assert member is not None and state["persons"][member]["status"] == "prison"


def test_13_a_law_the_government_cannot_pay_for_makes_it_bankrupt() -> None:
    state = fresh()
    state["gov"]["money"] = 10
    enact(state, "maximum", "G", context())
    assert state["tracks"]["economy"] == 4  # not enacted
    assert state["bankrupt_turn"] == state["turn"]
    assert state["currents"]["F"]["fame"] == 7  # the Government's Current, -5


def test_13_8_an_outlawed_faction_outside_paris_is_not_arrested() -> None:
    state = fresh()
    state["regime"] = "terror"
    state["gov"]["money"] = 2000
    place(state, Hébert="Lyon")
    enact(state, "outlaw_hebertistes", "MT", context())
    assert state["persons"]["Hébert"]["status"] == "free"
    assert "hebertiste" in state["factions_outlawed"]


def test_13_5_2_conscription_only_in_war_and_not_again_while_in_force() -> None:
    """At peace it cannot be proposed; at war once; after the foreign war ends it stays
    in force through a civil war, and cannot be passed again until that ends too."""
    state = fresh()
    state["proposed"], state["levee_this_turn"] = [], False  # as the Political Phase sets
    assert not law_allowed(state, "G", "conscription")
    state["war"] = True
    assert law_allowed(state, "G", "conscription")
    state["gov"]["money"] = 2000
    enact(state, "conscription", "G", context())
    assert not law_allowed(state, "G", "conscription")
    for region in ("Brest", "Nîmes", "Caen"):
        state["regions"][region]["revolt"] = True  # with Bourges, a civil war
    end_war(state, context(), "test")
    assert state["conscription"] and not law_allowed(state, "G", "conscription")
