"""Rules of the later phases, chapter by chapter: regime changes and laws (7.5, 11,
R.3.8), the Patriot's Phase (8), the Military Phase (9) and the Interphase (10)."""

from __future__ import annotations

from lrf_helpers import allies_in_metz, context, engine_at, fresh, jail, law_vote_task, place, seat

from tabletop.framework import State
from tabletop.framework.decisions import OrderedVote
from tabletop.games.la_revolution_francaise.actions.modifiers import (
    action_modifiers,
    base_modifiers,
)
from tabletop.games.la_revolution_francaise.actions.targets import targets
from tabletop.games.la_revolution_francaise.core import declare_war
from tabletop.games.la_revolution_francaise.data import ADJACENT
from tabletop.games.la_revolution_francaise.initial.effects import apply_effect
from tabletop.games.la_revolution_francaise.initial.events import event_table
from tabletop.games.la_revolution_francaise.initial.negotiations import offer_targets
from tabletop.games.la_revolution_francaise.interphase import fame_for_objectives, income
from tabletop.games.la_revolution_francaise.military.capital import capital_choices
from tabletop.games.la_revolution_francaise.military.combat import combat, military_control
from tabletop.games.la_revolution_francaise.military.movement import allied_move
from tabletop.games.la_revolution_francaise.military.reinforcements import (
    army_return,
    coalition_reinforce,
)
from tabletop.games.la_revolution_francaise.military.vendee import catholic_destinations
from tabletop.games.la_revolution_francaise.patriot import justice_roll
from tabletop.games.la_revolution_francaise.political.regime import (
    regime_options,
    regime_window,
    threat,
)
from tabletop.games.la_revolution_francaise.political.votes import law_bonus, lawmaker_present

# 6.2 Random events -------------------------------------------------------------------------


def test_6_2_legislative_counter_revolution_roll_with_its_modifier() -> None:
    """Legislative counter-revolution table: minus the Coalition level (I), -2 at
    peace: 12 - 3 = 9, Clergy +2."""
    state = fresh()
    state["phase"] = "events"
    event_table(state, {"kind": "event_table", "table": "counter"}, context([6, 6]))
    assert state["last_events"]["counter"] == 9
    assert state["tracks"]["clergy"] == 6


def test_6_2_an_impossible_event_is_ignored() -> None:
    """Legislative economic roll 2: a revolt in Marseille cannot start beside the
    regular army there, so that part is ignored; the Clergy -2 still applies."""
    state = fresh()
    state["phase"] = "events"
    event_table(state, {"kind": "event_table", "table": "economic"}, context([1, 1]))
    assert not state["regions"]["Marseille"]["revolt"]  # the regular army stands there
    assert state["tracks"]["clergy"] == 2


# 7.1.1-7.1.2 Track bonuses --------------------------------------------------------------------


def test_7_1_1_and_7_1_2_track_bonuses() -> None:
    state = fresh()
    state["tracks"]["clergy"] = 10
    state["tracks"]["commune"] = 17
    assert sum(m for m, _ in base_modifiers(state, "R")) == 1
    assert sum(m for m, _ in base_modifiers(state, "SC")) == 2
    assert sum(m for m, _ in base_modifiers(state, "MT")) == 1
    assert base_modifiers(state, "G") == []


# 7.5.1 Regime change ----------------------------------------------------------------------------


