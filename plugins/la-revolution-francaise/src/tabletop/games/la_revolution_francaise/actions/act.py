"""7.3-7.4: the action segments in their fixed order (arrests, persuasion, plots,
revolts, suppressions, the Commune); in each, every actor in turn order picks a target
or stops."""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State

from ..core import (
    TASKS,
    actor_seat,
    enter_phase,
    fame,
    money,
    name,
    odds_text,
    seat_of,
)
from ..tasks import ActionTurn, Attempt, Step
from ..verbs import DONE, TRY
from .modifiers import action_modifiers
from .segments import REGIONAL, SEGMENT_RULES, SEGMENTS
from .targets import available_persons, cost, targets


def actions_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "actions", ctx)
    tasks: list[ActionTurn | Step] = []
    for segment in SEGMENTS:
        actors = list(state["order"])
        if segment in ("arrest", "suppress"):
            actors = ["gov", *actors]
        for actor in actors:
            if actor != "gov" and seat_of(state, actor) is None:
                if segment == "plot":
                    tasks.append(Step(kind="marais_plot"))
                continue
            tasks.append(ActionTurn(kind="act", segment=segment, actor=actor))
    TASKS.schedule(state, *tasks)


# The act task: an actor's attempts in one segment -----------------------------------------


def act_needed(state: State, t: ActionTurn) -> bool:
    """The actor has a seat, can pay for one roll (7.1) and has a target (7.3-7.4)."""
    actor, segment = t["actor"], t["segment"]
    if actor_seat(state, actor) is None:
        return False
    if money(state, actor) < cost(state, segment, actor):
        return False
    return bool(targets(state, segment, actor))


def act_prompt(state: State, t: ActionTurn) -> Prompt:
    actor, segment = t["actor"], t["segment"]
    seat = actor_seat(state, actor)
    assert seat is not None  # act_needed
    price = cost(state, segment, actor)
    options = targets(state, segment, actor)
    choices = [
        Choice(
            DONE(),
            "Done",
            detail=f"No more {segment} attempts this turn; the next Current acts.",
            key=PASS_KEY,
        )
    ]
    for target, label in options:
        mods = action_modifiers(
            state, actor, segment, target, all_persons(state, actor, segment, target)
        )
        total = fame(state, actor) + sum(m for m, _ in mods)
        why = ", ".join(f"{m:+d} {w}" for m, w in mods) or "no modifier"
        choices.append(
            Choice(
                TRY(target),
                label,
                detail=f"Fame {fame(state, actor)}, {why}: column {max(1, min(20, total))}; "
                f"one roll gives {odds_text(total)} ({SEGMENT_RULES[segment]}).",
                consequence=f"costs {price} per roll",
            )
        )
    return Prompt(
        seat,
        f"{name(actor)}: {SEGMENT_TITLES[segment]}",
        tuple(choices),
        rule=SEGMENT_RULES[segment],
    )


SEGMENT_TITLES = {
    "arrest": "arrest or remove a Personality?",
    "persuade": "win over a Personality?",
    "plot": "plot to take a region?",
    "revolt": "start a revolt?",
    "suppress": "suppress a revolt?",
    "commune": "raise or suppress the Commune?",
}


def all_persons(state: State, actor: str, segment: str, target: str) -> list[str]:
    if segment not in REGIONAL:
        return []
    region = "Paris" if segment == "commune" else target
    return available_persons(state, actor, region)


def act_handle(state: State, t: ActionTurn, action: str, ctx: Context) -> None:
    if DONE.matches(action):
        TASKS.finish(state)
        return
    target = TRY.value(action)  # checked: a Personality, a region or a Commune action
    TASKS.schedule(
        state,
        Attempt(
            kind="attempt",
            actor=t["actor"],
            segment=t["segment"],
            target=target,
            persons=None,
            roll_count=None,
        ),
    )
