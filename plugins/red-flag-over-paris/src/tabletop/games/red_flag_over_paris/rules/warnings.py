"""Words for side effects a player should hear of before committing a choice.

Shared by every decision that takes a cube from a side's supply (event placements,
operations, the §9.3 cube, Turncoat): the warning and the rule that later applies it
(``board.resolve_breaches``) must agree, and a test checks that they do.
"""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.framework import State

from .. import board
from ..data import BOARD, FINAL_ZONE, ROUNDS, SPACES, VP_CAP, ZONES


def join(notes: Sequence[str]) -> str:
    """Notes as one line, the empty ones left out."""
    if not notes:  # the usual case
        return ""
    return "; ".join(filter(None, notes))


def breach_notes(state: State, seat: int) -> tuple[str, str]:
    """What taking ``seat``'s next cube does to its Crisis Track (§8.2-§8.3, §12.1).

    Returns (detail, consequence): an inner zone's breach is a gain and goes in the
    detail; breaching the Final Crisis zone costs a Political VP or the bonus cubes, and
    may bring the Final Crisis, so it is a consequence."""
    if state["pool"][seat] > 0:  # the usual case: the pool gives the cube, no breach
        return "", ""
    zone = board.next_breach(state, seat)
    if zone is None:
        return "", ""
    bonus = state["bonus"][seat][zone]
    later = "when this card play or bonus action ends"
    if board.pool_capacity(state, seat) is not None:
        later += ", room permitting"
    if zone != FINAL_ZONE:
        return (
            f"This cube is the first from your {ZONES[zone]} zone: a breach; its "
            f"{bonus} bonus cube(s) reach your pool {later} (§8.2)"
        ), ""
    notes: list[str] = []
    if state["fc_first"] is None:
        detail = f"Its {bonus} bonus cube(s) reach your pool {later} (§8.3)"
        if board.vp_of(state, seat, "political") > -VP_CAP:
            notes.append("breaches your Final Crisis zone first: -1 Political VP (§8.3)")
        else:
            notes.append(
                "breaches your Final Crisis zone first: Political VP already at "
                "the bottom, nothing more to lose (§8.3)"
            )
    else:
        detail = ""
        notes.append("breaches your Final Crisis zone second: its bonus cubes leave play (§8.3)")
    if (
        not state["fc"]
        and state["breached"][board.other(seat)][FINAL_ZONE]
        and state["round"] < ROUNDS
    ):
        notes.append(
            "both Final Crisis zones are then breached: the Final Crisis follows this round (§12.1)"
        )
    return detail, join(notes)


def control_loss_note(state: State, seat: int, space: str) -> str:
    """Taking one of ``seat``'s cubes out of ``space`` (De-escalate, Spread Influence)
    ends its control there when its lead is a single piece (§3.2)."""
    if space in BOARD:  # control is a lead in pieces: a lead of exactly 1 is lost
        if board.piece_lead(state, space, seat) != 1:
            return ""
    elif not board.controls(state, space, seat) or (
        board.pieces(state, space, seat) - board.pieces(state, space, board.other(seat)) > 1
    ):
        return ""
    pivotal = ", a Pivotal Space" if SPACES[space].pivotal else ""
    return f"ends your control of {SPACES[space].name}{pivotal} (§3.2)"
