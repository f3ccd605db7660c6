"""Data files, map, presence/control, adjacency, Crisis Track, pools and momentum."""

from __future__ import annotations

from typing import Any

import pytest
from rfop_helpers import GAME, C, Driver, V, clear_board, set_cubes

from tabletop.games.red_flag_over_paris import board
from tabletop.games.red_flag_over_paris.data import (
    BOARD,
    CARDS,
    CARDS_DATA,
    DIM_SPACES,
    MAP,
    OBJECTIVE_IDS,
    PIVOTALS,
    SPACES,
    STRATEGY_IDS,
    TRACKS,
)


def _walk_provenance(node: Any, where: str, missing: list[str]) -> None:
    if isinstance(node, dict):
        looks_like_entry = "id" in node or "value" in node or "steps" in node
        if looks_like_entry and node.get("provenance") not in (
            "rulebook",
            "public-source",
            "reconstructed",
        ):
            missing.append(where)
        for key, value in node.items():
            if key not in ("steps", "requires"):
                _walk_provenance(value, f"{where}.{key}", missing)
    elif isinstance(node, list):
        for i, value in enumerate(node):
            _walk_provenance(value, f"{where}[{i}]", missing)


def test_every_data_entry_has_provenance() -> None:
    missing: list[str] = []
    for name, data in (("map", MAP), ("tracks", TRACKS), ("cards", CARDS_DATA)):
        _walk_provenance(data, name, missing)
    grouped = ("crisis_track", "momentum_opponent_dimension", "momentum_vp_kind")
    for key, value in TRACKS.items():
        if isinstance(value, dict) and key not in grouped:
            assert "provenance" in value, key
    assert missing == []
    for card in CARDS.values():
        assert card.event["provenance"] == "reconstructed"


def test_components_match_the_rulebook() -> None:
    assert len(SPACES) == 14
    assert len(BOARD) == 12
    assert {d: len(s) for d, s in DIM_SPACES.items()} == {
        "institutional": 3,
        "public_opinion": 3,
        "paris": 3,
        "forts": 3,
    }
    assert set(PIVOTALS) == {"national_assembly", "press", "butte_montmartre", "mont_valerien"}
    assert len(STRATEGY_IDS) == 39
    assert len(OBJECTIVE_IDS) == 12
    assert [c for c in CARDS if CARDS[c].kind == "final_crisis"] == [17, 34]
    assert CARDS_DATA["initiative"]["provenance"] == "rulebook"
    assert len(STRATEGY_IDS) + len(OBJECTIVE_IDS) + 2 + 1 == 54
    # each map space has exactly one objective card
    assert sorted(CARDS[c].space or "" for c in OBJECTIVE_IDS) == sorted(BOARD)


def test_setup_position_and_cube_totals() -> None:
    d = Driver()
    st = d.state
    assert st["cubes"]["royalists"] == [1, 0]
    assert st["cubes"]["press"] == [1, 1]
    assert st["cubes"]["social_movements"] == [0, 1]
    assert st["cubes"]["pere_lachaise"] == [0, 1]
    assert st["track"] == [[1, 2, 1, 2], [3, 2, 2, 2]]
    assert [sum(b) for b in st["bonus"]] == [4, 6]
    assert sum(st["prussian"]) == 6
    assert GAME.invariants(st) == []
    assert len(st["hands"][V]) == 4 and len(st["obj_hand"][C]) == 2


def test_adjacency_national_assembly_to_royalists_is_one_way() -> None:
    """Rulebook example: National Assembly is adjacent to Royalists, not the reverse."""
    assert "royalists" in SPACES["national_assembly"].adjacent
    assert "national_assembly" not in SPACES["royalists"].adjacent
    d = Driver()
    st = d.state
    clear_board(st)
    # The Commune controls Royalists: it may operate in National Assembly.
    set_cubes(st, "royalists", 0, 1)
    assert "national_assembly" in board.eligible(board.snapshot(st, C), "political")
    # Controlling National Assembly instead does not open Royalists.
    set_cubes(st, "royalists", 0, 0)
    set_cubes(st, "national_assembly", 0, 1)
    assert "royalists" not in board.eligible(board.snapshot(st, C), "political")


