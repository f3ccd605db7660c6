"""Every law of chapter 13 as enacted (13.1-13.8): the Government pays its cost times
the Economy level, the proposer's fame and the tracks move as the law says, and each
law's own effect happens (war, conscription, the levée, the Fatherland in danger,
outlawed factions arrested in Paris)."""

from __future__ import annotations

import pytest
from lrf_helpers import context, fresh, place

from tabletop.games.la_revolution_francaise.core import clamp, end_war, track_level
from tabletop.games.la_revolution_francaise.data import LAWS, PERSONS
from tabletop.games.la_revolution_francaise.military.combat import military_control
from tabletop.games.la_revolution_francaise.political.enact import enact
from tabletop.games.la_revolution_francaise.political.proposals import law_allowed


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


def test_13_6_fatherland_in_danger_lasts_until_the_war_that_prompted_it_ends() -> None:
    """Prompted by an Allied army next to Paris, it ends with the foreign war though a
    civil war goes on; prompted by a Catholic & Royal army, it ends with the civil war
    though the foreign war goes on."""
    for side, ongoing in (("allied", "civil"), ("catholic", "foreign")):
        state = fresh()
        state["gov"]["money"] = 2000
        state["armies"].append({"id": "x", "side": side, "kind": side, "where": "Orléans"})
        enact(state, "patrie", "G", context())
        state["armies"] = [a for a in state["armies"] if a["id"] != "x"]
        state["war"] = ongoing == "foreign"
        for region in ("Brest", "Nîmes", "Caen") if ongoing == "civil" else ():
            state["regions"][region]["revolt"] = True  # with Bourges, a civil war
        military_control(state, {"kind": "military_control"}, context())
        assert not state["patrie"], side
        state["patrie"] = True
        state["patrie_by"] = ["foreign", "civil"]
        military_control(state, {"kind": "military_control"}, context())
        assert state["patrie"], side  # prompted by both, one war still goes on
