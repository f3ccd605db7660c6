"""Who votes in the Assembly (7.5.2.3.1): every seat in turn order, and the automated
Marais's die (15.2.1.4)."""

from __future__ import annotations

from tabletop.framework import NOBODY, Context, State

from ..core import (
    roll,
    seat_of,
)
from ..data import seating
from ..factions import MARAIS


def deputy_voters(state: State) -> list[tuple[int, list[str]]]:
    """Every seat, in turn order, with its Currents: a seat whose deputies are all
    hidden votes too (with none, its ballot simply weighs nothing), so that who is
    asked never tells how hidden deputies are split."""
    out: list[tuple[int, list[str]]] = []
    for c in state["order"]:
        seat = seat_of(state, c)
        if seat is None or any(s == seat for s, _ in out):
            continue
        out.append((seat, list(seating(state["players"])[seat])))
    return out


def marais_auto_vote(state: State, ctx: Context, law: str | None = None) -> str:
    """15.2.1.4: 1-2 with the Government, 3-4 abstain, 5-6 against; +1 to the die on
    outlawing the Merciful under the Terror, Wrath or Prairial."""
    (face,) = roll(state, ctx, 1, 6, reason="automated Marais vote, 15.2.1.4", about=NOBODY)
    if law == "outlaw_indulgents" and state["regime"] in ("terror", "wrath", "prairial"):
        face += 1
    return "with" if face <= 2 else "abstain" if face <= 4 else "against"


def automated_marais(state: State) -> bool:
    return seat_of(state, MARAIS) is None
