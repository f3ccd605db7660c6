"""§10.1 Pivotal Space bonus actions at the end of a round: the Initiative Player orders
them, then each Pivotal Space's controller may De-escalate, Spread Influence or
Turncoat in that space's dimension, or pass. Breaches a bonus action causes pay out
when it ends (``end_of_bonus_action``, §8.2)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.stack import Decision, Rule, Step

from .. import board
from ..board import other
from ..data import (
    CUBE_LIMIT,
    DIM_SPACES,
    DIMENSIONS,
    PIVOT_OF,
    SIDE_NAMES,
    SIDE_NOUNS,
    SPACES,
    space_name,
)
from ..verbs import (
    DE_ESCALATE,
    ENEMY,
    FROM,
    OWN,
    PASS,
    PIVOT,
    SPREAD,
    STOP,
    TO,
    TURNCOAT,
    VERBS,
)
from . import tasks
from .choices import space_choice
from .tasks import TASKS, BonusAction, BonusOrder, DeEscalate, EndOfBonusAction, SpreadInfluence
from .told import PUBLIC, restate
from .warnings import breach_notes, control_loss_note, join

# The order of the bonus actions -----------------------------------------------------------


def order_prompt(state: State, task: BonusOrder) -> Prompt:
    pivots: list[tuple[str, int]] = []
    for s in task["spaces_left"]:
        pivots.append((s, board.controller(state, s) or 0))
    return _order_prompt(task["seat"], tuple(pivots))


@lru_cache(maxsize=1024)
def _order_prompt(seat: int, pivots: tuple[tuple[str, int], ...]) -> Prompt:
    """Built once for each side and set of (space, controller) left to order."""
    choices = tuple(_next_pivot(s, owner) for s, owner in pivots)
    text = "Order of Pivotal Space bonus actions: which next?"
    return Prompt(seat, text, choices, "§10.1", public=PUBLIC)


@cache
def _next_pivot(space: str, owner: int) -> Choice:
    return Choice(
        PIVOT(space),
        f"Next: {space_name(space)} ({SIDE_NAMES[owner]})",
        f"A bonus action in {DIMENSIONS[SPACES[space].dimension or '']['name']}, "
        f"by {SIDE_NOUNS[owner]} (§10.1)",
    )


def order_apply(state: State, task: BonusOrder, action: str, ctx: Context) -> None:
    _start(state, task, PIVOT.arg(action))


def _start(state: State, task: BonusOrder, space: str) -> None:
    task["spaces_left"].remove(space)
    owner = board.controller(state, space)
    if owner is None:
        return
    dimension = SPACES[space].dimension or ""
    TASKS.schedule(state, tasks.bonus_action(owner, dimension), tasks.end_of_bonus_action())


def order_automatic(state: State, task: BonusOrder, ctx: Context) -> bool:
    """No order to ask for the last space: its bonus action starts."""
    if len(task["spaces_left"]) == 1:
        _start(state, task, task["spaces_left"][0])
        return True
    return False


def order_needed(state: State, task: BonusOrder) -> bool:
    """Over when every space has had its turn."""
    return bool(task["spaces_left"])


# The bonus action --------------------------------------------------------------------------


def spread_sources(state: State, seat: int, spaces: Sequence[str]) -> list[str]:
    """Spaces a cube of ``seat`` can move out of to another space of the dimension: one
    with a cube, when some other space has room (plain loops: asked at every bonus step)."""
    counts_of = state["cubes"]
    with_room = 0
    for s in spaces:
        if counts_of[s][seat] < CUBE_LIMIT:
            with_room += 1
    sources: list[str] = []
    for s in spaces:
        mine = counts_of[s][seat]
        if mine and with_room > (1 if mine < CUBE_LIMIT else 0):
            sources.append(s)
    return sources


def _has_cubes(state: State, seat: int, spaces: Sequence[str]) -> bool:
    counts_of = state["cubes"]
    for s in spaces:  # noqa: SIM110 (a loop: no generator, asked at every bonus step)
        if counts_of[s][seat]:
            return True
    return False


def _turncoat_spaces(state: State, seat: int, spaces: Sequence[str]) -> list[str]:
    """Spaces where an enemy cube can be swapped for one of ``seat``'s (§10.1)."""
    counts_of, opp = state["cubes"], 1 - seat
    turncoats: list[str] = []
    for s in spaces:
        if counts_of[s][opp] and board.can_place(state, s, seat):
            turncoats.append(s)
    return turncoats


_DE_ESCALATE = Choice(DE_ESCALATE(), "De-escalate: remove up to 2 own cubes, or 1 own + 1 enemy")
_SPREAD = Choice(SPREAD(), "Spread Influence: move up to 2 own cubes")
_PASS = Choice(PASS(), "No bonus action", key=PASS_KEY)


