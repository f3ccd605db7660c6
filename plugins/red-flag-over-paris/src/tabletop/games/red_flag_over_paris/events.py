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
from .data import BOARD, CARDS, DIM_SPACES, SIDE_NAMES, SPACES

Step = dict[str, Any]
Effect = Callable[[State, int, Step, int, int, list[int], Context], None]


def target_spaces(step: Step) -> list[str]:
    """The spaces a step may act in: named spaces, whole dimensions, or a space type."""
    if "spaces" in step:
        return list(step["spaces"])
    if "dims" in step:
        return [s for d in step["dims"] for s in DIM_SPACES[d]]
    kind = step.get("kind")
    return [s for s in BOARD if kind is None or SPACES[s].kind == kind]


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
        return any(board.cubes(state, s, board.other(seat)) > 0 for s in cond["spaces"])
    if name == "momentum_at_least":
        who = seat if cond["who"] == "self" else board.other(seat)
        return bool(state["momentum"][who] >= cond["value"])
    if name == "controls":
        return board.controls(state, cond["space"], seat)
    raise ValueError(f"unknown event condition {name!r}")


def playable(state: State, seat: int, card: int) -> bool:
    return check(state, seat, CARDS[card].event.get("requires"))


# Effect functions ---------------------------------------------------------------------


def place_cubes(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Place up to ``count`` own cubes in the target spaces (optionally ``per_space``)."""
    state["stack"].append(
        {
            "t": "place",
            "seat": seat,
            "left": step["count"],
            "spaces": target_spaces(step),
            "per": step.get("per_space"),
            "done": {},
            "card": card,
        }
    )


def remove_cubes(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Remove up to ``count`` opposing cubes from the target spaces (no die, no cost)."""
    state["stack"].append(
        {"t": "remove", "seat": seat, "left": step["count"], "spaces": target_spaces(step),
         "card": card}
    )


def operations(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Grant Operations Points, spent exactly like a card played for operations (§7.2)."""
    kind = step.get("kind", "any")
    state["stack"].append(
        {
            "t": "ops",
            "seat": seat,
            "pts": step["points"],
            "kind": None if kind == "any" else kind,
            "stage": "kind" if kind == "any" else "remove",
            "snap": None,
        }
    )


def momentum(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Move the acting side's (or the opponent's) Player Momentum (§9)."""
    who = seat if step["who"] == "self" else board.other(seat)
    tasks = board.shift_momentum(state, who, step["delta"], ctx)
    state["stack"].extend(reversed(tasks))


def place_disc(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Place (or, with both in play, move) a Fortification/Barricade (§1.2)."""
    spaces = [s for s in target_spaces(step) if SPACES[s].kind == "military"]
    state["stack"].append({"t": "disc", "seat": seat, "spaces": spaces})


def recover_cubes(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Bring cubes that left play back to the pool, as far as the pool has room (§9.2)."""
    count = min(step["count"], state["out"][seat])
    if count:
        state["out"][seat] -= count
        lost = board.to_pool(state, seat, count)
        ctx.emit("recover", f"{SIDE_NAMES[seat]} recovers {count - lost} cube(s)")


def choose(
    state: State, seat: int, step: Step, card: int, index: int, path: list[int], ctx: Context
) -> None:
    """Let the deciding player pick one of the event's options."""
    state["stack"].append({"t": "choose", "seat": seat, "card": card, "i": index})


EFFECTS: dict[str, Effect] = {
    "place_cubes": place_cubes,
    "remove_cubes": remove_cubes,
    "operations": operations,
    "momentum": momentum,
    "place_disc": place_disc,
    "recover_cubes": recover_cubes,
    "choose": choose,
}


def run_next_step(state: State, task: dict[str, Any], ctx: Context) -> None:
    """Advance an event task by one step (the task stays on the stack until done)."""
    steps = event_steps(task["card"], task["path"])
    if task["i"] >= len(steps):
        state["stack"].pop()
        return
    index = task["i"]
    step = steps[index]
    task["i"] += 1
    if not check(state, task["seat"], step.get("if")):
        return
    EFFECTS[step["do"]](state, task["seat"], step, task["card"], index, task["path"], ctx)


def start_event(state: State, seat: int, card: int, path: list[int] | None = None) -> None:
    state["stack"].append({"t": "event", "seat": seat, "card": card, "path": path or [], "i": 0})
