"""11.3: the Royalist may try to kidnap the King where his armies hold him."""

from __future__ import annotations

from tabletop.framework import NOBODY, Choice, Context, Prompt, State

from ..actions.modifiers import base_modifiers
from ..core import (
    TASKS,
    answering,
    armies_in,
    economy_factor,
    money,
    pay,
    result,
    roll,
    seat_of,
)
from ..data import COSTS
from ..factions import FEUILLANT, ROYALIST
from ..tasks import (
    Kidnap,
    Step,
)
from ..verbs import KIDNAP

# 11.3 Kidnapping the King --------------------------------------------------------------------


def kidnap_check(state: State, t: Step, ctx: Context) -> None:
    king = state["king"]
    where = king.get("where", "Paris")
    if king["kidnapped"] and not king["dead"]:
        sides = {a["side"] for a in armies_in(state, where) if not a.get("hiding")}
        if sides == {"rev"}:  # 11.3.1: his escort is gone and the Revolution holds him
            person = state["persons"]["Louis XVI"]
            person["status"], person["where"], person["current"] = "prison", None, FEUILLANT
            king["kidnapped"], king["status"] = False, "prison"
            king["retrial"] = state["turn"] + 1
            ctx.emit(
                "king",
                "Louis XVI is recaptured; his trial follows next turn (11.3.1)",
                about=NOBODY,
            )
        return
    if king["dead"] or king["kidnapped"] or seat_of(state, ROYALIST) is None:
        return
    sides = {a["side"] for a in armies_in(state, where) if not a.get("hiding")}
    if sides and "rev" not in sides:
        TASKS.schedule(state, Kidnap(kind="kidnap", where=where))


def kidnap_cost(state: State) -> int:
    return COSTS["kidnap"] * economy_factor(state) if state["regime"] == "legislative" else 0


def kidnap_prompt(state: State, t: Kidnap) -> Prompt:
    seat = seat_of(state, ROYALIST)
    assert seat is not None
    price = kidnap_cost(state)
    choices = [
        Choice(KIDNAP("no"), "Leave the King", detail="He is taken to the provisional capital.")
    ]
    if money(state, ROYALIST) >= price:
        choices.append(
            Choice(
                KIDNAP("try"),
                "Try to kidnap the King",
                detail="One roll on your fame: A or B succeeds (11.3).",
                consequence=f"costs {price}" if price else "",
            )
        )
    return Prompt(
        seat, f"Your armies hold {t['where']}: kidnap Louis XVI?", tuple(choices), rule="11.3"
    )


def kidnap_handle(state: State, t: Kidnap, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    TASKS.finish(state)
    if KIDNAP.arg(action) == "try":
        pay(state, ROYALIST, kidnap_cost(state), ctx, " (kidnapping the King)")
        dice = roll(state, ctx, 2, 6, reason="kidnapping the King, 11.3", about=seat)

        column = state["currents"][ROYALIST]["fame"] + sum(
            m for m, _ in base_modifiers(state, ROYALIST)
        )
        if result(sum(dice), column) in ("A", "B"):
            king = state["persons"]["Louis XVI"]
            king["current"], king["status"], king["where"] = ROYALIST, "free", t["where"]
            state["king"]["kidnapped"] = True
            state["king"]["status"] = "free"
            ctx.emit("king", "the Royalist kidnaps Louis XVI (11.3)")
            return
        ctx.emit("king", "the kidnapping fails (11.3)")
    # 11.3: a King left behind is taken to the provisional capital (``capital_check``)