@cache
def _turncoat(space: str, seat: int, detail: str, cost: str) -> Choice:
    swap = (
        f"An enemy cube goes back to {SIDE_NOUNS[other(seat)]}'s pool and one of your cubes "
        "takes its place (§10.1)"
    )
    return Choice(TURNCOAT(space), f"Turncoat in {space_name(space)}", join([swap, detail]), cost)


def action_choices(state: State, task: BonusAction) -> list[Choice]:
    return list(
        _action_prompt(task["seat"], task["dimension"], *_action_facts(state, task)).choices
    )


def _action_facts(state: State, task: BonusAction) -> tuple[bool, bool, tuple[str, ...], str, str]:
    """What the bonus action's choices depend on: own cubes in the dimension, a cube
    that can spread, the Turncoat spaces, and the breach notes of a new cube."""
    seat = task["seat"]
    spaces = DIM_SPACES[task["dimension"]]
    own = _has_cubes(state, seat, spaces)
    spread = own and bool(spread_sources(state, seat, spaces))
    turncoats = tuple(_turncoat_spaces(state, seat, spaces))
    detail, cost = breach_notes(state, seat) if turncoats else ("", "")
    return own, spread, turncoats, detail, cost


def action_prompt(state: State, task: BonusAction) -> Prompt:
    return _action_prompt(task["seat"], task["dimension"], *_action_facts(state, task))


@lru_cache(maxsize=1024)
def _action_prompt(
    seat: int,
    dim: str,
    own: bool,
    spread: bool,
    turncoats: tuple[str, ...],
    detail: str,
    cost: str,
) -> Prompt:
    """Built once for each distinct set of words (the bound keeps memory flat)."""
    choices: list[Choice] = []
    if own:
        choices.append(_DE_ESCALATE)
        if spread:
            choices.append(_SPREAD)
    choices.extend(_turncoat(s, seat, detail, cost) for s in turncoats)
    choices.append(_PASS)
    dimension = DIMENSIONS[dim]["name"]
    pivot = space_name(PIVOT_OF[dim])
    return Prompt(
        seat,
        f"Bonus action in {dimension} (you control {pivot})",
        tuple(choices),
        "§10.1",
        public=PUBLIC,
    )


