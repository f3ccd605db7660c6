"""Round structure (§5-§6), end of round (§10-§11), Final Crisis (§12), victory (§13)."""

from __future__ import annotations

from rfop_helpers import GAME, C, Driver, V, at_play, clear_board, set_cubes

from tabletop.games.red_flag_over_paris import board
from tabletop.games.red_flag_over_paris.data import CARDS


def _through_objectives(d: Driver) -> None:
    assert d.seat == V  # Versailles picks first; both picks are secret
    d.act(d.prompt_actions()[0])
    assert d.seat == C
    d.act(d.prompt_actions()[1])


def test_deal_and_secret_objective_choice() -> None:
    d = Driver(3)
    st = d.state
    assert [len(h) for h in st["hands"]] == [4, 4]
    assert [len(h) for h in st["obj_hand"]] == [2, 2]
    offered = list(st["obj_hand"][C])
    _through_objectives(d)
    assert st["objective"][C] == offered[1]
    assert st["obj_discarded"][C] == [offered[0]]
    view_v = GAME.view(st, V)
    assert view_v["objective"] == st["objective"][V]
    assert view_v["objective_choices"] == []
    assert st["objective"][C] not in view_v["revealed_objectives"]
    # the discarded objective is never named to anyone but its owner
    public = [e.text for e in d.events if e.seats is None]
    assert not any(CARDS[offered[0]].title in t for t in public)


def test_initiative_commune_wins_ties_and_leader_chooses() -> None:
    d = Driver(3)
    _through_objectives(d)
    assert d.seat == C  # 0 - 0 against 0 - 0: tie goes to the Commune
    assert d.prompt_actions() == ["first", "second"]
    d.act("second")
    assert d.state["initiative"] == V
    assert d.seat == V and d.state["stack"][-1]["name"] == "card_play"


def test_initiative_level_is_political_vp_minus_momentum() -> None:
    d = Driver(3)
    st = d.state
    board.add_vp(st, V, "political", 1)
    assert GAME.initiative_leader(st) == V  # 1 - 0 against -1 - 0
    st["momentum"][V] = 2
    assert GAME.initiative_leader(st) == C  # -1 against -1: tie, Commune
    st["momentum"][V] = 3
    assert GAME.initiative_leader(st) == C


def test_alternate_three_plays_then_set_aside() -> None:
    d = Driver(5)
    _through_objectives(d)
    d.act("first")  # the Commune leads and plays first
    order = []
    while d.state["step"] == "plays" or d.state["stack"][-1]["name"] != "bonus_order":
        task = d.state["stack"][-1]
        if task["name"] == "card_play":
            order.append(task["seat"])
            mom = [a for a in d.prompt_actions() if a.startswith("ops:")]
            d.act(mom[0])
            continue
        if d.state["step"] not in ("plays", "aside"):
            break
        d.act("done" if "done" in d.prompt_actions() else d.prompt_actions()[-1])
    assert order == [C, V, C, V, C, V]
    assert [len(a) for a in d.state["aside"]] == [1, 1]
    assert d.state["hands"] == [[], []]


def _end_round_with(d: Driver, seat: int, card: int) -> None:
    d.act(f"mom:{card}", seat)


def test_pivotal_bonus_order_and_actions() -> None:
    cubes = {
        "press": (2, 0),
        "catholic_church": (0, 1),
        "butte_montmartre": (0, 2),
        "butte_aux_cailles": (1, 0),
    }
    d = at_play(2, V, [4], cubes=cubes)
    st = d.state
    _end_round_with(d, V, 4)
    # Versailles (Initiative Player) orders the two bonus actions
    assert d.seat == V
    assert sorted(d.prompt_actions()) == ["pivot:butte_montmartre", "pivot:press"]
    d.act("pivot:butte_montmartre")
    assert d.seat == C
    acts = d.prompt_actions()
    assert {"deesc", "spread", "turn:butte_aux_cailles", "pass"} <= set(acts)
    d.act("turn:butte_aux_cailles")  # Turncoat
    assert st["cubes"]["butte_aux_cailles"] == [0, 1]
    # the remaining pivotal space follows automatically
    assert d.seat == V
    d.act("deesc")
    d.act("own:press")
    assert "opp:catholic_church" in d.prompt_actions()
    d.act("opp:catholic_church")
    assert st["cubes"]["press"][V] == 1 and st["cubes"]["catholic_church"][C] == 0


