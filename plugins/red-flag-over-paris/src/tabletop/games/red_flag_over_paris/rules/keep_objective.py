"""§5.2 Keep one objective: each side keeps one of its two objective cards face down;
the other leaves the game unseen (in solitaire it goes to the solo opponent)."""

from __future__ import annotations

from functools import lru_cache

from tabletop.framework import Context, Prompt, State
from tabletop.framework.stack import Decision, Rule

from .. import solo
from ..data import card_name
from ..verbs import KEEP
from ..viewing import objective_name
from .choices import card_choice
from .tasks import TASKS, KeepObjective


def prompt(state: State, task: KeepObjective) -> Prompt:
    solitaire = solo.seat_of(state) is not None
    return _prompt(task["seat"], tuple(state["obj_hand"][task["seat"]]), solitaire)


@lru_cache(maxsize=1024)
def _prompt(seat: int, objectives: tuple[int, ...], solitaire: bool = False) -> Prompt:
    """Built once for each side and pair of objectives (the bound keeps memory flat).
    In solitaire the objective not kept goes to the solo opponent (solo rules), and
    the prompt says so."""
    fate = "goes to the solo opponent" if solitaire else "is removed unseen"
    choices = tuple(card_choice(KEEP, f"Keep {objective_name(c)}", c) for c in objectives)
    return Prompt(
        seat,
        f"Choose the objective to keep this round (the other {fate})",
        choices,
        "§5.2",
    )


def apply(state: State, task: KeepObjective, action: str, ctx: Context) -> None:
    seat = task["seat"]
    keep = KEEP.number(action)
    hand = list(state["obj_hand"][seat])
    state["objective"][seat] = keep
    others: list[int] = []
    for c in hand:
        if c != keep:
            others.append(c)
    bot = solo.seat_of(state)
    if bot is not None:  # solitaire: the other objective goes to the solo opponent
        given = others[0] if others else None
        state["objective"][bot] = given
        if given is not None:
            ctx.reveal(
                f"gives {objective_name(given)} to the solo opponent (solitaire)", card=given
            )
    else:
        state["obj_discarded"][seat].extend(others)
    state["obj_hand"][seat] = []
    TASKS.finish(state)
    ctx.emit("objective", "keeps one objective, face down (§5.2)")
    dropped = [card_name(c) for c in others]
    fate = "leaves the game unseen" if bot is None else "goes to the solo opponent"
    ctx.emit(
        "objective",
        f"keeps {objective_name(keep)}" + (f"; {', '.join(dropped)} {fate}" if dropped else ""),
        seats=[seat],
        card=keep,
    )


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (Decision("keep_objective", prompt, apply),)
