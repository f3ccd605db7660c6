"""The Open scenario (4.1): its regime changes without coups, referendums, and the
two-headed Directorate (R.2.8.2-R.10)."""

from __future__ import annotations

from lrf_helpers import allies_in_metz, context, engine_at, fresh, place, seat

from tabletop.framework import State
from tabletop.framework.decisions import Agreement, OrderedVote, ResponseWindow
from tabletop.framework.engine import Engine
from tabletop.games.la_revolution_francaise.coups.military_coup import rally_bases
from tabletop.games.la_revolution_francaise.coups.offer import coup_offer_start
from tabletop.games.la_revolution_francaise.in_turn import in_turn
from tabletop.games.la_revolution_francaise.interphase import fame_for_objectives
from tabletop.games.la_revolution_francaise.political.install import choose_partner, install
from tabletop.games.la_revolution_francaise.political.referendum import ballots, referendum_task
from tabletop.games.la_revolution_francaise.political.regime import regime_options, regime_window


def convention(scenario: str) -> State:
    state = fresh(scenario=scenario)
    install(state, "convention", context())
    state["commune"] = {"raised": True, "controller": "SC"}
    state["tracks"]["commune"] = 12
    return state


def test_r_2_8_2_mercy_only_in_the_open_scenario() -> None:
    assert ("SC", "mercy", "install") in regime_options(convention("open"))
    assert regime_options(convention("historical")) == []


def test_r_2_8_3_the_gironde_proposes_the_federal_republic_by_referendum() -> None:
    state = convention("open")
    for raised, leader, offered in ((True, None, False), (True, "G", True), (False, None, True)):
        state["commune"] = {"raised": raised, "controller": leader}
        assert (("G", "ffr", "referendum") in regime_options(state)) == offered
    state["commune"] = {"raised": False, "controller": None}
    engine = engine_at(state, [referendum_task(state, "ffr", "G", pending=False)])
    for current in state["order"]:
        prompt = engine.prompt
        assert prompt is not None and prompt.seat == seat(state, current)
        if current == "G":  # the Government's Current always votes yes
            assert [c.action for c in prompt.choices] == ["vote:yes"]
        engine.act(prompt.seat, "vote:yes" if current == "G" else "vote:no")
    # every region but the Gironde's votes no: more than 13, rejected
    assert engine.state["regime"] == "convention"


def test_r_2_8_3_1_ballots_skip_revolts_and_enemy_armies_but_not_paris() -> None:
    state = fresh()
    assert ballots(state, "G") == 4
    state["regions"]["Caen"]["revolt"] = True
    state["armies"].append({"id": "cobourg", "side": "allied", "kind": "allied", "where": "Paris"})
    assert ballots(state, "G") == 3  # Caen no longer votes; Paris always does


def test_r_3_8_3_the_marais_installs_mercy_from_the_terror_at_peace() -> None:
    state = fresh(scenario="open")
    install(state, "terror", context())
    assert ("M", "mercy", "install") in regime_options(state)
    engine = engine_at(state, [{"kind": "regime_change", "window": regime_window(state)}])
    engine.act(seat(state, "M"), "install:mercy")
    after = engine.state
    assert after["regime"] == "mercy" and after["gov"]["controller"] == "M"
    assert after["persons"]["Danton"]["current"] == "M"  # R.6.1.1


def test_r_4_8_1_thermidor_referendum_installs_the_directorate_next_turn() -> None:
    state = fresh(scenario="open")
    install(state, "thermidor", context())
    engine = engine_at(state, [{"kind": "end_of_turn_referendum"}])
    while engine.prompt is not None:
        engine.act(engine.prompt.seat, "vote:yes")
    assert engine.state["pending_regime"] == "directorate"
    engine = engine_at(engine.state, [{"kind": "pending_regime"}])
    after = engine.state
    assert after["regime"] == "directorate" and after["gov"]["controller"] == "M"
    assert after["gov"]["partner"] in ("F", "G", "MT")  # R.7.2: the most deputies


