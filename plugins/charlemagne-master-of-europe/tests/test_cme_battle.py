"""Battles on the Battle Display (rules-summary §7)."""

from __future__ import annotations

from typing import Any

from cme_helpers import GAME, blank, choices, ctx, decide, kinds, offered, outcome, place, run_step

from tabletop.framework import SUMMARY, State
from tabletop.games.charlemagne_master_of_europe.data import ENEMY_BATTLE_UNITS
from tabletop.games.charlemagne_master_of_europe.rules import battle, battle_display


def unit_id(state: State, kind: str, level: int, nth: int = 0) -> int:
    ids = [u["id"] for u in state["army"] if u["kind"] == kind and u["level"] == level]
    return int(ids[nth])


def enemy_of(attack: int, defense: int, nth: int = 0) -> str:
    ids = [e for e, u in ENEMY_BATTLE_UNITS.items() if (u.attack, u.defense) == (attack, defense)]
    return ids[nth]


def display(
    state: State,
    box: str,
    enemy: dict[str, list[str | None]],
    mine: dict[str, list[int | None]],
    stage: str = "attack",
    **extra: Any,
) -> dict[str, Any]:
    """A battle already deployed: enemy and friendly lines given space by space."""
    b: dict[str, Any] = {
        "box": box,
        "ambush": False,
        "moors_chit": None,
        "column": "blue",
        "adjustments": 1,
        "ransom": 0,
        "counts": {w: len(enemy[w]) for w in battle_display.WINGS},
        "enemy": {w: [None] * 6 for w in battle_display.WINGS},
        "mine": {w: [None] * 5 for w in battle_display.WINGS},
        "flank": {w: [None] * 6 for w in battle_display.WINGS},
        "enemy_drawn": True,
        "stage": stage,
        "cursor": 0,
        "round": 1,
        "attack_rounds": 0,
    }
    b.update(extra)
    for wing in battle_display.WINGS:
        for k, chit in enumerate(enemy[wing]):
            if chit is not None:
                state["battle_cup"].remove(chit)
                b["enemy"][wing][k] = {"id": chit, "reduced": False}
        for j, unit in enumerate(mine[wing]):
            b["mine"][wing][j] = unit
    state["battle"] = b
    return b


def test_formation_roll_uses_resistance_and_leader_on_the_region_column() -> None:
    """§7.1: die + top unit's Resistance + the box's Leader (else the Region's best)."""
    state = blank()
    place(state, "burgundy", "burgundy-3", "burgundy-4", leader=True)  # 4, then +2 Leader
    battle.start_battle(state, "burgundy", ambush=False, moors_chit=None, ctx=ctx([1]))
    b = state["battle"]
    assert b["column"] == "blue" and b["counts"] == {"left": 3, "right": 3}  # 7: 3/3/1
    assert b["adjustments"] == 1 and b["ransom"] == 2
    assert sum(1 for s in b["enemy"]["left"] if s) == 3 and len(state["battle_cup"]) == 10
    assert kinds(state) == ["battle_continue"]


def test_deployment_fills_every_enemy_facing_space_from_the_reserve() -> None:
    """§7.2: you cannot keep units back while an enemy-facing space is empty."""
    state = blank()
    b = display(
        state,
        "swabia",
        {"left": [enemy_of(4, 4), enemy_of(4, 5)], "right": [enemy_of(5, 5)]},
        {"left": [], "right": []},
        stage="deploy",
    )
    run_step(state, "battle_continue", ctx())
    assert kinds(state)[:2] == ["battle_deploy", "battle_continue"]
    assert choices(state, "battle_deploy", wing="left", slot=["line", "left", 0]) == [
        "unit:infantry:1",
        "unit:infantry:2",
        "unit:infantry:3",
        "unit:scara:2",
        "unit:scara:3",
    ]
    for wing, j in (("left", 0), ("left", 1), ("right", 0)):
        assert state["tasks"][-1]["slot"] == ["line", wing, j]
        state["tasks"].pop()
        decide(state, "battle_deploy", "unit:scara:3", ctx(), wing=wing, slot=["line", wing, j])
        state["tasks"].pop()
        run_step(state, "battle_continue", ctx([1] * 12))
    assert b["mine"]["left"][:2] != [None, None] and b["mine"]["right"][0] is not None
    assert b["mine"]["left"][2] is None  # faces no enemy