def test_presence_is_permanent_where_printed() -> None:
    d = Driver()
    st = d.state
    clear_board(st)
    assert board.present(st, "pere_lachaise", C)
    assert board.present(st, "social_movements", C)
    assert board.present(st, "royalists", V)
    assert not board.present(st, "royalists", C)
    assert not board.controls(st, "royalists", V)  # presence is not control
    assert set(board.eligible(board.snapshot(st, C), "military")) >= {"pere_lachaise"}


def test_control_counts_discs_and_special_spaces() -> None:
    d = Driver()
    st = d.state
    clear_board(st)
    set_cubes(st, "butte_montmartre", 1, 1)
    assert board.controller(st, "butte_montmartre") is None
    st["discs"]["butte_montmartre"] = C
    assert board.controls(st, "butte_montmartre", C)
    assert board.controls(st, "versailles_hq", V) and not board.controls(st, "versailles_hq", C)
    assert not board.controls(st, "prussian_territory", V)
    st["momentum"][V] = 3
    assert board.controls(st, "prussian_territory", V)
    assert board.controls_dimension(st, "paris", V) is False


def test_cube_limit_of_four_excludes_discs() -> None:
    d = Driver()
    st = d.state
    clear_board(st)
    set_cubes(st, "fort_issy", 3, 0)
    st["discs"]["fort_issy"] = V
    assert board.can_place(st, "fort_issy", V)
    assert board.place_cube(st, "fort_issy", V)
    assert not board.can_place(st, "fort_issy", V)
    assert not board.place_cube(st, "fort_issy", V)
    assert st["cubes"]["fort_issy"][V] == 4


def test_cubes_come_from_pool_then_track_and_breach_zones() -> None:
    d = Driver()
    st = d.state
    st["pool"][V] = 1
    board.take_cube(st, V)
    assert st["pool"][V] == 0 and st["track"][V] == [1, 2, 1, 2]
    board.take_cube(st, V)  # Starting zone: not a breach
    assert st["breach_queue"] == []
    board.take_cube(st, V)  # first Escalation cube: breach
    assert st["breach_queue"] == [[V, 1]]
    board.take_cube(st, V)  # second Escalation cube: no new breach
    assert st["breach_queue"] == [[V, 1]]
    # bonus cubes arrive only when the breach is resolved (end of card play)
    assert st["pool"][V] == 0
    board.resolve_breaches(st, d.ctx())
    assert st["pool"][V] == 1 and st["bonus"][V][1] == 0


def test_final_crisis_breach_penalty_first_and_second() -> None:
    """Breach sequence: first to breach its Final Crisis zone pays 1 Political VP and gets
    the bonus cubes; the second gets neither penalty nor bonus."""
    d = Driver()
    st = d.state
    st["track"][C] = [0, 0, 0, 2]
    st["track"][V] = [0, 0, 0, 2]
    st["out"][C] += 7
    st["out"][V] += 4
    st["momentum"][C] = 3  # room in the Commune pool
    assert board.place_cube(st, "fort_issy", C)
    assert board.place_cube(st, "fort_issy", V)
    assert st["fc_first"] == C
    board.resolve_breaches(st, d.ctx())
    assert board.vp_of(st, C, "political") == -1
    assert st["pool"][C] == 2
    assert st["pool"][V] == 0 and st["bonus"][V][3] == 0
    assert board.vp_of(st, V, "political") == 1
    assert GAME.invariants(st) == []
    assert board.final_crisis_due(st)


