"""Helpers for the Charlemagne tests: hand-built positions, loaded dice, and a driver
that applies only legal actions, as the engine does."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tabletop.framework import Context, State
from tabletop.framework.chance import LoadedDice, Pcg32
from tabletop.games.charlemagne_master_of_europe import CharlemagneMasterOfEurope, rules
from tabletop.games.charlemagne_master_of_europe.data import (
    ENEMY_BATTLE_UNITS,
    MAP_UNITS,
    MARKER_COUNTS,
)
from tabletop.games.charlemagne_master_of_europe.tasks import (
    DECISIONS,
    STEPS,
    Task,
    advance,
    new_task,
)

GAME = CharlemagneMasterOfEurope()


def ctx(faces: Iterable[int] = (), seed: int = 0) -> Context:
    return Context(Pcg32(seed), LoadedDice(list(faces)), actor=0)


def blank(turn: int = 1) -> State:
    """Turn ``turn``'s campaign with every map counter in the Friendly Cup, the
    starting army, an empty map (Desiderius set aside) and an empty task stack."""
    state = rules.new_state(easy=False)
    state["turn"] = turn
    state["phase"] = "campaign"
    state["cups"]["friendly"] = sorted(
        [u for u in MAP_UNITS if u != "desiderius"]
        + [f"{kind}-{n}" for kind, count in MARKER_COUNTS.items() for n in range(1, count + 1)]
    )
    state["removed"] = ["desiderius"]
    state["battle_cup"] = sorted(ENEMY_BATTLE_UNITS)
    for kind, level, count in (
        ("infantry", 1, 4),
        ("infantry", 2, 4),
        ("infantry", 3, 4),
        ("scara", 2, 4),
        ("scara", 3, 4),
    ):
        for _ in range(count):
            rules.add_unit(state, kind, level)
    return state


def take(state: State, counter: str) -> str:
    """Lift ``counter`` from wherever it lies (cups, removed) so a test can place it."""
    for cup in state["cups"].values():
        if counter in cup:
            cup.remove(counter)
            return counter
    if counter in state["removed"]:
        state["removed"].remove(counter)
        return counter
    raise AssertionError(f"{counter} is not in a cup")


def place(state: State, box: str, *counters: str, leader: bool = False) -> None:
    """Put counters on ``box`` bottom first; ``leader`` turns the last to its Leader."""
    for counter in counters:
        state["stacks"][box].append(take(state, counter))
    if leader:
        state["leader_side"].append(counters[-1])


def to_cup(state: State, cup: str, *counters: str) -> None:
    for counter in counters:
        state["cups"][cup].append(take(state, counter))
        state["cups"][cup].sort()


def choices(state: State, kind: str, **arguments: Any) -> list[str]:
    made: Task = new_task(kind, **arguments)
    return [c.action for c in DECISIONS[kind].choices(state, made)]


def decide(state: State, kind: str, action: str, context: Context, **arguments: Any) -> None:
    """Answer a decision as the engine would: legal answers only, then run on."""
    made: Task = new_task(kind, **arguments)
    legal = [c.action for c in DECISIONS[kind].choices(state, made)]
    assert action in legal, f"{action!r} not in {legal}"
    DECISIONS[kind].apply(state, made, action, context)


def run_step(state: State, kind: str, context: Context, **arguments: Any) -> None:
    STEPS[kind](state, new_task(kind, **arguments), context)


def run(state: State, context: Context) -> None:
    """Run the scheduled automatic steps until a decision (or the end)."""
    state["tasks"].insert(0, new_task("campaign_action"))  # a floor: stops the run
    advance(state, context)
    if state["tasks"] and state["tasks"][0]["kind"] == "campaign_action":
        state["tasks"].pop(0)


def outcome(state: State) -> str:
    """How the game ended, as ``Result.outcome`` reports it ("" while it goes on)."""
    result = GAME.result(state)
    return "" if result is None else result.outcome


def kinds(state: State) -> list[str]:
    """The task stack, next task first."""
    return [t["kind"] for t in reversed(state["tasks"])]