def test_attack_round_scara_bonus_and_step_losses() -> None:
    """§7.3: a Scara's first-round hit removes a full unit; Infantry flips it; the top
    face removes it outright."""
    state = blank()
    scara, infantry = unit_id(state, "scara", 3), unit_id(state, "infantry", 3)
    weak, strong = enemy_of(4, 4), enemy_of(6, 6)
    b = display(
        state,
        "swabia",
        {"left": [weak], "right": [strong, None]},
        {"left": [scara], "right": [infantry]},
    )
    battle.resolve_attack(state, b, ["line", "left", 0], 0, ctx([1]))  # 1 + 4 = 5 > 4
    assert b["enemy"]["left"][0] is None and weak in state["battle_cup"]
    battle.resolve_attack(state, b, ["line", "right", 0], 0, ctx([5]))  # 5 + 2 = 7 > 6
    assert b["enemy"]["right"][0] == {"id": strong, "reduced": True}
    battle.resolve_attack(state, b, ["line", "right", 0], 0, ctx([2]))  # 4 against 5
    assert b["enemy"]["right"][0] is not None
    battle.resolve_attack(state, b, ["line", "right", 0], 0, ctx([3]))  # 5 > 5? no
    battle.resolve_attack(state, b, ["line", "right", 0], 0, ctx([4]))  # 6 > 5
    assert b["enemy"]["right"][0] is None
    b["attack_rounds"] = 1
    other = enemy_of(6, 6, 1)
    state["battle_cup"].remove(other)
    b["enemy"]["left"][0] = {"id": other, "reduced": False}
    battle.resolve_attack(state, b, ["line", "left", 0], 0, ctx([3]))  # 7 > 6, no bonus now
    assert b["enemy"]["left"][0] == {"id": other, "reduced": True}
    b["enemy"]["left"][0] = {"id": other, "reduced": False}
    battle.resolve_attack(state, b, ["line", "left", 0], 0, ctx([8]))  # the top face
    assert b["enemy"]["left"][0] is None


def two_enemies_left(state: State, stage: str = "attack") -> dict[str, Any]:
    """In Swabia, Infantry 1 holds the left wing against two enemies (4/4 and 5/5 beside
    it), Infantry 2 the right against a 5/6."""
    return display(
        state,
        "swabia",
        {"left": [enemy_of(4, 4), enemy_of(5, 5)], "right": [enemy_of(5, 6)]},
        {"left": [unit_id(state, "infantry", 1)], "right": [unit_id(state, "infantry", 2)]},
        stage=stage,
    )


def test_a_unit_touching_two_enemies_chooses_its_target() -> None:
    state = blank()
    two_enemies_left(state)
    run_step(state, "battle_continue", ctx())
    assert state["tasks"][-1]["kind"] == "battle_attack"
    assert choices(state, "battle_attack", slot=["line", "left", 0]) == ["target:0", "target:1"]
    details = [c.detail for c in offered(state, "battle_attack", slot=["line", "left", 0])]
    assert details[0].startswith("A roll above 2 on the d8 (6 in 8) flips")  # Defense 4 - 2


def test_defense_round_sums_attacks_and_the_top_face_counterattacks() -> None:
    """§7.4."""
    state = blank()
    inf1, inf3 = unit_id(state, "infantry", 1), unit_id(state, "infantry", 3)
    a, c = enemy_of(4, 4), enemy_of(5, 5)
    b = display(
        state,
        "swabia",
        {"left": [a, c], "right": [enemy_of(5, 6)]},
        {"left": [inf1], "right": [inf3]},
        stage="defense",
    )
    # left: 4 + 5 = 9 against 6 + 2; right: 5 against 8 (top face): counterattack
    run_step(state, "battle_continue", ctx([6, 8]))
    assert b["mine"]["left"][0] is None and all(u["id"] != inf1 for u in state["army"])
    assert b["enemy"]["right"][0] is None
    assert kinds(state)[0] == "battle_reserve"  # the left pair now faces nobody