def test_spread_influence_moves_up_to_two_cubes() -> None:
    d = at_play(2, V, [4], cubes={"press": (3, 0)})
    st = d.state
    _end_round_with(d, V, 4)
    d.act("spread")
    d.act("from:press")
    d.act("to:catholic_church")
    d.act("from:press")
    d.act("to:social_movements")
    assert st["cubes"]["press"][V] == 1
    assert st["cubes"]["catholic_church"][V] == 1
    assert st["cubes"]["social_movements"][V] == 1
    # Versailles controls the whole of Public Opinion and scores 1 Political VP
    assert board.vp_of(st, V, "political") == 1


def test_dimension_scoring_order_is_asked_when_both_score() -> None:
    versailles = dict.fromkeys(("royalists", "national_assembly", "republicans"), (1, 0))
    commune = dict.fromkeys(("butte_montmartre", "butte_aux_cailles", "pere_lachaise"), (0, 1))
    d = at_play(2, C, [18], cubes=versailles | commune)
    st = d.state
    _end_round_with(d, C, 18)
    # bonus actions first (both pivotal spaces held), all passed
    while st["stack"] and st["stack"][-1]["name"] in ("bonus_order", "bonus_action"):
        d.act("pass" if "pass" in d.prompt_actions() else d.prompt_actions()[0])
    assert st["stack"][-1] == {"name": "scoring_order", "seat": C, "scoring": "dimensions"}
    d.act("first:1")
    assert st["vp"] == {"political": 1, "military": -1}


def test_objective_scoring_and_fulfilment() -> None:
    d = at_play(2, V, [4], cubes={"republicans": (1, 0), "fort_issy": (1, 0)})
    st = d.state
    for card in (52, 45):
        st["obj_deck"].remove(card)
    st["objective"] = [52, 45]  # Versailles: Republicans; Commune: Fort d'Issy
    _end_round_with(d, V, 4)
    # Versailles controls both spaces: 1 Political + 1 Military VP, no order needed
    assert board.vp_of(st, V, "political") == 1 and board.vp_of(st, V, "military") == 1
    assert d.prompt_actions() == ["perform", "skip"] and d.seat == V
    d.act("perform")  # Rise of Republicanism: place up to 1 cube in Republicans
    d.act("put:republicans")
    assert st["cubes"]["republicans"][V] == 2
    assert st["fulfilled"] == [[52], []]
    assert 45 in st["obj_removed"]  # the Commune did not control its own objective


def test_final_crisis_after_both_zones_breached() -> None:
    d = at_play(2, V, [4, 5])
    st = d.state
    st["plays"][V] = 2
    st["breached"][V][3] = st["breached"][C][3] = True
    st["aside"][C] = [st["deck"].pop()]
    _end_round_with(d, V, 4)
    assert st["fc"] is True and st["round"] == 1
    # hands: set-aside card + Final Crisis card, cut to 1 card (1 round played)
    assert len(st["hands"][V]) == 2 and 17 in st["hands"][V]
    prompts = set()
    while st["stack"][-1]["name"] == "final_crisis_discard":
        prompts.add(d.seat)
        d.act(d.prompt_actions()[0])
    assert prompts == {V, C}
    assert [len(h) for h in st["hands"]] == [1, 1]
    assert st["stack"][-1]["name"] == "initiative_order"


def test_final_crisis_events_only_and_opponent_decides() -> None:
    d = at_play(2, V, [21, 4], rnd=3)
    st = d.state
    st["fc"] = True
    st["plays"] = [0, 0]
    st["hands"][C] = [st["deck"].pop()]
    acts = d.prompt_actions()
    assert acts == ["ev:21", "ev:4"]  # no operations, momentum or Final Crisis card use
    d.act("ev:21")  # Le Réveil is the Commune's event
    assert d.seat == C and d.prompt_actions() == ["apply", "decline"]
    set_before = list(st["cubes"]["press"])
    d.act("apply")
    # the Commune now carries out its own event: remove a Versailles cube, place its own
    assert d.seat == C
    d.act("take:press")
    d.act("put:press")
    assert st["cubes"]["press"] == [set_before[0] - 1, set_before[1] + 1]


def test_round_three_ends_in_final_crisis_and_momentum_vp() -> None:
    d = at_play(2, V, [4], rnd=3, cubes={})
    st = d.state
    st["momentum"] = [3, 3]
    st["fc_card"] = [False, False]
    st["removed"] += [17, 34]
    d.act("ops:4")
    d.act("kind:political")
    while GAME.prompt(st) is not None:
        acts = d.prompt_actions()
        pick = next((a for a in acts if a in ("done", "stop", "pass", "skip", "first")), acts[0])
        d.act(pick)
    assert st["fc"] is True
    # Versailles +1 Military, Commune +1 Political for momentum 3
    assert st["vp"] == {"political": -1, "military": 1}
    result = GAME.result(st)
    assert result is not None


