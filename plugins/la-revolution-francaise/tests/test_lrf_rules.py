"""Rules of La Révolution française, one test per rule, each naming its section; the
rulebook's worked examples are played through the engine with loaded dice."""

from __future__ import annotations

import pytest
from lrf_helpers import context, engine_at, fresh, jail, place, seat

from tabletop.framework import IllegalAction, State
from tabletop.framework.engine import Engine
from tabletop.framework.testing import new_engine
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise
from tabletop.games.la_revolution_francaise.actions.modifiers import action_modifiers
from tabletop.games.la_revolution_francaise.actions.outcomes import (
    OUTCOMES,
    outcome_commune,
    outcome_persuade,
)
from tabletop.games.la_revolution_francaise.actions.targets import targets
from tabletop.games.la_revolution_francaise.core import (
    adjust_track,
    controlled_regions,
    declare_war,
    level,
    odds,
    odds_text,
    result,
    seat_of,
)
from tabletop.games.la_revolution_francaise.initial.negotiations import offer_targets, pact_targets
from tabletop.games.la_revolution_francaise.initial.objectives import declarers, objective_kinds
from tabletop.games.la_revolution_francaise.initial.order import turn_order
from tabletop.games.la_revolution_francaise.interphase import (
    fame_for_objectives,
    finish_game,
    minimum_income,
    ranking,
    winner,
)
from tabletop.games.la_revolution_francaise.political.proposals import law_allowed
from tabletop.games.la_revolution_francaise.setup import new_state

# 3-4 Components and set-up ----------------------------------------------------------------


def test_3_2_2_track_levels() -> None:
    assert [level(v) for v in (1, 8, 9, 16, 17, 20)] == [1, 1, 2, 2, 3, 3]


def test_4_set_up_position() -> None:
    state = new_state(6, {"euro": "off"})
    assert {c: state["currents"][c]["fame"] for c in state["currents"]} == {
        "R": 8,
        "F": 12,
        "M": 10,
        "G": 11,
        "MT": 9,
        "SC": 8,
    }
    assert state["gov"] == {
        "fame": 10,
        "money": 2300,
        "controller": "F",
        "controller_at_objectives": "F",
        "partner": None,
    }
    assert {c: state["currents"][c]["money"] for c in state["currents"]} == {
        "R": 400,
        "F": 1400,
        "M": 800,
        "G": 1400,
        "MT": 350,
        "SC": 350,
    }
    assert sorted(controlled_regions(state, "R")) == ["Angers", "Cholet", "Nantes", "Tours"]
    assert state["regions"]["Bourges"]["revolt"] and state["regions"]["Brest"]["control"] is None
    assert [a["where"] for a in state["armies"]] == ["Lille", "Metz", "Strasbourg", "Marseille"]
    assert state["assembly"]["R"] == {"count": 2, "wing": "center", "hidden": True, "aside": False}


def test_4_6_starting_money_follows_income_and_minimum() -> None:
    """4.6: the Montagne's 300 and the Sans-Culotte's 200 rise to the 350 minimum."""
    state = new_state(6, {"euro": "off"})
    assert minimum_income(state, "MT") == 350 and minimum_income(state, "SC") == 350


# 6 Initial Phase --------------------------------------------------------------------------


def test_6_1_royalist_never_deals_with_montagne_or_sans_culotte() -> None:
    state = new_state(6, {"euro": "off"})
    royal = {taker for _, taker in offer_targets(state, seat_of(state, "R") or 0)}
    assert royal == {"F", "M", "G"}
    mountain = {taker for _, taker in offer_targets(state, seat_of(state, "MT") or 0)}
    assert "R" not in mountain and "SC" in mountain


def test_6_1_an_offer_is_accepted_or_refused() -> None:
    state = fresh()
    engine = engine_at(state, [{"kind": "negotiate", "seats": [seat_of(state, "G")], "index": 0}])
    g, f = seat(state, "G"), seat(state, "F")
    engine.act(g, "offer:G:F")
    engine.act(g, "amount:200")
    engine.act(f, "accept")
    assert engine.state["currents"]["G"]["money"] == 1200
    assert engine.state["currents"]["F"]["money"] == 1600


