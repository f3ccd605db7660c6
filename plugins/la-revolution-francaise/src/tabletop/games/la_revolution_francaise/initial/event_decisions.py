"""6.2: the events that ask someone: a Government decision, a general's desertion,
a vote of the Assembly."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, Choice, Context, Prompt, State
from tabletop.framework.actions import Verb

from ..assembly import deputies
from ..core import (
    finish,
    gov_seat,
    seat_of,
)
from ..data import seating
from ..factions import ROYALIST
from ..questions import Answer, question
from ..tasks import (
    AssemblyDecision,
    GovernmentDecision,
    Step,
)
from ..verbs import DECIDE, DESERT, VOTE
from .effects import apply_effect, describe_fx


def decision_question(
    seat: int, who: str, verb: Verb, decision: dict[str, Any], yes: str = "Yes", no: str = "No"
) -> Prompt:
    """6.2: an event's decision put to ``seat`` as yes or no (``who`` decides), each
    answer showing its effects, so the Government and the Assembly read it alike."""
    return question(
        seat,
        f"{who}: {decision['question']}",
        verb,
        Answer("yes", yes, consequence="; ".join(describe_fx(f) for f in decision["yes"])),
        Answer("no", no, consequence="; ".join(describe_fx(f) for f in decision["no"])),
        rule="6.2",
    )


def gov_decision_prompt(state: State, t: GovernmentDecision) -> Prompt | None:
    seat = gov_seat(state)
    if seat is None:
        return None
    return decision_question(seat, "Government decision", DECIDE, t["decision"])


def gov_decision_handle(state: State, t: GovernmentDecision, action: str, ctx: Context) -> None:
    finish(state)
    answer = DECIDE.arg(action)
    ctx.emit("decision", f"the Government answers {answer}", about=NOBODY)
    for fx in t["decision"][answer]:
        apply_effect(state, fx, ctx)


def gov_decision_empty(state: State, t: GovernmentDecision, ctx: Context) -> None:
    """An automated Government (the automated Marais) always answers no."""
    finish(state)
    state.setdefault("auto_decisions", []).append(t["decision"]["no"])


def desert_prompt(state: State, t: Step) -> Prompt | None:
    """Legislative counter-revolution 11: the Royalist picks the army that deserts."""
    seat = seat_of(state, ROYALIST)
    armies = sorted(a["id"] for a in state["armies"] if a["side"] == "rev")
    if seat is None or not armies:
        return None
    where = {a["id"]: a["where"] for a in state["armies"]}
    choices = tuple(
        Choice(
            DESERT(a),
            f"{a.replace('_', ' ')} at {where[a]}",
            detail=f"This revolutionary army leaves the map; {where[a]} loses its defender.",
        )
        for a in armies
    )
    return Prompt(seat, "Which revolutionary army deserts?", choices, rule="6.2")


def desert_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    finish(state)
    army_id = DESERT.arg(action)
    state["armies"] = [a for a in state["armies"] if a["id"] != army_id]
    ctx.emit("army", f"{army_id.replace('_', ' ')} deserts (event)", about=NOBODY)


def assembly_prompt(state: State, t: AssemblyDecision) -> Prompt | None:
    from tabletop.framework.decisions import OrderedVote

    seat = OrderedVote(t["vote"]).next_seat
    if seat is None:
        return None
    yes, no = "Yes, with your deputies", "No, with your deputies"
    return decision_question(seat, "The Assembly votes", VOTE, t["decision"], yes, no)


def assembly_tally(state: State, t: AssemblyDecision, ctx: Context) -> None:
    """A majority of deputies decides; a tie is broken as for laws (7.5.2.3.1)."""
    from tabletop.framework.decisions import OrderedVote

    votes = OrderedVote(t["vote"]).answers()
    yes = no = 0
    for seat, value in votes.items():
        count = sum(deputies(state, c) for c in seating(state["players"])[seat])
        yes, no = (yes + count, no) if value == "yes" else (yes, no + count)
    if yes == no:
        breaker = (
            seat_of(state, state["persons"]["Louis XVI"]["current"])
            if state["regime"] == "legislative"
            else gov_seat(state)
        )
        answer = votes.get(breaker, "no") if breaker is not None else "no"
    else:
        answer = "yes" if yes > no else "no"
    ctx.reveal(f"{t['decision']['question']} {yes} yes, {no} no: {answer}")
    for fx in t["decision"][answer]:
        apply_effect(state, fx, ctx)


def run_auto_decisions(state: State, ctx: Context) -> None:
    for effects in state.pop("auto_decisions", []):
        for fx in effects:
            apply_effect(state, fx, ctx)
