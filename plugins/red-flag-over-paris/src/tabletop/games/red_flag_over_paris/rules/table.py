"""Every rule of the game in one table: the framework's decision stack
(``tabletop.framework.stack``) over ``state["stack"]``, each task named by ``"name"``.

A ``Decision`` asks a seat (its prompt and the handler of the answer, with ``automatic``
work before asking, or ``needed`` when there may be nothing to ask); a ``Step`` happens
by itself. When the stack is empty, ``round_sequence.advance`` pushes the next part of
the round (``between``); in solitaire the solo opponent answers its own seat's
decisions (``stand_in``), so it never gets a prompt. This module imports the rules and
the solo opponent; none of them imports it, so there is no import cycle.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import Context, Prompt, State
from tabletop.framework.stack import Decision, Stack, Step

from .. import solo_turn
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


def _between(state: State, ctx: Context) -> bool:
    """The round's fixed sequence goes on while the stack is empty, until the end."""
    if state["step"] == "over":
        return False
    round_sequence.advance(state, ctx)
    return True


def _solo_stands_in(state: State, task: Any, ctx: Context) -> bool:
    """Solitaire: the solo opponent's seat decides by its procedure, never by a prompt."""
    bot = state.get("solo")  # fixed at setup; None in a two-player game
    if bot is None or task.get("seat") != bot:
        return False
    rule = RULES.rules[task["name"]]
    assert isinstance(rule, Decision)
    solo_turn.act(state, task, rule, ctx)
    return True


RULES = Stack(
    [
        Decision("keep_objective", keep_objective.prompt, keep_objective.apply),
        Decision("initiative_order", initiative_order.prompt, initiative_order.apply),
        Decision("card_play", card_play.prompt, card_play.apply),
        Step("end_of_card_play", card_play.end_of_card_play),
        Step("event_steps", event_steps.event_steps),
        Decision("event_option", event_steps.option_prompt, event_steps.option_apply),
        Decision("event_consent", event_steps.consent_prompt, event_steps.consent_apply),
        Decision(
            "event_placement",
            event_pieces.placement_prompt,
            event_pieces.placement_apply,
            needed=event_pieces.placement_needed,
        ),
        Decision(
            "event_removal",
            event_pieces.removal_prompt,
            event_pieces.removal_apply,
            needed=event_pieces.removal_needed,
        ),
        Decision(
            "disc_placement",
            event_pieces.disc_prompt,
            event_pieces.disc_apply,
            needed=event_pieces.disc_needed,
        ),
        Decision("operations", operations.prompt, operations.apply, operations.automatic),
        Decision(
            "momentum_placement",
            momentum_placement.prompt,
            momentum_placement.apply,
            needed=momentum_placement.needed,
        ),
        Decision(
            "bonus_order",
            bonus_actions.order_prompt,
            bonus_actions.order_apply,
            bonus_actions.order_automatic,
        ),
        Decision(
            "bonus_action",
            bonus_actions.action_prompt,
            bonus_actions.action_apply,
            needed=bonus_actions.action_needed,
        ),
        Step("end_of_bonus_action", bonus_actions.end_of_bonus_action),
        Decision(
            "de_escalate",
            bonus_actions.de_escalate_prompt,
            bonus_actions.de_escalate_apply,
            needed=bonus_actions.de_escalate_needed,
        ),
        Decision(
            "spread_influence",
            bonus_actions.spread_prompt,
            bonus_actions.spread_apply,
            needed=bonus_actions.spread_needed,
        ),
        Decision("scoring_order", scoring.order_prompt, scoring.order_apply),
        Decision("objective_event", scoring.objective_event_prompt, scoring.objective_event_apply),
        Decision("final_crisis_discard", final_crisis.discard_prompt, final_crisis.discard_apply),
    ],
    key="stack",
    field="name",
    between=_between,
    stand_in=_solo_stands_in,
)


def run(state: State, ctx: Context) -> None:
    """Everything that needs no decision, up to the next real prompt (or the end)."""
    RULES.run(state, ctx)


def prompt(state: State) -> Prompt | None:
    """The decision the top task waits for (None when the game is over)."""
    return RULES.prompt(state)


def answer(state: State, seat: int, action: str, ctx: Context) -> None:
    """``seat``'s answer to the decision on top and all that follows it (the game's
    ``apply``: the top task already names the seat)."""
    RULES.apply(state, action, ctx)
