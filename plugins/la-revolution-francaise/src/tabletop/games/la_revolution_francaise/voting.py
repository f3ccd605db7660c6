"""The votes of the game (the Assembly's on a law, an event or a referendum, the
confidence vote, the Directorate's partner, justice, the reactions to a coup) are all
asked the same way: an ``OrderedVote`` in the task asks each seat in turn, and once every
seat has answered a tally step takes the task's place. These two builders give a vote
decision its handler and its close, so each vote module keeps only its prompt and tally.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.framework import Action, Context, State
from tabletop.framework.actions import Verb
from tabletop.framework.decisions import OrderedVote

from .core import (
    TASKS,
    answering,
)


def vote_open(state: State, task: Any) -> bool:
    """A seat is still to vote: the vote's decision has something to ask; once none
    is, its ``tally_with`` closes it."""
    return OrderedVote(task["vote"]).next_seat is not None


def ballot(verb: Verb) -> Callable[[State, Any, Action, Context], None]:
    """A vote decision's handler: the answering seat's ballot is ``verb``'s argument."""

    def cast(state: State, task: Any, action: Action, ctx: Context) -> None:
        OrderedVote(task["vote"]).vote(answering(ctx), verb.arg(action), ctx)

    return cast


def tally_with(kind: str) -> Callable[[State, Any, Context], None]:
    """A vote decision's close once every seat has voted: the step ``kind`` takes the
    task's place with the same fields (the ballots among them)."""

    def close(state: State, task: Any, ctx: Context) -> None:
        TASKS.finish(state)
        TASKS.schedule(state, {**task, "kind": kind})

    return close
