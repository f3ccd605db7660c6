"""Levy, Campaign Actions, cups and Hostile Reactions (rules-summary §4-§6)."""

from __future__ import annotations

from cme_helpers import blank, choices, ctx, decide, kinds, outcome, place, run, run_step, to_cup

from tabletop.games.charlemagne_master_of_europe import board
from tabletop.games.charlemagne_master_of_europe.data import counter_name
from tabletop.games.charlemagne_master_of_europe.rules import army, campaign_menu, levy

# §4 Levy -------------------------------------------------------------------------------


def test_levy_limit_costs_and_counter_sheets() -> None:
    """§4: 1 + Marquis (+ crowns) purchases; Infantry 1 needs a free 1/2 counter."""
    state = blank(turn=2)
    state["treasury"] = 20
    assert choices(state, "levy_buy") == ["buy:scara", "done"]  # all 8 Infantry 1/2 in use
    state["army"] = [u for u in state["army"] if (u["kind"], u["level"]) != ("infantry", 1)]
    assert choices(state, "levy_buy") == ["buy:infantry", "buy:scara", "done"]
    decide(state, "levy_buy", "buy:infantry", ctx())
    assert state["treasury"] == 17 and kinds(state) == ["levy_buy"]
    state["tasks"].clear()
    assert choices(state, "levy_buy") == ["done"]  # the limit of 1 is reached
    state["marquis"]["purple"] = {"box": "paris", "crowned": False}
    decide(state, "levy_buy", "buy:scara", ctx())
    assert state["treasury"] == 13 and levy.levy_limit(state) == 2


def test_promotion_is_mandatory_and_never_of_a_unit_just_bought() -> None:
    """§4 (A24): one Infantry 1 or 2, not new, goes up a level."""
    state = blank(turn=2)
    state["army"] = [u for u in state["army"] if u["kind"] == "scara"]
    army.add_unit(state, "infantry", 1, new=True)
    state["tasks"] = [{"kind": "levy_promote"}]
    run(state, ctx())
    assert state["tasks"] == []  # nothing promotable: the decision is skipped
    army.add_unit(state, "infantry", 2)
    state["tasks"] = [{"kind": "levy_end"}, {"kind": "levy_promote"}]
    run(state, ctx())
    assert state["tasks"][-1]["kind"] == "levy_promote"
    assert choices(state, "levy_promote") == ["promote:2"]
    state["tasks"].pop()
    decide(state, "levy_promote", "promote:2", ctx())
    assert sorted(u["level"] for u in state["army"] if u["kind"] == "infantry") == [1, 3]
    run(state, ctx())  # the Levy ends: this turn's recruit is a veteran next turn
    assert not any(u["new"] for u in state["army"]) and state["levy_bought"] == 0


# §5 Actions ----------------------------------------------------------------------------


def test_suppress_by_charlemagne_clears_the_box_with_the_region_leader_bonus() -> None:
    """§5.1 (A16): roll above Resistance + the Region's best Leader; 1 F>U, 2 reactions."""
    state = blank()
    place(state, "swabia", "swabia-1", "swabia-2")  # 3 and 3
    place(state, "burgundy", "burgundy-1", "burgundy-3", "burgundy-4", "burgundy-2", leader=True)
    actions = choices(state, "campaign_action")
    assert "act:charlemagne:swabia:suppress" in actions
    decide(state, "campaign_action", "act:charlemagne:swabia:suppress", ctx([4]))
    assert state["stacks"]["swabia"] == ["swabia-1", "swabia-2"]  # 4 is not above 3 + 1
    state = blank()
    place(state, "swabia", "swabia-1", "swabia-2")
    place(state, "burgundy", "burgundy-1", "burgundy-3", "burgundy-4", "burgundy-2", leader=True)
    decide(state, "campaign_action", "act:charlemagne:swabia:suppress", ctx([5]))
    assert state["stacks"]["swabia"] == [] and state["charlemagne"] == "swabia"
    assert sorted(state["dead_pool"]) == ["swabia-1", "swabia-2"]
    assert kinds(state) == ["cup_adjustment", "hostile_reaction", "hostile_reaction"]
    assert state["tasks"][-1]["source"] == "friendly"


