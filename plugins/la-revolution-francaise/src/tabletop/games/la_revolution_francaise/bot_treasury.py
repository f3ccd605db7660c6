"""The Government's treasury as the search bot's hints see it (issue 27).

A law that passes when the Government cannot pay its cost fails, and the Government is
bankrupt: the Current that controls it loses 5 fame and the Government 2 (10.2.2.1).
So is a Government that cannot pay a regular army's upkeep in the Military Phase (9.4).
Five fame is five victory points (14.1), more than most plots bring in a game. In
traced games the Gironde, governing under the Convention, proposed a law its empty
treasury could not pay for and lost 5 fame twice in three turns. An eight-action
playout rarely reaches the cost or the upkeep, so the hints say it: a Current never
proposes a law that would ruin its own Government, votes such a law down when another
proposes it, lets it through when a rival's Government would pay the price, and, as
the Government, spends on arrests and suppressions only what the upkeep leaves."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from tabletop.framework import State

from .actions.targets import cost
from .core import gov_controller, money
from .data import COSTS
from .verbs import LAW, MOD, ROLLS, TRY, VOTE
from .words import law_price


def upkeep(state: State) -> int:
    """What the Government must keep for its regular armies' upkeep this turn (9.4):
    a regular army disbanded for want of pay is a bankruptcy (10.2.2.1); volunteers
    go first and cost no fame."""
    regulars = sum(1 for a in state["armies"] if a["side"] == "rev" and a["kind"] == "regular")
    return COSTS["maintenance"] * regulars


def reserve(state: State) -> int:
    """What the Government must keep unspent: its regular armies' upkeep (``upkeep``),
    or nothing when its treasury is already short of it (it goes bankrupt whatever it
    spends)."""
    kept = upkeep(state)
    return kept if money(state, "gov") >= kept else 0


def ruins(state: State, price: int) -> bool:
    """Whether the Government spending ``price`` now would bankrupt it (10.2.2.1): it
    cannot pay, or, paying, could no longer pay its regular armies' upkeep (9.4).
    Only the turn's first bankruptcy costs anything."""
    if state.get("bankrupt_turn") == state["turn"]:
        return False
    return money(state, "gov") < price + reserve(state)


def ruinous(state: State, law: str) -> bool:
    """Whether passing ``law`` now would bankrupt the Government (``ruins``); the
    King's trial costs nothing."""
    return law != "trial" and ruins(state, law_price(state, law))


def ruinous_spending(state: State, top: dict[str, object], actions: Sequence[str]) -> list[str]:
    """The Government's own arrests and suppressions (7.3.1, 7.4.3), paid from its
    treasury, that would bankrupt it (``ruins``): every target while one roll would,
    and the numbers of rolls that would."""
    if top.get("actor") != "gov" or top.get("segment") not in ("arrest", "suppress"):
        return []
    price = cost(state, str(top["segment"]), "gov")
    if top.get("kind") == "act":
        return [a for a in actions if TRY.matches(a)] if ruins(state, price) else []
    if top.get("kind") == "attempt":
        return [a for a in actions if ROLLS.matches(a) and ruins(state, ROLLS.number(a) * price)]
    return []


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
