"""Hidden dangers said on the choice's own line (issue 37): what the rules forbid is not
offered, what they make unlikely or punish is warned with the rule, and every roll a
person chooses says its odds."""

from __future__ import annotations

from lrf_helpers import allies_in_metz, engine_at, fresh, objectives_at, place, seat

from tabletop.framework import Prompt
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise
from tabletop.games.la_revolution_francaise.initial.objectives import objective_kinds
from tabletop.games.la_revolution_francaise.render import render_board
from tabletop.games.la_revolution_francaise.words import objective_warning

GAME = LaRevolutionFrancaise()


def explained(engine_prompt: Prompt | None) -> dict[str, tuple[str, str, str]]:
    assert engine_prompt is not None
    return {c.action: (c.label, c.detail, c.consequence) for c in engine_prompt.choices}


def placing(person: str, current: str) -> dict[str, tuple[str, str, str]]:
    """The explained placement prompt of ``person``, every region offered."""
    state = fresh(players=4)
    state["phase"] = "placement"
    for name, p in state["persons"].items():
        if p["current"] == current and name not in (person, "Louis XVI"):
            p["where"] = "Nantes"
    engine = engine_at(state, [{"kind": "placement", "order": [current], "index": 0}])
    assert engine.prompt is not None
    engine.act(engine.prompt.seat, "more")
    return explained(engine.explained_prompt)


def test_r_1_4_1_placing_an_arrestable_leader_warns_of_arrest_with_its_odds() -> None:
    """Charette is arrestable under the Legislative (R.1.4.1): each region says so with
    the Government's arrest odds there, lower where his own Current holds (-4, 7.3.1.1);
    d'Antraigues is not arrestable and gets no such line."""
    choices = placing("Charette", "R")
    paris, nantes = choices["place:Paris"][2], choices["place:Nantes"][2]
    assert "arrestable under the Legislative (R.1.4.1)" in paris
    assert "(7.3.1)" in paris and "A 17% prison" in paris
    assert "A 8% prison" in nantes  # Nantes is the Royalist's: -4
    safe = placing("d'Antraigues", "R")
    assert not any("arrestable" in c for _, _, c in safe.values())


def test_7_3_1_2_placing_where_a_current_outside_the_assembly_holds_warns_of_removal() -> None:
    """Lille is the Montagne's, and the Montagne sits outside the Legislative's Assembly
    (R.1.2.1): it may remove a Personality placed there (7.3.1.2)."""
    choices = placing("d'Antraigues", "R")
    assert "the Montagne holds Lille and" in choices["place:Lille"][2]
    assert "(7.3.1.2)" in choices["place:Lille"][2]
    assert "Rouen" not in choices["place:Rouen"][2]  # the Feuillant's: present, no removal


def test_7_4_no_plot_objective_where_the_coalition_holds_or_a_revolt_burns() -> None:
    state = fresh(players=4)
    allies_in_metz(state, coalition=18)
    plots = [value for value, _ in objective_kinds(state, "R")["plot"]]
    assert "plot:Metz" not in plots  # 7.4: only a Royalist revolt there
    assert "plot:Bourges" not in plots  # in revolt at the start (7.4.1)
    assert "plot:Paris" in plots


def test_6_4_2_have_a_law_passed_only_for_a_current_present_in_the_assembly() -> None:
    """Under the Legislative the Royalist and the Montagne are not officially present
    (R.1.2.1) and cannot propose a law (7.5.2.3), so the kind is not offered to them."""
    state = fresh(players=4)
    assert "law" not in objective_kinds(state, "R")
    assert "law" not in objective_kinds(state, "MT")
    assert "law" in objective_kinds(state, "G")


def test_7_3_1_1_the_government_declares_only_arrests_it_may_attempt() -> None:
    state = fresh(players=4)
    arrests = [value for value, _ in objective_kinds(state, "gov")["arrest"]]
    assert "arrest:Charette" in arrests and "arrest:Marat" in arrests  # R.1.4.1
    assert "arrest:Danton" not in arrests and "arrest:Barnave" not in arrests
    state["persons"]["Charette"]["status"] = "prison"
    assert "arrest:Charette" not in [v for v, _ in objective_kinds(state, "gov")["arrest"]]


