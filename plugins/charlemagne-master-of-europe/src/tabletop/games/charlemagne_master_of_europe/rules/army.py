"""The army's counters (rules §4, §10): units added, the counter sheets' limits, a
unit's factors in words, and the Army Strength; shared by the Levy, battles and the
Turn End."""

from __future__ import annotations

from tabletop.framework import State

from ..data import COUNTER_GROUPS, FRIENDLY_FACTORS


def add_unit(state: State, kind: str, level: int, new: bool = False) -> None:
    state["army"].append({"id": state["next_unit"], "kind": kind, "level": level, "new": new})
    state["next_unit"] += 1


def counter_free(state: State, kind: str, level: int) -> bool:
    """A counter for (kind, level) is in the Force Pool: its sheet is not all in use."""
    for group_kind, levels, count in COUNTER_GROUPS:
        if group_kind == kind and level in levels:
            used = sum(1 for u in state["army"] if u["kind"] == kind and u["level"] in levels)
            return used < count
    return False


def unit_detail(kind: str, level: int) -> str:
    attack, defense = FRIENDLY_FACTORS[(kind, level)]
    extra = (
        " Scara eliminate a full-strength enemy they hit in a battle's first Attack Round."
        if kind == "scara"
        else ""
    )
    return f"{kind.title()} Level {level}: Attack {attack}, Defense {defense}.{extra}"


def army_strength(state: State) -> int:
    return sum(int(u["level"]) for u in state["army"])
