"""Card uses (§7): events, operations, military removal, discs, momentum, reuse, Final
Crisis card; breaches resolved at the end of a card play."""

from __future__ import annotations

from collections.abc import Mapping

from rfop_helpers import C, Driver, V, at_play, set_cubes

from tabletop.games.red_flag_over_paris import board
from tabletop.games.red_flag_over_paris.rules import tasks


def test_event_only_for_own_colour_or_gray() -> None:
    d = at_play(1, V, [18, 35, 4])
    acts = d.prompt_actions()
    assert "ev:18" not in acts and "ops:18" in acts
    assert "ev:35" in acts and "ev:4" in acts


def test_conditional_events_need_their_condition() -> None:
    d = at_play(1, V, [9, 7, 4])
    set_cubes(d.state, "press", 1, 0)
    acts = d.prompt_actions()
    assert "ev:9" not in acts  # no Commune cube in Press
    assert "ev:7" not in acts  # Revolutionary Momentum already 0
    set_cubes(d.state, "press", 1, 1)
    d.state["momentum"][C] = 1
    acts = d.prompt_actions()
    assert "ev:9" in acts and "ev:7" in acts


def test_event_places_cubes_and_breach_bonus_waits_for_end_of_play() -> None:
    d = at_play(1, V, [15, 4])
    d.act("ev:15")
    d.act("put:national_assembly")  # Starting zone cube
    d.act("put:national_assembly")  # first Escalation cube: breach
    assert d.state["breached"][V][1]
    assert d.state["pool"][V] == 0  # bonus waits for the end of the card play
    d.act("stop")
    assert d.state["pool"][V] == 1
    assert d.state["cubes"]["national_assembly"][V] == 2
    assert d.seat == V and d.prompt_actions()[0].endswith(":4")


def test_operations_political_remove_first_then_place() -> None:
    d = at_play(1, V, [36, 4])
    set_cubes(d.state, "press", 1, 2)
    d.act("ops:36")
    assert set(d.prompt_actions()) == {"kind:political", "kind:military"}
    d.act("kind:political")
    assert "rm:press" in d.prompt_actions()
    # Republicans is not open yet: Versailles neither is present nor controls Press
    assert "republicans" not in d.state["stack"][-1]["assessment"]["eligible"]
    d.act("rm:press")
    d.act("rm:press")
    assert d.state["cubes"]["press"] == [1, 0]
    # nothing is left to remove, so placement starts with control assessed again:
    # Versailles now controls Press, which opens Republicans
    acts = d.prompt_actions()
    assert not any(a.startswith("rm") for a in acts)
    assert "pl:republicans" in acts
    d.act("pl:republicans")
    assert d.state["cubes"]["republicans"][V] == 1


def military_play(
    card: int, cubes: Mapping[str, tuple[int, int]], discs: Mapping[str, int] | None = None
) -> Driver:
    """Versailles has chosen a military operation with ``card`` (card 4 left in hand), on
    a map empty but for ``cubes`` and the ``discs`` (space: owner)."""
    d = at_play(1, V, [card, 4], cubes=cubes)
    d.state["discs"].update(discs or {})
    d.act(f"ops:{card}")
    d.act("kind:military")
    return d


def test_no_daisy_chaining_within_placement() -> None:
    d = military_play(13, {})
    # Versailles HQ opens Mont-Valérien and Fort d'Issy only
    acts = d.prompt_actions()
    assert "pl:mont_valerien" in acts and "pl:butte_montmartre" not in acts
    d.act("pl:mont_valerien")
    # Versailles now controls Mont-Valérien, but control was fixed before placing
    assert board.controls(d.state, "mont_valerien", V)
    assert "pl:butte_montmartre" not in d.prompt_actions()


def test_military_attack_at_strength_three_needs_no_draw() -> None:
    d = military_play(13, {"fort_issy": (2, 1)})
    deck = list(d.state["deck"])
    assert "rmx:fort_issy" not in d.prompt_actions()  # extra point useless at 3
    d.act("rm:fort_issy")
    assert d.state["cubes"]["fort_issy"] == [2, 0]
    assert d.state["deck"] == deck


def _attack_setup(top_card: int) -> Driver:
    d = military_play(13, {"fort_issy": (1, 0), "butte_aux_cailles": (0, 1)})
    d.state["deck"].remove(top_card)
    d.state["deck"].append(top_card)
    return d


def test_military_attack_draw_succeeds_when_strength_reaches_card_ops() -> None:
    d = _attack_setup(1)  # top card worth 1 OP; strength 1 (Fort d'Issy adjacent)
    d.act("rm:butte_aux_cailles")
    st = d.state
    assert st["cubes"]["butte_aux_cailles"][C] == 0
    assert 1 in st["removed"] and 1 not in st["deck"]


def test_military_attack_draw_fails_against_higher_card() -> None:
    d = _attack_setup(9)  # top card worth 2 OP
    d.act("rm:butte_aux_cailles")
    st = d.state
    assert st["cubes"]["butte_aux_cailles"][C] == 1
    assert 9 in st["removed"]


