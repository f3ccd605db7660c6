"""6.2: the events that ask someone: a Government decision, a general's desertion,
a vote of the Assembly."""

from __future__ import annotations

from tabletop.framework import NOBODY, Choice, Context, Prompt, State

from ..assembly import deputies
from ..core import (
    TASKS,
    gov_seat,
    seat_of,
)
from ..data import seating
from ..factions import ROYALIST
from ..tasks import (
    AssemblyDecision,
    GovernmentDecision,
    Step,
)
from ..verbs import DECIDE, DESERT, VOTE
from ..words import army_name
from .effects import apply_effect, describe_fx


def gov_decision_needed(state: State, t: GovernmentDecision) -> bool:
    """A seat governs; the automated Marais answers alone (``gov_decision_empty``)."""
    return gov_seat(state) is not None


def gov_decision_prompt(state: State, t: GovernmentDecision) -> Prompt:
    seat = gov_seat(state)
    assert seat is not None  # gov_decision_needed
    decide = t["decision"]
    yes = "; ".join(describe_fx(f) for f in decide["yes"])
    no = "; ".join(describe_fx(f) for f in decide["no"])
    return Prompt(
        seat,
        f"Government decision: {decide['question']}",
        (Choice(DECIDE("yes"), "Yes", consequence=yes), Choice(DECIDE("no"), "No", consequence=no)),
        rule="6.2",
    )


def gov_decision_handle(state: State, t: GovernmentDecision, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    answer = DECIDE.arg(action)
    ctx.emit("decision", f"the Government answers {answer}", about=NOBODY)
    for fx in t["decision"][answer]:
        apply_effect(state, fx, ctx)


def gov_decision_empty(state: State, t: GovernmentDecision, ctx: Context) -> None:
    """An automated Government (the automated Marais) always answers no."""
    TASKS.finish(state)
    state.setdefault("auto_decisions", []).append(t["decision"]["no"])


def desert_needed(state: State, t: Step) -> bool:
    """A seated Royalist, and a revolutionary army to desert."""
    return seat_of(state, ROYALIST) is not None and any(a["side"] == "rev" for a in state["armies"])


def desert_prompt(state: State, t: Step) -> Prompt:
    """Legislative counter-revolution 11: the Royalist picks the army that deserts."""
    seat = seat_of(state, ROYALIST)
    assert seat is not None  # desert_needed
    armies = sorted(a["id"] for a in state["armies"] if a["side"] == "rev")
    where = {a["id"]: a["where"] for a in state["armies"]}
    choices = tuple(
        Choice(
            DESERT(a),
            f"{army_name(a)} at {where[a]}",
            detail=f"This revolutionary army leaves the map; {where[a]} loses its defender.",
        )
        for a in armies
    )
    return Prompt(seat, "Which revolutionary army deserts?", choices, rule="6.2")


def desert_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    army_id = DESERT.arg(action)
    state["armies"] = [a for a in state["armies"] if a["id"] != army_id]
    ctx.emit("army", f"{army_name(army_id)} deserts (event)", about=NOBODY, army={army_id: "gone"})


def assembly_prompt(state: State, t: AssemblyDecision) -> Prompt:
    from tabletop.framework.decisions import OrderedVote

    seat = OrderedVote(t["vote"]).next_seat
    assert seat is not None  # vote_open
    yes = "; ".join(describe_fx(f) for f in t["decision"]["yes"])
    no = "; ".join(describe_fx(f) for f in t["decision"]["no"])
    return Prompt(
        seat,
        f"The Assembly votes: {t['decision']['question']}",
        (
            Choice(VOTE("yes"), "Yes, with your deputies", consequence=yes),
            Choice(VOTE("no"), "No, with your deputies", consequence=no),
        ),
        rule="6.2",
    )


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
