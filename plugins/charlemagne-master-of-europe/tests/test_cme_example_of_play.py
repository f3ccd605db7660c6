"""The rulebook's Example of Play, scripted with fixed draws and rolls.

The example was written for another counter mix and has slips of its own (A33): its
units' values are not in this edition's mix, its Forced March ends in a box it then
fights in, and its battle is fought by a turn-1 army holding a Level 4 unit. The script
keeps every step the rules allow, with the nearest counters, and says where it departs.
"""

from __future__ import annotations

from cme_helpers import GAME, blank, ctx, place, run_step, to_cup

from tabletop.framework import State
from tabletop.games.charlemagne_master_of_europe.rules import battle, battle_display


def act(state: State, action: str, faces: list[int]) -> None:
    prompt = GAME.prompt(state)
    assert prompt is not None and action in prompt.actions(), (action, prompt)
    GAME.apply(state, 0, action, ctx(faces))


def opening() -> State:
    """Turn 1 after the set-up: the example's Breton, Paris, Carinthia and Bavaria."""
    state = blank()
    place(state, "breton_march", "breton_march-1", "breton_march-3")
    place(state, "paris", "paris-1")  # the example's "4"
    place(state, "carinthia", "carinthia-1")
    place(state, "bavaria", "bavaria-3", "bavaria-2")  # a "5" (for the "6") and a "4"
    place(state, "lombardy", "lombardy-1", "lombardy-3", "lombardy-5")
    state["removed"].remove("desiderius")
    state["stacks"]["lombardy"].append("desiderius")
    state["leader_side"].append("desiderius")
    state["tasks"] = [{"kind": "campaign_continue"}, {"kind": "marquis_start"}]
    return state


def test_example_of_play() -> None:
    state = opening()
    # The Marquis goes to Breton rather than the Spanish March.
    act(state, "marquis:breton_march", [])
    assert state["marquis"]["purple"]["box"] == "breton_march"
    # First Action: the Marquis moves to Paris and Suppresses; a 6 beats the 4.
    state["cups"]["hostile"] = []
    to_cup(state, "hostile", "carinthia-2", "bavaria-1")  # a "4" and the nearest to a "3"
    friendly = len(state["cups"]["friendly"])
    act(state, "act:marquis:purple:paris:suppress", [6])
    assert state["stacks"]["paris"] == [] and state["dead_pool"] == ["paris-1"]
    assert len(state["cups"]["friendly"]) == friendly - 1  # 1 Friendly>Unfriendly
    assert state["stacks"]["carinthia"] == ["carinthia-1", "carinthia-2"]  # two units now
    assert state["stacks"]["bavaria"] == ["bavaria-3", "bavaria-2", "bavaria-1"]  # on top
    # Second Action: a Forced March toward Lombardy; its one Reaction is a Turn End.
    to_cup(state, "hostile", "turn_end-1")
    act(state, "act:charlemagne:swabia:forced_march:burgundy", [])
    assert state["charlemagne"] == "burgundy" and state["dead_pool"][-1] == "turn_end-1"
    assert not state["campaign_ending"]
    # Third Action: Battle for the Iron Crown (in Lombardy, beside Burgundy). Roll 1 +
    # the top unit's 6 + Desiderius's 4 = 11: this table's Green row gives 5/5/2.
    act(state, "act:charlemagne:lombardy:battle", [1])
    b = state["battle"]
    assert b["counts"] == {"left": 5, "right": 5} and b["adjustments"] == 2
    # The battle itself: the example's rolls fit another army; here the enemy's Left
    # is broken at once and the victory is played out.
    for wing in battle_display.WINGS:
        for k, slot in enumerate(b["enemy"][wing]):
            if slot is not None and (wing == "right" or k > 0):
                battle.board_put_back(state, slot["id"])
                b["enemy"][wing][k] = None
    b["mine"]["left"][0] = next(
        u["id"] for u in state["army"] if u["kind"] == "scara" and u["level"] == 3
    )
    b["mine"]["right"][0] = next(
        u["id"] for u in state["army"] if u["level"] == 3 and u["kind"] == "infantry"
    )
    b["stage"] = "rout"
    state["tasks"] = [t for t in state["tasks"] if t["kind"] == "campaign_continue"]
    run_step(state, "battle_continue", ctx())
    # Post-battle: the Iron Crown, the Dead Pool resolved (the Turn End marker back to
    # the Hostile Cup), then one promotion per wing.
    assert state["iron_crown"] and state["stacks"]["lombardy"] == []
    assert "desiderius" in state["removed"] and state["dead_pool"] == []
    assert "turn_end-1" in state["cups"]["hostile"]
    assert state["taxes"] == 4 + 3 and state["pam"] == 0 and state["vp"] == 1
    treasury = state["treasury"]
    for cup in ("friendly", "unfriendly"):  # set aside, so that no chit reaches the Hostile
        state["removed"] += state["cups"][cup]  # Cup in the adjustments: the script fixes
        state["cups"][cup] = []  # the two draws
    state["cups"]["hostile"] = []
    to_cup(state, "hostile", "viking-1", "bavaria-4")
    act(state, "promote:scara:3", [])
    act(state, "promote:infantry:3", [])
    assert sorted(u["level"] for u in state["army"] if u["level"] == 4) == [4, 4]
    # Ransom (+4 for Desiderius), the battle's cups, then Reactions: a Viking lands in
    # Purple, and a "6" in Bavaria, whose box holds three units, rises as its Leader.
    assert state["treasury"] == min(20, treasury + 4)
    assert state["battle"] is None
    assert state["vikings"]["purple"] == ["viking-1"]
    assert state["stacks"]["bavaria"][-1] == "bavaria-4" and "bavaria-4" in state["leader_side"]
