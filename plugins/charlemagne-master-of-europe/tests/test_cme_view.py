"""The view (schema keys, the battle display) and the hidden cups (determinize)."""

from __future__ import annotations

from collections import Counter
from itertools import chain

from cme_helpers import GAME, blank, ctx, place

from tabletop.framework import views
from tabletop.games.charlemagne_master_of_europe.rules import battle


def test_view_follows_the_schema_and_shows_only_cup_counts() -> None:
    state = blank()
    place(state, "bavaria", "bavaria-3", "bavaria-1", leader=True)
    view = GAME.view(state, 0)
    assert views.check_view_schema(view, 1) is None
    zones = {z["name"]: z for z in view["zones"]}
    assert zones["Bavaria [Green]"]["contents"] == ["Bavaria +1 Leader", "Bavaria 5"]
    assert zones["Cups"]["counts"]["Friendly"] == len(state["cups"]["friendly"])
    assert zones["Force Pool (free counters)"]["counts"] == {
        "Infantry L1-2": 0,  # the starting army uses all eight
        "Infantry L3-4": 4,
        "Scara L2": 4,
        "Scara L3-4": 4,
    }
    text = repr(view)
    assert "fulda-1" not in text and "Fulda 3" not in text  # in a cup: unseen


def test_view_draws_the_battle_display() -> None:
    state = blank()
    place(state, "swabia", "swabia-1", "swabia-2")
    battle.start_battle(state, "swabia", ambush=False, moors_chit=None, ctx=ctx([1]))
    view = GAME.view(state, 0)
    assert "Battle in Swabia, round 1" in view["status"]
    names = [z["name"] for z in view["zones"]]
    assert "Battle: enemy facing your Left" in names and "Battle: your Right wing" in names


def test_determinize_deals_the_cups_again_keeping_their_counts() -> None:
    state = blank()
    state["cups"]["unfriendly"] = state["cups"]["friendly"][:10]
    state["cups"]["hostile"] = state["cups"]["friendly"][10:15]
    state["cups"]["friendly"] = state["cups"]["friendly"][15:]
    before = {cup: list(chits) for cup, chits in state["cups"].items()}
    other = GAME.determinize(dict(state, cups={c: list(v) for c, v in before.items()}), 0, ctx())
    assert {c: len(v) for c, v in other["cups"].items()} == {c: len(v) for c, v in before.items()}
    assert Counter(chain(*other["cups"].values())) == Counter(chain(*before.values()))
    assert other["cups"] != before  # the chits moved between cups
    assert GAME.view(other, 0) == GAME.view(state, 0)


def test_invariants_catch_a_lost_counter() -> None:
    state = blank()
    assert GAME.invariants(state) == []
    state["cups"]["friendly"].pop()
    assert any("map counters" in problem for problem in GAME.invariants(state))
