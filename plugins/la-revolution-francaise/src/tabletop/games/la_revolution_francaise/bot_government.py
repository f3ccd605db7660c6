"""The Government's objective as the search bot's hints see it (issue 27).

A Government objective missed costs the Government a fame point and the Current that
controls it one more; met, it gives the Government a point and the Current nothing
(10.3). Left to the search, which sees eight actions ahead, the Governments of the
Feuillant and Gironde seats declared objectives such as arresting Marat, and in a
traced game then arrested others: in six traced games of each seat all fourteen were
missed. The surest
objective is a revolt already burning: the Government needs no Personality to put it
down, rolls on its own fame less 2 and succeeds on an A or a B (7.4.3), acts first in
the segment, and a suppression there by anyone meets the objective too (6.4). So where
such a revolt burns (not under an Allied or a Catholic army, 7.4.3) and the treasury
can pay a roll without bankruptcy (``bot_treasury``), the Government declares it and
then spends every roll the upkeep leaves.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.framework import State

from .actions.targets import cost, targets
from .bot_revolt import affordable_rolls, attempt_odds
from .bot_treasury import reserve, ruins
from .plans import Objective
from .verbs import ROLLS, TRY


def suppress_price(state: State) -> int:
    """One roll of the Government's suppression (7.4.3), from its treasury."""
    return cost(state, "suppress", "gov")


def government_rolls(state: State) -> int:
    """How many suppression rolls (7.1, at most three) the Government can pay for
    and still keep its ``reserve`` (no bankruptcy, 10.2.2.1)."""
    return affordable_rolls(state, "gov", "suppress", reserve(state))


def suppress_chance(state: State, region: str, rolls: int) -> float:
    """The chance that the Government's suppression in ``region`` succeeds (an A or a
    B on its fame with the rules' modifiers, 7.4.3) with ``rolls`` rolls."""
    table = attempt_odds(state, "gov", "suppress", region, [], rolls)
    return table["A"] + table["B"]


def suppression_plan(state: State) -> str | None:
    """The burning revolt the Government is likeliest to put down this turn, if it may
    and can pay a roll without bankruptcy; None otherwise (the search then picks)."""
    rolls = government_rolls(state)
    if rolls == 0:
        return None
    found = [(suppress_chance(state, r, rolls), r) for r, _ in targets(state, "suppress", "gov")]
    best = max(found, key=lambda pair: pair[0], default=None)
    return best[1] if best else None


def planned_suppression(state: State) -> str | None:
    """The region of the Government's declared suppression, if nobody has met it yet."""
    value = (state.get("declared") or {}).get("gov")
    if not isinstance(value, str):
        return None
    declared = Objective.read(value)
    if declared.kind != "suppress" or not declared.target or value in state.get("achieved", ()):
        return None
    return declared.target


def government_move(state: State, top: dict[str, object], actions: Sequence[str]) -> str | None:
    """The Government's move in the suppression segment for its declared objective:
    try the region, then pay every roll the upkeep leaves; None elsewhere."""
    if top.get("actor") != "gov" or top.get("segment") != "suppress":
        return None
    region = planned_suppression(state)
    if region is None:
        return None
    price = suppress_price(state)
    if top.get("kind") == "act":
        wanted = TRY(region)
        return wanted if wanted in actions and not ruins(state, price) else None
    if top.get("kind") == "attempt" and top.get("target") == region:
        wanted = ROLLS(government_rolls(state))
        return wanted if wanted in actions else None
    return None
