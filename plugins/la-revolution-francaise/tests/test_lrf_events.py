"""Every entry of every random event table (6.2), Historical and Open regimes alike:
the entry is resolved from a position where it can happen, and each of its effects is
checked against what the event language says it does (data/events.json)."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from lrf_helpers import context, fresh, jail

from tabletop.framework import State
from tabletop.games.la_revolution_francaise.core import clamp, controller, gov_controller
from tabletop.games.la_revolution_francaise.data import EVENTS, REGIMES
from tabletop.games.la_revolution_francaise.initial.effect_check import check
from tabletop.games.la_revolution_francaise.initial.effects import EFFECTS, Effect, apply_effect
from tabletop.games.la_revolution_francaise.initial.events import resolve_event

ENTRIES = [
    (regime, table, int(total))
    for regime, tables in EVENTS.items()
    for table, spec in tables.items()
    for total in spec["rolls"]
]


def position(regime: str, entry: dict[str, Any]) -> State:
    """A position under ``regime`` where ``entry`` can happen: its Personality free,
    France at war if it needs one, its holder holding, what it requires done."""
    state = fresh(scenario="open")
    state["regime"] = regime
    state["phase"] = "events"
    state["gov"]["controller"] = REGIMES[regime]["gov"][0]
    if entry.get("war") or entry.get("any_war"):
        state["war"] = True
    for key in ("person",):
        person = entry.get(key)
        if person is not None:
            state["persons"][person]["status"] = "free"
    holds = entry.get("holds")
    if holds is not None:
        state["persons"][holds[1]].update({"current": holds[0], "status": "free"})
    needs = entry.get("requires")
    if needs == "king_dead":
        state["king"]["dead"] = True
        state["persons"]["Louis XVI"]["status"] = "dead"
    elif needs is not None:
        state["once"].append(needs)
    return state


def check_effect(before: State, after: State, fx: str) -> None:
    """What one effect must have done (the event language, components-more.md A)."""
    verb, _, rest = fx.partition(" ")
    parts = rest.split(" ")
    if verb == "fame":
        who = gov_controller(before) if parts[0] == "gov_holder" else parts[0]
        side = "gov" if who == "gov" else None
        old = before["gov"]["fame"] if side else before["currents"][who]["fame"]
        new = after["gov"]["fame"] if side else after["currents"][who]["fame"]
        assert new == clamp(old + int(parts[1])), fx
    elif verb == "track":
        assert after["tracks"][parts[0]] == clamp(before["tracks"][parts[0]] + int(parts[1])), fx
    elif verb == "neutral":
        r = before["regions"][rest]
        raised = rest == "Paris" and before["commune"]["raised"]
        if not r["revolt"] and not r["coalition"] and not raised:
            assert controller(after, rest) is None, fx
    elif verb == "riot":
        if controller(before, rest) != "R":
            assert controller(after, rest) is None, fx
    elif verb in ("take_revolt", "neutral_revolt"):
        region = " ".join(parts[1:]) if verb == "take_revolt" else rest
        holder = parts[0] if verb == "take_revolt" else None
        r = before["regions"][region]
        armies = [a for a in before["armies"] if a["where"] == region]
        if not r["revolt"] and region != "Paris" and not armies and not r["coalition"]:
            assert after["regions"][region]["revolt"], fx
            assert controller(after, region) == holder, fx
    elif verb == "take":
        region = " ".join(parts[1:])
        r = before["regions"][region]
        if not r["revolt"] and not r["coalition"]:
            assert controller(after, region) == parts[0], fx
    elif verb == "pays":
        holder = controller(before, parts[0])
        exempt = parts[2] if len(parts) > 2 else None
        if holder is not None and holder != exempt:
            money = before["currents"][holder]["money"]
            assert after["currents"][holder]["money"] == money - min(int(parts[1]), money), fx
    elif verb == "gov_pays":
        money = before["gov"]["money"]
        assert after["gov"]["money"] == money - min(int(rest), money), fx
    elif verb == "bonus":
        for_whom = parts[2] if len(parts) > 2 else None
        if for_whom == "not_gov_left":
            for_whom = "SC" if gov_controller(before) == "MT" else "MT"
        key = parts[0] + (f":{for_whom}" if for_whom else "")
        assert after["bonuses"].get(key, 0) == before["bonuses"].get(key, 0) + int(parts[1]), fx
    elif verb == "commune_rises":
        leader = None if parts[0] == "none" else parts[0]
        assert after["commune"] == {"raised": True, "controller": leader}, fx
    elif verb == "commune_calms":
        assert not after["commune"]["raised"], fx
    elif verb == "receive":
        money = before["currents"][parts[0]]["money"]
        assert after["currents"][parts[0]]["money"] == money + int(parts[1]), fx
    elif verb == "switch":
        assert after["persons"][parts[0]]["current"] == parts[1], fx
    elif verb == "withdraw":
        assert not {a["id"] for a in after["armies"]} & set(parts), fx
    elif verb == "army_removed":
        rev = [a for a in before["armies"] if a["side"] == "rev" and a["where"] in parts]
        assert len(after["armies"]) == len(before["armies"]) - (1 if rev else 0), fx
    elif verb == "temp_army":
        assert any(a["kind"] == "temporary" for a in after["armies"]), fx
    elif verb == "jaunaye":
        catholic = any(a["side"] == "catholic" for a in before["armies"])
        drop = 5 if catholic else 0
        assert after["tracks"]["clergy"] == clamp(before["tracks"]["clergy"] - drop), fx
    elif verb in ("allied_return_first", "allied_return"):
        gone = [a for a in parts if a in before["allied_gone"]]
        assert len(after["allied_gone"]) == len(before["allied_gone"]) - (1 if gone else 0), fx
    elif verb == "catholic_back":
        shrink = 1 if before["catholic_gone"] else 0
        assert len(after["catholic_gone"]) == len(before["catholic_gone"]) - shrink, fx
    elif verb in ("unless_jailed", "unless_outlawed"):
        assert fx in after["pending_penalties"], fx
    elif verb == "subsidies":
        assert after["subsidies"], fx
    elif verb == "desert":
        assert after["tasks"] and after["tasks"][-1]["kind"] == "desert", fx
    else:
        # The rarer effects (deputies moving, prisoners freed or massacred, exile) have
        # dedicated tests; here they must at least change the position.
        assert before != after, fx


@pytest.mark.parametrize(("regime", "table", "total"), ENTRIES)
def test_6_2_every_event_entry_does_what_its_effects_say(
    regime: str, table: str, total: int
) -> None:
    entry = EVENTS[regime][table]["rolls"][str(total)]
    state = position(regime, entry)
    # Prepare what the effects act on: armies to withdraw or lose, gone armies to return.
    for fx in entry.get("fx", []):
        verb, _, rest = fx.partition(" ")
        if verb == "withdraw":
            for army_id in rest.split(" "):
                state["armies"].append(
                    {"id": army_id, "side": "allied", "kind": "allied", "where": "Metz"}
                )
        if verb in ("allied_return_first", "allied_return"):
            state["allied_gone"].append(rest.split(" ")[-1])
        if verb == "catholic_back":
            state["catholic_gone"].append("catholic_1")
        if verb == "massacre":
            state["persons"]["Barnave"]["status"] = "prison"
        if verb == "free_prisoners":
            jail(state, "Roux")
    ctx = context()
    resolved = copy.deepcopy(state)
    resolve_event(resolved, table, total, ctx)
    assert resolved["last_events"][table] == total
    assert not any("not yet implemented" in e.text for e in ctx.events)
    if "decide" in entry:
        kind = "assembly_decision" if entry["decide"]["by"] == "assembly" else "gov_decision"
        assert resolved["tasks"][-1]["kind"] == kind
        assert resolved["tasks"][-1]["decision"] == entry["decide"]
        return
    # Effect by effect, each as the event language says; the entry does them all.
    for fx in entry["fx"]:
        before = copy.deepcopy(state)
        apply_effect(state, fx, context())
        check_effect(before, state, fx)
    state["last_events"][table] = total
    once = entry.get("once")
    if once is not None:
        state["once"].append(once)
    assert resolved == state


def _phrases(node: Any) -> list[str]:
    """Every effect phrase of the event tables: an entry's ``fx`` and a decision's
    ``yes`` and ``no``."""
    if isinstance(node, dict):
        return [
            phrase
            for key, value in node.items()
            for phrase in (value if key in ("fx", "yes", "no") else _phrases(value))
        ]
    if isinstance(node, list):
        return [phrase for value in node for phrase in _phrases(value)]
    return []


def test_every_effect_of_the_tables_reads_as_its_verb_declares() -> None:
    """The event language is declared (``effects.EFFECTS``: each verb's rule, words and
    argument kinds), and every phrase of the tables fits it: a known verb, its
    arguments of the right kinds (regions, Currents, Personalities, armies, numbers)."""
    phrases = _phrases(EVENTS)
    assert len(phrases) > 600
    assert {Effect.read(fx).verb for fx in phrases} == set(EFFECTS)
    assert [problem for fx in phrases for problem in check(fx)] == []


@pytest.mark.parametrize(
    ("fx", "problem"),
    [
        ("fame X 1", "'X' is not a valid who"),
        ("take F", "region is missing"),
        ("take F Atlantis", "'Atlantis' is not a valid region"),
        ("pays Lyon 300 F more", "'more' is more than pays takes"),
        ("gov_pays lots", "'lots' is not a valid int"),
        ("unless_outlawed hebertiste fame Q -2", "is not a valid effect"),
        ("conquer Lyon", "no effect is called 'conquer'"),
    ],
)
def test_a_phrase_that_does_not_fit_its_verb_is_named(fx: str, problem: str) -> None:
    assert any(problem in found for found in check(fx)), check(fx)
