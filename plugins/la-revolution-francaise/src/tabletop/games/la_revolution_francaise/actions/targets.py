"""Who and what an actor may target in a segment, and what it costs."""

from __future__ import annotations

from collections.abc import Callable

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
from ..plans import RAISE_TARGET, SUPPRESS_TARGET
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


Targets = list[tuple[str, str]]
"""(target, label) pairs: what an actor may attempt, as its ``try`` action names it."""


def targets(state: State, segment: str, actor: str) -> Targets:
    """(target, label) pairs the actor may attempt now, by the segment's own rule."""
    return SEGMENT_TARGETS[segment](state, actor)


def arrest_targets(state: State, actor: str) -> Targets:
    """7.4.3: the Government arrests the arrestable; a Current outside the Assembly
    removes a Personality from a region it holds."""
    out: Targets = []
    for n, p in state["persons"].items():
        if n == KING or p["status"] != "free" or p["where"] is None or p["current"] == actor:
            continue
        if actor == "gov":
            if arrestable(state, n):
                out.append((n, f"Arrest {n} ({name(p['current'])}) in {p['where']}"))
        elif not officially_present(state, actor) and controller(state, p["where"]) == actor:
            out.append((n, f"Remove {n} ({name(p['current'])}) from {p['where']}"))
    return out


def persuade_targets(state: State, actor: str) -> Targets:
    """7.4.5: a free or jailed Personality of another Current that the actor may win
    over (its main or a secondary Current; the King only by the Royalist or the
    Feuillant, unless he is kidnapped)."""
    out: Targets = []
    for n, p in state["persons"].items():
        if p["current"] == actor or p["status"] not in ("free", "prison"):
            continue
        if n == KING and (state["king"]["kidnapped"] or actor not in (ROYALIST, FEUILLANT)):
            continue
        data = PERSONS[n]
        if n != KING and actor not in [data["current"], *data["secondary"]]:
            continue
        out.append((n, f"Win over {n} ({name(p['current'])})"))
    return out


def plot_targets(state: State, actor: str) -> Targets:
    """7.4.1: a region not held by the actor, not in revolt nor held by the Coalition,
    where one of its Personalities stands."""
    out: Targets = []
    for r in REGION_NAMES:
        reg = state["regions"][r]
        if reg["revolt"] or reg["coalition"] or controller(state, r) == actor:
            continue
        if available_persons(state, actor, r):
            out.append((r, f"Plot in {r} (held by {holder_name(state, r)})"))
    return out


def revolt_targets(state: State, actor: str) -> Targets:
    """7.4.2: only a Current outside the Assembly; not Paris, nor a region in revolt or
    with an army, unless the Royalist rises where the Coalition holds (9.7.1)."""
    out: Targets = []
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
    return out


def suppress_targets(state: State, actor: str) -> Targets:
    """7.4.3: a revolt the Coalition does not hold; the Government needs no Personality
    there but no enemy army, a Current needs one of its Personalities."""
    out: Targets = []
    for r in REGION_NAMES:
        reg = state["regions"][r]
        if not reg["revolt"] or reg["coalition"]:
            continue
        if actor == "gov":
            if not any(a["side"] in ("allied", "catholic") for a in armies_in(state, r)):
                out.append((r, f"Suppress the revolt in {r}"))
        elif available_persons(state, actor, r):
            out.append((r, f"Suppress the revolt in {r}"))
    return out


def commune_targets(state: State, actor: str) -> Targets:
    """7.4.4: the Commune's Currents, with a Personality in Paris, raise it (when it may
    rise: 7.4.4.1, 9.7.1) or suppress it once raised."""
    out: Targets = []
    if actor not in commune_actors(state) or not available_persons(state, actor, "Paris"):
        return out
    if commune_may_rise(state):
        out.append((RAISE_TARGET, "Raise the Commune"))
    if state["commune"]["raised"]:
        out.append((SUPPRESS_TARGET, "Suppress the Commune"))
    return out


#: Each segment's rule of who or what may be targeted (7.3-7.4).
SEGMENT_TARGETS: dict[str, Callable[[State, str], Targets]] = {
    "arrest": arrest_targets,
    "persuade": persuade_targets,
    "plot": plot_targets,
    "revolt": revolt_targets,
    "suppress": suppress_targets,
    "commune": commune_targets,
}


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
