"""Every rule of the game in one table: the framework's decision stack
(``tabletop.framework.stack``) over ``rules/tasks.py:TASKS`` (``state["stack"]``, each
task named by ``"name"``), which the rules modules schedule and finish through.

Each rules module declares its own rules (``RULES``), beside their prompts, handlers
and typed tasks: a ``Decision`` asks a seat (its prompt and the handler of the answer,
with ``automatic`` work before asking, or ``needed`` when there may be nothing to ask);
a ``Step`` happens by itself. The table puts them together. When the stack is empty,
``round_sequence.advance`` pushes the next part of the round (``between``); in
solitaire the solo opponent answers its own seat's decisions (``stand_in``), so it
never gets a prompt. This module imports the rules and the solo opponent; none of them
imports it, so there is no import cycle.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import Context, State
from tabletop.framework.stack import Decision, Stack

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
    tasks,
)


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
        *keep_objective.RULES,
        *initiative_order.RULES,
        *card_play.RULES,
        *event_steps.RULES,
        *event_pieces.RULES,
        *operations.RULES,
        *momentum_placement.RULES,
        *bonus_actions.RULES,
        *scoring.RULES,
        *final_crisis.RULES,
    ],
    tasks=tasks.TASKS,
    between=round_sequence.advance,
    stand_in=_solo_stands_in,
)


def run(state: State, ctx: Context) -> None:
    """Everything that needs no decision, up to the next real prompt (or the end)."""
    RULES.run(state, ctx)


def answer(state: State, seat: int, action: str, ctx: Context) -> None:
    """``seat``'s answer to the decision on top and all that follows it (the game's
    ``apply``: the top task already names the seat)."""
    RULES.apply(state, action, ctx)