def test_a_marquis_suppress_removes_only_the_top_unit() -> None:
    """§5.1 (A17)."""
    state = blank()
    state["marquis"]["purple"] = {"box": "breton_march", "crowned": False}
    place(state, "paris", "paris-1", "paris-2")  # 4, then 5 on top
    decide(state, "campaign_action", "act:marquis:purple:paris:suppress", ctx([6]))
    assert state["stacks"]["paris"] == ["paris-1"] and state["marquis"]["purple"]["box"] == "paris"


def test_suppress_needs_one_or_two_units_and_no_leader() -> None:
    state = blank()
    place(state, "swabia", "swabia-1", "swabia-2", "swabia-3")
    place(state, "fulda", "fulda-1")
    place(state, "burgundy", "burgundy-1", "burgundy-2", leader=True)
    actions = choices(state, "campaign_action")
    assert "act:charlemagne:swabia:suppress" not in actions
    assert "act:charlemagne:fulda:suppress" in actions
    assert "act:charlemagne:burgundy:suppress" not in actions


def test_iron_crown_and_emperor_help_charlemagne_suppress() -> None:
    """§5.1 (A27): +1 in Green with the Iron Crown, +1 outside Pagan Regions as HRE."""
    state = blank()
    state["iron_crown"] = state["hre"] = True
    assert campaign_menu.suppress_modifier(state, "charlemagne", "friuli") == 2
    assert campaign_menu.suppress_modifier(state, "charlemagne", "swabia") == 1
    assert campaign_menu.suppress_modifier(state, "charlemagne", "avars") == 0
    assert campaign_menu.suppress_modifier(state, "marquis:green", "friuli") == 0


def test_forced_march_needs_enemy_free_boxes_and_draws_one_reaction() -> None:
    """§5.3."""
    state = blank()
    place(state, "reims", "reims-1")
    actions = choices(state, "campaign_action")
    assert "act:charlemagne:aachen:forced_march:swabia" in actions
    assert "act:charlemagne:aachen:forced_march:reims" not in actions
    assert "act:charlemagne:reims:forced_march:paris" not in actions  # not from Reims
    decide(state, "campaign_action", "act:charlemagne:swabia:forced_march:burgundy", ctx())
    assert state["charlemagne"] == "burgundy" and kinds(state) == ["hostile_reaction"]


def test_siege_success_and_the_forced_repetition_of_a_failure() -> None:
    """§5.4: above twice the bonus (thrice for a Marquis); a failure locks the campaign."""
    state = blank()
    place(state, "swabia", "burgundy-1", "burgundy-3", "burgundy-2", leader=True)  # +1 leader
    decide(state, "campaign_action", "act:charlemagne:swabia:siege", ctx([2]))
    assert state["siege"] == {"piece": "charlemagne", "box": "swabia"}
    assert [t["count"] for t in state["tasks"] if t["kind"] == "cup_adjustment"] == [4]
    assert choices(state, "campaign_action") == ["act:charlemagne:swabia:siege"]
    state["tasks"].clear()
    treasury = state["treasury"]
    decide(state, "campaign_action", "act:charlemagne:swabia:siege", ctx([3]))
    assert state["siege"] is None and state["stacks"]["swabia"] == ["burgundy-1"]
    assert state["treasury"] == treasury + 1
    assert state["tasks"][-1]["source"] == "unfriendly"
    state = blank()
    state["marquis"]["blue"] = {"box": "swabia", "crowned": False}
    place(state, "swabia", "burgundy-1", "burgundy-2", leader=True)
    decide(state, "campaign_action", "act:marquis:blue:swabia:siege", ctx([3]))
    assert state["siege"] is not None  # a Marquis needs more than 3


def test_raid_costs_half_the_resistance_rounded_up() -> None:
    """§5.5."""
    state = blank()
    place(state, "provence", "provence-1", "provence-2")  # 3, 4 on top
    state["treasury"] = 2
    assert "act:charlemagne:swabia:raid" not in choices(state, "campaign_action")
    place(state, "swabia", "swabia-3")  # 4
    decide(state, "campaign_action", "act:charlemagne:swabia:raid", ctx())
    assert state["treasury"] == 0 and state["stacks"]["swabia"] == []


