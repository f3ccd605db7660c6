"""Helpers for the Charlemagne tests: hand-built positions, loaded dice, and a driver
that applies only legal actions, as the engine does."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tabletop.framework import Choice, Context, State
from tabletop.framework.chance import LoadedDice, Pcg32
from tabletop.framework.stack import Decision, Step
from tabletop.games.charlemagne_master_of_europe import CharlemagneMasterOfEurope
from tabletop.games.charlemagne_master_of_europe.data import (
    ENEMY_BATTLE_UNITS,
    MAP_UNITS,
    MARKER_COUNTS,
)
from tabletop.games.charlemagne_master_of_europe.rules.army import add_unit
from tabletop.games.charlemagne_master_of_europe.rules.common import new_task
from tabletop.games.charlemagne_master_of_europe.rules.setup import new_state
from tabletop.games.charlemagne_master_of_europe.rules.table import RULES

GAME = CharlemagneMasterOfEurope()


def ctx(faces: Iterable[int] = (), seed: int = 0) -> Context:
    return Context(Pcg32(seed), LoadedDice(list(faces)), actor=0)


def blank(turn: int = 1) -> State:
    """Turn ``turn``'s campaign with every map counter in the Friendly Cup, the
    starting army, an empty map (Desiderius set aside) and an empty task stack."""
    state = new_state(easy=False)
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
            add_unit(state, kind, level)
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


def decision(kind: str) -> Decision[Any]:
    """The decision named ``kind`` in the game's table."""
    rule = RULES.rules[kind]
    assert isinstance(rule, Decision), f"{kind} is a step"
    return rule


def offered(state: State, kind: str, **arguments: Any) -> list[Choice]:
    """The choices decision ``kind`` offers now, with ``arguments`` as its task."""
    return list(decision(kind).prompt(state, new_task(kind, **arguments)).choices)


def choices(state: State, kind: str, **arguments: Any) -> list[str]:
    return [c.action for c in offered(state, kind, **arguments)]


def decide(state: State, kind: str, action: str, context: Context, **arguments: Any) -> None:
    """Answer a decision as the engine would: legal answers only. The decision is put
    on top of the stack first, as the game has it when it asks; ``run`` runs on."""
    made = new_task(kind, **arguments)
    legal = [c.action for c in decision(kind).prompt(state, made).choices]
    assert action in legal, f"{action!r} not in {legal}"
    state["tasks"].append(made)
    decision(kind).apply(state, made, action, context)


def run_step(state: State, kind: str, context: Context, **arguments: Any) -> None:
    rule = RULES.rules[kind]
    assert isinstance(rule, Step), f"{kind} is a decision"
    rule.run(state, new_task(kind, **arguments), context)


def run(state: State, context: Context) -> None:
    """Run the scheduled automatic steps until a decision (or the end)."""
    state["tasks"].insert(0, new_task("campaign_action"))  # a floor: stops the run
    RULES.run(state, context)
    if state["tasks"] and state["tasks"][0]["kind"] == "campaign_action":
        state["tasks"].pop(0)


def outcome(state: State) -> str:
    """How the game ended, as ``Result.outcome`` reports it ("" while it goes on)."""
    result = GAME.result(state)
    return "" if result is None else result.outcome


def kinds(state: State) -> list[str]:
    """The task stack, next task first."""
    return [t["kind"] for t in reversed(state["tasks"])]