def test_objectives_the_table_makes_unlikely_are_warned_with_the_rule() -> None:
    state = fresh(players=4)
    # a revolutionary army stands in Lille at the start
    assert "an army stands in Lille" in objective_warning(state, "revolt:Lille", "MT")
    assert "(7.4.2)" in objective_warning(state, "revolt:Lille", "MT")
    assert objective_warning(state, "revolt:Nevers", "MT") == ""
    assert "cannot start revolts" in objective_warning(state, "revolt:Nevers", "G")
    assert "no enemy army" in objective_warning(state, "destroy:Lille", "gov")
    assert "not raised" in objective_warning(state, "suppress_commune", "SC")
    assert "cannot act on the Commune" in objective_warning(state, "raise_commune", "R")
    state["commune"] = {"raised": True, "controller": "SC"}
    assert "already raised" in objective_warning(state, "raise_commune", "SC")


def test_the_objective_menu_carries_the_warning_for_its_declarer() -> None:
    state = fresh(players=4)
    engine = objectives_at(state, "G", kind="revolt")
    choices = explained(engine.explained_prompt)
    _, _, warning = choices["objective:revolt:Nevers"]
    assert "the Gironde sits in the Assembly" in warning


def test_an_attempt_unlikely_to_succeed_is_warned() -> None:
    """A plot needs an A (7.4.1): at fame 1 with nobody influential, A is rare and the
    choice says so; a likely one says nothing of the kind."""
    state = fresh(players=4)
    place(state, Danton="Caen")
    state["currents"]["MT"]["fame"] = 1
    engine = engine_at(state, [{"kind": "act", "segment": "plot", "actor": "MT"}])
    warning = explained(engine.explained_prompt)["try:Caen"][2]
    assert "unlikely: A on" in warning and "(7.4.1)" in warning
    state = fresh(players=4)
    place(state, Danton="Paris", Robespierre="Paris")
    state["currents"]["MT"]["fame"] = 14
    engine = engine_at(state, [{"kind": "act", "segment": "plot", "actor": "MT"}])
    assert "unlikely" not in explained(engine.explained_prompt)["try:Paris"][2]


def test_7_5_2_1_swaying_deputies_gives_its_odds() -> None:
    state = fresh(players=4)
    state["phase"] = "political"
    place(state, Danton="Paris")
    engine = engine_at(state, [{"kind": "sway", "actor": "MT"}])
    choices = explained(engine.explained_prompt)
    assert "column 9; one roll" in choices["sway:SC"][1]
    assert "A 17%, B 42%, C 42%" in choices["sway:SC"][1]
    marais = choices["sway:M"][1]  # the automated Marais: -4 (15.2.1.2)
    assert "-4 automated Marais" in marais and "column 5" in marais


def test_7_5_2_2_the_kings_coalition_step_says_why() -> None:
    state = fresh(players=4)
    state["persons"]["Louis XVI"]["current"] = "R"
    engine = engine_at(state, [{"kind": "king_action"}])
    _, detail, _ = explained(engine.explained_prompt)["king:both"]
    assert "the Allies pay the Royalist by the Coalition's level" in detail
    assert "(10.2.1" in detail and "(9.2.2)" in detail


def test_the_board_shows_each_declared_objectives_standing() -> None:
    """Open while it can still be met, met once it is (6.4), missed once its last
    chance is past, void when the Government changed hands (10.3)."""
    state = fresh(players=4)
    state["declared"] = {"gov": "suppress:Bourges", "G": "plot:Caen", "R": "law:maximum"}
    state["gov"]["controller_at_objectives"] = state["gov"]["controller"]
    state["phase"] = "actions"
    status = GAME.view(state, seat(state, "R"))["declared_status"]
    assert status == {"gov": "open", "G": "open", "R": "open"}
    state["achieved"].append("plot:Caen:G")
    state["phase"] = "political"
    status = GAME.view(state, None)["declared_status"]
    assert status == {"gov": "missed", "G": "met", "R": "open"}
    state["phase"] = "patriot"
    state["gov"]["controller"] = "G"
    view = GAME.view(state, None)
    assert view["declared_status"] == {"gov": "void", "G": "met", "R": "missed"}
    board = " ".join(render_board(view).split())
    assert "Take Caen by a plot (met)" in board
    assert "(void: the Government changed hands)" in board