def test_marquis_action_limits_cost_and_taxes() -> None:
    """§5.6 (A4): enemy-free box, leaderless Region, Marquis <= Finished Churches + 2."""
    state = blank()
    state["treasury"] = 20
    state["marquis"]["yellow"] = {"box": "gascony", "crowned": False}
    assert "act:charlemagne:reims:marquis" in choices(state, "campaign_action")
    state["marquis"]["green"] = {"box": "rome", "crowned": False}
    assert "act:charlemagne:reims:marquis" not in choices(state, "campaign_action")
    state["churches"]["blue"] = "finished"
    decide(state, "campaign_action", "act:charlemagne:reims:marquis", ctx())
    assert state["marquis"]["purple"] == {"box": "reims", "crowned": False}
    assert state["treasury"] == 14 and state["taxes"] == 6
    state = blank()
    state["treasury"] = 20
    place(
        state, "paris", "paris-1", "breton_march-1", "breton_march-3", "breton_march-2", leader=True
    )
    assert "act:charlemagne:reims:marquis" not in choices(state, "campaign_action")


def test_forced_conversion_costs_vp_and_takes_an_adjacent_pagan_box() -> None:
    """§5.7 (A29)."""
    state = blank()
    state["charlemagne"] = "saxons_1"
    place(state, "saxons_2", "saxons_2-1", "saxons_2-2")
    place(state, "veleti", "veleti-1")
    state["vp"] = 2
    assert "act:charlemagne:saxons_2:forced_conversion:veleti" not in choices(
        state, "campaign_action"
    )
    state["vp"] = 5
    decide(state, "campaign_action", "act:charlemagne:saxons_2:forced_conversion:veleti", ctx())
    assert state["vp"] == 2 and not state["stacks"]["saxons_2"] and not state["stacks"]["veleti"]


def test_ending_the_campaign_early_draws_three_reactions() -> None:
    """§5.8."""
    state = blank()
    decide(state, "campaign_action", "end", ctx())
    assert kinds(state) == ["hostile_reaction"] * 3 and state["campaign_ending"]


def test_bridges_and_roads_extend_movement() -> None:
    """§5 / §8: every box of a Roads Region, and their neighbours, are one move away."""
    state = blank()
    assert "lombardy" not in board.reachable(state, "aachen")
    state["marquis"]["blue"] = {"box": "aachen", "crowned": True}
    assert {"lombardy", "poitiers", "provence", "bavaria"} <= set(board.reachable(state, "aachen"))
    assert "rome" not in board.reachable(state, "aachen")


# §5.9 Cups -----------------------------------------------------------------------------


def test_cup_adjustments_and_their_empty_cup_rules() -> None:
    """§5.9 (A30): empty Friendly -> Unfriendly>Hostile; empty Unfriendly -> skipped."""
    state = blank()
    to_cup(state, "unfriendly", "fulda-1")
    state["cups"]["friendly"] = state["cups"]["friendly"][:1]
    board.cup_adjustment(state, "friendly", "unfriendly", 2, ctx())
    assert len(state["cups"]["friendly"]) == 0
    assert len(state["cups"]["unfriendly"]) == 1 and len(state["cups"]["hostile"]) == 1
    board.cup_adjustment(state, "friendly", "unfriendly", 2, ctx())
    assert len(state["cups"]["unfriendly"]) == 0 and len(state["cups"]["hostile"]) == 2
    board.cup_adjustment(state, "unfriendly", "friendly", 1, ctx())
    assert len(state["cups"]["friendly"]) == 0


# §6 Hostile Reactions ------------------------------------------------------------------


def react(state: dict[str, object], chit: str, faces: tuple[int, ...] = ()) -> None:
    """Put ``chit`` alone in the Hostile Cup and draw it."""
    cups = state["cups"]
    assert isinstance(cups, dict)
    cups["hostile"] = []
    to_cup(state, "hostile", chit)
    run_step(state, "hostile_reaction", ctx(faces))


