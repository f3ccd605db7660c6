"""Build, Diplomacy, Turn End and the end of the game (rules-summary §8-§11)."""

from __future__ import annotations

from cme_helpers import (
    GAME,
    blank,
    choices,
    ctx,
    decide,
    decision,
    offered,
    outcome,
    place,
    run,
    run_step,
)

from tabletop.framework import HEADING
from tabletop.games.charlemagne_master_of_europe import board
from tabletop.games.charlemagne_master_of_europe.data import COSTS, REGIONS
from tabletop.games.charlemagne_master_of_europe.rules.common import TASKS, new_task
from tabletop.games.charlemagne_master_of_europe.rules.table import RULES

# §8 Build -------------------------------------------------------------------------------


def test_bridges_and_roads_need_church_marquis_and_no_enemies() -> None:
    """§8: 4 coins, Taxes +1, VP equal to the number of Roads Regions."""
    state = blank()
    state["treasury"] = 20
    state["marquis"]["blue"] = {"box": "aachen", "crowned": False}
    state["marquis"]["purple"] = {"box": "paris", "crowned": True}
    assert choices(state, "build_bridges") == ["next"]
    state["churches"]["blue"] = "finished"
    place(state, "fulda", "fulda-1")
    assert choices(state, "build_bridges") == ["next"]
    state["stacks"]["fulda"] = []
    decide(state, "build_bridges", "bridges:blue", ctx())
    assert state["marquis"]["blue"]["crowned"] and state["vp"] == 2 and state["taxes"] == 5
    assert state["treasury"] == 16


def test_finishing_churches_raises_taxes_and_the_third_raises_the_pam() -> None:
    """§8 (A5): Taxes + number finished; at most Marquis + 2 finished; §9 PAM."""
    state = blank()
    state["treasury"] = 20
    state["churches"] = {"blue": "finished", "purple": "finished", "yellow": "started"}
    assert choices(state, "build_finish") == ["next"]  # 3 > 0 Marquis + 2
    state["marquis"]["yellow"] = {"box": "gascony", "crowned": False}
    decide(state, "build_finish", "finish:yellow", ctx())
    assert state["taxes"] == 4 + 3 and state["pam"] == 0 and state["vp"] == 1


def test_a_build_step_shows_checks_and_charges_its_own_price() -> None:
    """§8.2: the price is in the question and on each choice, one coin short offers
    nothing, and building pays exactly it."""
    state = blank()
    state["churches"] = {"yellow": "started"}
    state["marquis"]["yellow"] = {"box": "gascony", "crowned": False}
    price = COSTS["church_finish"]
    state["treasury"] = price - 1
    assert choices(state, "build_finish") == ["next"]
    state["treasury"] = price
    text = decision("build_finish").prompt(state, new_task("build_finish")).text
    assert text == f"Finish a Church (costs {price} coins; Treasury {price})"
    finish = offered(state, "build_finish")[0]
    assert finish.action == "finish:yellow"
    assert finish.consequence == f"-{price} coins, 1 coin of upkeep a turn"
    decide(state, "build_finish", "finish:yellow", ctx())
    assert state["treasury"] == 0 and state["churches"]["yellow"] == "finished"


def test_starting_a_church_where_charlemagne_stands() -> None:
    """§8: 2 coins; Pagan Regions only after three Finished Churches; not with Vikings."""
    state = blank()
    assert choices(state, "build_start") == ["start:blue", "next"]
    state["charlemagne"] = "avars"
    assert choices(state, "build_start") == ["next"]
    state["churches"] = {"blue": "finished", "purple": "finished", "yellow": "finished"}
    decide(state, "build_start", "start:orange", ctx())
    assert state["churches"]["orange"] == "started" and state["treasury"] == 3
    state = blank()
    state["vikings"]["blue"] = ["viking-1"]
    assert choices(state, "build_start") == ["next"]


# §9 Diplomacy ---------------------------------------------------------------------------


