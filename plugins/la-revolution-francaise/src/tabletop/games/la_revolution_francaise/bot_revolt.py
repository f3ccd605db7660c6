"""A revolt as a Current's plan for the turn, for the search bot (issue 27).

A Current outside the Assembly (the Royalist, the Montagne and the Sans-Culotte under
the Legislative, R.1.2.1) may start revolts (7.4.2). As an objective (6.4.2) a revolt
is far surer than a plot: the objective is met on an A *or* a B (the region revolts
either way), while a plot is met on an A only (7.4.1). A hot region adds 2 to the
roll, a region of the Coalition 2 more for the Royalist (9.7.1), and an A gives the
region to the Current as well. A missed objective costs a fame point at the
Interphase (10.3), which is a victory point (14.1), and the Royalist needs 25 of them
(14.2.1): so it plans a revolt where that is likelier to pay than a plot.

The chances come from the rules' own modifiers (``action_modifiers``), so the
dissident clergy's bonus to the Royalist (7.1.1) counts too.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.framework import State

from .actions.modifiers import action_modifiers
from .actions.targets import cost
from .core import (
    armies_in,
    controller,
    fame,
    influential,
    money,
    odds,
    officially_present,
)
from .data import KING, REGION_NAMES
from .factions import ROYALIST

#: Below this chance that the region revolts (an A or a B), a revolt is no plan.
REVOLT_ODDS = 0.3


def affordable_rolls(state: State, who: str, segment: str, spare: int = 0) -> int:
    """How many rolls of a ``segment`` action (a plot, a revolt) ``who`` can pay for
    at the rules' price (7.1, at most three), keeping ``spare``."""
    price = cost(state, segment, who)
    return max(0, min(3, (money(state, who) - spare) // price)) if price > 0 else 3


def own_free(state: State, who: str) -> list[str]:
    """``who``'s Personalities that can still act this turn (placed or not)."""
    return [
        n
        for n, p in state["persons"].items()
        if p["current"] == who and p["status"] == "free" and n != KING and not p.get("acted")
    ]


def may_revolt(state: State, who: str) -> bool:
    """Only a Current not officially present in the Assembly starts revolts (7.4.2)."""
    return who in state["currents"] and not officially_present(state, who)


def revoltable(state: State, who: str, region: str) -> bool:
    """A region where ``who`` may start a revolt (7.4.2, 9.7.1) and would gain by it:
    not one it holds already (a B there would make it neutral)."""
    r = state["regions"][region]
    royal = who == ROYALIST and bool(r["coalition"])
    if r["revolt"] or controller(state, region) == who:
        return False
    if (region == "Paris" or armies_in(state, region)) and not royal:
        return False
    return not (r["coalition"] and who != ROYALIST)


def helpers_for(state: State, who: str, region: str) -> list[str]:
    """``who``'s Personalities that can still act and stand in ``region`` or are not
    placed yet (6.5)."""
    return [n for n in own_free(state, who) if state["persons"][n]["where"] in (None, region)]


def attempt_odds(
    state: State, who: str, segment: str, target: str, persons: Sequence[str], rolls: int
) -> dict[str, float]:
    """The chance of each result when ``who`` (a Current or "gov") tries a ``segment``
    action on ``target`` with ``persons`` and keeps the best of ``rolls`` rolls: its
    fame with the rules' own modifiers (``action_modifiers``) on the Action Resolution
    Table (7.1)."""
    mods = action_modifiers(state, who, segment, target, list(persons))
    return odds(fame(state, who) + sum(m for m, _ in mods), max(1, rolls))


def revolt_odds(
    state: State, who: str, region: str, persons: Sequence[str], rolls: int
) -> tuple[float, float]:
    """The chances that a revolt in ``region`` with ``persons`` and ``rolls`` rolls
    makes the region revolt (an A or a B: the objective is met) and that it gives the
    region to ``who`` (an A), by the rules' modifiers (7.4.2, 9.7.1, 7.1.1)."""
    table = attempt_odds(state, who, "revolt", region, persons, rolls)
    return table["A"] + table["B"], table["A"]


def best_revolt(state: State, who: str) -> tuple[str, float, float] | None:
    """The region where a revolt by ``who`` this turn is likeliest to meet an objective
    (its chance of a revolt, plus its chance of an A as the region gained), with the
    Personalities it has there or can still send (two influential ones at most count);
    None if it may not revolt, cannot pay, or no revolt is likely enough
    (``REVOLT_ODDS``). Returns the region, its revolt chance and its A chance."""
    if not may_revolt(state, who):
        return None
    rolls = affordable_rolls(state, who, "revolt")
    if rolls == 0:
        return None
    best: tuple[float, str, float, float] | None = None
    for region in REGION_NAMES:
        if not revoltable(state, who, region):
            continue
        persons = helpers_for(state, who, region)
        if not persons:
            continue
        strong = [n for n in persons if influential(n, region)][:2] or persons[:1]
        met, taken = revolt_odds(state, who, region, strong, rolls)
        if met < REVOLT_ODDS:
            continue
        value = met + taken
        if best is None or value > best[0]:
            best = (value, region, met, taken)
    return None if best is None else (best[1], best[2], best[3])
