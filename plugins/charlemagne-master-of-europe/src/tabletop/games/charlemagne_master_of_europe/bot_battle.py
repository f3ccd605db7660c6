"""The steward's decisions inside a Battle (rules §7): which units to deploy, whom to
attack, how to maneuver and whom to promote; cheap rules of thumb, because
``battle_odds`` plays each Battle out many times with them."""

from collections.abc import Sequence
from typing import Any

from tabletop.framework import State
from tabletop.framework.actions import split

from .bot_plan import RETIRE_MARGIN, odds_above, strength_margin
from .data import (
    FRIENDLY_FACTORS,
)
from .rules.battle_display import enemy_factors, factors, occupant, unit
from .verbs import (
    DONE,
    FLANK,
    LINE,
    PROMOTE_UNIT,
    TARGET,
    maneuver_of,
)


def _unit_worth(kind: str, level: int) -> float:
    attack, defense = FRIENDLY_FACTORS[(kind, level)]
    return float(attack + 0.5 * defense + (1.5 if kind == "scara" else 0))


def best_type(choices: Sequence[str]) -> str:
    """Of ``<prefix>:<kind>:<level>`` choices, the strongest unit."""

    def worth(action: str) -> float:
        *_, kind, level = split(action)[1]
        return _unit_worth(kind, int(level))

    return max(choices, key=worth)


def attack_target(state: State, task: dict[str, Any], actions: Sequence[str]) -> str:
    b = state["battle"]
    wing = task["slot"][1]
    unit_id = occupant(b, task["slot"])
    attack = factors(state, unit_id)[0] if unit_id is not None else 0
    scara = unit_id is not None and unit(state, unit_id)["kind"] == "scara"
    first = b["attack_rounds"] == 0 and not b["ambush"]

    def worth(action: str) -> float:
        enemy = b["enemy"][wing][TARGET.number(action)]
        hit = odds_above(enemy_factors(enemy)[1] - attack)
        kills = enemy["reduced"] or (scara and first)
        return hit * (2 if kills else 1) + enemy_factors(enemy)[0] / 20

    return max(actions, key=worth)


def counter_target(state: State, task: dict[str, Any], actions: Sequence[str]) -> str:
    b = state["battle"]
    wing = task["slot"][1]
    return max(actions, key=lambda a: enemy_factors(b["enemy"][wing][TARGET.number(a)])[0])


def maneuver(actions: Sequence[str]) -> str:
    """Fill the line first (a Flanking space opens only once it is full), then flank:
    a Flanking unit attacks without defending."""
    moves = [(a, maneuver_of(a)[1][0]) for a in actions if not DONE.matches(a)]
    line = [a for a, to in moves if to == LINE.name]
    flank = [a for a, to in moves if to == FLANK.name]
    return (line or flank or [DONE()])[0]


def battle_promotion(state: State, actions: Sequence[str]) -> str:
    """A Level 3 to Level 4 retires for 1 VP but costs 3 Strength; keep the army
    above its minimum first."""
    retiring = [a for a in actions if PROMOTE_UNIT.args(a)[1] == "3"]
    if retiring and (strength_margin(state) >= RETIRE_MARGIN or state["easy"]):
        return retiring[0]
    others = [a for a in actions if PROMOTE_UNIT.args(a)[1] != "3"] or retiring

    def order(action: str) -> tuple[int, bool]:
        kind, level = PROMOTE_UNIT.args(action)
        return int(level), kind != "scara"

    return min(others, key=order)
