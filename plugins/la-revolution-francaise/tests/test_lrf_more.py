"""Dedicated tests for rules first covered only by whole-game play: removals, civil war,
suppression, deputies, the King's action and veto, maintenance, volunteers, the Catholic
armies, the economy, bankruptcy and the laws' effects."""

from __future__ import annotations

from lrf_helpers import context, engine_at, fresh, place, seat

from tabletop.framework import HEADING
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise
from tabletop.games.la_revolution_francaise.actions.marais import marais_plot
from tabletop.games.la_revolution_francaise.assembly import deputies_elected, election
from tabletop.games.la_revolution_francaise.core import civil_war
from tabletop.games.la_revolution_francaise.initial.effects import apply_effect
from tabletop.games.la_revolution_francaise.interphase import economy, fame_for_objectives
from tabletop.games.la_revolution_francaise.military.reinforcements import (
    maintenance,
    volunteers_start,
)
from tabletop.games.la_revolution_francaise.patriot import deputies_return
from tabletop.games.la_revolution_francaise.political.enact import bankruptcy, enact
from tabletop.games.la_revolution_francaise.setup import run_turn


def test_7_3_1_2_a_current_outside_the_assembly_removes_a_personality_from_its_region() -> None:
    state = fresh()
    place(state, Barnave="Lille")  # the Montagne holds Lille and sits outside the Assembly
    engine = engine_at(state, [{"kind": "act", "segment": "arrest", "actor": "MT"}], [6, 6])
    engine.act(seat(state, "MT"), "try:Barnave")
    engine.act(seat(state, "MT"), "rolls:1")
    assert engine.state["persons"]["Barnave"]["status"] == "fled"


def test_7_4_2_1_four_revolts_make_a_civil_war() -> None:
    state = fresh()
    for region in ("Brest", "Nîmes", "Caen"):
        assert not civil_war(state)
        state["regions"][region]["revolt"] = True
    assert civil_war(state)  # with Bourges, four


def test_7_4_3_the_government_suppresses_without_a_personality() -> None:
    state = fresh()
    gov = seat(state, "F")
    engine = engine_at(state, [{"kind": "act", "segment": "suppress", "actor": "gov"}], [6, 6])
    engine.act(gov, "try:Bourges")
    engine.act(gov, "rolls:1")
    assert not engine.state["regions"]["Bourges"]["revolt"]
    assert engine.state["regions"]["Bourges"]["control"] is None  # control unchanged
    assert "suppress:Bourges" in engine.state["achieved"]


def test_7_5_2_1_a_personality_in_paris_sways_deputies_until_the_end_of_the_turn() -> None:
    state = fresh()
    place(state, Sieyès="Paris")
    engine = engine_at(state, [{"kind": "sway", "actor": "M"}], [6, 6])
    engine.act(seat(state, "M"), "sway:F")
    after = engine.state
    assert after["assembly"]["F"]["count"] == 3 and after["assembly"]["M"]["count"] == 15
    deputies_return(after, {"kind": "deputies_return"}, context())  # 8.3
    assert after["assembly"]["F"]["count"] == 8 and after["assembly"]["M"]["count"] == 10


def test_7_5_2_2_the_feuillant_king_strikes_the_gironde() -> None:
    state = fresh()
    engine = engine_at(state, [{"kind": "king_action"}])
    engine.act(seat(state, "F"), "king:both")
    after = engine.state
    assert after["currents"]["G"]["fame"] == 10 and after["tracks"]["coalition"] == 3
    assert after["currents"]["F"]["money"] == 1300


def test_7_5_2_2_the_royalist_king_strikes_the_feuillant() -> None:
    """Held by the Royalist the King costs 50 and lowers the Feuillant's fame; the
    Coalition marker moves up, and only with the second choice."""
    for action, coalition in (("king:act", 4), ("king:both", 5)):
        state = fresh()
        state["persons"]["Louis XVI"]["current"] = "R"
        engine = engine_at(state, [{"kind": "king_action"}])
        prompt = engine.prompt
        assert prompt is not None and prompt.seat == seat(state, "R")
        engine.act(seat(state, "R"), action)
        after = engine.state
        assert after["currents"]["F"]["fame"] == 11 and after["tracks"]["coalition"] == coalition
        assert after["currents"]["R"]["money"] == 350