def test_extra_operations_point_adds_one_strength() -> None:
    d = _attack_setup(9)
    d.act("rmx:butte_aux_cailles")  # strength 2 vs 2 OP
    st = d.state
    assert st["cubes"]["butte_aux_cailles"][C] == 0
    assert st["stack"][-1]["name"] == "card_play"  # both points spent


def test_discs_cost_double_and_fall_only_after_the_cubes() -> None:
    d = military_play(13, {"fort_issy": (2, 1)}, {"fort_issy": C})
    st = d.state
    labels = {a for a in d.prompt_actions()}
    assert "rm:fort_issy" in labels
    d.act("rm:fort_issy")  # 2 OP: strength 2 (HQ + presence; no control: 2 v 2)
    task = st["stack"][-1]
    assert task["name"] == "card_play" or task["points"] == 0


def test_disc_targeted_only_when_no_cubes_remain() -> None:
    d = military_play(36, {"fort_issy": (3, 0)}, {"fort_issy": C})
    st = d.state
    d.act("rm:fort_issy")  # strength 3: the Barricade falls, 2 OP
    assert "fort_issy" not in st["discs"]
    assert st["stack"][-1]["points"] == 1


def test_placing_into_an_enemy_disc_costs_two() -> None:
    d = military_play(13, {}, {"mont_valerien": C})
    st = d.state
    d.act("toplace")
    d.act("pl:mont_valerien")
    assert st["cubes"]["mont_valerien"][V] == 1
    assert st["stack"][-1]["name"] == "card_play"  # the 2 OP are spent


def test_disc_event_moves_a_disc_when_both_are_out() -> None:
    d = at_play(1, C, [27, 18])
    st = d.state
    st["discs"] = {"butte_montmartre": C, "chateau_vincennes": C}
    d.act("ev:27")
    acts = d.prompt_actions()
    assert all(a.startswith("move:") or a == "stop" for a in acts)
    d.act("move:chateau_vincennes:pere_lachaise")
    assert st["discs"] == {"butte_montmartre": C, "pere_lachaise": C}


def test_advance_momentum_removes_the_card() -> None:
    d = at_play(1, V, [4, 5])
    d.state["momentum"][V] = 1
    d.act("mom:4")
    assert d.state["momentum"][V] == 2
    assert 4 in d.state["removed"]
    # reaching 2 lets the Commune place a cube in Public Opinion (§9.3)
    assert d.seat == C
    assert set(d.prompt_actions()) >= {"put:press", "put:catholic_church", "stop"}
    d.act("put:catholic_church")
    assert d.state["cubes"]["catholic_church"][C] == 1
    d.state["momentum"][V] = 3
    assert "mom:5" not in d.prompt_actions()


def test_use_discarded_event() -> None:
    d = at_play(1, C, [27, 18, 19])
    st = d.state
    st["deck"].remove(26)
    st["discard"] = [[26, V, 1]]  # Versailles played the Commune's Crémieux for ops
    acts = d.prompt_actions()
    assert "reuse:27" in acts and "reuse:18" not in acts  # needs >= 2 OP
    d.act("reuse:27")
    assert [e[0] for e in st["discard"]] == [26, 27]
    assert st["stack"][-1]["name"] == "event_placement"  # Crémieux: place up to 3 in Public Opinion
    st["discard"] = [[26, V, 0]]  # from an earlier round: not usable
    st["stack"] = [tasks.end_of_card_play(C), tasks.card_play(C)]
    assert not any(a.startswith("reuse") for a in d.prompt_actions())
    st["discard"] = [[26, C, 1]]  # placed by the Commune itself: not usable
    assert not any(a.startswith("reuse") for a in d.prompt_actions())
    st["discard"] = [[2, V, 1]]  # Versailles colour: not the Commune's event
    assert not any(a.startswith("reuse") for a in d.prompt_actions())


def test_final_crisis_card_for_operations() -> None:
    d = at_play(1, C, [18, 19, 20])
    st = d.state
    d.act("fc:18")
    assert st["fc_card"][C] is False
    assert 34 in st["removed"] and [18, C, 1] in st["discard"]
    d.act("kind:political")
    assert st["stack"][-1]["points"] == 4
    st["stack"][-1]["points"] = 0
    st["stack"][-1]["stage"] = "place"
    d.act("done")
    assert not any(a.startswith("fc:") for a in d.prompt_actions())


def test_choose_event_options() -> None:
    d = at_play(1, V, [11, 4])
    d.act("ev:11")
    assert d.prompt_actions() == ["opt:0", "opt:1"]
    d.act("opt:1")
    assert d.state["momentum"][V] == 1 and d.state["pool"][V] == 2
    d.act("put:national_assembly")
    assert d.state["cubes"]["national_assembly"][V] == 1
    assert d.state["pool"][V] == 1  # pool used before the Crisis Track
