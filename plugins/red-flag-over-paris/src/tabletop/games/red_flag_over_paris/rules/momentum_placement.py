"""§9.3 When a side's Player Momentum reaches 2 or 3, its opponent may place 1 cube in
the dimension the data names for that track (a free cube: the advancing side is warned
before it commits, see ``card_play`` and ``events.forecast``)."""

from __future__ import annotations

from functools import lru_cache

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.stack import Decision, Rule

from .. import board
from ..data import DIM_SPACES, DIMENSIONS, space_name
from ..verbs import PUT, STOP
from .event_pieces import put_choice
from .tasks import TASKS, MomentumPlacement
from .told import PUBLIC, restate
from .warnings import breach_notes


def prompt(state: State, task: MomentumPlacement) -> Prompt:
    seat = task["seat"]
    targets: list[str] = []
    for s in DIM_SPACES[task["dimension"]]:
        if board.can_place(state, s, seat):
            targets.append(s)
    detail, cost = breach_notes(state, seat) if targets else ("", "")
    return _prompt(seat, task["dimension"], tuple(targets), detail, cost)


@lru_cache(maxsize=1024)
def _prompt(seat: int, dim: str, targets: tuple[str, ...], detail: str, cost: str) -> Prompt:
    """Built once for each distinct set of words (the bound keeps memory flat)."""
    choices = (*(put_choice(s, detail, cost) for s in targets), _DECLINE)
    return Prompt(seat, _TEXT[dim], choices, "§9.3", public=PUBLIC)


_DECLINE = Choice(STOP(), "Decline", key=PASS_KEY)
#: The prompt's words for each dimension.
_TEXT = {
    dim: f"Your opponent's momentum rose: you may place 1 cube in {meta['name']}"
    for dim, meta in DIMENSIONS.items()
}


def apply(state: State, task: MomentumPlacement, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    if not STOP.matches(action):
        space = PUT.arg(action)
        board.place_cube(state, space, task["seat"])
        restate(
            state,
            task["seat"],
            ctx,
            "place",
            f"places a cube in {space_name(space)} (§9.3)",
            space=space,
        )


def needed(state: State, task: MomentumPlacement) -> bool:
    """Nothing to ask when no cube can go there."""
    seat = task["seat"]
    for s in DIM_SPACES[task["dimension"]]:  # noqa: SIM110 (a loop: no generator)
        if board.can_place(state, s, seat):
            return True
    return False


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (Decision("momentum_placement", prompt, apply, needed=needed),)