def test_isolation_and_rout_win_the_battle_then_the_post_battle_procedure() -> None:
    """§7.5, §7.6: an enemy alone against a stronger defender withdraws; an empty enemy
    wing routs; the box is cleared, one unit per wing promoted, the ransom paid."""
    state = blank()
    place(state, "swabia", "burgundy-1", "burgundy-3", "burgundy-2", leader=True)
    scara, inf = unit_id(state, "scara", 3), unit_id(state, "infantry", 3)
    b = display(
        state,
        "swabia",
        {"left": [enemy_of(4, 4)], "right": [enemy_of(4, 5)]},
        {"left": [scara], "right": [inf]},
        stage="isolation",
        ransom=2,
        adjustments=2,
    )
    treasury = state["treasury"]
    run_step(state, "battle_continue", ctx())
    assert b["enemy"]["left"] == [None] * 6  # 4 <= Scara's Defense 4
    assert b["enemy"]["right"][0] is None  # not isolated (4 > 3): back to the cup on the win
    assert state["stacks"]["swabia"] == [] and len(state["battle_cup"]) == 16
    assert kinds(state) == ["battle_promote", "battle_promote", "battle_finish"]
    assert choices(state, "battle_promote", wing="left") == ["promote:scara:3"]
    decide(state, "battle_promote", "promote:scara:3", ctx(), wing="left")
    assert next(u for u in state["army"] if u["id"] == scara)["level"] == 4
    state["tasks"] = []
    run_step(state, "battle_finish", ctx())
    assert state["treasury"] == treasury + 2 and state["battle"] is None
    assert [t.get("count") for t in reversed(state["tasks"])] == [1, 2, None, None]


def test_isolation_counts_flanking_units_both_ways() -> None:
    """§7.7 (rulebook: Check for Isolation, "each of those individual Battle Units";
    Flanking): a Flanking unit is one of the units touching an enemy. Alone it isolates
    an enemy whose Attack its Defense matches; beside a line unit, a weaker Flanking
    unit keeps the enemy from being isolated (not every Defense holds), unless a
    Scara among them holds."""
    state = blank()
    inf1, inf4 = unit_id(state, "infantry", 1), unit_id(state, "infantry", 3)
    battle_display.unit(state, inf4)["level"] = 4  # Infantry 4: 4-4
    b = display(
        state,
        "swabia",
        {"left": [enemy_of(5, 5), None, enemy_of(4, 4)], "right": [enemy_of(5, 6)]},
        {"left": [unit_id(state, "infantry", 2)], "right": [unit_id(state, "infantry", 2, 1)]},
        stage="isolation",
    )
    b["flank"]["left"][3] = inf4  # touches enemy spaces 3 (the 4-4) and 5 (empty)
    assert battle.isolated(state, b, "left", 2)  # only the flanker touches it: 4 <= 4
    b["flank"]["left"][3] = inf1  # Infantry 1 (2-2) flanking: 4 > 2
    assert not battle.isolated(state, b, "left", 2)
    b["mine"]["left"][2] = inf4  # a line unit too: its Defense 4 holds, the flanker's not
    assert not battle.isolated(state, b, "left", 2)
    b["flank"]["left"][3] = None  # the line unit alone: isolated
    assert battle.isolated(state, b, "left", 2)
    scara = unit_id(state, "scara", 3)  # 4-4: one Scara that holds is enough
    b["flank"]["left"][3] = inf1
    b["mine"]["left"][2] = scara
    assert battle.isolated(state, b, "left", 2)
    battle.stage_isolation(state, b, ctx())
    assert b["enemy"]["left"][2] is None and b["enemy"]["left"][0] is not None


def test_a_routed_army_loses_the_game() -> None:
    state = blank()
    display(
        state,
        "swabia",
        {"left": [enemy_of(6, 6)], "right": [enemy_of(6, 6, 1)]},
        {"left": [None], "right": [unit_id(state, "infantry", 1)]},
        stage="rout",
        lost=["Infantry L2 (2-2)"],
    )
    context = ctx()
    run_step(state, "battle_continue", context)
    assert state["outcome"] is not None and not state["outcome"]["won"]
    assert outcome(state) == "defeat: army routed"
    [recap] = [e for e in context.events if e.kind == SUMMARY]
    assert recap.text == "The battle in Swabia is lost"
    assert recap.data["lines"][:2] == [
        "Round 1: your Left wing is empty, so your army routs",
        "Losses: 1 Infantry L2",
    ]


