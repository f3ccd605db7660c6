"""The Commune of Paris as a plan for the Montagne and the Sans-Culotte (issue 27).

Raising the Commune (7.4.4.1) is the largest single swing of victory points a left-wing
Current can make by its own hand: control of Paris goes to the Commune's controller
(5 VP and a region, 14.1), the Sans-Culotte scores 5 more while it stands (14.1.6),
and whoever held Paris (the Gironde, at the start) loses the same. It is also the only
road to the Terror (R.1.8.2) and the Montagne's road to the Convention (R.1.8.1), the
regimes under which these two Currents can win (14.3). Short playouts cannot see it:
the objective is declared before the Personalities are placed (6.4, 6.5), and the
Commune is the last segment of the Action Phase (7.4), after plots that would use up
the same Personalities. So the hints plan it as a whole: declare it, send every
Personality to Paris, spend nothing before the Commune segment, then try with every
Personality and every roll that can be paid for.

Once the Commune stands under one of the seat's Currents and Paris is threatened, the
regime change it opens (R.1.8) is both an objective that cannot be missed (6.4.2: it is
made at the start of the Political Phase, before the armies move, 7.5.1) and the regime
these Currents win under: the Terror, or else the Convention (14.3).

The Montagne, four Personalities influential in Paris (+2 each, 7.4.1) against its -2
(7.4.4), is the likelier of the two; the Sans-Culotte's one Personality rarely makes
it alone and shares the Montagne's objective instead (``bot_plan.shared_plan``).
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.framework import State

from .bot_revolt import affordable_rolls, attempt_odds, own_free
from .core import commune_may_rise, seat_of, track_level
from .data import seating
from .factions import MONTAGNE, SANS_CULOTTE
from .plans import RAISE_TARGET, Objective
from .political.regime import regime_options
from .verbs import INSTALL

#: The objective (6.4.2) and the Commune segment's target (7.4.4.1).
RAISE_COMMUNE = Objective("raise_commune").value
#: The Currents for which a raised Commune is a gain of its own (14.1.5-6).
RAISERS = frozenset({MONTAGNE, SANS_CULOTTE})
#: The regimes the Montagne and the Sans-Culotte install when the Commune opens them
#: (R.1.8), best first: they win under the Terror (14.3, the better of the two) or the
#: Convention (against the Gironde), never under the Legislative.
REGIMES_WANTED = ("terror", "convention")


def commune_persons(state: State, who: str) -> list[str]:
    """``who``'s Personalities that can still join a Commune action this turn: free,
    not acted yet, and in Paris or not placed yet (6.5)."""
    return [n for n in own_free(state, who) if state["persons"][n]["where"] in (None, "Paris")]


def raise_chance(state: State, who: str) -> float:
    """The chance that ``who`` raises the Commune this turn with the Personalities it
    can still bring to Paris and every roll it can pay for (7.1: the best roll kept):
    an A at level I, an A or a B at levels II and III (7.4.4.1; a B at level II raises it
    with no leader, which still meets the objective). Zero where it cannot try."""
    if who not in RAISERS or not commune_may_rise(state):
        return 0.0
    rolls = affordable_rolls(state, who, "commune")
    persons = commune_persons(state, who)
    if rolls == 0 or not persons:
        return 0.0
    chances = attempt_odds(state, who, "commune", RAISE_TARGET, persons, rolls)
    return chances["A"] + (chances["B"] if track_level(state, "commune") >= 2 else 0.0)


def commune_pending(state: State, who: str) -> bool:
    """Whether ``who`` declared the raising of the Commune this turn, it has not
    happened yet and it still can."""
    declared = (state.get("declared") or {}).get(who)
    return (
        declared == RAISE_COMMUNE
        and RAISE_COMMUNE not in state.get("achieved", ())
        and commune_may_rise(state)
    )


def regime_plan(state: State, who: str) -> str | None:
    """The regime ``who`` (the Montagne or the Sans-Culotte) declares as its objective:
    the best of ``REGIMES_WANTED`` that a Current of its own seat may install at the
    coming Political Phase (7.5.1, R.1.8), or None."""
    seat = seat_of(state, who)
    if who not in RAISERS or seat is None:
        return None
    mine = seating(state["players"])[seat]
    open_ = {
        new for decider, new, how in regime_options(state) if how == "install" and decider in mine
    }
    return next((new for new in REGIMES_WANTED if new in open_), None)


def regime_choice(state: State, actions: Sequence[str]) -> str | None:
    """At the regime change (7.5.1), for the Commune's controller when it is the
    Montagne or the Sans-Culotte: install the best regime offered."""
    commune = state["commune"]
    if not commune["raised"] or commune["controller"] not in RAISERS:
        return None
    return next((INSTALL(new) for new in REGIMES_WANTED if INSTALL(new) in actions), None)
