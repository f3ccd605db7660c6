"""The game's component data, loaded once from the JSON files in ``data/``.

Values live in JSON, each with its provenance, so that an owner of the physical game
can correct one (an adjacency, an event) without touching the rules; see
docs/games/la-revolution-francaise/reconstructed.md.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework.packaged import package_json


def _load(name: str) -> dict[str, Any]:
    return package_json(__package__, "data", name)


MAP = _load("map.json")
PERSONALITIES_DATA = _load("personalities.json")
SETUP = _load("setup.json")
TABLES = _load("tables.json")
LAWS_DATA = _load("laws.json")
ARMIES = _load("armies.json")
REGIMES: dict[str, dict[str, Any]] = _load("regimes.json")["regimes"]
EVENTS: dict[str, dict[str, Any]] = _load("events.json")["tables"]

#: Current codes in the order of 4.4 (Royalist first); "gov" is the Government.
CURRENTS: tuple[str, ...] = tuple(c["code"] for c in TABLES["currents"])
CURRENT_NAMES: dict[str, str] = {c["code"]: c["name"] for c in TABLES["currents"]}
CURRENT_NAMES["gov"] = "Government"

REGIONS: dict[str, dict[str, Any]] = {r["name"]: r for r in MAP["regions"]}
REGION_NAMES: tuple[str, ...] = tuple(r["name"] for r in MAP["regions"])
ADJACENT: dict[str, set[str]] = {name: set() for name in REGION_NAMES}
for _a, _b in MAP["adjacency"]["edges"]:
    ADJACENT[_a].add(_b)
    ADJACENT[_b].add(_a)
VENDEE: tuple[str, ...] = tuple(r["name"] for r in MAP["regions"] if r["vendee"])

PERSONS: dict[str, dict[str, Any]] = {p["name"]: p for p in PERSONALITIES_DATA["personalities"]}
PERSON_NAMES: tuple[str, ...] = tuple(PERSONS)
FOUR_PLAYER_LEFT: tuple[str, ...] = tuple(PERSONALITIES_DATA["four_player"])
GENERALS: tuple[str, ...] = tuple(n for n, p in PERSONS.items() if p["general"])
KING = "Louis XVI"

LAWS: dict[str, dict[str, Any]] = {law["key"]: law for law in LAWS_DATA["laws"]}

RESULT_ROWS: dict[int, str] = {int(k): v for k, v in TABLES["result_table"]["rows"].items()}
COSTS: dict[str, int] = {k: v for k, v in TABLES["action_costs"].items() if k != "provenance"}
SWITCH_TARGETS: dict[str, list[str]] = {
    k: v for k, v in TABLES["deputy_switch_targets"].items() if k != "provenance"
}
COMMUNE_PENALTY: dict[str, int] = {
    k: v for k, v in TABLES["commune_penalty"].items() if k != "provenance"
}
ALLIED: dict[str, dict[str, Any]] = {a["id"]: a for a in ARMIES["allied"]}
CATHOLIC: dict[str, dict[str, Any]] = {a["id"]: a for a in ARMIES["catholic"]}
REGULARS: dict[str, dict[str, Any]] = {a["id"]: a for a in ARMIES["regulars"]}
MAX_VOLUNTEERS: int = ARMIES["volunteers"]["max"]

HISTORICAL_REGIMES = ("legislative", "convention", "terror", "thermidor")


def seating(players: int) -> list[list[str]]:
    """The Currents each seat plays (15.2): the Marais is automated below 6 players."""
    rows: list[list[str]] = TABLES["seating"][str(players)]
    return [list(row) for row in rows]