def test_enemy_unit_priorities() -> None:
    """§6.1 (A10): eliminated by a piece; Roads roll; Leader flip; under a Leader; on top."""
    state = blank()
    react(state, "reims-1")
    assert state["stacks"]["reims"] == ["reims-1"]
    react(state, "fulda-1")
    state["charlemagne"] = "fulda"
    react(state, "fulda-2")
    assert state["stacks"]["fulda"] == ["fulda-1"] and "fulda-2" in state["dead_pool"]
    place(state, "bavaria", "bavaria-3", "bavaria-4", "bavaria-2")
    react(state, "bavaria-1")  # +1 Leader on its back, box holds 3: it rises
    assert state["stacks"]["bavaria"][-1] == "bavaria-1" and "bavaria-1" in state["leader_side"]
    place(state, "friuli", "friuli-1")
    react(state, "friuli-2")
    assert state["stacks"]["friuli"] == ["friuli-1", "friuli-2"]  # fewer than 3: on top
    state["stacks"]["bavaria"].insert(0, "friuli-3")  # any unit: only the order is checked
    state["cups"]["friendly"].remove("friuli-3")
    state["marquis"]["green"] = {"box": "rome", "crowned": False}
    react(state, "friuli-4")  # a Marquis in Rome does not protect Friuli
    assert state["stacks"]["friuli"][-1] == "friuli-4"


def test_enemy_unit_in_a_roads_region() -> None:
    """§6.1: a roll above its Resistance eliminates it into the Friendly Cup."""
    state = blank()
    state["marquis"]["blue"] = {"box": "aachen", "crowned": True}
    state["charlemagne"] = "paris"
    react(state, "swabia-3", faces=(5,))  # Resistance 4
    assert "swabia-3" in state["cups"]["friendly"] and not state["stacks"]["swabia"]
    react(state, "swabia-1", faces=(3,))  # Resistance 3: placed
    assert state["stacks"]["swabia"] == ["swabia-1"]


def test_leader_units_go_under_an_existing_leader() -> None:
    state = blank()
    place(state, "bavaria", "bavaria-3", "bavaria-1", leader=True)
    react(state, "bavaria-2")
    assert state["stacks"]["bavaria"] == ["bavaria-3", "bavaria-2", "bavaria-1"]
    assert "bavaria-2" not in state["leader_side"]


def test_moors_follow_their_path_and_poitiers_loses() -> None:
    """§6.2 (A20, A21)."""
    state = blank()
    state["charlemagne"] = "paris"
    place(state, "gascony", "gascony-1")
    react(state, "moors-1")
    assert state["moors"]["spanish_march"] == ["moors-1"] and state["al_andalus"] == "tension"
    react(state, "moors-2")
    assert state["moors"]["gascony"] == ["moors-2"] and "gascony-1" in state["dead_pool"]
    state["moors"]["poitiers"] = [
        state["cups"]["friendly"].pop(state["cups"]["friendly"].index("moors-3"))
    ]
    react(state, "moors-4")
    assert state["outcome"] is not None and not state["outcome"]["won"]
    assert outcome(state) == "defeat: Moors beyond Poitiers"


def test_moors_ambush_charlemagne() -> None:
    """§6.2: Charlemagne in the Moors' next box fights an ambush battle."""
    state = blank()
    state["charlemagne"] = "spanish_march"
    react(state, "moors-1", faces=(3,))
    assert state["battle"] is not None and state["battle"]["ambush"]
    assert state["battle"]["column"] == "moors" and not state["battle"]["enemy_drawn"]
    assert state["battle"]["counts"] == {"left": 5, "right": 4}  # Moors row 3: 5/4/1


def test_vikings_land_in_purple_then_blue_and_recall_their_region_dead() -> None:
    """§6.3 (A6)."""
    state = blank()
    state["dead_pool"] = [state["cups"]["friendly"].pop(state["cups"]["friendly"].index("paris-1"))]
    react(state, "viking-1")
    assert "paris-1" in state["cups"]["hostile"] and state["dead_pool"] == []
    for n in (2, 3):
        react(state, f"viking-{n}")
    assert len(state["vikings"]["purple"]) == 3
    react(state, "viking-4")
    assert len(state["vikings"]["blue"]) == 1