def test_6_3_turn_order_on_turn_one() -> None:
    """The rulebook's example: Feuillant 20, Gironde 15 before Marais 15 on fame, then
    Royalist, Montagne, Sans-Culotte."""
    state = new_state(6, {"euro": "off"})
    turn_order(state, {"kind": "turn_order"}, context())
    assert state["order"] == ["F", "G", "M", "R", "MT", "SC"]


def test_6_4_objectives_are_sealed_until_all_have_declared() -> None:
    engine = new_engine(LaRevolutionFrancaise(), seed=3, players=6)
    while engine.state["phase"] != "objectives":
        prompt = engine.prompt
        assert prompt is not None
        engine.act(prompt.seat, prompt.choices[0].action)
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "6.4"
    first = prompt.seat
    engine.act(first, prompt.choices[0].action)
    second = engine.prompt
    assert second is not None
    engine.act(first, second.choices[0].action)
    sealed = second.choices[0].action.split(":", 1)[1]
    others = [s for s in range(6) if s != first]
    for other in others:
        assert sealed not in str(engine.view(other)["objectives"])
    assert sealed in str(engine.view(first)["objectives"])
    assert second.choices[0].label in str(engine.view(first)["you"])  # in words


# 7.1 Resolution ---------------------------------------------------------------------------


def marais_plots_in_lyon(state: State, faces: list[int]) -> tuple[Engine, int]:
    """The Marais, Sieyès in Lyon (held by the Gironde), has picked Lyon for a plot and is
    asked how many rolls to pay for; the dice will show ``faces``."""
    state["regions"]["Lyon"]["control"] = "G"
    place(state, Sieyès="Lyon")
    m = seat(state, "M")
    engine = engine_at(state, [{"kind": "act", "segment": "plot", "actor": "M"}], faces)
    engine.act(m, "try:Lyon")
    return engine, m


def test_7_1_columns_and_rows_are_clamped() -> None:
    assert result(12, -3) == "A" and result(13, 1) == "A"
    assert result(1, 30) == "C" and result(7, 25) == "A" and result(7, 18) == "B"


def test_7_1_multiple_roll_example() -> None:
    """7.1: the Marais pays 200 for two rolls at a plot in Lyon, rolls a double 1 and a
    4, keeps the 4: the plot fails and its fame does not drop (B6; Lyon held by the
    Gironde for the example, B26)."""
    engine, m = marais_plots_in_lyon(fresh(), [1, 1, 1, 3])
    rolls = engine.prompt
    assert rolls is not None and [c.label for c in rolls.choices][1] == "Pay 200 for 2 rolls"
    engine.act(m, "rolls:2")
    pick = engine.prompt
    assert pick is not None and pick.rule == "7.1"
    assert pick.choices[0].consequence == "fame -1 (double)"
    engine.act(m, "keep:1")
    assert engine.state["currents"]["M"]["fame"] == 10
    assert engine.state["currents"]["M"]["money"] == 600
    assert engine.state["regions"]["Lyon"]["control"] == "G"


def test_7_1_kept_double_one_costs_fame_and_euro_variant_reverses_it() -> None:
    for euro, expected in (("off", 9), ("on", 11)):
        engine, m = marais_plots_in_lyon(fresh(euro=euro), [1, 1])
        engine.act(m, "rolls:1")
        assert engine.state["currents"]["M"]["fame"] == expected


def test_7_2_costs_double_at_economy_level_two() -> None:
    state = fresh()
    state["tracks"]["economy"] = 10
    engine, _ = marais_plots_in_lyon(state, [1, 1, 1, 3])
    rolls = engine.prompt
    assert rolls is not None and rolls.choices[1].label == "Pay 400 for 2 rolls"


# 7.3 Personality actions ------------------------------------------------------------------