def action_apply(state: State, task: BonusAction, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    seat = task["seat"]
    if DE_ESCALATE.matches(action):
        TASKS.schedule(state, tasks.de_escalate(seat, task["dimension"]))
    elif SPREAD.matches(action):
        TASKS.schedule(state, tasks.spread_influence(seat, task["dimension"]))
    elif TURNCOAT.matches(action):
        space = TURNCOAT.arg(action)
        board.remove_cube(state, space, other(seat))
        board.place_cube(state, space, seat)
        words = f"Turncoat: replaces a {SIDE_NAMES[other(seat)]} cube in {space_name(space)}"
        restate(state, seat, ctx, "bonus", words + " with its own (§10.1)", space=space)


def action_needed(state: State, task: BonusAction) -> bool:
    """Nothing to ask when passing is the only choice (``action_choices`` offers more
    exactly when the side has a cube in the dimension or a Turncoat is possible)."""
    seat = task["seat"]
    spaces = DIM_SPACES[task["dimension"]]
    return _has_cubes(state, seat, spaces) or bool(_turncoat_spaces(state, seat, spaces))


def end_of_bonus_action(state: State, task: EndOfBonusAction, ctx: Context) -> None:
    """Step: breaches from the bonus action (or objective event) pay out (§8.2)."""
    board.resolve_breaches(state, ctx)


# De-escalate ----------------------------------------------------------------------------------


def de_escalate_choices(state: State, task: DeEscalate) -> list[Choice]:
    return list(_de_escalate_choices(*_de_escalate_facts(state, task)))


def _de_escalate_facts(
    state: State, task: DeEscalate
) -> tuple[tuple[tuple[str, str], ...], tuple[str, ...]]:
    """Own cubes to remove, each with its consequence, and enemy cubes to remove."""
    seat, opp = task["seat"], other(task["seat"])
    spaces = DIM_SPACES[task["dimension"]]
    cap = board.pool_capacity(state, seat)
    full = cap is not None and state["pool"][seat] >= cap
    lost = "your pool has no free space: this cube leaves play (§8.4)" if full else ""
    counts_of = state["cubes"]
    own: list[tuple[str, str]] = []
    enemy: list[str] = []
    for s in spaces:
        counts = counts_of[s]
        if counts[seat]:
            loss = control_loss_note(state, seat, s)
            own.append((s, join([loss, lost]) if loss and lost else loss or lost))
        if counts[opp] and task["removed"] == 1:
            enemy.append(s)
    return tuple(own), tuple(enemy)


@lru_cache(maxsize=1024)
def _de_escalate_choices(
    own: tuple[tuple[str, str], ...], enemy: tuple[str, ...]
) -> tuple[Choice, ...]:
    return (
        *(space_choice(OWN, "Remove own cube from {}", s, "", note) for s, note in own),
        *(space_choice(ENEMY, "Remove an enemy cube from {}", s) for s in enemy),
    )


_STOP = Choice(STOP(), "Stop", key=PASS_KEY)


def de_escalate_prompt(state: State, task: DeEscalate) -> Prompt:
    return _de_escalate_prompt(task["seat"], *_de_escalate_facts(state, task))


@lru_cache(maxsize=1024)
def _de_escalate_prompt(
    seat: int, own: tuple[tuple[str, str], ...], enemy: tuple[str, ...]
) -> Prompt:
    choices = (*_de_escalate_choices(own, enemy), _STOP)
    return Prompt(seat, "De-escalate", choices, "§10.1", public=PUBLIC)


def de_escalate_apply(state: State, task: DeEscalate, action: str, ctx: Context) -> None:
    if STOP.matches(action):
        TASKS.finish(state)
        return
    verb, (space,) = VERBS.parse(action)
    seat = task["seat"]
    victim = seat if verb is OWN else other(seat)
    board.remove_cube(state, space, victim)
    whose = "its own" if victim == seat else f"a {SIDE_NAMES[victim]}"
    words = f"De-escalate: removes {whose} cube from {space_name(space)} (§10.1)"
    restate(state, seat, ctx, "bonus", words, space=space)
    task["removed"] += 1
    if task["removed"] >= 2 or verb is ENEMY:
        TASKS.finish(state)


def de_escalate_needed(state: State, task: DeEscalate) -> bool:
    """Something left to remove (else ``de_escalate_choices`` would offer nothing)."""
    seat = task["seat"]
    spaces = DIM_SPACES[task["dimension"]]
    return _has_cubes(state, seat, spaces) or (
        task["removed"] == 1 and _has_cubes(state, other(seat), spaces)
    )


# Spread Influence -------------------------------------------------------------------------


def spread_prompt(state: State, task: SpreadInfluence) -> Prompt:
    seat = task["seat"]
    spaces = DIM_SPACES[task["dimension"]]
    source = task["moving_from"]
    if source is None:
        sources: list[tuple[str, str]] = []
        for s in spread_sources(state, seat, spaces):
            sources.append((s, control_loss_note(state, seat, s)))
        return _spread_from_prompt(seat, tuple(sources))
    counts_of = state["cubes"]
    targets: list[str] = []
    for s in spaces:
        if s != source and counts_of[s][seat] < CUBE_LIMIT:
            targets.append(s)
    return _spread_to_prompt(seat, tuple(targets))


@lru_cache(maxsize=1024)
def _spread_from_prompt(seat: int, sources: tuple[tuple[str, str], ...]) -> Prompt:
    choices = (
        *(space_choice(FROM, "Move a cube out of {}", s, "", note) for s, note in sources),
        _STOP,
    )
    return Prompt(seat, "Spread Influence", choices, "§10.1", public=PUBLIC)


@lru_cache(maxsize=1024)
def _spread_to_prompt(seat: int, targets: tuple[str, ...]) -> Prompt:
    choices = tuple(space_choice(TO, "Move the cube to {}", s) for s in targets)
    return Prompt(seat, "Spread Influence", choices, "§10.1", public=PUBLIC)


def spread_apply(state: State, task: SpreadInfluence, action: str, ctx: Context) -> None:
    if STOP.matches(action):
        TASKS.finish(state)
        return
    verb, (space,) = VERBS.parse(action)
    if verb is FROM:
        task["moving_from"] = space
        return
    seat, source = task["seat"], task["moving_from"]
    assert source is not None
    state["cubes"][source][seat] -= 1
    state["cubes"][space][seat] += 1
    words = f"Spread Influence: moves a cube from {space_name(source)} to {space_name(space)}"
    restate(state, seat, ctx, "bonus", words + " (§10.1)", space=space)
    task["moving_from"] = None
    task["moved"] += 1
    if task["moved"] >= 2:
        TASKS.finish(state)


def spread_needed(state: State, task: SpreadInfluence) -> bool:
    """A cube on its way, or one that can still move."""
    spaces = DIM_SPACES[task["dimension"]]
    return task["moving_from"] is not None or bool(spread_sources(state, task["seat"], spaces))


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (
    Decision("bonus_order", order_prompt, order_apply, order_automatic, order_needed),
    Decision("bonus_action", action_prompt, action_apply, needed=action_needed),
    Step("end_of_bonus_action", end_of_bonus_action),
    Decision("de_escalate", de_escalate_prompt, de_escalate_apply, needed=de_escalate_needed),
    Decision("spread_influence", spread_prompt, spread_apply, needed=spread_needed),
)
