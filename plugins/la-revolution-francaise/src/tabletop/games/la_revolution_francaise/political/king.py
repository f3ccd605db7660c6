"""7.5.2.2 and 11.4: the King's action (a law he proposes, his flight) and his trial."""

from __future__ import annotations

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State

from ..core import (
    adjust_fame,
    adjust_track,
    economy_factor,
    finish,
    money,
    name,
    pay,
    seat_of,
)
from ..data import COSTS, KING
from ..factions import FEUILLANT, GIRONDE, MONTAGNE, SANS_CULOTTE
from ..tasks import (
    Step,
)
from ..verbs import KING_ACTION

# 7.5.2.2 The King's action ---------------------------------------------------------------------


def king_holder(state: State) -> str:
    return str(state["persons"][KING]["current"])


def king_prompt(state: State, t: Step) -> Prompt | None:
    king = state["persons"][KING]
    if king["status"] != "free" or state["regime"] != "legislative":
        return None
    holder = king_holder(state)
    seat = seat_of(state, holder)
    price = COSTS["king_feuillant" if holder == FEUILLANT else "king_royalist"] * economy_factor(
        state
    )
    if seat is None or money(state, holder) < price:
        return None
    victim, step = (GIRONDE, -1) if holder == FEUILLANT else (FEUILLANT, 1)
    return Prompt(
        seat,
        "The King's action (Legislative)?",
        (
            Choice(KING_ACTION("none"), "No action", detail="The King does nothing.", key=PASS_KEY),
            Choice(
                KING_ACTION("act"),
                f"The King lowers the {name(victim)}'s fame by 1",
                detail=f"The {name(victim)} loses 1 fame (7.5.2.2).",
                consequence=f"costs {price}",
            ),
            Choice(
                KING_ACTION("both"),
                f"...and moves the Coalition marker {step:+d}",
                detail=f"The {name(victim)} loses 1 fame and the Coalition moves {step:+d} "
                "(7.5.2.2).",
                consequence=f"costs {price}",
            ),
        ),
        rule="7.5.2.2",
    )


def king_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    finish(state)
    choice = KING_ACTION.arg(action)
    if choice == "none":
        return
    holder = king_holder(state)
    pay(
        state,
        holder,
        COSTS["king_feuillant" if holder == FEUILLANT else "king_royalist"] * economy_factor(state),
        ctx,
        " (the King)",
    )
    victim, step = (GIRONDE, -1) if holder == FEUILLANT else (FEUILLANT, 1)
    adjust_fame(state, victim, -1, ctx, " (the King, 7.5.2.2)")
    if choice == "both":
        adjust_track(state, "coalition", step, ctx, " (the King)")


# 11.4 The King's trial ----------------------------------------------------------------------


def trial_verdict(state: State, guilty: bool, ctx: Context) -> None:
    state["king"]["tried"] += 1
    sign = 1 if guilty else -1
    if guilty:
        state["persons"][KING]["status"] = "dead"
        state["king"]["dead"] = True
        ctx.emit("king", "Louis XVI is guillotined (11.4)", about=NOBODY)
        state["achieved"].append("law:trial")
    else:
        ctx.emit("king", "Louis XVI is spared and stays in prison (11.4)", about=NOBODY)
    adjust_track(state, "coalition", 5 * sign, ctx, " (trial)")
    adjust_track(state, "clergy", 5 * sign, ctx, " (trial)")
    for c, d in ((SANS_CULOTTE, 3), (MONTAGNE, 3), (GIRONDE, -2), (FEUILLANT, -2)):
        adjust_fame(state, c, d * sign, ctx, " (trial)")