def test_final_crisis_event_without_its_condition_has_no_effect() -> None:
    d = at_play(2, C, [22, 18], rnd=3)
    st = d.state
    st["fc"] = True
    st["plays"] = [0, 0]
    set_cubes(st, "butte_montmartre", 0, 0)
    d.act("ev:22")  # Execution of Generals needs Versailles cubes in Butte Montmartre
    assert st["stack"][-1] == {"name": "card_play", "seat": C}
    assert any("no effect" in t for t in d.texts())


def test_breach_in_a_bonus_action_pays_out_at_its_end() -> None:
    d = at_play(2, V, [4], cubes={"press": (2, 0), "catholic_church": (0, 1)})
    st = d.state
    st["out"][V] += st["track"][V][0] + st["prussian"][0]
    st["track"][V][0] = 0  # the next Versailles cube breaches Escalation
    st["prussian"][0] = 0  # (and advancing momentum below brings no cubes)
    _end_round_with(d, V, 4)
    d.act("turn:catholic_church")  # Turncoat takes a cube from the Crisis Track
    assert st["cubes"]["catholic_church"] == [1, 0]
    assert st["breached"][V][1] and st["bonus"][V][1] == 0
    assert st["pool"][V] == 1  # Escalation's bonus cube arrived when the action ended


def _final(
    vp_pol: int,
    vp_mil: int,
    *,
    fulfilled: list[list[int]] | None = None,
    initiative: int = C,
    cubes: dict[str, tuple[int, int]] | None = None,
) -> tuple[int, str]:
    """The winner and its reason on a map empty but for ``cubes``, the VP markers at
    ``vp_pol`` and ``vp_mil`` (Versailles' side positive)."""
    st = Driver(7).state
    clear_board(st, cubes)
    st["vp"] = {"political": vp_pol, "military": vp_mil}
    st["fulfilled"] = fulfilled or [[], []]
    st["initiative"] = initiative
    return GAME.decide_winner(st)


def test_victory_conditions() -> None:
    assert _final(0, 1)[0] == V  # Versailles 1 Military > Commune 0 Political
    assert _final(-2, 1)[0] == C  # Commune 2 Political > Versailles 1 Military
    assert "§13.1" in _final(-2, 1)[1]


def test_tiebreak_chain() -> None:
    # 1-1 on the tracks: tie. Combined VP is even (0); objectives decide 1-0 for Versailles,
    # pivotal spaces even, final initiative Commune -> 1-1: level, so the Commune wins.
    winner, text = _final(-1, 1, fulfilled=[[42], []], initiative=C)
    assert winner == C and "level" in text
    # Same, but Versailles also holds a pivotal space: 2-1 to Versailles.
    winner, text = _final(-1, 1, fulfilled=[[42], []], initiative=C, cubes={"press": (1, 0)})
    assert winner == V and "§13.2" in text
    # Versailles has -1 Military (cannot win outright) but more combined VP:
    # combined +2 vs -2 and initiative -> 2-0 for Versailles.
    winner, _ = _final(3, -1, initiative=V)
    assert winner == V
    # Combined VP alone against the initiative: 1-1, level, so the Commune wins.
    winner, text = _final(3, -1, initiative=C)
    assert winner == C and "most combined VP: Versailles" in text
    # Everything even except the final initiative: that single test decides.
    winner, _ = _final(0, 0, initiative=V)
    assert winner == V
    winner, _ = _final(0, 0, initiative=C)
    assert winner == C


def test_each_round_ends_with_a_public_recap_of_its_vp_and_what_comes_next() -> None:
    """The pause at a round's end (§10-§11): every VP change of the round with its cause,
    the VP standing, and the next step; public, since the objectives are revealed by then."""
    import random

    from tabletop.framework import SUMMARY

    d = Driver(3)
    pick = random.Random(3)
    while GAME.prompt(d.state) is not None and not d.state["fc"]:
        d.act(pick.choice(d.prompt_actions()))
    recaps = [e for e in d.events if e.kind == SUMMARY]
    assert [e.text for e in recaps][:2] == ["End of Round 1 of 3", "End of Round 2 of 3"]
    for number, recap in enumerate(recaps, start=1):
        assert recap.seats is None and recap.concerns is None
        lines = recap.data["lines"]
        gained = [entry for entry in d.state["vp_log"] if entry[0] == f"Round {number}"]
        for _, seat, kind, amount, _, why in gained:
            assert any(
                line.startswith(("Versailles", "Commune")[seat] + f" {amount:+d} {kind} VP")
                and why in line
                for line in lines
            ), (why, lines)
        if not gained:
            assert "No VP changed hands this round." in lines
        assert any(line.startswith("Military VP now:") for line in lines)
        assert lines[-1].startswith("Next: ")
