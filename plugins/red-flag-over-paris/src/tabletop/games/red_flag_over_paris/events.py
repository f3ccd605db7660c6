"""Card events: the data in cards.json names these effect functions, step by step.

An event is a list of steps. Steps that need a decision push a task (an entry of the
state's decision stack) that the game then prompts for; steps that need none happen at
once. Keeping effects as a handful of named functions lets the data file describe all
53 events and lets an owner of the physical game fix an event by editing data only.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.framework import Context, State

from . import board
from .data import (
    BOARD,
    CARDS,
    COMMUNE,
    CUBE_LIMIT,
    DIM_SPACES,
    DISC_NAMES,
    MOMENTUM_NAMES,
    SIDE_NAMES,
    SIDE_NOUNS,
    SPACES,
    card_name,
)
from .rules import tasks
from .rules.tasks import TASKS, EventSteps

Step = dict[str, Any]
Effect = Callable[[State, int, Step, int, int, list[int], Context], None]


#: The board spaces of each type, in map order, and all of them for a step naming none.
_SPACES_OF_KIND: dict[str | None, tuple[str, ...]] = {
    None: BOARD,
    **{
        kind: tuple(s for s in BOARD if SPACES[s].kind == kind)
        for kind in ("political", "military")
    },
}


def target_spaces(step: Step) -> list[str]:
    """The spaces a step may act in: named spaces, whole dimensions, or a space type."""
    if "spaces" in step:
        return list(step["spaces"])
    if "dims" in step:
        return [s for d in step["dims"] for s in DIM_SPACES[d]]
    kind = step.get("kind")
    known = _SPACES_OF_KIND.get(kind)
    return list(known) if known is not None else [s for s in BOARD if SPACES[s].kind == kind]


def event_steps(card: int, path: list[int]) -> list[Step]:
    """Steps of a card's event, or of the option ``path`` = [step index, option index]."""
    steps: list[Step] = CARDS[card].event["steps"]
    if path:
        steps = steps[path[0]]["options"][path[1]]["steps"]
    return steps


def check(state: State, seat: int, cond: dict[str, Any] | None) -> bool:
    """Evaluate an event condition ("if" on a step, "requires" on a card; §7.1)."""
    if cond is None:
        return True
    name = cond["check"]
    if name == "opponent_cubes_in":
        counts_of, opp = state["cubes"], 1 - seat
        for s in cond["spaces"]:  # noqa: SIM110 (a loop: no generator, asked for every card)
            if counts_of[s][opp] > 0:
                return True
        return False
    if name == "momentum_at_least":
        who = seat if cond["who"] == "self" else board.other(seat)
        return bool(state["momentum"][who] >= cond["value"])
    if name == "controls":
        return board.controls(state, cond["space"], seat)
    raise ValueError(f"unknown event condition {name!r}")


def playable(state: State, seat: int, card: int) -> bool:
    cond = CARDS[card].event.get("requires")
    return cond is None or check(state, seat, cond)  # most cards have no condition


def condition_text(seat: int, cond: dict[str, Any]) -> str:
    """A condition in words, from ``seat``'s side ("the Commune has no cube in Press")."""
    name = cond["check"]
    opp = board.other(seat)
    if name == "opponent_cubes_in":
        where = " or ".join(SPACES[s].name for s in cond["spaces"])
        return f"{SIDE_NAMES[opp]} has a cube in {where}"
    if name == "momentum_at_least":
        who = seat if cond["who"] == "self" else opp
        return f"{MOMENTUM_NAMES[who]} is at {cond['value']} or more"
    if name == "controls":
        return f"{SIDE_NAMES[seat]} controls {SPACES[cond['space']].name}"
    raise ValueError(f"unknown event condition {name!r}")


def unplayable_reason(state: State, seat: int, card: int) -> str:
    """Why ``seat`` may not play ``card`` for its event now, or "" when it may (§7.1)."""
    data = CARDS[card]
    owner = data.faction
    if owner is not None and owner != seat:
        return _REASON_NOT_YOURS[owner]
    cond = data.event.get("requires")
    if cond is None or check(state, seat, cond):
        return ""
    known = _UNMET.get((id(cond), seat))
    if known is None or known[0] is not cond:
        reason = f"it may be played only when {condition_text(seat, cond)}"
        known = _UNMET[(id(cond), seat)] = (cond, reason)
    return known[1]


#: The words of each unmet condition for each side (asked for every card in hand at
#: every card play), by the condition's identity, the condition kept alive with them
#: (card data replaced while the program runs, as tests do, is read afresh).
_UNMET: dict[tuple[int, int], tuple[dict[str, Any], str]] = {}


#: Why a side may not use the other side's event (asked for every such card in hand).
_REASON_NOT_YOURS = tuple(
    f"it is a {SIDE_NAMES[owner]} card: only {SIDE_NOUNS[owner]} may use its event"
    for owner in (0, 1)
)


# Effect functions ---------------------------------------------------------------------