def test_a_battle_still_undecided_after_the_round_limit_is_lost() -> None:
    """The reconstructed guard: a battle must end, so round 21 never starts."""
    for last_round, expected in (
        (battle_display.ROUND_LIMIT - 1, ""),
        (battle_display.ROUND_LIMIT, "stalled"),
    ):
        state = blank()
        display(
            state,
            "swabia",
            {"left": [enemy_of(6, 6)], "right": [enemy_of(6, 6, 1)]},
            {"left": [unit_id(state, "infantry", 1)], "right": [unit_id(state, "infantry", 2)]},
            stage="rout",
            round=last_round,
        )
        battle.stage_rout(state, state["battle"], ctx())
        assert outcome(state) == ("defeat: battle stalled" if expected else "")


def test_maneuvers_and_flanking() -> None:
    """§7.5: a free unit may move to an enemy-facing space, or flank once the line is
    full; Scara may cross to the other wing."""
    state = blank()
    scara = unit_id(state, "scara", 2)
    inf = unit_id(state, "infantry", 1)
    b = display(
        state,
        "swabia",
        {"left": [enemy_of(5, 5), None], "right": [enemy_of(5, 6)]},
        {"left": [inf, scara], "right": [unit_id(state, "infantry", 2)]},
    )
    # The Scara in left space 1 touches enemy spaces 1 and 2: both empty.
    dests = battle.maneuver_destinations(state, b, ["line", "left", 1])
    assert ["flank", "left", 1] in dests
    assert ["line", "right", 1] not in dests  # faces no enemy
    assert ["line", "left", 0] not in dests  # occupied


def test_maneuvers_are_one_decision_in_any_order() -> None:
    """§7.5: the maneuvers happen together. Every free unit's moves are offered at
    once, in any order, until the player ends them; then the Reserve Response. Filling
    the line first opens the Flanking spaces."""
    state = blank()
    inf = unit_id(state, "infantry", 1)
    scara = unit_id(state, "scara", 2)
    veteran = unit_id(state, "scara", 3)
    b = display(
        state,
        "swabia",
        {"left": [None, None, enemy_of(5, 5)], "right": [enemy_of(5, 6)]},
        {"left": [inf, None, None, scara, veteran], "right": [None]},
        stage="maneuver",
    )
    run_step(state, "battle_continue", ctx())
    assert kinds(state)[0] == "battle_maneuver"
    offered = choices(state, "battle_maneuver")
    assert "done" in offered
    assert {"line:left:0>line:left:1", "line:left:3>line:left:2", "line:left:4>line:left:1"} <= set(
        offered
    )
    assert "line:left:4>line:right:0" in offered  # a Scara may cross to the other wing
    assert not any(a.startswith("line:left:0>line:right") for a in offered)  # Infantry not
    assert not any(">flank:" in a for a in offered)  # the line is not yet full
    state["tasks"].pop()
    decide(state, "battle_maneuver", "line:left:0>line:left:2", ctx())
    assert b["mine"]["left"][2] == inf and b["mine"]["left"][0] is None
    again = choices(state, "battle_maneuver")
    assert not any(a.startswith("line:left:0>") for a in again)  # it moved
    decide(state, "battle_maneuver", "line:left:3>line:left:1", ctx())
    flanks = [a for a in choices(state, "battle_maneuver") if ">flank:" in a]
    assert flanks == ["line:left:4>flank:left:1", "line:left:4>flank:left:3"]
    decide(state, "battle_maneuver", "done", ctx())
    assert b["mine"]["left"][4] == veteran  # it stayed
    run_step(state, "battle_continue", ctx([1] * 20))
    assert b["stage"] != "maneuver" and "maneuvers_done" not in b


