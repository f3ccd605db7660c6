"""The Government's treasury as the search bot's hints see it (issue 27).

A law that passes when the Government cannot pay its cost fails, and the Government is
bankrupt: the Current that controls it loses 5 fame and the Government 2 (10.2.2.1).
Five fame is five victory points (14.1), more than most plots bring in a game. In
traced games the Gironde, governing under the Convention, proposed a law its empty
treasury could not pay for and lost 5 fame twice in three turns; an eight-action
playout rarely reaches the cost (nor the armies' upkeep the law leaves unpaid, 9.4), so
the hints say it: a Current never proposes a law
that would ruin its own Government, votes such a law down when another proposes it,
and lets it through when a rival's Government would pay the price.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tabletop.framework import State

from .core import gov_controller, money
from .data import COSTS
from .verbs import LAW, MOD, VOTE
from .words import law_price


def ruinous(state: State, law: str) -> bool:
    """Whether passing ``law`` now would bankrupt the Government (10.2.2.1): it cannot
    pay the law's cost, or, paying it, could no longer pay its regular armies' upkeep
    in this turn's Military Phase (9.4: a regular army disbanded for want of pay is a
    bankruptcy too). Only the turn's first bankruptcy costs anything; the King's trial
    costs nothing."""
    if law == "trial" or state.get("bankrupt_turn") == state["turn"]:
        return False
    price, have = law_price(state, law), money(state, "gov")
    if have < price:
        return True
    upkeep = COSTS["maintenance"] * sum(
        1 for a in state["armies"] if a["side"] == "rev" and a["kind"] == "regular"
    )
    return upkeep <= have < price + upkeep


def ruinous_proposals(state: State, mine: Collection[str], actions: Sequence[str]) -> list[str]:
    """The law proposals in ``actions`` that would bankrupt a Government that one of
    ``mine`` controls."""
    if gov_controller(state) not in mine:
        return []
    return [a for a in actions if LAW.matches(a) and ruinous(state, LAW.arg(a))]


def treasury_vote(
    state: State, top: dict[str, object], mine: Collection[str], actions: Sequence[str]
) -> str | None:
    """The vote on a law that would bankrupt the Government: against it (the lowest
    modifier, or "no") when one of ``mine`` governs, for it when a rival does; None
    for any other law."""
    kind, law = top.get("kind"), top.get("law")
    if kind not in ("fame_vote", "law_vote") or not isinstance(law, str):
        return None
    if not ruinous(state, law):
        return None
    ours = gov_controller(state) in mine
    if kind == "fame_vote":
        mods = sorted((a for a in actions if MOD.matches(a)), key=MOD.number)
        if not mods:
            return None
        return mods[0] if ours else mods[-1]
    wanted = VOTE("no") if ours else VOTE("yes")
    return wanted if wanted in actions else None
