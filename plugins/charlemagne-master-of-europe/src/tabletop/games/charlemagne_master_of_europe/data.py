"""Static game data, loaded once from the JSON files beside this module.

The data lives in JSON so that an owner of the printed game can correct a reconstructed
value (a threshold, a battle factor, an adjacency) by editing one file. Every entry
carries its provenance; docs/games/charlemagne-master-of-europe/reconstructed.md gives
the reasoning for each reconstructed one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tabletop.framework.packaged import package_json


def _load(name: str) -> dict[str, Any]:
    return package_json(__package__, "data", name)


MAP = _load("map.json")
COUNTERS = _load("counters.json")
TABLES = _load("tables.json")


@dataclass(frozen=True)
class Region:
    id: str
    name: str
    pagan: bool
    boxes: tuple[str, ...]


@dataclass(frozen=True)
class Box:
    id: str
    name: str
    region: str
    adjacent: tuple[str, ...]


@dataclass(frozen=True)
class MapUnit:
    """An enemy map unit: resistance on its face, a Leader bonus on its reverse (or none)."""

    id: str
    box: str
    resistance: int
    leader: int | None
    leader_only: bool


@dataclass(frozen=True)
class EnemyBattleUnit:
    id: str
    attack: int
    defense: int
    reduced_attack: int
    reduced_defense: int


REGIONS: dict[str, Region] = {
    r["id"]: Region(r["id"], r["name"], r["pagan"], tuple(r["boxes"])) for r in MAP["regions"]
}
REGION_ORDER: tuple[str, ...] = tuple(REGIONS)
BOXES: dict[str, Box] = {
    b["id"]: Box(b["id"], b["name"], b["region"], tuple(b["adjacent"])) for b in MAP["boxes"]
}
BOX_ORDER: tuple[str, ...] = tuple(BOXES)
MOORS_PATH: tuple[str, ...] = tuple(MAP["moors_path"]["boxes"])
MARQUIS_START: tuple[str, ...] = tuple(MAP["marquis_start"]["boxes"])

MAP_UNITS: dict[str, MapUnit] = {
    u["id"]: MapUnit(u["id"], u["box"], u["resistance"], u["leader"], bool(u.get("leader_only")))
    for u in COUNTERS["map_units"]
}
DESIDERIUS = "desiderius"
MARKER_COUNTS: dict[str, int] = {k: v["count"] for k, v in COUNTERS["markers"].items()}
MARKER_NAMES = {
    "viking": "Vikings",
    "moors": "Moors",
    "byzantium": "Byzantium",
    "intrigue": "Intrigue",
    "turn_end": "Turn End",
}
ENEMY_BATTLE_UNITS: dict[str, EnemyBattleUnit] = {
    u["id"]: EnemyBattleUnit(
        u["id"], u["attack"], u["defense"], u["reduced_attack"], u["reduced_defense"]
    )
    for u in COUNTERS["enemy_battle_units"]
}
#: (kind, level) -> (attack, defense)
FRIENDLY_FACTORS: dict[tuple[str, int], tuple[int, int]] = {
    (u["kind"], u["level"]): (u["attack"], u["defense"]) for u in COUNTERS["friendly_battle_units"]
}
#: Counter sheets: (kind, levels, how many counters exist).
COUNTER_GROUPS: tuple[tuple[str, tuple[int, ...], int], ...] = tuple(
    (g["kind"], tuple(g["levels"]), g["count"])
    for g in COUNTERS["friendly_counter_sheets"]["groups"]
)
STARTING_ARMY: tuple[tuple[str, int, int], ...] = tuple(
    (kind, level, count) for kind, level, count in COUNTERS["starting_army"]["units"]
)
COSTS: dict[str, Any] = COUNTERS["costs"]

DIE_SIDES: int = TABLES["die"]["sides"]
SPECIAL_FACE: int = TABLES["die"]["special_face"]
FORMATION: dict[str, list[list[int]]] = TABLES["formation_table"]["columns"]
TURN_TRACK: list[dict[str, Any]] = TABLES["turn_track"]
LAST_TURN = len(TURN_TRACK)
FINAL_VP_THRESHOLD: int = TABLES["final_vp_threshold"]["value"]
TURN_END_ADDED_AFTER: tuple[int, ...] = tuple(TABLES["turn_end_markers_added"]["after_turns"])
EVP_VALUES: tuple[int, ...] = tuple(s["value"] for s in TABLES["evp_track"]["spaces"])
EVP_MAX: int = TABLES["evp_track"]["max_space"]
ACTIONS: dict[str, dict[str, Any]] = TABLES["actions"]
START: dict[str, int] = {k: v for k, v in TABLES["start"].items() if k != "provenance"}
CORONATION_PAM: int = TABLES["coronation_pam"]["value"]
TREASURY_MAX: int = START["treasury_max"]


def vp_threshold(turn: int) -> int:
    return int(TURN_TRACK[turn - 1]["vp_threshold"])


def wealth_threshold(turn: int) -> int:
    return int(TURN_TRACK[turn - 1]["wealth_threshold"])


def minimum_army_strength(turn: int) -> int:
    return int(TURN_TRACK[turn - 1]["minimum_army_strength"])


def formation(column: str, roll: int) -> tuple[int, int, int]:
    """(enemy Right units, enemy Left units, Unfriendly>Hostile adjustments) for a roll,
    clamped to the column's lowest and highest rows."""
    rows = FORMATION[column]
    if roll < rows[0][0]:
        row = rows[0]
    elif roll > rows[-1][1]:
        row = rows[-1]
    else:
        row = next(r for r in rows if r[0] <= roll <= r[1])
    return row[2], row[3], row[4]


def counter_name(counter: str, leader_side: bool = False) -> str:
    """Words for a counter: 'Bavaria 5', 'Bavaria +2 Leader', 'Vikings'."""
    if counter in MAP_UNITS:
        unit = MAP_UNITS[counter]
        box = BOXES[unit.box].name
        if counter == DESIDERIUS:
            return f"{box} +{unit.leader} Leader (Desiderius)"
        if leader_side:
            return f"{box} +{unit.leader} Leader"
        return f"{box} {unit.resistance}"
    kind = counter.rsplit("-", 1)[0]
    return MARKER_NAMES.get(kind, counter)


def marker_kind(counter: str) -> str | None:
    """'viking', 'moors'... for a special marker; None for an enemy map unit."""
    if counter in MAP_UNITS:
        return None
    return counter.rsplit("-", 1)[0]