def test_ambush_deploys_first_and_defends_first_without_the_scara_bonus() -> None:
    """§7.2 Ambush."""
    state = blank()
    state["charlemagne"] = "spanish_march"
    battle.start_battle(state, "spanish_march", ambush=True, moors_chit="moors-1", ctx=ctx([1]))
    state["cups"]["friendly"].remove("moors-1")
    b = state["battle"]
    assert b["counts"] == {"left": 4, "right": 3} and not b["enemy_drawn"]
    run_step(state, "battle_continue", ctx())
    assert state["tasks"][-1]["kind"] == "battle_deploy"
    b["mine"]["left"] = [unit_id(state, "scara", 3, n) for n in range(4)] + [None]
    b["mine"]["right"] = [unit_id(state, "scara", 2, n) for n in range(3)] + [None, None]
    state["tasks"].pop()
    run_step(state, "battle_continue", ctx([8] * 7 + [1] * 40))
    assert b["enemy_drawn"] and b["attack_rounds"] == 0
    assert state["rolls"][1]["reason"].startswith("defence")  # Defense comes first


def test_no_scara_bonus_in_an_ambush() -> None:
    """§7.3: the first-round bonus does not apply in an Ambush."""
    state = blank()
    scara = unit_id(state, "scara", 3)
    b = display(
        state,
        "spanish_march",
        {"left": [enemy_of(4, 4)], "right": [enemy_of(4, 5)]},
        {"left": [scara], "right": [None]},
        ambush=True,
    )
    battle.resolve_attack(state, b, ["line", "left", 0], 0, ctx([1]))  # 5 > 4: a hit
    assert b["enemy"]["left"][0] is not None and b["enemy"]["left"][0]["reduced"]


def test_easy_mode_rerolls_a_defence_that_would_lose_the_game() -> None:
    """§11 Easy Mode: a bad roll that would end the game early is rolled again."""
    for easy in (False, True):
        state = blank()
        state["easy"] = easy
        keep = unit_id(state, "infantry", 3)
        state["army"] = [u for u in state["army"] if u["id"] in (keep, 1)]
        b = display(
            state,
            "swabia",
            {"left": [enemy_of(4, 4)], "right": [enemy_of(4, 4, 1)]},
            {"left": [1], "right": [keep]},
            stage="defense",
        )
        b["cursor"] = 5  # the left wing has defended: the right wing's last unit now
        run_step(state, "battle_continue", ctx([1, 4] + [1] * 60))
        rerolled = [r for r in state["rolls"] if "Easy Mode" in r["reason"]]
        assert bool(rerolled) is easy
        if easy:
            assert [r["face"] for r in state["rolls"]][:2] == [1, 4]  # 4 + 3 holds
        else:
            assert outcome(state) == "defeat: army routed"


def test_reserve_may_fill_a_gap_facing_an_engaged_enemy() -> None:
    """§7.5 Reserve Response: optional when another unit already faces that enemy."""
    state = blank()
    b = two_enemies_left(state, stage="reserve")
    run_step(state, "battle_continue", ctx())
    assert state["tasks"][-1]["kind"] == "battle_reserve_optional"
    actions = choices(state, "battle_reserve_optional")
    assert actions[0] == "none" and "place:left:1:scara:3" in actions
    assert not any(a.startswith("place:right") for a in actions)  # nothing faces enemy 2
    state["tasks"].pop()
    decide(state, "battle_reserve_optional", "place:left:1:scara:3", ctx())
    assert b["mine"]["left"][1] is not None
    # Declining moves the battle on, and the next round asks again.
    state = blank()
    b = two_enemies_left(state, stage="reserve")
    run_step(state, "battle_continue", ctx())
    state["tasks"].pop()
    decide(state, "battle_reserve_optional", "none", ctx())
    state["tasks"].clear()
    run_step(state, "battle_continue", ctx([1] * 30))
    assert b["stage"] == "attack" and "reserve_declined" not in b


def test_a_won_ambush_sends_its_moors_to_the_dead_pool() -> None:
    """§6.2 / §7.6: the ambushing Moors chit is not placed when Charlemagne wins."""
    state = blank()
    state["cups"]["friendly"].remove("moors-1")
    display(
        state,
        "spanish_march",
        {"left": [enemy_of(4, 4)], "right": [None]},
        {"left": [unit_id(state, "scara", 3)], "right": [unit_id(state, "scara", 2)]},
        stage="rout",
        ambush=True,
        moors_chit="moors-1",
    )
    run_step(state, "battle_continue", ctx())
    assert state["moors"]["spanish_march"] == [] and state["outcome"] is None
    assert "moors-1" in state["cups"]["friendly"]  # Dead Pool resolved: Al-Andalus at Peace
    assert GAME.invariants(state) == []  # held once only, through the promotions
