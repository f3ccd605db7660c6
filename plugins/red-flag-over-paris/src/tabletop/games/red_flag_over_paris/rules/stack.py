"""The decision stack: which module answers each task, and the loop that runs every
step that needs no decision up to the next prompt.

``prompt`` reads the top task; ``apply`` resolves it, then ``run`` carries out the
automatic tasks (event steps, the end of a card play or bonus action, tasks with
nothing left to ask) and the round's fixed sequence until a real decision waits. The
solo opponent's decisions are taken here too, so that it never gets a prompt.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.framework import Context, Prompt, State

from .. import solo
from . import (
    bonus_actions,
    card_play,
    event_pieces,
    event_steps,
    final_crisis,
    initiative_order,
    keep_objective,
    momentum_placement,
    operations,
    round_sequence,
    scoring,
)

PromptRule = Callable[[State, Any], Prompt]
ApplyRule = Callable[[State, Any, str, Context], None]
AutomaticRule = Callable[[State, Any, Context], bool]


@dataclass(frozen=True)
class Decision:
    """One kind of task: its prompt and the handler of the answer, or only an automatic
    step; ``automatic`` may also end a decision that has nothing left to ask."""

    prompt: PromptRule | None = None
    apply: ApplyRule | None = None
    automatic: AutomaticRule | None = None


DECISIONS: dict[str, Decision] = {
    "keep_objective": Decision(keep_objective.prompt, keep_objective.apply),
    "initiative_order": Decision(initiative_order.prompt, initiative_order.apply),
    "card_play": Decision(card_play.prompt, card_play.apply),
    "end_of_card_play": Decision(automatic=card_play.end_of_card_play),
    "event_steps": Decision(automatic=event_steps.event_steps),
    "event_option": Decision(event_steps.option_prompt, event_steps.option_apply),
    "event_consent": Decision(event_steps.consent_prompt, event_steps.consent_apply),
    "event_placement": Decision(
        event_pieces.placement_prompt, event_pieces.placement_apply, event_pieces.placement_done
    ),
    "event_removal": Decision(
        event_pieces.removal_prompt, event_pieces.removal_apply, event_pieces.removal_done
    ),
    "disc_placement": Decision(
        event_pieces.disc_prompt, event_pieces.disc_apply, event_pieces.disc_done
    ),
    "operations": Decision(operations.prompt, operations.apply, operations.automatic),
    "momentum_placement": Decision(
        momentum_placement.prompt, momentum_placement.apply, momentum_placement.automatic
    ),
    "bonus_order": Decision(
        bonus_actions.order_prompt, bonus_actions.order_apply, bonus_actions.order_automatic
    ),
    "bonus_action": Decision(
        bonus_actions.action_prompt, bonus_actions.action_apply, bonus_actions.action_automatic
    ),
    "end_of_bonus_action": Decision(automatic=bonus_actions.end_of_bonus_action),
    "de_escalate": Decision(
        bonus_actions.de_escalate_prompt,
        bonus_actions.de_escalate_apply,
        bonus_actions.de_escalate_automatic,
    ),
    "spread_influence": Decision(
        bonus_actions.spread_prompt, bonus_actions.spread_apply, bonus_actions.spread_automatic
    ),
    "scoring_order": Decision(scoring.order_prompt, scoring.order_apply),
    "objective_event": Decision(scoring.objective_event_prompt, scoring.objective_event_apply),
    "final_crisis_discard": Decision(final_crisis.discard_prompt, final_crisis.discard_apply),
}


#: The prompt and the handler of each kind of task that waits for a decision.
_PROMPTS: dict[str, PromptRule] = {
    name: decision.prompt for name, decision in DECISIONS.items() if decision.prompt is not None
}
_APPLIES: dict[str, ApplyRule] = {
    name: decision.apply for name, decision in DECISIONS.items() if decision.apply is not None
}


def prompt(state: State) -> Prompt | None:
    """The decision the top task waits for (None when the game is over)."""
    stack = state["stack"]
    if not stack:
        return None
    task = stack[-1]
    try:
        rule = _PROMPTS[task["name"]]
    except KeyError:
        raise AssertionError(f"{task['name']} needs no decision") from None
    return rule(state, task)


def apply_decision(state: State, action: str, ctx: Context) -> None:
    """Resolve the top task with ``action`` (already checked to be legal)."""
    task = state["stack"][-1]
    rule = _APPLIES.get(task["name"])
    assert rule is not None, f"{task['name']} needs no decision"
    rule(state, task, action, ctx)


#: The automatic step of each kind of task, None when it has none (looked up on every
#: loop of ``run``, several times an action).
_AUTOMATIC: dict[str, AutomaticRule | None] = {
    name: decision.automatic for name, decision in DECISIONS.items()
}


def run(state: State, ctx: Context) -> None:
    """Resolve everything that needs no decision, up to the next real prompt."""
    stack = state["stack"]
    bot = state.get("solo")  # the solo opponent's seat, fixed at setup; None: two players
    while True:
        if stack:
            task = stack[-1]
            automatic = _AUTOMATIC[task["name"]]
            if automatic is not None and automatic(state, task, ctx):
                continue
            if bot is None or task.get("seat") != bot:
                return  # a decision for a player (the usual case: no solo opponent)
            solo.act(state, task, ctx)  # the solo opponent decides
            continue
        if state["step"] == "over":
            return
        round_sequence.advance(state, ctx)


def answer(state: State, seat: int, action: str, ctx: Context) -> None:
    """``apply_decision``, then ``run``: ``seat``'s action and all that follows it (the
    game's ``apply``; the top task already names the seat)."""
    task = state["stack"][-1]
    try:
        rule = _APPLIES[task["name"]]
    except KeyError:
        raise AssertionError(f"{task['name']} needs no decision") from None
    rule(state, task, action, ctx)
    run(state, ctx)