def test_vikings_free_removal_and_buying_off_at_the_count() -> None:
    """§9 (A7)."""
    state = blank()
    state["vikings"]["purple"] = ["viking-1", "viking-2"]
    state["marquis"]["purple"] = {"box": "paris", "crowned": False}
    state["treasury"] = 3
    assert choices(state, "diplomacy_vikings") == ["free:purple", "buy:purple", "done"]
    decide(state, "diplomacy_vikings", "buy:purple", ctx())
    assert state["treasury"] == 1 and len(state["vikings"]["purple"]) == 1
    assert choices(state, "diplomacy_vikings", used=["purple"]) == ["buy:purple", "done"]


def test_al_andalus_negotiation() -> None:
    """§9: roll + PAM above the Moors on the map clears the northernmost box."""
    state = blank()
    state["moors"]["spanish_march"] = ["moors-1"]
    state["moors"]["gascony"] = ["moors-2"]
    state["al_andalus"] = "tension"
    decide(state, "diplomacy_al_andalus", "negotiate", ctx([3]))  # 3 - 1 = 2, not above 2
    assert board.moors_on_map(state) == 2
    decide(state, "diplomacy_al_andalus", "negotiate", ctx([4]))
    assert state["moors"]["gascony"] == [] and state["moors"]["spanish_march"] == ["moors-1"]
    assert state["al_andalus"] == "peace"


def test_byzantine_negotiation_and_england() -> None:
    """§9: roll + PAM at least the turn (or the top face); England's EVP."""
    state = blank(turn=5)
    state["byzantine"] = "tension"
    state["dead_pool"] = ["byzantium-1"]
    state["cups"]["friendly"].remove("byzantium-1")
    run_step(state, "diplomacy_byzantine", ctx([5]))  # 5 - 1 < 5
    assert state["byzantine"] == "tension"
    run_step(state, "diplomacy_byzantine", ctx([6]))
    assert state["byzantine"] == "peace" and "byzantium-1" in state["cups"]["friendly"]
    state["taxes"] = 7  # turn 5's Wealth threshold
    run_step(state, "diplomacy_england", ctx())
    assert state["evp"] == 1
    state["evp"], state["vp"] = 6, 0
    run_step(state, "diplomacy_england", ctx())
    assert (state["evp"], state["vp"]) == (6, 1)


def test_england_on_a_full_track_pays_its_vp_only_in_place_of_an_advance() -> None:
    """§9.4 (rulebook: England; "you gain 1 regular VP instead of starting up additional
    EVP"): the VP replaces the marker's advance, so Taxes below the turn's Wealth
    threshold earn nothing even with the marker at the top."""
    state = blank(turn=5)
    state["evp"], state["vp"], state["taxes"] = 6, 10, 6  # Wealth threshold 7
    run_step(state, "diplomacy_england", ctx())
    assert (state["evp"], state["vp"]) == (6, 10)
    state["taxes"] = 7
    run_step(state, "diplomacy_england", ctx())
    assert (state["evp"], state["vp"]) == (6, 11)


def test_coronation_in_rome_and_the_vatican_vp_step() -> None:
    """§9 (A2, A15): crowned at the PAM's top in Rome; the VP step raises the PAM once."""
    state = blank(turn=2)
    state["pam"], state["charlemagne"], state["vp"] = 2, "rome", 5
    run_step(state, "diplomacy_vatican", ctx())
    assert state["hre"] and state["taxes"] == 7 and state["pam"] == 2
    state = blank(turn=2)
    state["vp"] = 7
    run_step(state, "diplomacy_vatican", ctx())
    run_step(state, "diplomacy_vatican", ctx())
    assert state["pam"] == 0 and state["vp"] == 8


# §10 Turn End --------------------------------------------------------------------------