def test_11_1_the_king_vetoes_an_anti_clergy_law() -> None:
    state = fresh()
    engine = engine_at(state, [{"kind": "veto", "law": "usages", "proposer": "G"}])
    engine.act(seat(state, "F"), "veto:yes")
    after = engine.state
    assert after["tracks"]["commune"] == 7 and after["tracks"]["clergy"] == 1
    assert after["currents"]["F"]["fame"] == 10  # -2 for the King's holder (13.3)
    assert after["gov"]["money"] == 2300  # the law never took effect


def test_13_5_1_declaring_war() -> None:
    state = fresh()
    enact(state, "war", "G", context())
    assert state["war"] and state["tracks"]["coalition"] == 20 and state["tracks"]["clergy"] == 7
    assert state["currents"]["G"]["fame"] == 12 and state["gov"]["money"] == 2200


def test_13_1_an_economy_law_costs_the_government_at_the_economy_level() -> None:
    state = fresh()
    state["tracks"]["economy"] = 17
    enact(state, "free_prices", "G", context())  # 13.1's example: 450, then 17 -> 10
    assert state["gov"]["money"] == 2300 - 450 and state["tracks"]["economy"] == 10


def test_10_2_2_1_bankruptcy_once_a_turn() -> None:
    state = fresh()
    state["gov"]["money"] = 50
    enact(state, "war", "G", context())
    assert not state["war"]  # unpaid: the law does not take effect
    assert state["currents"]["F"]["fame"] == 7 and state["gov"]["fame"] == 8
    bankruptcy(state, context(), "it could not pay an army")
    assert state["currents"]["F"]["fame"] == 7  # only one a turn


def test_9_4_unpaid_armies_disband_volunteers_first() -> None:
    state = fresh()
    state["armies"].append(
        {"id": "volunteer_1", "side": "rev", "kind": "volunteer", "where": "Paris"}
    )
    state["gov"]["money"] = 420
    maintenance(state, {"kind": "maintenance"}, context())
    assert not any(a["id"] == "volunteer_1" for a in state["armies"])
    assert len(state["armies"]) == 4 and state["gov"]["money"] == 20


def test_9_3_3_conscription_raises_a_volunteer_each_turn_of_war() -> None:
    state = fresh()
    state["conscription"], state["war"] = True, True
    volunteers_start(state, {"kind": "volunteers_start"}, context())
    engine = engine_at(state, list(reversed(state["tasks"])))
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "9.3.3"
    assert "place:Cholet" not in [c.action for c in prompt.choices]  # Royalist ground
    engine.act(seat(state, "F"), "place:Paris")
    assert any(a["kind"] == "volunteer" and a["where"] == "Paris" for a in engine.state["armies"])


def test_9_3_3_never_more_than_sixteen_volunteer_armies() -> None:
    """A levée (3 due) with 14 volunteers already raised places only 2."""
    state = fresh()
    state["volunteers_due"] = 3
    state["armies"] += [
        {"id": f"volunteer_{n}", "side": "rev", "kind": "volunteer", "where": "Paris"}
        for n in range(14)
    ]
    volunteers_start(state, {"kind": "volunteers_start"}, context())
    assert state["tasks"][-1]["volunteers_left"] == 2


def test_9_3_2_catholic_armies_only_in_the_vendee_beside_a_general() -> None:
    state = fresh()
    state["catholic_allowed"] = True
    place(state, Charette="Cholet", Cadoudal="Brest")
    engine = engine_at(state, [{"kind": "catholic_reinforce"}])
    prompt = engine.prompt
    assert prompt is not None and [c.action for c in prompt.choices] == ["done", "raise:Cholet"]
    engine.act(seat(state, "R"), "raise:Cholet")
    assert any(a["side"] == "catholic" and a["where"] == "Cholet" for a in engine.state["armies"])


def test_10_1_every_thousand_spent_raises_the_economy() -> None:
    state = fresh()
    state["spent"] = 2999
    economy(state, context())
    assert state["tracks"]["economy"] == 6 and state["spent"] == 0


