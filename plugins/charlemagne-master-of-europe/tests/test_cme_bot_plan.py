"""The steward's plan (issue 27): Leaders that stay are worth sieging, the Levy fills
the army before the Minimum Army Strength takes VP, Charlemagne never waits where the
Moors land, and he stands where the next Church is started."""

from __future__ import annotations

from cme_helpers import GAME, blank, place

from tabletop.framework import Choice, Prompt, State
from tabletop.framework.chance import Pcg32
from tabletop.games.charlemagne_master_of_europe import bot as steward
from tabletop.games.charlemagne_master_of_europe import bot_plan
from tabletop.games.charlemagne_master_of_europe.rules.common import new_task


def campaign(state: State, *actions: str) -> Prompt:
    state["tasks"] = [new_task("campaign_action")]
    return Prompt(0, "Choose", tuple(Choice(a, a) for a in actions))


def levy(state: State, *actions: str) -> Prompt:
    state["tasks"] = [new_task("levy_buy")]
    return Prompt(0, "Recruit", tuple(Choice(a, a) for a in actions))


def test_a_pagan_leader_is_worth_more_than_one_de_escalation_removes() -> None:
    """De-escalation takes small Christian Leaders at the Turn End; a Pagan Leader stays
    and takes a coin of Taxes every turn, so removing it early is worth more."""
    state = blank(turn=3)
    place(state, "croats", "croats-2", "croats-1", leader=True)
    place(state, "lombardy", "lombardy-2", "lombardy-1", leader=True)
    assert bot_plan.lingers(state, "croats", "croats-1")
    assert not bot_plan.lingers(state, "lombardy", "lombardy-1")
    pagan = bot_plan.removal_value(state, "croats", ["croats-1"])
    christian = bot_plan.removal_value(state, "lombardy", ["lombardy-1"])
    assert pagan > christian + 5
    late = blank(turn=15)
    place(late, "croats", "croats-2", "croats-1", leader=True)
    assert bot_plan.removal_value(late, "croats", ["croats-1"]) < pagan
    assert bot_plan.siege_worth(state, "croats") > 0
    assert bot_plan.siege_worth(state, "lombardy") == 0


def test_the_levy_recruits_a_scara_when_the_army_falls_short() -> None:
    state = blank(turn=8)  # minimum 38, then 40; the army is 44
    state["treasury"] = 9
    prompt = levy(state, "buy:infantry", "buy:scara", "done")
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "done"
    state["army"] = state["army"][:16]  # 34 strength: short
    # 6 of the 9 coins wait for the next Marquis (Taxes and VP every turn)
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "buy:infantry"
    state["treasury"] = 10
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "buy:scara"


def test_the_levy_keeps_the_coins_of_a_waiting_bridges_and_roads() -> None:
    """Four Bridges & Roads Regions are a final condition: their coins come first."""
    state = blank(turn=8)
    state["army"] = state["army"][:16]
    state["treasury"] = 13  # 4 for Bridges & Roads, 6 for the next Marquis, 3 spare
    state["marquis"]["purple"] = {"box": "paris", "crowned": False}
    state["churches"]["purple"] = "finished"
    prompt = levy(state, "buy:infantry", "buy:scara", "done")
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "buy:infantry"
    state["treasury"] = 12
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "done"


def test_a_marquis_does_not_act_while_charlemagne_waits_for_the_moors() -> None:
    """The Ambush comes wherever Charlemagne stands, whoever takes the Action."""
    state = blank()
    state["charlemagne"] = "spanish_march"
    state["marquis"]["purple"] = {"box": "paris", "crowned": False}
    marquis = "act:marquis:purple:paris:forced_march:reims"
    leave = "act:charlemagne:spanish_march:forced_march:bordeaux"
    prompt = campaign(state, marquis, leave, "end")
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == leave