def test_byzantium_tension_then_vp_loss() -> None:
    """§6.4: -3 VP per Moors box, per Region with a Leader, per Byzantium chit dead."""
    state = blank()
    react(state, "byzantium-1")
    assert state["byzantine"] == "tension" and state["dead_pool"] == ["byzantium-1"]
    state["vp"] = 30
    state["moors"]["gascony"] = ["moors-1"]
    state["cups"]["friendly"].remove("moors-1")
    place(state, "bavaria", "bavaria-2", "bavaria-1", leader=True)
    react(state, "byzantium-2")
    assert state["vp"] == 30 - 3 * (1 + 1 + 2)


def test_intrigue_is_paid_by_taxes_then_coins_then_evp() -> None:
    """§6.5 (A35)."""
    state = blank(turn=5)  # threshold 20
    state["vp"], state["taxes"], state["treasury"] = 10, 6, 3
    state["evp"] = 2  # spaces worth 1 and 2
    react(state, "intrigue-1")
    assert state["outcome"] is None
    assert (state["treasury"], state["evp"]) == (0, 1) and "intrigue-1" in state["dead_pool"]
    state = blank(turn=5)
    state["vp"], state["taxes"], state["treasury"] = 10, 6, 3
    react(state, "intrigue-1")
    assert state["outcome"] is not None
    assert outcome(state) == "defeat: court intrigue"


def test_the_second_turn_end_marker_ends_the_campaign_after_the_reactions() -> None:
    """§6.6."""
    state = blank()
    to_cup(state, "hostile", "turn_end-1")
    state["tasks"] = [{"kind": "campaign_continue"}]
    run_step(state, "hostile_reaction", ctx())
    assert not state["campaign_ending"] and state["dead_pool"] == ["turn_end-1"]
    state["cups"]["hostile"] = ["turn_end-2", "turn_end-3"]
    state["tasks"] = [
        {"kind": "build_bridges"},
        {"kind": "campaign_continue"},
        {"kind": "hostile_reaction"},
        {"kind": "hostile_reaction"},
    ]
    run(state, ctx())
    assert state["cups"]["hostile"] == [] and state["phase"] == "campaign"
    assert kinds(state) == ["build_bridges"] or kinds(state) == []


def test_battle_against_the_moors_only_at_tension() -> None:
    """§5.2 (A19): a box holding Moors may be attacked while Al-Andalus is at Tension."""
    state = blank()
    state["charlemagne"] = "gascony"
    state["moors"]["gascony"] = ["moors-1"]
    state["cups"]["friendly"].remove("moors-1")
    assert "act:charlemagne:gascony:battle" not in choices(state, "campaign_action")
    state["al_andalus"] = "tension"
    assert "act:charlemagne:gascony:battle" in choices(state, "campaign_action")
    decide(state, "campaign_action", "act:charlemagne:gascony:battle", ctx([7]))
    assert state["battle"]["column"] == "moors" and state["battle"]["counts"] == {
        "left": 6,
        "right": 6,
    }  # Moors row 7-8: 6/6/2


def test_treasury_never_exceeds_20() -> None:
    """A25: whatever pays (ransom, Siege, the Iron Crown), 20 is the most."""
    state = blank()
    state["treasury"] = 18
    board.gain_coins(state, 6)
    assert state["treasury"] == 20


def test_a_drawn_counter_is_revealed_as_that_counter() -> None:
    """Gascony's six counters share a name but not their back (a +1 or a +2 Leader): the
    draw's reveal names the counter itself, so that the Leader rising from it is told
    in the open (the leak checks found 'Gascony +1 Leader rises' hidden behind the name
    alone: fuzz --seats cme-steward --seed 1)."""
    assert counter_name("gascony-1") == counter_name("gascony-4")
    state = blank()
    to_cup(state, "hostile", "gascony-4")
    context = ctx()
    assert board.draw_from_cup(state, "hostile", context) == "gascony-4"
    [reveal] = [event for event in context.events if event.kind == "reveal"]
    assert reveal.data["counter"] == "gascony-4" and reveal.seats is None
    assert reveal.text == "draws Gascony 5 from the Hostile Cup"
