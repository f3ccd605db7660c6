"""§6 Initiative: the side with the higher initiative level (Political VP minus its own
momentum; the Commune wins ties) chooses to play first or second."""

from __future__ import annotations

from functools import cache

from tabletop.framework import Choice, Context, Prompt, State
from tabletop.framework.stack import Decision, Rule

from .. import board
from ..data import COMMUNE, SIDE_NOUNS, VERSAILLES
from ..verbs import PLAY_FIRST, PLAY_SECOND
from ..viewing import initiative_level
from .tasks import TASKS, InitiativeOrder
from .told import PUBLIC, has_choice_line


def leader(state: State) -> int:
    """§6.1: the side with the higher initiative level; the Commune wins ties."""
    versailles = initiative_level(state, VERSAILLES)
    return VERSAILLES if versailles > initiative_level(state, COMMUNE) else COMMUNE


def prompt(state: State, task: InitiativeOrder) -> Prompt:
    return _prompt(task["seat"])


@cache
def _prompt(seat: int) -> Prompt:
    """The same words every round: built once for each side."""
    return Prompt(
        seat,
        "You have the higher initiative level: play first or second?",
        (
            Choice(
                PLAY_FIRST(),
                "Play first (become Initiative Player)",
                "The Initiative Player plays first, orders the end-of-round steps when "
                "both sides score, and leads the last tiebreak test (§6.2, §13.2)",
            ),
            Choice(PLAY_SECOND(), "Play second", "Your opponent becomes the Initiative Player"),
        ),
        "§6.2",
        public=PUBLIC,
    )


def apply(state: State, task: InitiativeOrder, action: str, ctx: Context) -> None:
    chooser = task["seat"]
    first = chooser if PLAY_FIRST.matches(action) else board.other(chooser)
    state["initiative"] = first
    state["active"] = first
    state["plays"] = [0, 0]
    TASKS.finish(state)
    words = "is the Initiative Player"
    if not has_choice_line(state, chooser):  # the solo opponent's: no choice line tells it
        chose = "first" if PLAY_FIRST.matches(action) else "second"
        words += f" ({SIDE_NOUNS[chooser]} chose to play {chose})"
    ctx.emit("initiative", f"{words} (§6.2)", about=first)


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (Decision("initiative_order", prompt, apply),)
