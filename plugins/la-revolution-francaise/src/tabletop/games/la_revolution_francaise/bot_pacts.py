"""Joint objectives (6.4) as the search bot's hints see them (issue 27).

Two Currents in a pact share one objective, declared by whichever of them comes first
in the turn order, and both gain or lose the same fame for it (6.4, 10.3). A Current
that follows has its fame staked on an objective another chose: in a traced game the
Montagne followed the Feuillant into "install the Thermidor" and the Gironde into a
suppression that nobody made, and lost a fame point each time. So a Current
enters a pact only where it will declare: it proposes and accepts pacts with Currents
that the turn order (6.3: fame plus regions, set after the negotiations) will likely
put after it, and refuses the others.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.framework import State

from .core import controlled_regions, fame
from .verbs import ACCEPT, PACT, REFUSE


def order_score(state: State, current: str) -> tuple[int, int]:
    """What the turn order ranks by (6.3): fame plus regions held, then fame."""
    own = fame(state, current)
    return own + len(controlled_regions(state, current)), own


def leads(state: State, current: str, other: str) -> bool:
    """Whether ``current`` will likely come before ``other`` in this turn's order and
    so declare their joint objective (a tie, settled by dice, is not counted on)."""
    return order_score(state, current) > order_score(state, other)


def pact_answer(state: State, top: dict[str, object], actions: Sequence[str]) -> str | None:
    """The answer to a proposed pact: accept where the answering Current would
    declare, refuse otherwise; None for any other decision."""
    if top.get("kind") != "offer_answer" or not top.get("pact"):
        return None
    wanted = ACCEPT() if leads(state, str(top["taker"]), str(top["giver"])) else REFUSE()
    return wanted if wanted in actions else None


def followed_pacts(state: State, actions: Sequence[str]) -> list[str]:
    """The pact proposals in ``actions`` in which the partner would declare."""
    out = []
    for action in actions:
        if PACT.matches(action):
            current, partner = PACT.args(action)
            if not leads(state, current, partner):
                out.append(action)
    return out
