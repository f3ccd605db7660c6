"""An event's steps that move pieces one at a time: place up to N cubes, remove up to N
opposing cubes, place (or move) a Fortification or Barricade (§1.2, §7.1). Each asks
for one piece at a time and ends by itself when nothing more can be done."""

from __future__ import annotations

from functools import cache, lru_cache

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.actions import Verb
from tabletop.framework.stack import Decision, Rule

from .. import board
from ..board import other
from ..data import CUBE_LIMIT, DISC_NAMES, SIDE_NAMES, card_name, space_name
from ..verbs import DISC, MOVE_DISC, PUT, STOP, TAKE
from .choices import space_choice
from .tasks import TASKS, DiscPlacement, EventPlacement, EventRemoval
from .told import PUBLIC, restate
from .warnings import breach_notes

# Place up to N cubes ---------------------------------------------------------------------


def placement_targets(state: State, task: EventPlacement) -> list[str]:
    """The step's spaces that can take a cube (``board.can_place``, its supply test
    once) within the step's limit per space."""
    seat, limit = task["seat"], task["per_space_limit"]
    if not board.available(state, seat) > 0:
        return []
    placed, counts_of = task["placed_in"], state["cubes"]
    targets: list[str] = []
    for s in task["spaces"]:
        if counts_of[s][seat] < CUBE_LIMIT and (limit is None or placed.get(s, 0) < limit):
            targets.append(s)
    return targets


def placement_prompt(state: State, task: EventPlacement) -> Prompt:
    targets = tuple(placement_targets(state, task))
    detail, cost = breach_notes(state, task["seat"]) if targets else ("", "")
    return _placement_prompt(task["seat"], task["card"], task["cubes_left"], targets, detail, cost)


@lru_cache(maxsize=4096)
def _placement_prompt(
    seat: int, card: int, left: int, targets: tuple[str, ...], detail: str, cost: str
) -> Prompt:
    """Built once for each distinct set of words (the bound keeps memory flat)."""
    choices = [put_choice(s, detail, cost) for s in targets]
    choices.append(_PLACE_NO_MORE)
    text = f"{card_name(card)}: place up to {left} more cube(s)"
    return Prompt(seat, text, tuple(choices), "§7.1", public=PUBLIC)


# The words of these choices and prompts depend on a few small values: each is built once.


@cache
def put_choice(space: str, detail: str, cost: str) -> Choice:
    """Placing one cube in ``space`` (an event's, or the §9.3 free cube)."""
    return space_choice(PUT, "Place a cube in {}", space, detail, cost)


_PLACE_NO_MORE = Choice(STOP(), "Place no more", key=PASS_KEY)


def _next_cube(
    state: State, task: EventPlacement | EventRemoval, action: str, verb: Verb
) -> str | None:
    """The space of the step's next cube, counted off; None when the seat stops there
    (the step is over)."""
    if STOP.matches(action):
        TASKS.finish(state)
        return None
    task["cubes_left"] -= 1
    return verb.arg(action)


def placement_apply(state: State, task: EventPlacement, action: str, ctx: Context) -> None:
    space = _next_cube(state, task, action, PUT)
    if space is None:
        return
    board.place_cube(state, space, task["seat"])
    task["placed_in"][space] = task["placed_in"].get(space, 0) + 1
    restate(state, task["seat"], ctx, "place", f"places a cube in {space_name(space)}", space=space)


def placement_needed(state: State, task: EventPlacement) -> bool:
    """The step ends by itself when its cubes are placed or no space can take one."""
    return task["cubes_left"] > 0 and bool(placement_targets(state, task))


# Remove up to N opposing cubes -----------------------------------------------------------


def removal_targets(state: State, task: EventRemoval) -> list[str]:
    opp, counts_of = 1 - task["seat"], state["cubes"]
    targets: list[str] = []
    for s in task["spaces"]:
        if counts_of[s][opp] > 0:
            targets.append(s)
    return targets


def removal_prompt(state: State, task: EventRemoval) -> Prompt:
    targets = tuple(removal_targets(state, task))
    return _removal_prompt(task["seat"], task["card"], task["cubes_left"], targets)


@lru_cache(maxsize=4096)
def _removal_prompt(seat: int, card: int, left: int, targets: tuple[str, ...]) -> Prompt:
    """Built once for each distinct set of words (the bound keeps memory flat)."""
    opp = other(seat)
    words = f"Remove a {SIDE_NAMES[opp]} cube from {{}}"
    choices = [space_choice(TAKE, words, s) for s in targets]
    choices.append(_REMOVE_NO_MORE)
    text = f"{card_name(card)}: remove up to {left} more cube(s)"
    return Prompt(seat, text, tuple(choices), "§7.1", public=PUBLIC)


_REMOVE_NO_MORE = Choice(STOP(), "Remove no more", key=PASS_KEY)


def removal_apply(state: State, task: EventRemoval, action: str, ctx: Context) -> None:
    space = _next_cube(state, task, action, TAKE)
    if space is None:
        return
    enemy = other(task["seat"])
    board.remove_cube(state, space, enemy)
    words = f"removes a {SIDE_NAMES[enemy]} cube from {space_name(space)}"
    restate(state, task["seat"], ctx, "remove", words, space=space)


def removal_needed(state: State, task: EventRemoval) -> bool:
    """The step ends by itself when its cubes are removed or none is left to remove."""
    return task["cubes_left"] > 0 and bool(removal_targets(state, task))


# Place (or move) a disc -----------------------------------------------------------------


def disc_choices(state: State, task: DiscPlacement) -> list[Choice]:
    """Place a disc while one is off the map; with both out, move one (§1.2)."""
    seat = task["seat"]
    free = [s for s in task["spaces"] if board.disc_owner(state, s) is None]
    name = DISC_NAMES[seat]
    if board.discs_off_map(state, seat) > 0:
        return [Choice(DISC(s), f"Place a {name} in {space_name(s)}") for s in free]
    mine = sorted(s for s, owner in state["discs"].items() if owner == seat)
    return [
        Choice(MOVE_DISC(a, b), f"Move a {name} from {space_name(a)} to {space_name(b)}")
        for a in mine
        for b in free
    ]


def disc_prompt(state: State, task: DiscPlacement) -> Prompt:
    name = DISC_NAMES[task["seat"]]
    choices = disc_choices(state, task)
    choices.append(Choice(STOP(), f"No {name}", key=PASS_KEY))
    return Prompt(task["seat"], f"Place a {name}", tuple(choices), "§1.2", public=PUBLIC)


def disc_apply(state: State, task: DiscPlacement, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    seat = task["seat"]
    name = DISC_NAMES[seat]
    if DISC.matches(action):
        space = DISC.arg(action)
        state["discs"][space] = seat
        restate(state, seat, ctx, "disc", f"places a {name} in {space_name(space)}", space=space)
    elif MOVE_DISC.matches(action):
        source, target = MOVE_DISC.args(action)
        del state["discs"][source]
        state["discs"][target] = seat
        words = f"moves a {name} from {space_name(source)} to {space_name(target)}"
        restate(state, seat, ctx, "disc", words, space=target)


def disc_needed(state: State, task: DiscPlacement) -> bool:
    """Nothing to ask when there is nothing to place or move."""
    return bool(disc_choices(state, task))


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (
    Decision("event_placement", placement_prompt, placement_apply, needed=placement_needed),
    Decision("event_removal", removal_prompt, removal_apply, needed=removal_needed),
    Decision("disc_placement", disc_prompt, disc_apply, needed=disc_needed),
)