def test_15_2_1_1_the_automated_marais_plots_by_its_table() -> None:
    state = fresh(players=5)
    marais_plot(state, {"kind": "marais_plot"}, context([4, 5]))  # 9: Lille; Cahors, Nîmes
    assert state["regions"]["Lille"]["control"] == "M"
    assert state["regions"]["Cahors"]["control"] == "M"  # its own region never goes neutral
    marais_plot(state, {"kind": "marais_plot"}, context([5, 5]))  # 10: Nîmes, Montpellier; Tours
    assert (
        state["regions"]["Tours"]["control"] is None and state["regions"]["Nîmes"]["control"] == "M"
    )


def test_15_2_1_6_the_automated_marais_fame_moves_by_a_roll() -> None:
    state = fresh(players=5)
    state["declared"] = {}
    fame_for_objectives(state, context([6, 6]))  # 12 on column 13-14: A
    assert state["currents"]["M"]["fame"] == 11


def test_r_1_6_legislative_elections() -> None:
    """Set-up regions: F 8 (+0), M 5 + 3 neutral + R 4 // 2 = 10, R ceil(4/2) = 2,
    G 4 + MT 1 // 2 = 4, MT ceil(1/2) + SC 1 // 2 = 1, SC ceil(1/2) = 1: the set-up."""
    state = fresh()
    election(state, context())
    counts = {c: state["assembly"][c]["count"] for c in ("R", "F", "M", "G", "MT", "SC")}
    assert counts == {"R": 2, "F": 8, "M": 10, "G": 4, "MT": 1, "SC": 1}
    assert state["assembly"]["R"]["hidden"] and not state["assembly"]["G"]["hidden"]


def test_r_1_6_a_region_the_coalition_holds_is_not_neutral() -> None:
    """The Marais's deputies count neutral regions (R.1.6); Allied armies put the
    Coalition's marker on a region (9.7.1), so a Feuillant region they take elects
    nobody: the Feuillant loses its deputy and the Marais gains none."""
    state = fresh()
    before = deputies_elected(state)
    state["regions"]["Metz"].update(control=None, coalition=True)
    after = deputies_elected(state)
    assert after["F"] == before["F"] - 1
    assert after["M"] == before["M"]
    state["regions"]["Metz"]["coalition"] = False  # freed, and no Current's marker
    assert deputies_elected(state)["M"] == before["M"] + 1


def test_r_9_6_and_r_10_6_the_republics_elections() -> None:
    """On the set-up map (F 8, M 5, R 4, G 4, MT 1, SC 1, 3 neutral): the Federal
    Republic gives the Gironde 4 + 3 neutral + 8 // 2 = 11, the Marais 5 + 4 // 2 = 7,
    hidden F 4 and R 2, the Montagne 1 and hidden SC 1; One & Indivisible gives the
    Marais 5 + 8 // 2 = 9, hidden F 4, R 2, G 2, the Montagne 1 + 3 + 4 // 2 = 6 and the
    Sans-Culotte 1 + 4 // 2 = 3."""
    expected = {
        "ffr": {"R": 2, "F": 4, "M": 7, "G": 11, "MT": 1, "SC": 1},
        "froi": {"R": 2, "F": 4, "M": 9, "G": 2, "MT": 6, "SC": 3},
    }
    hidden = {"ffr": {"R", "F", "SC"}, "froi": {"R", "F", "G"}}
    for regime, counts in expected.items():
        state = fresh(scenario="open")
        state["regime"] = regime
        election(state, context())
        assert {c: state["assembly"][c]["count"] for c in counts} == counts, regime
        assert {c for c, a in state["assembly"].items() if a["hidden"]} == hidden[regime]