def test_r_7_2_2_the_directorate_decides_by_agreement_and_a_die_off() -> None:
    state = fresh(scenario="open")
    install(state, "directorate", context())
    partner = state["gov"]["partner"]
    m, p = seat(state, "M"), seat(state, partner)
    decide = {
        "key": "pikes",
        "by": "gov",
        "question": "Pikes?",
        "yes": ["track commune -1"],
        "no": ["track commune 1"],
    }
    engine = engine_at(state, [{"kind": "gov_decision", "decision": decide}], [4, 5])
    first = engine.prompt
    assert first is not None and first.seat == m and "shared Government" in first.text
    engine.act(m, "decide:yes")
    second = engine.prompt
    assert second is not None and second.seat == p
    assert "yes" not in str(engine.view(p)["shared_decision"])  # sealed until both answer
    assert Agreement(engine.state["shared"]).answers() == {m: "decide:yes"}
    engine.act(p, "decide:no")  # they differ: the others may back a side (R.7.2.2)
    backers = 0
    while engine.prompt is not None and engine.prompt.rule == "R.7.2.2":
        answer = "back:none" if backers else f"back:{m}"  # the first backs the Marais: +2
        engine.act(engine.prompt.seat, answer)
        backers += 1
    assert backers >= 1
    assert engine.state["tracks"]["commune"] == 3  # the Marais' 4 + 2 beats 5: its yes stands


# 12 Coups ----------------------------------------------------------------------------------


def test_12_0_no_coups_in_the_historical_scenario() -> None:
    state = fresh()
    state["gov"]["controller"] = "G"
    place(state, Barnave="Paris")
    engine = engine_at(state, [{"kind": "coup_offer_start", "coup": "limited"}])
    assert engine.prompt is None  # B5


def test_12_0_one_coup_of_each_kind_a_turn_and_none_limited_after_another() -> None:
    """The same position offers a limited coup (the Marais under the Federal Republic)
    unless a coup was already tried this turn; a second popular or military coup after
    a popular one is never offered."""
    for tried, offered in ((None, True), ("coup_turn", False)):
        state = fresh(scenario="open")
        install(state, "ffr", context())
        place(state, Barras="Paris")
        if tried is not None:
            state[tried] = state["turn"]
        engine = engine_at(state, [{"kind": "coup_offer_start", "coup": "limited"}])
        prompt = engine.prompt
        assert (prompt is not None and prompt.rule == "12.2") == offered
    state = fresh(scenario="open")
    state["popular_turn"] = state["turn"]
    for kind in ("popular", "military"):
        coup_offer_start(state, {"kind": "coup_offer_start", "coup": kind}, context())
        assert not state["tasks"]


def test_r_9_7_1_a_limited_coup_seizes_the_government() -> None:
    state = fresh(scenario="open")
    install(state, "ffr", context())
    place(state, Barras="Paris", Robespierre="Paris")
    m, mt = seat(state, "M"), seat(state, "MT")
    engine = engine_at(state, [{"kind": "coup_offer_start", "coup": "limited"}], [6, 6])
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == m and prompt.rule == "12.2"
    engine.act(m, "coup:gov:1")
    reaction = engine.prompt
    assert reaction is not None and reaction.seat == mt  # present in Paris, not governing
    engine.act(mt, "react:-1")
    after = engine.state
    assert after["gov"]["controller"] == "M" and after["currents"]["M"]["fame"] == 11
    assert after["currents"]["G"]["fame"] == 10 and after["currents"]["M"]["money"] == 700


def test_12_1_1_a_failed_popular_coup_jails_and_outlaws() -> None:
    state = fresh(scenario="open")
    install(state, "convention", context())
    state["commune"] = {"raised": True, "controller": "SC"}
    place(state, Robespierre="Paris", Roux="Paris")
    state["currents"]["MT"]["money"] = 500
    mt, sc = seat(state, "MT"), seat(state, "SC")
    deputies_before = state["assembly"]["MT"]["count"]
    engine = engine_at(state, [{"kind": "coup_offer_start", "coup": "popular"}], [1, 2])
    engine.act(mt, "coup:mercy:1")
    permission = engine.prompt
    assert permission is not None and permission.seat == sc and permission.rule == "12.1"
    engine.act(sc, "permit:yes")
    engine.act(sc, "react:0")
    after = engine.state
    assert after["regime"] == "convention" and "MT" in after["outlawed"]
    assert after["persons"]["Robespierre"]["status"] == "prison"
    assert (
        after["assembly"]["MT"]["count"] == 0
        and after["assembly"]["MT"]["aside"] == deputies_before
    )
    assert after["tracks"]["commune"] == 1  # 4 - 3


def military_coup_position() -> State:
    state = fresh(scenario="open")
    place(state, Brissot="Metz")
    return state