def test_de_escalation() -> None:
    """§10 (A22): +1 Leaders go (not Pagan ones); a Finished Church calms leaderless
    stacks; otherwise the unit under each Leader goes; Pagan Regions with a Leader
    are untouched; a box with Charlemagne loses its top unit."""
    state = blank()
    place(state, "bavaria", "bavaria-3", "bavaria-4", "bavaria-1", leader=True)  # +1
    place(state, "friuli", "friuli-1", "friuli-4", "friuli-3", leader=True)  # +2
    place(state, "rome", "lombardy-1")
    place(state, "avars", "avars-1", "avars-2", "avars-3", leader=True)
    place(state, "croats", "croats-1")
    state["churches"]["blue"] = "finished"
    place(state, "fulda", "fulda-1", "fulda-2")
    place(state, "reims", "reims-1")
    state["charlemagne"] = "reims"
    run_step(state, "turn_end_deescalation", ctx())
    assert state["stacks"]["bavaria"] == ["bavaria-3", "bavaria-4"]
    assert state["stacks"]["friuli"] == ["friuli-1", "friuli-3"]
    assert state["stacks"]["rome"] == ["lombardy-1"]
    assert state["stacks"]["avars"] == ["avars-1", "avars-2", "avars-3"]
    assert state["stacks"]["croats"] == ["croats-1"]
    assert state["stacks"]["fulda"] == ["fulda-1"]
    assert state["stacks"]["reims"] == []


def test_dead_pool_resolution() -> None:
    """§10.2 / §7.8: markers by kind; units by their Region's state."""
    state = blank()
    dead = [
        "viking-1",
        "moors-1",
        "byzantium-1",
        "intrigue-1",
        "turn_end-1",
        "reims-1",
        "bordeaux-1",
        "fulda-1",
        "avars-1",
        "bavaria-1",
        "paris-1",
    ]
    for chit in dead:
        state["cups"]["friendly"].remove(chit)
    state["dead_pool"] = list(dead)
    place(state, "gascony", "gascony-1")  # Yellow: enemies, no presence -> Hostile
    place(state, "friuli", "friuli-1")  # Green: enemies and a Marquis -> Unfriendly
    state["marquis"]["green"] = {"box": "rome", "crowned": False}
    place(state, "swabia", "swabia-1")  # Blue: enemies, Charlemagne -> Friendly (Blue)
    place(state, "croats", "croats-1")  # Orange: enemies and a Church -> Hostile (Pagan)
    state["churches"]["orange"] = "finished"
    state["al_andalus"], state["byzantine"] = "tension", "peace"
    board.resolve_dead_pool(state, ctx())
    cups = state["cups"]
    assert state["dead_pool"] == ["intrigue-1"]
    assert {"viking-1", "moors-1", "turn_end-1", "bordeaux-1", "avars-1"} <= set(cups["hostile"])
    assert {"byzantium-1", "reims-1", "paris-1", "fulda-1"} <= set(cups["friendly"])
    assert "bavaria-1" in cups["unfriendly"]


def test_taxes_upkeep_and_victory_points() -> None:
    """§10: income less Moors boxes, Vikings, Leaders (negative costs VP); the cap of
    20; upkeep paid as far as it goes; the VP items."""
    state = blank()
    state["vp"] = 5
    state["moors"]["gascony"] = ["moors-1"]
    state["vikings"]["purple"] = ["viking-1", "viking-2"]
    place(state, "bavaria", "bavaria-2", "bavaria-1", leader=True)
    state["taxes"] = 2
    run_step(state, "turn_end_taxes", ctx())
    assert state["vp"] == 3 and state["treasury"] == 5
    state["taxes"], state["treasury"] = 30, 15
    run_step(state, "turn_end_taxes", ctx())
    assert state["treasury"] == 20
    state["treasury"] = 1
    state["marquis"]["blue"] = {"box": "aachen", "crowned": False}
    state["churches"]["blue"] = "finished"
    run_step(state, "turn_end_upkeep", ctx())
    assert state["treasury"] == 0
    state["army"][0]["level"] = 4
    state["treasury"] = 10
    state["vp"] = 0
    run_step(state, "turn_end_victory_points", ctx())
    # L4 unit 1, free Regions (Blue, Brown, Orange) 3, Marquis 1, Church 1, 10 coins 2
    assert state["vp"] == 1 + 3 + 1 + 1 + 2 and len(state["army"]) == 19


def test_vp_threshold_with_emergency_vp_and_defeat() -> None:
    """§10 (A8): whole EVP spaces make up a shortfall; otherwise the game is lost."""
    state = blank(turn=3)  # threshold 11
    state["vp"], state["evp"] = 8, 3
    run_step(state, "turn_end_threshold", ctx())
    assert (state["vp"], state["evp"]) == (11, 2)
    state["vp"] = 5
    run_step(state, "turn_end_threshold", ctx())
    assert state["outcome"] is not None and not state["outcome"]["won"]
    assert outcome(state) == "defeat: VP threshold missed"


