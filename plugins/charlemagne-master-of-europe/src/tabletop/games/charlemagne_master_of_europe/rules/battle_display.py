"""The Battle Display (rules §7): its spaces, who touches whom, and your units and the
enemy's in words.

Geometry (reconstructed, see reconstructed.md): each wing pairs one of your wings with
the enemy wing facing it (your Left faces the enemy Right). The enemy line has 6 spaces
(0-5, space 0 is the printed "1" space); your line has 5, staggered between them, so
your space j touches enemy spaces j and j+1. A Flanking unit stands in an empty enemy
space k and touches enemy spaces k-1 and k+1.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import State

from ..data import ENEMY_BATTLE_UNITS, FRIENDLY_FACTORS

WINGS = ("left", "right")
WING_NAMES = {"left": "Left", "right": "Right"}
ENEMY_SPACES = 6
LINE_SPACES = 5
#: A battle still undecided after this many rounds is lost (reconstructed guard).
ROUND_LIMIT = 20
Slot = list[Any]  # ["line" | "flank", wing, position]


# Display questions ------------------------------------------------------------------


def unit(state: State, unit_id: int) -> dict[str, Any]:
    found: dict[str, Any] = next(u for u in state["army"] if u["id"] == unit_id)
    return found


def factors(state: State, unit_id: int) -> tuple[int, int]:
    u = unit(state, unit_id)
    return FRIENDLY_FACTORS[(u["kind"], u["level"])]


def unit_words(state: State, unit_id: int | None) -> str:
    if unit_id is None:
        return "nobody"
    u = unit(state, unit_id)
    attack, defense = FRIENDLY_FACTORS[(u["kind"], u["level"])]
    return f"{u['kind'].title()} L{u['level']} ({attack}-{defense})"


def enemy_factors(slot: dict[str, Any]) -> tuple[int, int]:
    e = ENEMY_BATTLE_UNITS[slot["id"]]
    return (e.reduced_attack, e.reduced_defense) if slot["reduced"] else (e.attack, e.defense)


def enemy_words(slot: dict[str, Any]) -> str:
    attack, defense = enemy_factors(slot)
    return f"{attack}-{defense}{' (reduced)' if slot['reduced'] else ''}"


def enemies_touching_line(b: dict[str, Any], wing: str, j: int) -> list[int]:
    return [k for k in (j, j + 1) if b["enemy"][wing][k] is not None]


def enemies_touching_flank(b: dict[str, Any], wing: str, k: int) -> list[int]:
    return [x for x in (k - 1, k + 1) if 0 <= x < ENEMY_SPACES and b["enemy"][wing][x] is not None]


def enemies_touching(b: dict[str, Any], slot: Slot) -> list[int]:
    kind, wing, pos = slot
    return (
        enemies_touching_line(b, wing, pos)
        if kind == "line"
        else enemies_touching_flank(b, wing, pos)
    )


def mine_touching(b: dict[str, Any], wing: str, k: int) -> list[Slot]:
    out: list[Slot] = [
        ["line", wing, j]
        for j in (k - 1, k)
        if 0 <= j < LINE_SPACES and b["mine"][wing][j] is not None
    ]
    out += [
        ["flank", wing, x]
        for x in (k - 1, k + 1)
        if 0 <= x < ENEMY_SPACES and b["flank"][wing][x] is not None
    ]
    return out


def occupant(b: dict[str, Any], slot: Slot) -> int | None:
    kind, wing, pos = slot
    found: int | None = b["mine" if kind == "line" else "flank"][wing][pos]
    return found


def slot_order() -> list[Slot]:
    """Your spaces from left to right: a flank space sits before the line space j=k."""
    order: list[Slot] = []
    for wing in WINGS:
        for pos in range(ENEMY_SPACES):
            order.append(["flank", wing, pos])
            if pos < LINE_SPACES:
                order.append(["line", wing, pos])
    return order


def reserve(state: State, b: dict[str, Any]) -> list[int]:
    placed = {u for wing in WINGS for u in b["mine"][wing] + b["flank"][wing] if u is not None}
    return [u["id"] for u in state["army"] if u["id"] not in placed]


def reserve_types(state: State, b: dict[str, Any]) -> list[tuple[str, int]]:
    return sorted({(unit(state, u)["kind"], unit(state, u)["level"]) for u in reserve(state, b)})


def take_from_reserve(state: State, b: dict[str, Any], kind: str, level: int) -> int:
    return next(
        u
        for u in reserve(state, b)
        if unit(state, u)["kind"] == kind and unit(state, u)["level"] == level
    )


def wing_units(b: dict[str, Any], wing: str) -> list[int]:
    return [u for u in b["mine"][wing] + b["flank"][wing] if u is not None]


def slot_words(slot: Slot) -> str:
    kind, wing, pos = slot
    place = f"space {pos + 1}" if kind == "line" else f"flank (enemy space {pos + 1})"
    return f"{WING_NAMES[wing]} wing {place}"