def test_7_5_1_commune_controller_installs_the_convention_when_paris_is_threatened() -> None:
    state = fresh()
    state["commune"] = {"raised": True, "controller": "G"}
    state["armies"].append(
        {"id": "cobourg", "side": "allied", "kind": "allied", "where": "Amiens", "step": 1}
    )
    engine = engine_at(state, [{"kind": "regime_change", "window": regime_window(state)}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat(state, "G")
    assert [c.action for c in prompt.choices] == ["install:none", "install:convention"]
    engine.act(seat(state, "G"), "install:convention")
    after = engine.state
    assert after["regime"] == "convention" and after["gov"]["controller"] == "G"
    assert after["persons"]["Louis XVI"]["status"] == "prison"  # 11.2
    assert after["tracks"]["clergy"] == 7 and after["tracks"]["coalition"] == 7  # R.2.1.1
    assert after["assembly"]["R"]["count"] == 0  # R.2.6: no Royalist deputies
    assert set(after["outlawed"]) == {"R", "F"}  # R.2.4.1


def test_r_1_8_a_catholic_army_threatens_only_in_paris_an_allied_one_also_next_to_it() -> None:
    for side, where, threatens in (
        ("catholic", "Orléans", False),
        ("catholic", "Paris", True),
        ("allied", "Orléans", True),
        ("allied", "Tours", False),
    ):
        state = fresh()
        state["armies"].append({"id": "x", "side": side, "kind": side, "where": where})
        assert threat(state) == threatens, (side, where)


def test_7_5_1_no_regime_change_without_a_threat() -> None:
    """R.1.8: a Sans-Culotte Commune at level III is not enough without a threat."""
    state = fresh()
    state["commune"] = {"raised": True, "controller": "SC"}
    state["tracks"]["commune"] = 17
    assert regime_options(state) == []
    state["armies"].append({"id": "brunswick", "side": "allied", "kind": "allied", "where": "Metz"})
    assert regime_options(state) == [("SC", "convention", "install"), ("SC", "terror", "install")]


def test_r_3_8_1_two_rejected_government_laws_let_the_marais_install_thermidor() -> None:
    state = fresh()
    state["regime"] = "terror"
    state["gov"]["controller"] = "MT"
    state["laws_rejected"] = 1
    m = seat(state, "M")
    engine = engine_at(
        state,
        [
            {
                "kind": "fame_vote",
                "law": "civic",
                "proposer": "gov",
                "modifier_ranges": {str(m): 2},
                "vote": OrderedVote.new("modifiers", [m]),
            }
        ],
        [1, 2],
    )
    engine.act(m, "mod:-2")  # fame 10 - 2 = 8, roll 3: C
    assert engine.state["gov"]["fame"] == 9  # 7.5.2.3.2: the proposer loses 1
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "R.3.8.1" and prompt.seat == m
    engine.act(m, "thermidor:yes")
    assert engine.state["regime"] == "thermidor" and engine.state["gov"]["controller"] == "M"
    assert "MT" in engine.state["outlawed"]  # R.4.4.1: the previous Government's Current


# 11.4 The trial ----------------------------------------------------------------------------------


def test_11_4_the_feuillant_must_vote_innocent_and_a_guilty_majority_executes() -> None:
    state = fresh()
    state["regime"] = "convention"
    state["gov"]["controller"] = "G"
    jail(state, "Louis XVI")
    voters = [seat(state, c) for c in state["order"]]
    engine = engine_at(state, [law_vote_task("trial", "G", voters)])
    for voter in voters:
        prompt = engine.prompt
        assert prompt is not None
        if voter == seat(state, "F"):
            assert [c.action for c in prompt.choices] == ["vote:innocent"]
            engine.act(voter, "vote:innocent")
        else:
            engine.act(voter, "vote:guilty")
    after = engine.state
    assert after["king"]["dead"] and after["persons"]["Louis XVI"]["status"] == "dead"
    assert after["tracks"]["coalition"] == 9 and after["tracks"]["clergy"] == 9
    fames = {c: after["currents"][c]["fame"] for c in ("SC", "MT", "G", "F")}
    assert fames == {"SC": 11, "MT": 12, "G": 9, "F": 10}


# 8 Patriot's Phase -------------------------------------------------------------------------


def test_r_2_4_2_convention_justice_guillotines_royalists_on_a_or_b() -> None:
    state = fresh()
    state["regime"] = "convention"
    for person in ("Cadoudal", "Barnave"):
        state["persons"][person]["status"] = "prison"
    justice_roll(state, {"kind": "justice_roll", "person": "Cadoudal"}, context([4, 5]))
    justice_roll(state, {"kind": "justice_roll", "person": "Barnave"}, context([4, 5]))
    assert state["persons"]["Cadoudal"]["status"] == "dead"
    assert state["persons"]["Barnave"]["status"] == "prison"  # B: stays in prison


def test_8_2_an_absolute_majority_of_disapproval_topples_the_government() -> None:
    for m_vote, expected in (("disapproval", "G"), ("abstention", "F")):
        state = fresh()
        voters = [seat(state, c) for c in ("F", "G", "M")]
        engine = engine_at(
            state, [{"kind": "confidence", "vote": OrderedVote.new("confidence", voters)}]
        )
        engine.act(voters[0], "vote:confidence")  # 8 deputies
        engine.act(voters[1], "vote:disapproval")  # 4
        engine.act(voters[2], f"vote:{m_vote}")  # 10, or not counted
        assert engine.state["gov"]["controller"] == expected


# 9 Military Phase --------------------------------------------------------------------------------


def test_9_3_1_war_brings_the_first_wave_only() -> None:
    state = fresh()
    declare_war(state, context(), "test")
    coalition_reinforce(state, {"kind": "coalition_reinforce"}, context())
    allied = sorted((a["id"], a["where"]) for a in state["armies"] if a["side"] == "allied")
    assert allied == [("brunswick", "Metz"), ("cobourg", "Lille"), ("wurmser", "Strasbourg")]


def test_9_6_combat_on_column_13_14_and_destroy_objective() -> None:
    """Equal forces: the Revolution attacks with no excess; 9 on column 13-14 is an A."""
    state = fresh()
    state["armies"].append({"id": "cobourg", "side": "allied", "kind": "allied", "where": "Lille"})
    combat(state, {"kind": "combat"}, context([5, 4]))
    assert not any(a["id"] == "cobourg" for a in state["armies"])
    assert "cobourg" in state["allied_gone"] and "destroy:Lille" in state["achieved"]


def test_9_7_1_unopposed_allies_take_military_control() -> None:
    state = fresh()
    state["armies"].append({"id": "cobourg", "side": "allied", "kind": "allied", "where": "Amiens"})
    military_control(state, {"kind": "military_control"}, context())
    assert state["regions"]["Amiens"]["coalition"] and state["regions"]["Amiens"]["control"] is None


def test_9_7_2_an_unopposed_army_ends_a_revolt() -> None:
    state = fresh()
    state["armies"][0]["where"] = "Bourges"
    military_control(state, {"kind": "military_control"}, context())
    assert not state["regions"]["Bourges"]["revolt"]


# 10 Interphase ------------------------------------------------------------------------------------


def test_10_2_income_coalition_money_and_the_governments_reset() -> None:
    state = fresh()
    income(state, context())
    assert state["currents"]["R"]["money"] == 400 + 400 + 50  # regions, Coalition level I
    assert state["currents"]["MT"]["money"] == 350 + 350  # the minimum income
    assert state["gov"]["money"] == 2300  # 2500 less Bourges in revolt


def test_10_3_fame_for_objectives() -> None:
    state = fresh()
    state["declared"] = {"gov": "arrest:Marat", "G": "plot:Lyon", "MT": "plot:Paris"}
    state["achieved"] = ["plot:Lyon:G", "plot:Paris:G"]
    fame_for_objectives(state, context())
    assert state["gov"]["fame"] == 9 and state["currents"]["F"]["fame"] == 11
    assert state["currents"]["G"]["fame"] == 12
    assert state["currents"]["MT"]["fame"] == 8  # another Current's plot does not count


# R.3.9 Special rules under the Terror; event bonuses ---------------------------------------------


def test_r_3_9_1_terrorist_bonus_to_government_arrests_and_suppressions() -> None:
    state = fresh()
    state["regime"] = "terror"
    state["gov"]["controller"] = "MT"
    state["regions"]["Lyon"]["revolt"] = True
    assert not any(
        "R.3.9.1" in why for _, why in action_modifiers(state, "gov", "suppress", "Lyon", [])
    )
    place(state, Collot_d_Herbois="Lyon")
    assert (2, "terrorist Personality there, R.3.9.1") in action_modifiers(
        state, "gov", "suppress", "Lyon", []
    )


def test_r_3_9_2_a_lawmaker_in_paris_helps_government_laws_once() -> None:
    state = fresh()
    state["regime"] = "terror"
    assert not lawmaker_present(state)
    place(state, Robespierre="Paris", Saint_Just="Paris")
    assert lawmaker_present(state)
    state["factions_outlawed"] = []
    state["outlawed"] = ["MT"]
    assert not lawmaker_present(state)  # outlaws lend no help


def test_6_2_event_bonus_to_outlaw_a_faction() -> None:
    state = fresh()
    state["bonuses"] = {"outlaw_hebertiste": 2, "outlaw_any": 2}
    assert law_bonus(state, "outlaw_hebertistes") == 4
    assert law_bonus(state, "outlaw_terroristes") == 2
    assert law_bonus(state, "civic") == 0


def test_6_2_the_army_of_lille_holds_back() -> None:
    """Legislative political 11: the revolutionary side at Lille does not attack."""
    state = fresh()
    state["bonuses"] = {"lille_holds": 1}
    state["armies"].append({"id": "cobourg", "side": "allied", "kind": "allied", "where": "Lille"})
    combat(state, {"kind": "combat"}, context())  # no dice are needed: no combat
    assert any(a["id"] == "cobourg" for a in state["armies"])


# 11.1 / R.1.4.2 The King's pardon; 9.5.1 pinning; 9.3.1 h Quiberon; 13.6 Fatherland ----------


def test_r_1_4_2_the_kings_holder_may_free_a_feuillant_before_the_vote() -> None:
    state = fresh()
    state["persons"]["Barnave"]["status"] = "prison"
    engine = engine_at(state, [{"kind": "patriot_start"}])
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "R.1.4.2" and prompt.seat == seat(state, "F")
    engine.act(seat(state, "F"), "pardon:yes")
    assert engine.state["persons"]["Barnave"]["status"] == "fled"  # back next turn
    after = engine.prompt
    assert after is None or after.rule != "8.1"  # no vote on a freed man


def test_9_5_1_pinned_armies_cannot_move_and_unpinned_ones_can() -> None:
    for answer, movable in (("pin:yes", False), ("pin:no", True)):
        state = fresh()
        state["armies"].append(
            {"id": "cobourg", "side": "allied", "kind": "allied", "where": "Lille"}
        )
        engine = engine_at(state, [{"kind": "pinning_start"}, {"kind": "gov_move_start"}])
        prompt = engine.prompt
        assert prompt is not None and prompt.rule == "9.5.1"
        engine.act(seat(state, "R"), answer)
        prompt = engine.prompt
        assert prompt is not None
        moving = prompt.text.startswith("Move the regular army of Lille")
        assert moving == movable


def test_9_3_1_the_royalist_lands_quiberon() -> None:
    state = fresh()
    declare_war(state, context(), "test")
    state["republic_installed"] = True
    state["regions"]["Brest"]["control"] = "R"
    engine = engine_at(state, [{"kind": "coalition_reinforce"}])
    prompt = engine.prompt
    assert prompt is not None and [c.action for c in prompt.choices] == [
        "land:Brest",
        "land:Nantes",
    ]
    engine.act(seat(state, "R"), "land:Brest")
    quiberon = next(a for a in engine.state["armies"] if a["id"] == "quiberon")
    assert quiberon["where"] == "Brest"


def test_13_6_fatherland_in_danger_gifts_to_the_government_and_opposition_costs_fame() -> None:
    state = fresh()
    state["patrie"] = True
    g = seat(state, "G")
    assert ("G", "gov") in offer_targets(state, g)
    engine = engine_at(state, [{"kind": "negotiate", "seats": [g], "index": 0}])
    engine.act(g, "offer:G:gov")
    engine.act(g, "amount:500")
    assert engine.state["gov"]["money"] == 2800 and engine.state["currents"]["G"]["money"] == 900
    state = fresh()
    state["patrie"] = True
    voters = [seat(state, c) for c in state["order"]]
    engine = engine_at(state, [law_vote_task("civic", "gov", voters)])
    for voter in voters:
        engine.act(voter, "vote:no" if voter == g else "vote:yes")
    assert engine.state["currents"]["G"]["fame"] == 10  # officially present and opposed


# 9.5.3 Catholic armies, 9.8 the Vendée, 11.3 kidnapping ------------------------------------


def test_9_5_3_without_a_general_a_catholic_army_stays_in_the_vendee() -> None:
    state = fresh()
    state["armies"].append({"id": "acr", "side": "catholic", "kind": "catholic", "where": "Cholet"})
    army = state["armies"][-1]
    assert catholic_destinations(state, army) == ["Nantes", "Angers"]
    place(state, Cathelineau="Cholet")
    assert "Bourges" in catholic_destinations(state, army)  # with a general, as the Allies
    engine = engine_at(state, [{"kind": "catholic_move_start"}])
    engine.act(seat(state, "R"), "move:Tours")  # Royalist ground: it may go on
    assert engine.state["persons"]["Cathelineau"]["where"] == "Tours"


def test_9_8_a_catholic_army_with_a_general_may_hide_in_the_vendee() -> None:
    state = fresh()
    state["armies"].append({"id": "acr", "side": "catholic", "kind": "catholic", "where": "Cholet"})
    state["armies"][0]["where"] = "Cholet"
    place(state, Charette="Cholet")
    engine = engine_at(
        state, [{"kind": "hiding_start"}, {"kind": "combat"}, {"kind": "military_control"}]
    )
    engine.act(seat(state, "R"), "hide:yes")
    after = engine.state
    assert any(a["id"] == "acr" for a in after["armies"])  # no combat took place
    assert after["regions"]["Cholet"]["control"] is None


def test_11_3_unopposed_allies_in_paris_let_the_royalist_kidnap_the_king() -> None:
    state = fresh()
    state["armies"].append(
        {"id": "brunswick", "side": "allied", "kind": "allied", "where": "Paris"}
    )
    engine = engine_at(state, [{"kind": "kidnap_check"}], [6, 6])
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "11.3"
    assert prompt.choices[1].consequence == "costs 200"  # the Legislative price
    engine.act(seat(state, "R"), "kidnap:try")
    assert (
        engine.state["king"]["kidnapped"] and engine.state["persons"]["Louis XVI"]["current"] == "R"
    )
    assert engine.state["currents"]["R"]["money"] == 200


def test_11_3_a_failed_kidnapping_takes_the_king_to_the_provisional_capital() -> None:
    state = fresh()
    state["armies"].append(
        {"id": "brunswick", "side": "allied", "kind": "allied", "where": "Paris"}
    )
    tasks = [{"kind": "military_control"}, {"kind": "kidnap_check"}, {"kind": "capital_check"}]
    engine = engine_at(state, tasks, [1, 2])
    engine.act(seat(state, "R"), "kidnap:try")
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat(state, "F") and prompt.rule == "9.7.1"
    engine.act(seat(state, "F"), "capital:Orléans")
    assert engine.state["king"]["where"] == "Orléans" and not engine.state["king"]["kidnapped"]
    assert engine.state["capital"] == "Orléans"


# 9.7.1 The provisional capital -------------------------------------------------------------

FALL_OF_PARIS = [{"kind": "military_control"}, {"kind": "kidnap_check"}, {"kind": "capital_check"}]


def court_in_orleans() -> State:
    """Paris under the Coalition's marker, the capital and the King moved to Orléans."""
    state = fresh()
    state["capital"] = "Orléans"
    state["king"]["where"] = "Orléans"
    state["persons"]["Louis XVI"]["where"] = "Orléans"
    state["regions"]["Paris"]["coalition"] = True
    return state


def test_9_7_1_paris_falling_moves_the_capital_even_without_the_king() -> None:
    """The Government chooses a capital whenever Paris falls, not only to lodge the
    King: here he is already dead, and the Catholic & Royal army takes Paris."""
    state = fresh()
    state["king"]["dead"] = True
    state["armies"].append({"id": "cat1", "side": "catholic", "kind": "catholic", "where": "Paris"})
    engine = engine_at(state, FALL_OF_PARIS)
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "9.7.1" and prompt.seat == seat(state, "F")
    actions = [c.action for c in prompt.choices]
    assert "capital:Paris" not in actions
    assert actions[0].split(":")[1] in ADJACENT["Paris"]  # nearest first
    engine.act(seat(state, "F"), "capital:Orléans")
    assert engine.state["capital"] == "Orléans"
    assert engine.state["regions"]["Paris"]["control"] == "R"


def test_9_7_1_no_commune_while_paris_is_under_royalist_or_allied_control() -> None:
    """With the Coalition's marker on Paris (its army gone on), the Commune can be
    raised neither by an action nor by an event, and the Commune table is skipped."""
    state = fresh()
    state["regions"]["Paris"]["coalition"] = True
    state["capital"] = "Orléans"
    place(state, Roux="Paris")
    assert not any(key.startswith("raise") for key, _ in targets(state, "commune", "SC"))
    state["regions"]["Paris"]["coalition"] = False
    assert any(key.startswith("raise") for key, _ in targets(state, "commune", "SC"))
    state["regions"]["Paris"]["coalition"] = True
    ctx = context([6, 6])
    apply_effect(state, "commune_rises SC", ctx)
    assert not state["commune"]["raised"]
    state["phase"] = "events"
    event_table(state, {"kind": "event_table", "table": "commune"}, ctx)
    assert "commune" not in state["last_events"]  # skipped: no roll
    state["regions"]["Paris"]["coalition"] = False
    event_table(state, {"kind": "event_table", "table": "commune"}, ctx)
    assert "commune" in state["last_events"]


def test_9_7_1_the_commune_does_not_rise_in_a_paris_already_fallen() -> None:
    """9.9.2 raises the Commune against invaders, but not in a Paris the Royalist took
    (the capital has moved): 9.7.1 forbids it while Paris is held."""
    rose: dict[bool, bool] = {}
    for fallen in (False, True):
        state = fresh()
        if fallen:
            state["regions"]["Paris"]["control"] = "R"
            state["capital"] = "Orléans"
        state["armies"].append(
            {"id": "cat1", "side": "catholic", "kind": "catholic", "where": "Paris"}
        )
        ctx = context([3] * 20)
        combat(state, {"kind": "combat"}, ctx)
        rose[fallen] = any("Commune rises" in e.text for e in ctx.events)
    assert rose == {False: True, True: False}


def test_9_7_1_a_freed_paris_takes_the_capital_and_the_king_back() -> None:
    state = court_in_orleans()
    state["armies"].append({"id": "v1", "side": "rev", "kind": "volunteer", "where": "Paris"})
    after = engine_at(state, FALL_OF_PARIS).state
    assert not after["regions"]["Paris"]["coalition"]  # 9.7.2: the army frees it
    assert after["capital"] == "Paris" and after["king"]["where"] == "Paris"
    assert after["persons"]["Louis XVI"]["where"] == "Paris"


def test_9_7_1_a_fallen_provisional_capital_moves_again_after_a_kidnap_attempt() -> None:
    """11.3: when the provisional capital falls too, the Royalist may try to kidnap the
    King there first; if he stays, the Government picks another capital."""
    state = court_in_orleans()
    state["armies"].append(
        {"id": "brunswick", "side": "allied", "kind": "allied", "where": "Orléans"}
    )
    engine = engine_at(state, FALL_OF_PARIS)
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "11.3"
    engine.act(seat(state, "R"), "kidnap:no")
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "9.7.1"
    assert "capital:Orléans" not in [c.action for c in prompt.choices]
    engine.act(seat(state, "F"), "capital:Bourges")
    assert engine.state["capital"] == "Bourges" and engine.state["king"]["where"] == "Bourges"


def test_9_7_1_the_automated_marais_government_takes_the_nearest_free_region() -> None:
    """With 5 players nobody is asked for the automated Marais' Government: it takes
    the free region nearest to Paris."""
    state = fresh(5)
    state["gov"]["controller"] = "M"
    state["king"]["dead"] = True
    state["armies"].append(
        {"id": "brunswick", "side": "allied", "kind": "allied", "where": "Paris"}
    )
    after = engine_at(state, FALL_OF_PARIS).state
    assert after["capital"] == capital_choices(after)[0]
    assert after["capital"] in ADJACENT["Paris"]


# 9.9.2, 15.1, and the events that ask the Royalist or the Assembly ---------------------------


def test_9_9_2_the_commune_rises_against_invaders_and_fights_beside_the_armies() -> None:
    state = fresh()
    state["armies"].append(
        {"id": "brunswick", "side": "allied", "kind": "allied", "where": "Paris"}
    )
    combat(state, {"kind": "combat"}, context([1, 1]))  # the Commune attacks at 1 v 1: C
    assert not state["commune"]["raised"]  # it rose, fought and was destroyed
    assert any(a["id"] == "brunswick" for a in state["armies"])


def test_15_1_army_return_on_a_six() -> None:
    state = fresh(army_return="on")
    state["catholic_gone"] = ["acr"]
    state["allied_gone"] = ["cobourg", "brunswick"]
    army_return(state, {"kind": "army_return"}, context([6, 2, 6]))
    assert state["catholic_gone"] == [] and state["allied_gone"] == ["cobourg"]
    off = fresh()
    off["catholic_gone"] = ["acr"]
    army_return(off, {"kind": "army_return"}, context())  # no roll when the option is off
    assert off["catholic_gone"] == ["acr"]


def test_6_2_the_royalist_chooses_the_deserting_army() -> None:
    state = fresh()
    state["phase"] = "events"
    engine = engine_at(state, [{"kind": "desert"}])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat(state, "R") and len(prompt.choices) == 4
    engine.act(seat(state, "R"), "desert:regular_metz")
    assert not any(a["id"] == "regular_metz" for a in engine.state["armies"])


def test_6_2_the_assembly_votes_on_the_kings_deposition() -> None:
    state = fresh()
    state["phase"] = "events"
    decide = {
        "key": "deposition",
        "by": "assembly",
        "question": "Depose?",
        "yes": ["track commune -2"],
        "no": ["track commune 2"],
    }
    voters = [seat(state, c) for c in state["order"]]
    engine = engine_at(
        state,
        [
            {
                "kind": "assembly_decision",
                "decision": decide,
                "vote": OrderedVote.new("Depose?", voters),
            }
        ],
    )
    for voter in voters:  # the Marais' 10 and the Gironde's 4 against the Feuillant's 8
        engine.act(
            voter, "vote:yes" if voter in (seat(state, "M"), seat(state, "G")) else "vote:no"
        )
    assert engine.state["tracks"]["commune"] == 2


def test_11_3_1_a_recaptured_king_is_tried_next_turn_with_four_for_death() -> None:
    state = fresh()
    king = state["persons"]["Louis XVI"]
    king["current"], king["where"] = "R", "Orléans"
    state["king"].update({"kidnapped": True, "where": "Orléans"})
    state["armies"][0]["where"] = "Orléans"
    after = engine_at(state, [{"kind": "kidnap_check"}]).state
    assert after["persons"]["Louis XVI"]["status"] == "prison" and not after["king"]["kidnapped"]
    after["turn"] += 1
    after["proposed"], after["levee_this_turn"], after["gov_laws_proposed"] = [], False, 0
    engine = engine_at(after, [{"kind": "laws_start"}])
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "11.4"
    # guilty: Marais 10, Montagne 1, Sans-Culotte 1 = 12, +4 = 16, against 14
    guilty = {seat(after, c) for c in ("M", "MT", "SC")}
    for current in after["order"]:
        voter = seat(after, current)
        engine.act(voter, "vote:guilty" if voter in guilty else "vote:innocent")
    assert engine.state["king"]["dead"]


def test_r_6_9_2_mercy_lawmakers_help_a_marais_government() -> None:
    state = fresh()
    state["regime"] = "mercy"
    state["gov"]["controller"] = "M"
    state["persons"]["Danton"]["current"] = "M"
    place(state, Danton="Paris")
    assert lawmaker_present(state)
    state["gov"]["controller"] = "MT"
    assert not lawmaker_present(state)


def test_r_3_9_3_carnot_commands_the_armies_and_may_be_captured() -> None:
    state = fresh()
    state["regime"], state["gov"]["controller"] = "terror", "MT"
    state["order"] = ["M"]
    m = seat(state, "M")
    engine = engine_at(state, [{"kind": "placement", "order": ["M"], "index": 0}])
    while engine.prompt is not None and "Carnot" not in engine.prompt.text:
        engine.act(m, "place:Paris")
    prompt = engine.prompt
    assert prompt is not None and "general:Lille" in [c.action for c in prompt.choices]
    engine.act(m, "general:Lille")
    after = engine.state
    assert after["persons"]["Carnot"]["general"] and after["persons"]["Carnot"]["acted"]
    after["armies"].append({"id": "cobourg", "side": "allied", "kind": "allied", "where": "Lille"})
    after["armies"].append({"id": "york", "side": "allied", "kind": "allied", "where": "Lille"})
    # two against one: the Coalition attacks with +1; 8 + 1 - 1 (Carnot) = 8 is a B, no loss
    combat(after, {"kind": "combat"}, context([4, 4]))
    assert any(a["id"] == "regular_lille" for a in after["armies"])
    # 10 + 1 - 1 = 10 is an A: the army falls, and on a 1-3 Carnot is taken
    combat(after, {"kind": "combat"}, context([5, 5, 2]))
    assert after["persons"]["Carnot"]["status"] == "captured"


def test_9_6_the_owner_chooses_which_army_is_lost() -> None:
    state = fresh()
    state["armies"].append(
        {"id": "volunteer_1", "side": "rev", "kind": "volunteer", "where": "Lille"}
    )
    state["armies"].append({"id": "cobourg", "side": "allied", "kind": "allied", "where": "Lille"})
    engine = engine_at(state, [{"kind": "combat"}], first=[1, 1])  # 2 + 1 = 3: C, attacker loses
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat(state, "F") and prompt.rule == "9.6"
    assert [c.action for c in prompt.choices] == ["lose:volunteer_1", "lose:regular_lille"]
    engine.act(seat(state, "F"), "lose:regular_lille")
    ids = {a["id"] for a in engine.state["armies"]}
    assert "regular_lille" not in ids and "volunteer_1" in ids


def test_9_6_1_royalist_spoils_only_without_allied_armies() -> None:
    """A Catholic & Royal army that destroys the last revolutionary army in a region
    gives the Royalist +1 fame; not when an Allied army fought beside it. Alone, the
    Catholic army is attacked by Marseille's regular army (ties: the Revolution), which
    rolls 2: C, it is lost; with the Spanish beside it, they attack with one army more
    and roll 8 + 1: A, the regular army is lost."""
    for allies, dice, fame in ((False, [1, 1], 9), (True, [4, 4], 8)):
        state = fresh()
        state["armies"].append(
            {"id": "acr1", "side": "catholic", "kind": "catholic", "where": "Marseille"}
        )
        if allies:
            state["armies"].append(
                {"id": "spanish1", "side": "allied", "kind": "allied", "where": "Marseille"}
            )
        combat(state, {"kind": "combat"}, context(dice))
        assert not any(a["id"] == "regular_marseille" for a in state["armies"])
        assert state["currents"]["R"]["fame"] == fame


def test_9_2_allied_armies_stop_at_coalition_level_one() -> None:
    state = fresh()
    allies_in_metz(state, coalition=8)
    allied_move(state, {"kind": "allied_move"}, context())
    assert state["armies"][-1]["where"] == "Metz"  # level I: they stand (no war either)
    state["tracks"]["coalition"] = 9
    allied_move(state, {"kind": "allied_move"}, context())
    assert state["armies"][-1]["where"] == "Paris"  # back at level II: they march on
