"""Who and what an actor may target in a segment, and what it costs."""

from __future__ import annotations

from tabletop.framework import State

from ..core import (
    armies_in,
    arrestable,
    commune_may_rise,
    controller,
    economy_factor,
    name,
    officially_present,
)
from ..data import COSTS, KING, PERSONS, REGION_NAMES
from ..factions import FEUILLANT, ROYALIST
from .modifiers import commune_actors

# Who may be targeted -----------------------------------------------------------------


def available_persons(state: State, actor: str, region: str) -> list[str]:
    return [
        n
        for n, p in state["persons"].items()
        if p["current"] == actor
        and p["status"] == "free"
        and p["where"] == region
        and not p["acted"]
        and n != KING
    ]


def targets(state: State, segment: str, actor: str) -> list[tuple[str, str]]:
    """(target, label) pairs the actor may attempt now."""
    out: list[tuple[str, str]] = []
    persons = state["persons"]
    if segment == "arrest":
        for n, p in persons.items():
            if n == KING or p["status"] != "free" or p["where"] is None or p["current"] == actor:
                continue
            if actor == "gov":
                if arrestable(state, n):
                    out.append((n, f"Arrest {n} ({name(p['current'])}) in {p['where']}"))
            elif not officially_present(state, actor) and controller(state, p["where"]) == actor:
                out.append((n, f"Remove {n} ({name(p['current'])}) from {p['where']}"))
    elif segment == "persuade":
        for n, p in persons.items():
            if p["current"] == actor or p["status"] not in ("free", "prison"):
                continue
            if n == KING and (state["king"]["kidnapped"] or actor not in (ROYALIST, FEUILLANT)):
                continue
            data = PERSONS[n]
            if n != KING and actor not in [data["current"], *data["secondary"]]:
                continue
            out.append((n, f"Win over {n} ({name(p['current'])})"))
    elif segment == "plot":
        for r in REGION_NAMES:
            reg = state["regions"][r]
            if reg["revolt"] or reg["coalition"] or controller(state, r) == actor:
                continue
            if available_persons(state, actor, r):
                out.append(
                    (
                        r,
                        f"Plot in {r} (held by {holder_name(state, r)})",
                    )
                )
    elif segment == "revolt":
        if officially_present(state, actor):
            return out
        for r in REGION_NAMES:
            reg = state["regions"][r]
            royal = actor == ROYALIST and reg["coalition"]
            if reg["revolt"] or (r == "Paris" and not royal) or (armies_in(state, r) and not royal):
                continue
            if reg["coalition"] and actor != ROYALIST:
                continue
            if available_persons(state, actor, r):
                out.append((r, f"Start a revolt in {r}"))
    elif segment == "suppress":
        for r in REGION_NAMES:
            reg = state["regions"][r]
            if not reg["revolt"] or reg["coalition"]:
                continue
            if actor == "gov":
                if not any(a["side"] in ("allied", "catholic") for a in armies_in(state, r)):
                    out.append((r, f"Suppress the revolt in {r}"))
            elif available_persons(state, actor, r):
                out.append((r, f"Suppress the revolt in {r}"))
    elif segment == "commune":
        if actor not in commune_actors(state) or not available_persons(state, actor, "Paris"):
            return out
        if commune_may_rise(state):  # 7.4.4.1, 9.7.1
            out.append(("raise:Paris", "Raise the Commune"))
        if state["commune"]["raised"]:
            out.append(("suppress:Paris", "Suppress the Commune"))
    return out


def holder_name(state: State, region: str) -> str:
    holder = controller(state, region)
    return f"the {name(holder)}" if holder else "nobody"


def cost(state: State, segment: str, actor: str) -> int:
    key = {
        "arrest": "arrest",
        "persuade": "persuade",
        "plot": "plot",
        "revolt": "revolt",
        "suppress": "suppress",
        "commune": "commune",
    }[segment]
    return COSTS[key] * economy_factor(state)