def place_cubes(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Place up to ``count`` own cubes in the target spaces (optionally ``per_space``)."""
    spaces = target_spaces(step)
    # ``board.can_place`` anywhere: a cube in supply, and a space below the limit.
    counts_of = state["cubes"]
    room = False
    for s in spaces:
        if counts_of[s][seat] < CUBE_LIMIT:
            room = True
            break
    if not (board.available(state, seat) > 0 and room):
        _no_effect(ctx, seat, card, "no cube can be placed there")
        return
    TASKS.schedule(
        state, tasks.event_placement(seat, card, step["count"], spaces, step.get("per_space"))
    )


def remove_cubes(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Remove up to ``count`` opposing cubes from the target spaces (no die, no cost)."""
    spaces = target_spaces(step)
    opp, counts_of = 1 - seat, state["cubes"]
    found = False
    for s in spaces:
        if counts_of[s][opp] > 0:
            found = True
            break
    if not found:
        _no_effect(ctx, seat, card, f"no {SIDE_NAMES[opp]} cube to remove there")
        return
    TASKS.schedule(state, tasks.event_removal(seat, card, step["count"], spaces))


def operations(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Grant Operations Points, spent exactly like a card played for operations (§7.2)."""
    kind = step.get("kind", "any")
    TASKS.schedule(state, tasks.operations(seat, step["points"], None if kind == "any" else kind))


def momentum(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Move the acting side's (or the opponent's) Player Momentum (§9)."""
    who = seat if step["who"] == "self" else board.other(seat)
    TASKS.schedule(state, *board.shift_momentum(state, who, step["delta"], ctx))


def place_disc(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Place (or, with both in play, move) a Fortification/Barricade (§1.2)."""
    spaces = [s for s in target_spaces(step) if SPACES[s].kind == "military"]
    if all(board.disc_owner(state, s) is not None for s in spaces):
        _no_effect(ctx, seat, card, f"no free space there for a {DISC_NAMES[seat]}")
        return
    TASKS.schedule(state, tasks.disc_placement(seat, spaces))


def recover_cubes(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Bring cubes that left play back to the pool, as far as the pool has room (§9.2)."""
    count = min(step["count"], state["out"][seat])
    if not count:
        _no_effect(ctx, seat, card, "no cube out of play to recover")
    else:
        state["out"][seat] -= count
        lost = board.to_pool(state, seat, count)
        ctx.emit(
            "recover",
            f"{card_name(card)}: recovers {count - lost} cube(s)"
            + (f", {lost} find no pool space" if lost else ""),
            about=seat,
        )


def choose(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Let the deciding player pick one of the event's options."""
    TASKS.schedule(state, tasks.event_option(seat, card, index))


EFFECTS: dict[str, Effect] = {
    "place_cubes": place_cubes,
    "remove_cubes": remove_cubes,
    "operations": operations,
    "momentum": momentum,
    "place_disc": place_disc,
    "recover_cubes": recover_cubes,
    "choose": choose,
}


def run_next_step(state: State, task: EventSteps, ctx: Context) -> None:
    """Carry out an event task's next step (there is one: ``rules/event_steps.py``); the
    decisions it asks go on the stack above the task."""
    card, path, index = task["card"], task["option_path"], task["next_step"]
    step = event_steps(card, path)[index]
    task["next_step"] = index + 1
    seat = task["seat"]
    cond = step.get("if")
    if cond is not None and not check(state, seat, cond):
        _no_effect(ctx, seat, card, "the condition of this part does not hold")
        return
    EFFECTS[step["do"]](state, seat, step, card, index, path, ctx)


def _no_effect(ctx: Context, seat: int, card: int, why: str) -> None:
    """Say so when a step can do nothing, rather than letting it vanish from the log."""
    ctx.emit("event", f"{card_name(card)}: {why}, no effect (§7.1)", about=seat, card=card)


def forecast(state: State, seat: int, steps: list[Step]) -> list[str]:
    """Side effects of carrying out ``steps`` for ``seat`` that a player should hear of
    before committing: momentum steps that hand the opponent a cube or do nothing, and
    conditional parts that will not happen (§7.1, §9). Reads public facts only.

    Most steps have no condition and move no momentum: those are passed over quickly,
    since every card play forecasts every card in hand."""
    levels: list[int] | None = None
    notes: list[str] = []
    for step in steps:
        cond = step.get("if")
        if cond is not None and not check(state, seat, cond):
            notes.append("a part whose condition does not hold now will have no effect")
            continue
        if step["do"] == "momentum":
            if levels is None:
                levels = list(state["momentum"])
            who = seat if step["who"] == "self" else board.other(seat)
            notes.extend(
                board.momentum_forecast(levels, who, step["delta"], state["pool"][COMMUNE])
            )
    return notes


def event_forecast(state: State, seat: int, card: int) -> list[str]:
    """``forecast`` of ``card``'s own event (asked for every card in hand at every card
    play): only the steps it speaks of are read, and most events have none."""
    steps = CARDS[card].event["steps"]
    known = _FORECAST_STEPS.get(id(steps))  # ``_forecast_steps`` written out: the usual case
    relevant = known[1] if known is not None and known[0] is steps else _forecast_steps(steps)
    return forecast(state, seat, relevant) if relevant else []


#: For each event's list of steps (by identity, the list itself kept alive with it):
#: the steps that ``forecast`` speaks of. Keyed on the list, not on the card, so that
#: card data replaced while the program runs (tests do) is read afresh.
_FORECAST_STEPS: dict[int, tuple[list[Step], list[Step]]] = {}


def _forecast_steps(steps: list[Step]) -> list[Step]:
    known = _FORECAST_STEPS.get(id(steps))
    if known is None or known[0] is not steps:
        relevant = [step for step in steps if "if" in step or step["do"] == "momentum"]
        known = _FORECAST_STEPS[id(steps)] = (steps, relevant)
    return known[1]


def start_event(state: State, seat: int, card: int, path: list[int] | None = None) -> None:
    TASKS.schedule(state, tasks.event_steps(seat, card, path))