def test_7_3_1_marats_arrest_example() -> None:
    """7.3.1.1: Marat in Paris held by the Montagne: fame 10 -2 -4 = column 4; two
    rolls for 200, 5 and 9; the 9 gives B: Marat flees until next turn."""
    state = fresh()
    state["regions"]["Paris"]["control"] = "MT"
    place(state, Marat="Paris")
    gov = seat(state, "F")
    engine = engine_at(state, [{"kind": "act", "segment": "arrest", "actor": "gov"}], [1, 4, 3, 6])
    prompt = engine.prompt
    assert prompt is not None
    marat = next(c for c in prompt.choices if c.action == "try:Marat")
    assert "column 4" in marat.detail
    engine.act(gov, "try:Marat")
    engine.act(gov, "rolls:2")
    engine.act(gov, "keep:1")
    assert engine.state["gov"]["money"] == 2100
    assert engine.state["persons"]["Marat"]["status"] == "fled"
    assert "arrest:Marat" not in engine.state["achieved"]  # B27


def test_7_3_1_only_arrestable_personalities_can_be_arrested() -> None:
    state = fresh()
    place(state, Marat="Paris", Robespierre="Paris")
    gov = seat(state, "F")
    engine = engine_at(state, [{"kind": "act", "segment": "arrest", "actor": "gov"}], [6, 6])
    with pytest.raises(IllegalAction):
        engine.act(gov, "try:Robespierre")
    engine.act(gov, "try:Marat")


def test_7_3_2_a_prisoner_is_freed_only_if_the_switch_revokes_his_outlaw_status() -> None:
    """Under the Convention the Feuillant is outlawed: a jailed Feuillant won over by
    the Marais is freed (back next turn). Marat, jailed as merely arrestable (not an
    outlaw), stays in prison when he changes sides."""
    state = fresh()
    state["regime"], state["outlawed"] = "convention", ["R", "F"]
    jail(state, "Barnave", "Marat")
    outcome_persuade(state, "M", "Barnave", "A", context())
    outcome_persuade(state, "SC", "Marat", "A", context())
    assert state["persons"]["Barnave"]["current"] == "M"
    assert state["persons"]["Barnave"]["status"] == "fled"
    assert state["persons"]["Marat"]["current"] == "SC"
    assert state["persons"]["Marat"]["status"] == "prison"


def test_7_3_2_persuasion_needs_main_or_secondary_current() -> None:
    state = fresh()
    place(state, Danton="Paris")
    m = seat(state, "M")
    engine = engine_at(state, [{"kind": "act", "segment": "persuade", "actor": "M"}], [6, 5])
    prompt = engine.prompt
    assert prompt is not None
    danton = next(c for c in prompt.choices if c.action == "try:Danton")
    assert "-2 secondary Current" in danton.detail
    assert not any(c.action == "try:Robespierre" for c in prompt.choices)
    engine.act(m, "try:Danton")
    engine.act(m, "rolls:1")
    assert engine.state["persons"]["Danton"]["current"] == "M"


# 7.4 Regional actions -------------------------------------------------------------------------


def test_7_4_1_mountain_plot_in_paris_example() -> None:
    """7.4.1: Robespierre and Danton in Paris, fame 12 +4 = column 16; 300 for three
    rolls (7, 9, 4); the 9 is an A: the Montagne holds Paris; both have acted."""
    state = fresh()
    state["currents"]["MT"]["fame"] = 12
    place(state, Robespierre="Paris", Danton="Paris")
    mt = seat(state, "MT")
    engine = engine_at(
        state, [{"kind": "act", "segment": "plot", "actor": "MT"}], [3, 4, 4, 5, 1, 3]
    )
    engine.act(mt, "try:Paris")
    engine.act(mt, "with:all")
    engine.act(mt, "rolls:3")
    engine.act(mt, "keep:1")
    assert engine.state["regions"]["Paris"]["control"] == "MT"
    assert engine.state["currents"]["MT"]["money"] == 50
    assert (
        engine.state["persons"]["Danton"]["acted"]
        and engine.state["persons"]["Robespierre"]["acted"]
    )