def test_commune_pool_spaces_follow_revolutionary_momentum() -> None:
    d = Driver()
    st = d.state
    assert board.pool_capacity(st, C) == 0
    assert board.pool_capacity(st, V) is None
    # a Commune cube removed with no pool space leaves play
    board.remove_cube(st, "press", C)
    assert st["pool"][C] == 0 and st["out"][C] == 1
    caps = []
    for _ in range(3):
        board.shift_momentum(st, C, 1, d.ctx())
        caps.append(board.pool_capacity(st, C))
    assert caps == [2, 3, 4]
    st["track"][C] = [0, 0, 2, 2]  # five cubes off the track ...
    board.to_pool(st, C, 5)  # ... into a pool with four spaces
    assert st["pool"][C] == 4 and st["out"][C] == 2
    # dropping from 3 to 1 closes two spaces: their cubes leave play
    board.shift_momentum(st, C, -2, d.ctx())
    assert st["pool"][C] == 2 and st["out"][C] == 4
    assert GAME.invariants(st) == []


def test_prussian_collaboration_gives_cubes_for_good() -> None:
    d = Driver()
    st = d.state
    board.shift_momentum(st, V, 1, d.ctx())
    assert st["pool"][V] == 2
    board.shift_momentum(st, V, -1, d.ctx())
    assert st["pool"][V] == 2  # kept
    board.shift_momentum(st, V, 1, d.ctx())
    assert st["pool"][V] == 2  # no second helping from the same step
    assert GAME.invariants(st) == []


def test_momentum_two_and_three_trigger_opponent_placement() -> None:
    d = Driver()
    st = d.state
    assert board.shift_momentum(st, V, 1, d.ctx()) == []
    placements = board.shift_momentum(st, V, 1, d.ctx())
    assert placements == [{"name": "momentum_placement", "seat": C, "dimension": "public_opinion"}]
    placements = board.shift_momentum(st, C, 3, d.ctx())
    assert [t["dimension"] for t in placements] == ["institutional", "institutional"]
    assert all(t["seat"] == V for t in placements)
    assert board.shift_momentum(st, C, 1, d.ctx()) == []  # already at 3


def test_vp_track_is_shared_and_capped() -> None:
    d = Driver()
    st = d.state
    board.add_vp(st, V, "military", 2)
    assert board.vp_of(st, C, "military") == -2
    board.add_vp(st, C, "political", 9)
    assert st["vp"]["political"] == -5 and board.vp_of(st, C, "political") == 5
    board.add_vp(st, V, "military", 9)
    assert board.vp_of(st, V, "military") == 5


def test_military_strength() -> None:
    d = Driver()
    st = d.state
    clear_board(st)
    set_cubes(st, "fort_issy", 2, 1)
    # Versailles: controls HQ (adjacent to Fort d'Issy) + presence + control = 3
    snap = board.snapshot(st, V)
    assert board.military_strength(snap, "fort_issy", False) == 3
    snap_c = board.snapshot(st, C)
    assert board.military_strength(snap_c, "fort_issy", False) == 1
    assert board.military_strength(snap_c, "fort_issy", True) == 2


@pytest.mark.parametrize(
    ("spoil", "problem"),
    [
        (lambda st: st["cubes"]["press"].__setitem__(0, 0), "Versailles has 17 cubes, not 18"),
        (lambda st: st["track"][1].__setitem__(0, -1), "negative Crisis Track count"),
        (lambda st: st["momentum"].__setitem__(0, 9), "momentum out of range"),
        (lambda st: st["hands"][0].extend([0, 0]), "Versailles holds 6 cards"),
        (lambda st: st["cubes"]["press"].__setitem__(1, 5), "Press breaks the cube limit"),
        (lambda st: st["discs"].__setitem__("press", 0), "disc in non-military space press"),
        (lambda st: st["vp"].__setitem__("military", 6), "military VP out of range"),
        (lambda st: st.__setitem__("round", 4), "round out of range"),
        (lambda st: st["deck"].pop(), "strategy cards are not all accounted for"),
        (lambda st: st["obj_deck"].pop(), "objective cards are not all accounted for"),
    ],
)
def test_the_invariants_see_each_kind_of_broken_state(spoil: Any, problem: str) -> None:
    """Each part of ``invariants`` (a side's cubes and limits, the board, the cards)
    reports what breaks it, and a sound state has nothing to report."""
    st = Driver().state
    assert GAME.invariants(st) == []
    spoil(st)
    assert problem in GAME.invariants(st)
