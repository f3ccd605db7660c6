"""7.5.2.2 and 11.4: the King's action (a law he proposes, his flight) and his trial."""

from __future__ import annotations

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State

from ..core import (
    TASKS,
    adjust_fame,
    adjust_track,
    economy_factor,
    level,
    money,
    name,
    pay,
    seat_of,
)
from ..data import COSTS, KING, TABLES
from ..factions import FEUILLANT, GIRONDE, MONTAGNE, SANS_CULOTTE
from ..plans import Objective
from ..tasks import (
    Step,
)
from ..verbs import KING_ACTION

# 7.5.2.2 The King's action ---------------------------------------------------------------------


def king_holder(state: State) -> str:
    return str(state["persons"][KING]["current"])


def king_needed(state: State, t: Step) -> bool:
    """Under the Legislative, a free King whose seated holder can pay (7.5.2.2)."""
    if state["persons"][KING]["status"] != "free" or state["regime"] != "legislative":
        return False
    holder = king_holder(state)
    return seat_of(state, holder) is not None and money(state, holder) >= king_price(state, holder)


def king_price(state: State, holder: str) -> int:
    """The King's action's cost for his holder (7.5.2.2)."""
    key = "king_feuillant" if holder == FEUILLANT else "king_royalist"
    return int(COSTS[key] * economy_factor(state))


def king_prompt(state: State, t: Step) -> Prompt:
    holder = king_holder(state)
    seat = seat_of(state, holder)
    assert seat is not None  # king_needed
    price = king_price(state, holder)
    victim, step = (GIRONDE, -1) if holder == FEUILLANT else (FEUILLANT, 1)
    why = coalition_reason(state, holder)
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
                f"(7.5.2.2). {why}",
                consequence=f"costs {price}",
            ),
        ),
        rule="7.5.2.2",
    )


def coalition_reason(state: State, holder: str) -> str:
    """Why the King's holder would move the Coalition marker (7.5.2.2): the Allies pay
    the Royalist by the Coalition's level (10.2.1), and at 17 the Coalition declares
    war (9.2.2); the Feuillant's step down is the reverse."""
    value = state["tracks"]["coalition"]
    if state["war"]:
        return f"At war the marker moves only in the random events (9.2): it stays at {value}."
    pay = TABLES["coalition_money"]
    after = max(1, value - 1) if holder == FEUILLANT else min(20, value + 1)
    now, then = level(value), level(after)
    change = f"Coalition {value} -> {after}"
    if then != now:
        change += f", level {ROMAN[now]} -> {ROMAN[then]}"
    if after >= 17:
        change += ": the Coalition declares war (9.2.2)"
    return (
        f"Why: the Allies pay the Royalist by the Coalition's level each turn (10.2.1: "
        f"I {pay['I']}, II {pay['II']}, III {pay['III']}); at 17 the Coalition declares "
        f"war and its armies may come (9.2.2). {change}."
    )


ROMAN = {1: "I", 2: "II", 3: "III"}


def king_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    TASKS.finish(state)
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
        state["achieved"].append(Objective("law", "trial").value)
    else:
        ctx.emit("king", "Louis XVI is spared and stays in prison (11.4)", about=NOBODY)
    adjust_track(state, "coalition", 5 * sign, ctx, " (trial)")
    adjust_track(state, "clergy", 5 * sign, ctx, " (trial)")
    for c, d in ((SANS_CULOTTE, 3), (MONTAGNE, 3), (GIRONDE, -2), (FEUILLANT, -2)):
        adjust_fame(state, c, d * sign, ctx, " (trial)")