def test_7_4_2_only_currents_outside_the_assembly_start_revolts() -> None:
    state = fresh()
    place(state, Cadoudal="Brest", Sieyès="Tours")
    r, m = seat(state, "R"), seat(state, "M")
    engine = engine_at(
        state,
        [
            {"kind": "act", "segment": "revolt", "actor": "M"},
            {"kind": "act", "segment": "revolt", "actor": "R"},
        ],
        [6, 6],
    )
    prompt = engine.prompt
    # the Marais, officially present, is skipped
    assert prompt is not None and prompt.seat == r != m
    engine.act(r, "try:Brest")
    engine.act(r, "rolls:1")
    assert (
        engine.state["regions"]["Brest"]["revolt"]
        and engine.state["regions"]["Brest"]["control"] == "R"
    )


def test_7_4_2_a_revolt_in_a_hot_region_gets_two_more() -> None:
    """3.2.1, 7.4.2: Brest is a hot region, Rouen is not; a plot gets no such bonus."""
    state = fresh()
    hot = action_modifiers(state, "MT", "revolt", "Brest", [])
    cold = action_modifiers(state, "MT", "revolt", "Rouen", [])
    assert (2, "hot region") in hot and all(w != "hot region" for _, w in cold)
    assert all(w != "hot region" for _, w in action_modifiers(state, "MT", "plot", "Brest", []))


def test_9_7_1_only_the_royalist_acts_in_a_coalition_region_by_revolt_with_two_more() -> None:
    """Metz and Paris bear the Coalition marker, an Allied army still in each: the
    Royalist may start a revolt there (+2), even in Paris; the Montagne may neither plot
    nor revolt there."""
    state = fresh()
    for region in ("Metz", "Paris"):
        state["regions"][region]["coalition"] = True
        state["armies"].append(
            {"id": f"allied_{region}", "side": "allied", "kind": "allied", "where": region}
        )
    place(state, Cadoudal="Metz", Charette="Paris", Marat="Metz", Danton="Paris")
    royalist = [r for r, _ in targets(state, "revolt", "R")]
    assert "Metz" in royalist and "Paris" in royalist
    assert not {"Metz", "Paris"} & {r for r, _ in targets(state, "revolt", "MT")}
    assert not {"Metz", "Paris"} & {r for r, _ in targets(state, "plot", "MT")}
    assert not {"Metz", "Paris"} & {r for r, _ in targets(state, "plot", "R")}
    mods = action_modifiers(state, "R", "revolt", "Metz", [])
    assert (2, "Coalition region, 9.7.1") in mods


def test_7_4_4_raising_the_commune_at_level_one_needs_an_a() -> None:
    state = fresh()
    place(state, Roux="Paris")
    sc = seat(state, "SC")
    # fame 8, Roux influential +2 = column 10: 9 gives B, a failure at level I
    engine = engine_at(state, [{"kind": "act", "segment": "commune", "actor": "SC"}], [4, 5])
    engine.act(sc, "try:raise:Paris")
    assert not engine.state["commune"]["raised"]


# 7.5 Political Phase ----------------------------------------------------------------------


def test_7_5_2_3_a_law_once_per_turn() -> None:
    state = fresh()
    state["proposed"] = ["civic"]
    state["levee_this_turn"] = False
    assert not law_allowed(state, "G", "civic")
    assert law_allowed(state, "G", "war")
    assert not law_allowed(state, "F", "anti_emigrants")  # 13.2: never the Feuillant


# 9 Military -----------------------------------------------------------------------------------


def test_9_2_coalition_marker_frozen_in_war() -> None:
    state = fresh()
    ctx = context()
    declare_war(state, ctx, "test")
    assert state["tracks"]["coalition"] == 20
    adjust_track(state, "coalition", -3, ctx)
    assert state["tracks"]["coalition"] == 20  # B33: only the random events move it
    state["phase"] = "events"
    adjust_track(state, "coalition", -3, ctx)
    assert state["tracks"]["coalition"] == 17


