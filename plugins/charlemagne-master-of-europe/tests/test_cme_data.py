"""Data files and set-up (rules: Components, Set-Up; reconstructed.md)."""

from __future__ import annotations

import json
from collections import Counter
from importlib import resources
from itertools import pairwise
from pathlib import Path

from cme_helpers import GAME

from tabletop.framework.testing import new_engine
from tabletop.games.charlemagne_master_of_europe import board
from tabletop.games.charlemagne_master_of_europe.data import (
    BOXES,
    ENEMY_BATTLE_UNITS,
    LAST_TURN,
    MAP_UNITS,
    MOORS_PATH,
    REGIONS,
    TURN_TRACK,
    vp_threshold,
)

PACKAGE = "tabletop.games.charlemagne_master_of_europe"


def test_every_data_entry_has_a_provenance() -> None:
    """Every value is rulebook, public-source or reconstructed (reconstructed.md)."""

    def walk(node: object, where: str) -> list[str]:
        missing = []
        if isinstance(node, dict):
            if "provenance" in node and node["provenance"] not in (
                "rulebook",
                "public-source",
                "reconstructed",
            ):
                missing.append(where)
            for key, value in node.items():
                missing += walk(value, f"{where}.{key}")
        elif isinstance(node, list):
            for i, value in enumerate(node):
                if isinstance(value, dict) and "id" in value and "provenance" not in value:
                    missing.append(f"{where}[{i}]")
                missing += walk(value, f"{where}[{i}]")
        return missing

    for name in ("map.json", "counters.json", "tables.json"):
        data = json.loads(resources.files(PACKAGE).joinpath("data", name).read_text())
        assert walk(data, name) == []
    tables = json.loads(resources.files(PACKAGE).joinpath("data", "tables.json").read_text())
    assert all(row["provenance"] for row in tables["turn_track"])


def test_map_is_symmetric_connected_and_keeps_the_moors_path() -> None:
    for box in BOXES.values():
        for other in box.adjacent:
            assert box.id in BOXES[other].adjacent, (box.id, other)
    seen, frontier = set(), ["aachen"]
    while frontier:
        here = frontier.pop()
        if here not in seen:
            seen.add(here)
            frontier += BOXES[here].adjacent
    assert seen == set(BOXES)
    for a, b in pairwise(MOORS_PATH):
        assert b in BOXES[a].adjacent
    assert sum(len(r.boxes) for r in REGIONS.values()) == len(BOXES) == 23
    assert {r for r in REGIONS if REGIONS[r].pagan} == {"orange", "brown"}


def test_counter_mix() -> None:
    """81 enemy map units plus Desiderius (+4); 16 enemy battle units (components)."""
    assert len(MAP_UNITS) == 82
    assert MAP_UNITS["desiderius"].leader == 4
    mix = Counter((u.attack, u.defense) for u in ENEMY_BATTLE_UNITS.values())
    assert mix == {(4, 4): 2, (4, 5): 2, (5, 5): 4, (5, 6): 6, (6, 6): 2}
    for unit in ENEMY_BATTLE_UNITS.values():
        assert unit.reduced_attack < unit.attack and unit.reduced_defense < unit.defense


def test_turn_track_has_16_turns_ending_at_145() -> None:
    assert LAST_TURN == len(TURN_TRACK) == 16
    assert vp_threshold(16) == 145
    assert all(vp_threshold(t) < vp_threshold(t + 1) for t in range(1, 16))


def test_rules_summary_in_the_package_matches_the_docs() -> None:
    docs = Path(__file__).parents[3] / "docs/games/charlemagne-master-of-europe/rules-summary.md"
    assert GAME.rules_summary() == docs.read_text(encoding="utf-8")


def test_set_up_follows_the_rulebook_order() -> None:
    """Set-Up: Green until 3 Lombardy, Yellow 4+, Purple exactly 4, then the Marquis
    choice, then Orange 2+, Brown until 2 Brown; cups, army and tracks."""
    for seed in range(1, 6):
        engine = new_engine(GAME, seed=seed, players=1)
        state = engine.state
        lombards = [c for c in state["stacks"]["lombardy"] if c != "desiderius"]
        assert len(lombards) >= 3 and state["stacks"]["lombardy"][-1] == "desiderius"
        on_map = [c for units in state["stacks"].values() for c in units]
        by_region = Counter(board.region_of(MAP_UNITS[c].box) for c in on_map)
        assert by_region["yellow"] >= 4 and by_region["purple"] == 4
        assert by_region["orange"] == 0  # not yet: after the Marquis choice
        prompt = engine.prompt
        assert prompt is not None
        assert prompt.actions() == ("marquis:breton_march", "marquis:spanish_march")
        engine.act(0, "marquis:spanish_march")
        state = engine.state
        assert state["marquis"] == {"yellow": {"box": "spanish_march", "crowned": False}}
        on_map = [c for units in state["stacks"].values() for c in units]
        by_region = Counter(board.region_of(MAP_UNITS[c].box) for c in on_map)
        assert by_region["orange"] >= 2 and by_region["brown"] >= 2
        friendly = state["cups"]["friendly"]
        assert sorted(c for c in friendly if c in MAP_UNITS) == sorted(
            u for u in MAP_UNITS if board.region_of(MAP_UNITS[u].box) == "blue"
        )
        assert Counter(c.rsplit("-", 1)[0] for c in friendly if c not in MAP_UNITS) == {
            "intrigue": 3,
            "moors": 6,
            "viking": 6,
            "byzantium": 4,
        }
        assert state["cups"]["hostile"].count("turn_end-1") == 1
        assert state["turn_end_track"] == ["turn_end-3", "turn_end-4"]
        assert (state["treasury"], state["taxes"], state["vp"], state["pam"]) == (5, 4, 0, -1)
        assert len(state["army"]) == 20 and state["charlemagne"] == "aachen"
        assert not state["hre"] and state["turn"] == 1
        assert engine.prompt is not None and engine.prompt.text.startswith("Choose an Action")