def test_r_x_6_the_other_regimes_elections() -> None:
    """The set-up map again (F 8, M 5, R 4, G 4, MT 1, SC 1, 3 neutral) under each
    regime's formula: the Convention's (R.2.6) and those built on it (Terror R.3.6,
    Thermidor R.4.6, Wrath R.5.6, Mercy R.6.6, Prairial R.8.6), and the Directorate's
    own (R.7.6); ``hidden`` lists the Currents whose deputies sit hidden."""
    expected = {
        "convention": {"R": 0, "F": 4, "M": 10, "G": 8, "MT": 3, "SC": 1},
        "terror": {"R": 0, "F": 4, "M": 10, "G": 0, "MT": 3, "SC": 1},
        "thermidor": {"R": 0, "F": 4, "M": 10, "G": 8, "MT": 3, "SC": 1},
        "wrath": {"R": 0, "F": 4, "M": 10, "G": 0, "MT": 0, "SC": 3},
        "mercy": {"R": 0, "F": 4, "M": 10, "G": 8, "MT": 3, "SC": 1},
        "directorate": {"R": 4, "F": 8, "M": 8, "G": 4, "MT": 1, "SC": 1},
        "prairial": {"R": 0, "F": 0, "M": 0, "G": 0, "MT": 3, "SC": 1},
    }
    hidden = {
        "convention": {"F", "SC"},
        "terror": {"F", "SC"},
        "thermidor": {"MT", "SC"},
        "wrath": {"F"},
        "mercy": {"F", "SC"},
        "directorate": {"R", "MT", "SC"},
        "prairial": set(),
    }
    for regime, counts in expected.items():
        state = fresh(scenario="open")
        state["regime"] = regime
        foreseen = deputies_elected(state)  # what the bots ask: it changes nothing
        election(state, context())
        assert {c: state["assembly"][c]["count"] for c in counts} == counts, regime
        assert foreseen == counts, regime
        shown = {c for c, a in state["assembly"].items() if a["hidden"] and a["count"]}
        assert shown == hidden[regime], regime


def test_9_5_4_an_army_sent_to_crush_the_commune() -> None:
    state = fresh()
    state["commune"] = {"raised": True, "controller": "SC"}
    engine = engine_at(state, [{"kind": "gov_move_start"}])
    gov = seat(state, "F")
    prompt = engine.prompt
    assert prompt is not None and "crush:Paris" in [c.action for c in prompt.choices]
    engine.act(gov, "crush:Paris")
    assert engine.state["tracks"]["commune"] == 20  # 9.9.1


def test_5_0_the_turn_runs_its_phases_in_the_fixed_order() -> None:
    state = fresh()
    state["tasks"] = []
    run_turn(state, {"kind": "turn"}, context())
    kinds = [t["kind"] for t in reversed(state["tasks"])]
    assert kinds == [
        "turn_start",
        "negotiations_start",
        "random_events",
        "turn_order",
        "objectives_start",
        "placement_start",
        "actions_start",
        "political_start",
        "patriot_start",
        "military_start",
        "interphase",
        "end_of_turn_referendum",
        "turn_end",
    ]


def test_5_0_the_log_has_a_heading_for_the_turn_and_each_phase() -> None:
    """A game of a thousand decisions needs a log that is easy to scan: each turn and
    each phase starts with a public heading."""
    engine = Engine(
        LaRevolutionFrancaise(),
        seed=1,
        players=6,
        options={},
        rng_factory=rng_factory,
        dice_factory=dice_factory,
    )
    while engine.state["phase"] != "military":
        prompt = engine.prompt
        assert prompt is not None
        engine.act(prompt.seat, prompt.choices[0].action)
    headings = [e.text for e in engine.events_for(None) if e.kind == HEADING]
    assert headings[0].startswith("Turn 1 of 8")
    assert [h.split(",")[0] for h in headings[1:]] == [
        "Negotiations (6.1)",
        "Random events (6.2)",
        "Turn order (6.3)",
        "Declaration of objectives (6.4)",
        "Personality placement (6.5)",
        "Action Phase (7.3-7.4)",
        "Political Phase (7.5)",
        "Patriot's Phase (8)",
        "Military Phase (9)",
    ]


def test_6_2_open_regime_event_effects() -> None:
    state = fresh(scenario="open")
    apply_effect(state, "deputies_half R M", context())  # Directorate political 11
    assert state["assembly"]["R"]["count"] == 1 and state["assembly"]["M"]["count"] == 11
    state["gov"]["controller"] = "MT"
    apply_effect(state, "split_marais", context())  # FROI political 8: 11 -> 6 and 5
    assert state["assembly"]["M"]["count"] == 0
    assert state["assembly"]["MT"]["count"] == 7 and state["assembly"]["SC"]["count"] == 6
    state["persons"]["Barnave"]["status"] = "prison"
    apply_effect(state, "free_prisoners", context())  # FFR political 2
    assert state["persons"]["Barnave"]["status"] == "fled"
    apply_effect(state, "bonus limited_coup 2 not_gov_left", context())  # FROI political 7
    assert state["bonuses"] == {"limited_coup:SC": 2}