def test_voluntary_evp_is_worth_half() -> None:
    state = blank()
    state["evp"] = 4
    decide(state, "evp_voluntary", "spend:2", ctx())
    assert (state["evp"], state["vp"]) == (2, (4 + 3) // 2)


def test_minimum_army_strength_floor_and_easy_mode() -> None:
    """§10 (A14): lose the shortfall, never below the threshold; none in Easy Mode."""
    state = blank(turn=4)  # army strength 44, minimum 30
    state["army"] = state["army"][:10]  # 4 + 8 + 2*3 = 4 L1, 4 L2, 2 L3: 18
    state["vp"] = 30
    run_step(state, "turn_end_minimum_army", ctx())
    assert state["vp"] == 18
    state["vp"] = 20
    run_step(state, "turn_end_minimum_army", ctx())
    assert state["vp"] == 15  # the threshold
    state["easy"], state["vp"] = True, 30
    run_step(state, "turn_end_minimum_army", ctx())
    assert state["vp"] == 30


def test_progress_adds_turn_end_markers_after_turns_6_and_8() -> None:
    state = blank(turn=6)
    state["turn_end_track"] = ["turn_end-3", "turn_end-4"]
    for chit in state["turn_end_track"]:
        state["cups"]["friendly"].remove(chit)
    run_step(state, "turn_end_progress", ctx())
    assert state["turn"] == 7 and "turn_end-3" in state["cups"]["hostile"]
    assert len(state["cups"]["unfriendly"]) == 0  # 4 in, 4 on to the Hostile Cup
    assert len(state["cups"]["hostile"]) == 5


# §11 End of the game -------------------------------------------------------------------


def test_endgame_scoring_and_the_five_conditions() -> None:
    """§11 (A23)."""
    state = blank(turn=16)
    state["vp"], state["evp"] = 140, 3
    state["iron_crown"] = state["hre"] = True
    for region in ("blue", "purple", "yellow", "green"):
        state["marquis"][region] = {"box": REGIONS[region].boxes[0], "crowned": True}
    place(state, "avars", "avars-1")
    state["army"] += [
        {"id": 100 + n, "kind": "infantry", "level": 2, "new": False} for n in range(5)
    ]  # strength 44 + 10 = turn 16's minimum, 54
    run_step(state, "endgame_scoring", ctx())
    assert state["vp"] == 140 - 1 + 6 and state["outcome"]["won"]
    result = GAME.result(state)
    assert result is not None and result.winners == (0,)
    assert result.outcome == "victory: Master of Europe"
    state = blank(turn=16)
    state["vp"], state["iron_crown"], state["hre"] = 200, True, True
    run_step(state, "endgame_scoring", ctx())
    assert not state["outcome"]["won"] and "Bridges & Roads" in state["outcome"]["reason"]
    assert outcome(state) == "defeat: final conditions unmet"
    state = blank(turn=16)
    state["vp"], state["iron_crown"], state["hre"] = 100, True, True
    run_step(state, "endgame_scoring", ctx())
    assert outcome(state) == "defeat: final VP short of 145"


def test_turn_16s_victory_points_lead_straight_to_the_endgame_scoring() -> None:
    """§11: after the last turn's victory points comes the endgame scoring, in place of
    the rest of the Turn End (threshold, Emergency VP, the army, the cups); on an
    earlier turn the Turn End goes on."""
    rest = ("turn_end_threshold", "evp_voluntary", "turn_end_minimum_army", "turn_end_progress")
    for turn, after in ((15, list(reversed(rest))), (16, ["endgame_scoring"])):
        state = blank(turn=turn)
        TASKS.schedule(state, *[new_task(kind) for kind in rest])
        run_step(state, "turn_end_victory_points", ctx())
        assert RULES.names(state) == after, turn


def test_an_easy_mode_victory_is_its_own_outcome() -> None:
    """§11 Easy Mode: a win is marked, and simulations count it apart."""
    state = blank(turn=16)
    state["easy"] = True
    state["vp"], state["iron_crown"], state["hre"] = 150, True, True
    for region in ("blue", "purple", "yellow", "green"):
        state["marquis"][region] = {"box": REGIONS[region].boxes[0], "crowned": True}
    run_step(state, "endgame_scoring", ctx())
    assert outcome(state) == "victory: Master of Europe (Easy Mode)"
    assert "Easy Mode" in state["outcome"]["reason"]


def test_a_whole_turn_runs_through_every_phase() -> None:
    """§3: Campaign -> Build -> Diplomacy -> Turn End -> next turn's Levy."""
    state = blank()
    state["vp"] = 3
    state["cups"]["hostile"] = []
    state["tasks"] = []
    log = ctx()
    run_step(state, "turn_start", log)
    state["campaign_ending"] = True  # as if the second Turn End marker had come out
    run(state, log)
    assert state["tasks"][-1]["kind"] == "build_start"
    state["tasks"].pop()
    run(state, log)
    assert state["turn"] == 2 and state["tasks"][-1]["kind"] == "levy_buy"
    # Each turn and phase opens with a heading in the log.
    assert [e.text for e in log.events if e.kind == HEADING] == [
        "Game Turn 1",
        "Turn 1: Campaign Phase",
        "Turn 1: Build Phase",
        "Turn 1: Diplomacy Phase",
        "Turn 1: Turn End Phase",
        "Game Turn 2",
        "Turn 2: Levy Phase",
    ]


def test_the_last_turn_scores_the_endgame_instead_of_progressing() -> None:
    """§11: after turn 16's VP, the endgame scoring replaces the threshold and progress."""
    state = blank(turn=16)
    state["tasks"] = [{"kind": "turn_end_progress"}, {"kind": "turn_end_threshold"}]
    run_step(state, "turn_end_victory_points", ctx())
    assert [t["kind"] for t in state["tasks"]] == ["endgame_scoring"]


def test_stop_and_none_answers_carry_the_pass_key() -> None:
    """Stopping (recruiting, building, the campaign, the Vikings, Al-Andalus, EVP) is
    always the pass key, so a player finds it in the same place in every prompt; and
    spending EVP voluntarily warns that it is worth half."""
    from tabletop.framework import PASS_KEY

    state = blank(turn=3)
    state["treasury"] = 10
    state["evp"] = 2
    state["moors"]["spanish_march"] = ["moors-1"]
    state["vikings"]["purple"] = ["viking-1"]
    state["churches"]["blue"] = "started"
    passes = {
        "levy_buy": "done",
        "campaign_action": "end",
        "build_finish": "next",
        "diplomacy_vikings": "done",
        "diplomacy_al_andalus": "decline",
        "evp_voluntary": "keep",
    }
    for kind, action in passes.items():
        found = {c.action: c for c in offered(state, kind)}
        assert found[action].key == PASS_KEY, kind
        assert [c.action for c in found.values() if c.key == PASS_KEY] == [action]
    evp = offered(state, "evp_voluntary")
    assert "worth half" in next(c for c in evp if c.action == "spend:1").consequence


def test_the_other_victory_point_items() -> None:
    """§10 Earn Victory Points: each Intrigue in the Dead Pool, each crown, and no VP
    for a Finished Church whose Region holds Vikings (nor for that Region)."""
    from tabletop.games.charlemagne_master_of_europe.rules.turn_end import earned_vp

    state = blank()
    base = earned_vp(state)
    state["dead_pool"] = ["intrigue-1", "intrigue-2"]
    state["cups"]["friendly"].remove("intrigue-1")
    state["cups"]["friendly"].remove("intrigue-2")
    state["hre"] = True
    state["iron_crown"] = True
    state["churches"] = {"blue": "finished", "purple": "finished"}
    state["vikings"]["purple"] = ["viking-1"]
    items = earned_vp(state)
    assert items["Intrigue markers in the Dead Pool"] == 2
    assert items["Holy Roman Emperor"] == 1 and items["King of the Lombards"] == 1
    assert items["Finished Churches (no Vikings)"] == 1
    assert items["Regions free of enemies"] == base["Regions free of enemies"] - 1