# 14 Victory -----------------------------------------------------------------------------------


def test_14_4_thermidor_tally_example() -> None:
    """14.4: under Thermidor, Reaction (Marais at 25, Gironde and Montagne below) wins;
    the Marais beats the Feuillant; then F 2, G 3, MT 4, SC 5, R 6."""
    state = fresh()
    state["regime"] = "thermidor"
    vp = {"R": 13, "F": 15, "M": 25, "G": 23, "MT": 21, "SC": 27}
    win, family, _ = winner(state, vp)
    assert win == "M" and family == "thermidor"
    assert ranking(state, win, family) == {"R": 6, "F": 2, "M": 1, "G": 3, "MT": 4, "SC": 5}


def test_14_2_1_royalist_at_25_wins_outright() -> None:
    state = fresh()
    win, family, _ = winner(state, {"R": 25, "F": 40, "M": 0, "G": 0, "MT": 0, "SC": 0})
    assert (win, family) == ("R", "all")


# 15.2 Fewer players ---------------------------------------------------------------------------


def test_15_2_2_four_players_keep_five_leftist_personalities() -> None:
    state = new_state(4, {"euro": "off"})
    left = sorted(n for n, p in state["persons"].items() if p["current"] in ("MT", "SC"))
    assert left == ["Danton", "Hébert", "Marat", "Robespierre", "Saint-Just"]
    assert seat_of(state, "M") is None and seat_of(state, "MT") == seat_of(state, "SC") == 3


def test_15_2_2_the_left_seat_is_ranked_by_its_better_current() -> None:
    """B28: with 4 players the Montagne & Sans-Culotte seat takes the better rank of
    its two Currents; the automated Marais may win, and then no seat is first."""
    state = new_state(4, {"euro": "off"})
    state["regime"] = "terror"
    state["currents"]["SC"]["fame"] = 20
    state["regions"]["Paris"]["control"] = "SC"
    state["commune"] = {"raised": True, "controller": "SC"}
    state["assembly"]["F"]["count"] = 0
    state["assembly"]["M"]["count"] = 0
    for c in ("G", "MT"):
        state["currents"][c]["fame"] = 20
        state["assembly"][c]["count"] = 10
    finish_game(state, context())
    result = state["result"]
    left = seat(state, "SC")
    assert result["seat_rank"][left] == min(result["ranks"]["MT"], result["ranks"]["SC"]) == 1
    state = new_state(4, {"euro": "off"})
    state["regime"] = "convention"  # Reaction under the Convention: the Marais wins
    finish_game(state, context())
    assert state["result"]["winner"] == "M" and 1 not in state["result"]["seat_rank"]


def test_hidden_deputies_are_seen_only_by_their_owner() -> None:
    engine = new_engine(LaRevolutionFrancaise(), seed=1, players=6)
    r = seat(engine.state, "R")
    rows = engine.view(0 if r != 0 else 1)["seats"]
    assert rows[r]["fields"]["Deputies"] == "hidden"
    assert engine.view(r)["seats"][r]["fields"]["Deputies"] == 2
    assert engine.view(r)["you"]["Royaliste hidden deputies"] == 2
    assert engine.view(None)["assembly"]["center"] == {"M": 10, "hidden": 2}