def test_12_3_a_rallied_army_marches_on_paris_and_installs_the_convention() -> None:
    state = military_coup_position()
    g = seat(state, "G")
    engine = engine_at(state, [{"kind": "coup_offer_start", "coup": "military"}], [6, 6, 6, 6])
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "12.3"
    assert "coup:convention:Metz:1" in [c.action for c in prompt.choices]
    engine.act(g, "coup:convention:Metz:1")
    after = engine.state
    assert after["regime"] == "convention" and after["gov"]["controller"] == "G"
    assert not after["persons"]["Brissot"]["outlaw"]
    assert any(a["id"] == "regular_metz" and a["where"] == "Paris" for a in after["armies"])


def test_12_3_3_1_a_failed_march_outlaws_the_plotters() -> None:
    state = military_coup_position()
    g = seat(state, "G")
    engine = engine_at(state, [{"kind": "coup_offer_start", "coup": "military"}], [6, 6, 1, 1])
    engine.act(g, "coup:convention:Metz:1")
    after = engine.state
    assert after["regime"] == "legislative" and "G" in after["outlawed"]
    assert after["persons"]["Brissot"]["status"] == "prison"
    assert not any(a["id"] == "regular_metz" for a in after["armies"])  # C: the rebels lose it
    assert after["tracks"]["commune"] == 9  # +5 (12.3.3.1)


def test_12_3_1_marat_can_never_rally_an_army() -> None:
    state = fresh(scenario="open")
    install(state, "convention", context())
    place(state, Marat="Metz")
    assert rally_bases(state, "MT") == {}
    place(state, Danton="Metz")
    assert rally_bases(state, "MT") == {"Metz": ["Danton"]}


def test_r_x_1_1_installing_federal_and_one_indivisible_republics() -> None:
    state = fresh(scenario="open")
    state["regions"]["Bordeaux"]["control"] = "F"
    install(state, "ffr", context())
    assert state["regions"]["Bordeaux"]["control"] is None  # R.9.1.1
    state["regions"]["Paris"]["control"] = "G"
    install(state, "froi", context(), by="SC")
    assert state["regions"]["Paris"]["control"] is None  # R.10.1.1
    assert state["gov"]["controller"] == "SC" and state["froi_variant"] == "SC"


def test_r_7_2_3_a_failed_government_objective_costs_both_partners() -> None:
    state = fresh(scenario="open")
    install(state, "directorate", context())
    partner = state["gov"]["partner"]
    before = {c: state["currents"][c]["fame"] for c in ("M", partner)}
    state["gov"]["controller_at_objectives"] = "M"
    state["declared"] = {"gov": "arrest:Marat"}
    fame_for_objectives(state, context())
    assert {c: state["currents"][c]["fame"] for c in ("M", partner)} == {
        c: f - 1 for c, f in before.items()
    }


def test_r_7_2_the_marais_chooses_its_partner_on_a_tie() -> None:
    state = fresh(scenario="open")
    state["regime"], state["gov"]["controller"] = "directorate", "M"
    state["assembly"]["F"]["count"] = state["assembly"]["G"]["count"] = 5
    state["assembly"]["MT"]["count"] = 0
    state["tasks"] = []
    choose_partner(state, context())
    engine = engine_at(state, list(reversed(state["tasks"])))
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat(state, "M")
    assert [c.action for c in prompt.choices] == ["partner:F", "partner:G"]
    engine.act(seat(state, "M"), "partner:G")
    assert engine.state["gov"]["partner"] == "G"


def directorate_toppled(votes: dict[str, str]) -> Engine:
    """The Marais and the Gironde govern; a majority of disapproval topples the Gironde
    and the Assembly elects another partner, each seat voting ``votes``."""
    state = fresh(scenario="open")
    state["regime"] = "directorate"
    state["gov"].update({"controller": "M", "partner": "G"})
    for current, count in (("M", 10), ("F", 6), ("G", 8), ("MT", 4), ("R", 0), ("SC", 0)):
        state["assembly"][current].update({"count": count, "hidden": False})
    voters = [seat(state, c) for c in ("M", "F", "G", "MT")]
    engine = engine_at(
        state, [{"kind": "confidence", "vote": OrderedVote.new("confidence", voters)}]
    )
    engine.act(seat(state, "M"), "vote:disapproval")
    for current in ("F", "G", "MT"):
        engine.act(seat(state, current), "vote:disapproval")
    for current in [c for c in engine.state["order"] if c in votes]:  # in turn order
        choice = votes[current]
        prompt = engine.prompt
        assert prompt is not None and prompt.rule == "R.7.2"  # opens R.7.2, which tells R.7.5 too
        assert prompt.seat == seat(state, current)  # never the toppled Gironde
        assert [c.action for c in prompt.choices] == ["elect:F", "elect:MT"]
        engine.act(seat(state, current), f"elect:{choice}")
    return engine


