"""R.7.2.2, the two-headed Directorate: a Government decision is sealed by both partners,
and when they differ the other Currents may back one side before a die-off decides."""

from __future__ import annotations

from typing import Any

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import OrderedVote

from .core import (
    TASKS,
    roll,
    seat_names,
    seat_of,
)
from .tasks import Dieoff
from .verbs import BACK


def shared_government(state: State, prompt: Prompt) -> bool:
    """A Government decision under the two-headed Directorate (R.7.2.2): both of its
    Currents seal an answer, and a die-off settles a disagreement."""
    partner = state["gov"].get("partner")
    if partner is None or prompt.seat != seat_of(state, state["gov"]["controller"]):
        return False
    partner_seat = seat_of(state, partner)
    if partner_seat is None or partner_seat == prompt.seat:
        return False
    top = TASKS.top(state)
    assert top is not None  # the prompt is the top task's
    return top.get("actor") == "gov" or top["kind"] in GOVERNMENT_TASKS


def schedule_dieoff(state: State, answers: dict[int, str]) -> None:
    """The Directorate's partners disagree: the other Currents not outlawed may each
    back one of them (+2 to its die), in turn order; then the die-off (R.7.2.2)."""
    holders = {state["gov"]["controller"], state["gov"]["partner"]}
    sides = set(answers)
    backers: list[int] = []
    for c in state["order"]:
        seat = seat_of(state, c)
        if (
            seat is None
            or c in holders
            or seat in sides
            or seat in backers
            or c in state["outlawed"]
        ):
            continue
        backers.append(seat)
    task: dict[str, Any] = {
        "kind": "dieoff_backing",
        "answers": {str(s): a for s, a in answers.items()},
        "vote": OrderedVote.new("backing in the Directorate's die-off", backers),
    }
    TASKS.schedule(state, task)


def backing_prompt(state: State, t: dict[str, Any]) -> Prompt:
    seat = OrderedVote(t["vote"]).next_seat
    assert seat is not None  # vote_open
    names = seat_names(state["players"])
    choices = [
        Choice(BACK("none"), "Back neither", detail="Neither side gets your +2.", key=PASS_KEY)
    ]
    choices += [
        Choice(BACK(s), f"Back {names[int(s)]}: +2 to its die", detail=f"It wants: {a}")
        for s, a in t["answers"].items()
    ]
    return Prompt(
        seat,
        "The Directorate is divided: back one side in the die-off?",
        tuple(choices),
        rule="R.7.2.2",
    )


def backing_done(state: State, t: dict[str, Any], ctx: Context) -> None:
    TASKS.finish(state)
    bonus = {s: 0 for s in t["answers"]}
    for value in OrderedVote(t["vote"]).answers().values():
        if value in bonus:
            bonus[value] += 2
    TASKS.schedule(state, Dieoff(kind="dieoff", answers=t["answers"], bonus=bonus))


def dieoff_winner(state: State, t: dict[str, Any], ctx: Context) -> str:
    """Each partner rolls a die plus its backing; ties roll again; the winner's answer
    is the Government's decision (``table`` applies it to the question still waiting
    below)."""
    rolling = list(t["answers"])
    while True:
        totals = {
            s: roll(state, ctx, 1, 6, reason="Directorate die-off, R.7.2.2", about=int(s))[0]
            + t["bonus"][s]
            for s in rolling
        }
        best = max(totals.values())
        rolling = [s for s, v in totals.items() if v == best]
        if len(rolling) == 1:
            break
    winner = rolling[0]
    decided: str = t["answers"][winner]
    ctx.emit("agreement", f"wins the die-off: {decided} (R.7.2.2)", about=int(winner))
    return decided


GOVERNMENT_TASKS = ("gov_decision", "place_volunteer", "gov_move", "capital", "mercy_referendum")
