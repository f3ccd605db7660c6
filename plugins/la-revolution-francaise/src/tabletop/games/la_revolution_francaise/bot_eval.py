"""Who wins from here, by chapter 14's own thresholds, for the search bot (issue 27).

Victory in La Révolution is decided by thresholds, not by the most points: the
Royalist wins outright at 25 VP (14.2.1); otherwise each other Current counts for
Revolution or Reaction by whether it has 25 VP (14.2.2), and the regime names the
winner of the majority (14.3). A Current one point short of 25 can lose everything to
one more point, and a Current far ahead on points may still not be the one the regime
crowns. So a position is judged by asking chapter 14 who wins when every Current's
victory points move by what the turns left can still change: the same fixed set of
deviations for every state (a quadrature, not the game's dice), so the judgement is a
plain function of the state and the search stays reproducible.
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

from tabletop.framework import State

from .assembly import deputies, deputies_elected
from .core import regime
from .data import SETUP, seating
from .factions import ALL, FEUILLANT, GIRONDE, MARAIS, MONTAGNE, SANS_CULOTTE
from .interphase import objective_met, victory_points, winner
from .political.regime import regime_options

#: How many end-of-game futures each judgement asks chapter 14 about.
FUTURES = 32
#: The chance that a regime change open now (7.5.1: the Commune's controller when Paris
#: is threatened, R.1.8 and the like) is made: its decider may or may not want it.
CHANGE_CHANCE = 0.5
#: Spread of a Current's victory points by the end of the game: ``LAST_TURN`` for the
#: last turn's Interphase alone, and ``PER_TURN`` more (as a standard deviation adding
#: up by squares) for every turn still to be played: a fame point or two, a region,
#: Paris's 5 or a regime's 5 can change hands in a turn.
LAST_TURN = 2.0
PER_TURN = 2.5


#: One stride a Current through the ``FUTURES`` quantiles (odd, so each visits every
#: quantile once): chosen so that no two Currents' deviations correlate by more than
#: 0.13, as if drawn independently.
_STRIDES = (1, 3, 5, 7, 15, 25)


@lru_cache(maxsize=1)
def futures() -> tuple[tuple[float, ...], ...]:
    """``FUTURES`` standard-normal deviations for each of the six Currents: every
    Current gets each of the ``FUTURES`` evenly spaced normal quantiles once (a Latin
    hypercube), in an order of its own (``_STRIDES``)."""
    normal = NormalDist()
    return tuple(
        tuple(
            normal.inv_cdf((((i * stride + 3 * j) % FUTURES) + 0.5) / FUTURES)
            for j, stride in enumerate(_STRIDES)
        )
        for i in range(FUTURES)
    )


def election_ahead(state: State) -> bool:
    """Whether the regime in force elects the Assembly again before the game ends
    (R.1.6: the Legislative in turns 4 and 8; the others every few turns)."""
    turn, last = int(state["turn"]), int(state.get("last_election", 0))
    schedule = regime(state)["elections"]
    ahead = range(turn if last != turn else turn + 1, int(SETUP["turns"]) + 1)
    if "turns" in schedule:
        return any(t in schedule["turns"] for t in ahead)
    return any(t - last >= int(schedule["every"]) for t in ahead)


def points_now(state: State) -> dict[str, int]:
    """Each Current's victory points now (14.1), counting the fame point that its
    declared objective is worth at the coming Interphase (10.3: +1 met, -1 missed), and
    the deputies it will have at the end: those who switched to it go back (8.3), and
    when an election is still to come, the deputies it will bring for the regions held
    now (a region held before it is worth a deputy too)."""
    vp = victory_points(state)
    for who, objective in (state.get("declared") or {}).items():
        if who in vp:
            vp[who] += 1 if objective_met(state, who, objective) else -1
    now = {c: deputies(state, c) for c in ALL}
    if election_ahead(state):
        later = deputies_elected(state)
    else:
        later = dict(now)
        for move in state.get("switched") or ():
            later[move["to"]] = max(0, later[move["to"]] - int(move["n"]))
            later[move["from"]] += int(move["n"])
    for c in (FEUILLANT, MARAIS, GIRONDE):
        vp[c] += later[c] - now[c]
    guillotined = 5 if state["king"]["dead"] else 0
    for c in (MONTAGNE, SANS_CULOTTE):  # 14.1.5-6: the King's death or deputies
        vp[c] += max(guillotined, later[c]) - max(guillotined, now[c])
    return vp


def spread(state: State) -> float:
    """The standard deviation of a Current's final VP from this state."""
    left = max(0, int(SETUP["turns"]) - int(state["turn"]))
    return math.sqrt(LAST_TURN**2 + left * PER_TURN**2)


def win_chances(state: State, vp: dict[str, int] | None = None) -> dict[str, float]:
    """Each Current's share of the ``futures`` in which chapter 14 makes it the winner
    (under the regime in force now); Currents that win none are left out."""
    vp = points_now(state) if vp is None else vp
    sigma = spread(state)
    wins: dict[str, float] = {}
    share = 1.0 / FUTURES
    for deviation in futures():
        future = {c: round(vp[c] + sigma * d) for c, d in zip(ALL, deviation, strict=True)}
        who = winner(state, future)[0]
        wins[who] = wins.get(who, 0.0) + share
    return wins


def seat_chances(state: State, vp: dict[str, int] | None = None) -> list[float]:
    """Each seat's chance of winning from ``win_chances``, in seat order, then the
    automated Marais's share when it plays for nobody (15.2). Where a regime change is
    open at the start of the Political Phase (7.5.1), the chances are those of the
    regime in force and of the first regime offered, weighed by ``CHANGE_CHANCE``: a
    Feuillant whose Legislative the Commune can end sees the danger before it comes."""
    wins = win_chances(state, vp)
    installs = [new for _, new, how in regime_options(state) if how == "install"]
    if installs:
        now = state["regime"]
        state["regime"] = installs[0]
        try:
            changed = win_chances(state)
        finally:
            state["regime"] = now
        wins = {
            c: (1 - CHANGE_CHANCE) * wins.get(c, 0.0) + CHANGE_CHANCE * changed.get(c, 0.0)
            for c in {*wins, *changed}
        }
    rows = seating(state["players"])
    chances = [sum(wins.get(c, 0.0) for c in row) for row in rows]
    if all(MARAIS not in row for row in rows):
        chances.append(wins.get(MARAIS, 0.0))
    return chances