def test_r_7_5_the_assembly_elects_the_new_partner_without_the_old_ones_deputies() -> None:
    """The Montagne has fewer deputies than the Feuillant but the Marais' 10 ballots
    elect it: 14 to 6."""
    engine = directorate_toppled({"M": "MT", "F": "F", "MT": "MT"})
    assert engine.state["gov"]["partner"] == "MT" and engine.state["gov"]["controller"] == "M"


def test_r_7_5_on_a_tie_the_marais_chooses_the_partner() -> None:
    engine = directorate_toppled({"M": "F", "F": "MT", "MT": "MT"})  # 10 to 10
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "R.7.2" and prompt.seat == seat(engine.state, "M")
    engine.act(seat(engine.state, "M"), "partner:F")
    assert engine.state["gov"]["partner"] == "F"


def test_11_3_the_kidnapped_king_may_leave_with_a_catholic_army() -> None:
    state = fresh()
    state["king"].update({"kidnapped": True, "where": "Cholet"})
    state["persons"]["Louis XVI"].update({"current": "R", "where": "Cholet"})
    state["armies"].append({"id": "acr", "side": "catholic", "kind": "catholic", "where": "Cholet"})
    place(state, Charette="Cholet")
    engine = engine_at(state, [{"kind": "catholic_move_start"}])
    engine.act(seat(state, "R"), "king:Angers")
    assert engine.state["king"]["where"] == "Angers"
    assert engine.state["persons"]["Louis XVI"]["where"] == "Angers"


def test_11_3_the_kidnapped_king_may_leave_with_an_allied_army() -> None:
    state = fresh()
    allies_in_metz(state, coalition=12)
    state["king"].update({"kidnapped": True, "where": "Metz"})
    state["persons"]["Louis XVI"].update({"current": "R", "where": "Metz"})
    engine = engine_at(state, [{"kind": "allied_move"}, {"kind": "king_follow"}])
    prompt = engine.prompt
    assert prompt is not None and prompt.rule == "11.3"
    assert [c.action for c in prompt.choices] == ["follow:stay", "follow:Paris"]
    engine.act(seat(state, "R"), "follow:Paris")
    assert engine.state["king"]["where"] == "Paris"


def test_12_0_the_coup_offer_is_a_response_window_of_currents() -> None:
    """Under the Directorate the Feuillant and the Montagne may each try to govern alone
    (R.7.7.1): the offer is a framework ResponseWindow whose parties are the Currents. The
    Feuillant, with nobody in Paris to plot, is dropped when its turn comes; the Montagne
    is asked, and once it passes nobody is left."""
    state = fresh(scenario="open")
    state["regime"] = "directorate"
    state["gov"]["controller"] = "G"
    for person in state["persons"].values():
        if person["current"] in ("F", "MT") and person["where"] == "Paris":
            person["where"] = None
    place(state, Robespierre="Paris")
    engine = engine_at(state, [{"kind": "coup_offer_start", "coup": "limited"}])
    window = ResponseWindow(engine.state["tasks"][-1]["window"])
    assert window.parties == ["F", "MT"] and window.seats == [seat(state, "F"), seat(state, "MT")]
    prompt = engine.prompt
    assert prompt is not None and prompt.seat == seat(state, "MT") and prompt.rule == "12.2"
    engine.act(prompt.seat, "coup:none")
    assert engine.prompt is None or engine.prompt.rule != "12.2"
    assert not any(task["kind"] == "coup_offer" for task in engine.state["tasks"])


def test_12_0_a_seat_with_two_currents_is_asked_for_each() -> None:
    """With 4 players one seat plays the Montagne and the Sans-Culotte (15.2): a window
    of both asks that seat twice, once for each Current, in their places in the order."""
    state = fresh(players=4, scenario="open")
    window = ResponseWindow(in_turn(state, "popular", ["MT", "G", "SC"], "coup:none"))
    both = seat(state, "MT")
    assert seat(state, "SC") == both and window.seats == [both, seat(state, "G"), both]
    window.answer(both, "coup:none")
    window.answer(seat(state, "G"), "coup:none")
    assert (window.next_seat, window.next_party) == (both, "SC")