def test_6_4_a_joint_objective_is_agreed_declared_once_and_shared() -> None:
    state = fresh()
    g, mt, r = (seat_of(state, c) for c in ("G", "MT", "R"))
    assert g is not None and mt is not None and r is not None
    assert ("R", "MT") not in pact_targets(state, r)  # 6.1: never the Royalist and the Left
    engine = engine_at(state, [{"kind": "negotiate", "seats": [mt], "index": 0}])
    engine.act(mt, "pact:MT:G")
    engine.act(g, "accept")
    after = engine.state
    assert after["pacts"] == [["MT", "G"]]
    assert "MT" not in declarers(after)  # the Gironde, first in turn order, declares for both
    kinds = objective_kinds(after, "G")
    assert "revolt" not in kinds and "law" not in kinds  # each must be able to do it alone
    assert "plot:Lyon" in [v for v, _ in kinds["plot"]]
    after["declared"] = {"G": "plot:Lyon", "MT": "plot:Lyon"}
    after["achieved"] = ["plot:Lyon:MT"]
    fame_for_objectives(after, context())
    assert after["currents"]["G"]["fame"] == 12 and after["currents"]["MT"]["fame"] == 10


def test_6_5_placement_short_list_and_the_governments_man_in_paris() -> None:
    state = fresh()
    state["order"] = ["MT", "F"]
    engine = engine_at(state, [{"kind": "placement", "order": ["MT", "F"], "index": 0}])
    mt, f = seat(state, "MT"), seat(state, "F")
    prompt = engine.prompt
    assert prompt is not None and prompt.text.startswith("Place Robespierre")
    places = [c.action for c in prompt.choices]
    # influential (Lille, Amiens, Paris), held by the Montagne (Lille), in revolt (Bourges)
    assert places == ["place:Lille", "place:Amiens", "place:Paris", "place:Bourges", "more"]
    engine.act(mt, "more")
    every = engine.prompt
    assert every is not None and len(every.choices) == 27  # 26 regions and "back"
    for _ in range(5):  # the Montagne's five Personalities, anywhere but Paris
        engine.act(mt, "place:Lille")
    feuillants = [
        n for n, p in engine.state["persons"].items() if p["current"] == "F" and n != "Louis XVI"
    ]
    for _ in feuillants[:-1]:
        engine.act(f, "place:Rouen")
    last = engine.prompt
    assert last is not None and [c.action for c in last.choices] == ["place:Paris"]  # 6.5


def test_7_1_the_odds_shown_for_an_action_match_the_table() -> None:
    """The odds a choice shows (its detail) are the table's, counted over the 36 ways
    two dice fall, and keeping the best of three rolls helps."""
    for modified in (1, 7, 10, 14, 20):
        counted = {"A": 0, "B": 0, "C": 0}
        for first in range(1, 7):
            for second in range(1, 7):
                counted[result(first + second, modified)] += 1
        shown = odds(modified)
        assert all(abs(shown[k] - counted[k] / 36) < 1e-9 for k in counted)
        best_of_three = odds(modified, 3)
        assert abs(sum(best_of_three.values()) - 1) < 1e-9
        assert best_of_three["A"] >= shown["A"] and best_of_three["C"] <= shown["C"]
    state = fresh()
    place(state, Robespierre="Paris", Danton="Paris")
    engine = engine_at(state, [{"kind": "act", "segment": "plot", "actor": "MT"}])
    prompt = engine.prompt
    assert prompt is not None
    paris = next(c for c in prompt.choices if c.action == "try:Paris")
    assert f"one roll gives {odds_text(13)}" in paris.detail  # fame 9 + 4 (7.4.1 example)


# 7.4.4 The Commune by the Commune track's level: (what, level, letter) -> raised, leader,
# and for a suppression who then holds Paris ("held" stays the Gironde's, as at set-up).
COMMUNE_TABLE = [
    ("raise", 1, "A", True, "SC"),
    ("raise", 1, "B", False, None),
    ("raise", 2, "A", True, "SC"),
    ("raise", 2, "B", True, None),
    ("raise", 2, "C", False, None),
    ("raise", 3, "B", True, "SC"),
    ("raise", 3, "C", False, None),
    ("suppress", 1, "B", False, "SC"),
    ("suppress", 1, "C", True, "held"),
    ("suppress", 2, "A", False, "SC"),
    ("suppress", 2, "B", False, None),
    ("suppress", 3, "A", False, "SC"),
    ("suppress", 3, "B", True, "held"),
]


