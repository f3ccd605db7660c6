"""6.3: the turn order, by fame."""

from __future__ import annotations

from tabletop.framework import NOBODY, Context, State

from ..core import (
    controlled_regions,
    enter_phase,
    fame,
    name,
    roll,
    seat_of,
)
from ..factions import FEUILLANT, GIRONDE, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from ..tasks import (
    Step,
)
from .event_decisions import run_auto_decisions

# 6.3 Turn order -------------------------------------------------------------------------


def turn_order(state: State, t: Step, ctx: Context) -> None:
    """Fame plus controlled regions, higher first; fame breaks ties, then dice (6.3)."""
    run_auto_decisions(state, ctx)
    enter_phase(state, "order", ctx)
    scores = {
        c: fame(state, c) + len(controlled_regions(state, c))
        for c in (ROYALIST, FEUILLANT, MARAIS, GIRONDE, MONTAGNE, SANS_CULOTTE)
    }
    groups: dict[tuple[int, int], list[str]] = {}
    for c, s in scores.items():
        groups.setdefault((s, fame(state, c)), []).append(c)
    order: list[str] = []
    for key in sorted(groups, reverse=True):
        tied = groups[key]
        while len(tied) > 1:
            rolls = {
                c: roll(
                    state,
                    ctx,
                    1,
                    6,
                    reason=f"turn order tie, 6.3 ({name(c)})",
                    about=seat_of(state, c),
                )[0]
                for c in tied
            }
            best = max(rolls.values())
            first = [c for c in tied if rolls[c] == best]
            if len(first) == 1:
                order.append(first[0])
                tied = [c for c in tied if c != first[0]]
        order.extend(tied)
    state["order"] = order
    ctx.emit("order", "turn order: Government, " + ", ".join(name(c) for c in order), about=NOBODY)