def test_charlemagne_does_not_end_the_campaign_away_from_the_next_church() -> None:
    """A Church is started only in Charlemagne's Region: ending the campaign elsewhere
    with the coins for it costs the Church a turn."""
    state = blank(turn=5)
    state["iron_crown"] = True
    state["treasury"] = 6
    state["charlemagne"] = "aachen"
    assert bot_plan.church_goal(state) == "paris"  # Purple, first in the plan
    assert bot_plan.church_pull(state, "aachen") > 0
    assert bot_plan.church_pull(state, "reims") == 0
    away = steward.campaign_value(GAME, state, "end", Pcg32(1), False)
    state["charlemagne"] = "reims"
    there = steward.campaign_value(GAME, state, "end", Pcg32(1), False)
    assert there > away
    state["churches"]["purple"] = "started"
    assert bot_plan.church_goal(state) == "bordeaux"  # the next Region of the plan
    state["treasury"] = 1  # a Church cannot be paid for: nothing pulls
    assert bot_plan.church_pull(state, "aachen") == 0


def test_the_moors_matter_most_one_box_short_of_beyond_poitiers() -> None:
    """With three of the four Moors boxes held the next Moors piece loses the game, and
    no Moors may be left at the end: clearing them is then worth a Battle."""
    state = blank(turn=5)
    state["moors"]["spanish_march"] = ["moors-1"]
    early = bot_plan.moors_worth(state)
    state["moors"]["gascony"] = ["moors-2"]
    state["moors"]["bordeaux"] = ["moors-3"]
    assert bot_plan.moors_worth(state) >= early + bot_plan.MOORS_DANGER
    state["turn"] = 15
    state["moors"]["gascony"] = state["moors"]["bordeaux"] = []
    assert bot_plan.moors_worth(state) > early + 10


def test_a_quiet_purple_build_is_worth_ending_the_campaign_for() -> None:
    """The Build Phase skips a Region with Vikings and they land in Purple: while
    Purple is free of them and could build this turn, fewer draws are worth more."""
    state = blank(turn=6)
    state["treasury"] = 8
    state["charlemagne"] = "reims"
    state["marquis"]["purple"] = {"box": "paris", "crowned": False}
    state["churches"]["purple"] = "started"
    waiting = steward.campaign_value(GAME, state, "end", Pcg32(1), False)
    assert bot_plan.viking_exposure(state) == bot_plan.VIKING_RISK
    state["vikings"]["purple"] = ["viking-1"]  # the Build Phase skips Purple anyway
    assert bot_plan.viking_exposure(state) == 0
    blocked = steward.campaign_value(GAME, state, "end", Pcg32(1), False)
    assert waiting > blocked
    state["vikings"]["purple"] = []
    state["treasury"] = 3  # the Church cannot be paid for this turn
    assert bot_plan.viking_exposure(state) == 0


def test_the_build_phase_builds_in_the_vikings_region_first() -> None:
    """With coins for one Church, Purple's comes first: its next quiet Build Phase is
    the least sure (the listed order would finish Blue's)."""
    state = blank(turn=6)
    state["tasks"] = [new_task("build_finish")]
    prompt = Prompt(
        0,
        "Finish",
        tuple(Choice(a, a) for a in ("finish:blue", "finish:purple", "finish:yellow", "next")),
    )
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "finish:purple"
    prompt = Prompt(0, "Finish", tuple(Choice(a, a) for a in ("finish:green", "finish:blue")))
    assert steward.policy(GAME, state, prompt, Pcg32(1)) == "finish:blue"


def test_a_battle_is_charged_more_than_two_vp_a_point_of_strength() -> None:
    """The army starts at 44 Strength and the minimum climbs to 54: a point a Battle
    costs is short at most later Turn Ends unless coins buy it back, so the steward
    charges a Battle more than 2 VP for each point it is expected to cost (8 points
    without play-outs)."""
    state = blank(turn=2)
    place(state, "paris", "paris-1", "paris-2")
    state["charlemagne"] = "paris"
    battle = "act:charlemagne:paris:battle"
    assert bot_plan.strength_margin(state) > 8  # no shortfall term on top
    value = steward.campaign_value(GAME, state, battle, Pcg32(1), False)
    assert value < bot_plan.battle_ceiling(state, battle) - 2 * 8