@pytest.mark.parametrize(("what", "level", "letter", "raised", "who"), COMMUNE_TABLE)
def test_7_4_4_the_commune_by_level_and_result(
    what: str, level: int, letter: str, raised: bool, who: str | None
) -> None:
    state = fresh()
    state["tracks"]["commune"] = {1: 4, 2: 12, 3: 18}[level]
    if what == "suppress":
        state["commune"] = {"raised": True, "controller": "MT"}
    outcome_commune(state, "SC", f"{what}:Paris", letter, context())
    assert state["commune"]["raised"] == raised
    if what == "raise":
        assert state["commune"]["controller"] == (who if raised else None)
    elif not raised:
        assert state["regions"]["Paris"]["control"] == who  # the Current, or neutral
    else:
        assert state["commune"]["controller"] == "MT"  # a failure changes nothing
        assert state["regions"]["Paris"]["control"] == "G"


def test_7_4_4_commune_penalties_by_current() -> None:
    """The Montagne -2, the Gironde -4, and -2 more to suppress it (7.4.4, 7.4.4.2)."""
    state = fresh()
    state["commune"] = {"raised": True, "controller": "MT"}

    def total(actor: str, target: str) -> int:
        mods = action_modifiers(state, actor, "commune", target, [])
        return sum(m for m, w in mods if "ommune" in w)

    assert total("SC", "suppress:Paris") == -2
    assert total("MT", "suppress:Paris") == -4
    assert total("G", "suppress:Paris") == -6
    state["commune"] = {"raised": False, "controller": None}
    assert (total("SC", "raise:Paris"), total("MT", "raise:Paris")) == (0, -2)


# 7.4.1-7.4.3 results: (action, actor, region, letter) -> revolt after, controller after.
# Rouen is the Feuillant's; Bourges is in revolt at set-up, neutral.
REGIONAL_TABLE = [
    ("plot", "G", "Rouen", "A", False, "G"),
    ("plot", "G", "Rouen", "B", False, None),
    ("plot", "G", "Rouen", "C", False, "F"),
    ("revolt", "MT", "Rouen", "A", True, "MT"),
    ("revolt", "MT", "Rouen", "B", True, None),
    ("revolt", "MT", "Rouen", "C", False, "F"),
    ("suppress", "gov", "Bourges", "B", False, None),
    ("suppress", "G", "Bourges", "A", False, "G"),
    ("suppress", "G", "Bourges", "B", False, None),
    ("suppress", "G", "Bourges", "C", True, None),
]


@pytest.mark.parametrize(
    ("action", "actor", "region", "letter", "revolt", "holder"), REGIONAL_TABLE
)
def test_7_4_regional_action_results(
    action: str, actor: str, region: str, letter: str, revolt: bool, holder: str | None
) -> None:
    state = fresh()
    OUTCOMES[action](state, actor, region, letter, context())
    assert state["regions"][region]["revolt"] == revolt
    assert state["regions"][region]["control"] == holder


@pytest.mark.parametrize(
    ("regime", "actor", "letter", "status"),
    [
        ("legislative", "gov", "A", "prison"),
        ("legislative", "gov", "B", "fled"),
        ("terror", "gov", "B", "prison"),
        ("wrath", "gov", "B", "prison"),
        ("prairial", "gov", "B", "prison"),
        ("thermidor", "gov", "B", "fled"),
        ("legislative", "gov", "C", "free"),
        ("legislative", "MT", "A", "fled"),  # 7.3.1.2: a removal, never prison
        ("legislative", "MT", "C", "free"),
    ],
)
def test_7_3_1_arrest_results_by_regime(regime: str, actor: str, letter: str, status: str) -> None:
    """7.3.1.1: B jails only under the Terror, Wrath and Prairial, elsewhere he flees."""
    state = fresh()
    state["regime"] = regime
    place(state, Marat="Paris")
    OUTCOMES["arrest"](state, actor, "Marat", letter, context())
    assert state["persons"]["Marat"]["status"] == status
