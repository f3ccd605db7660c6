"""The search bot's judgement of a position by chapter 14's thresholds (issue 27)."""

from __future__ import annotations

from lrf_helpers import fresh, seat

from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise, RevolutionHints
from tabletop.games.la_revolution_francaise.bot_eval import (
    FUTURES,
    futures,
    points_now,
    spread,
    win_chances,
)

GAME = LaRevolutionFrancaise()


def test_the_futures_are_fixed_and_centred() -> None:
    """The same deviations every time (a quadrature, not dice), centred, each Current
    with every quantile once."""
    first = futures()
    assert len(first) == FUTURES and all(len(row) == 6 for row in first)
    for current in range(6):
        mean = sum(row[current] for row in first) / FUTURES
        assert abs(mean) < 1e-9
        assert len({row[current] for row in first}) == FUTURES
    assert futures() == first


def test_the_spread_narrows_as_the_turns_run_out() -> None:
    state = fresh(4)
    state["turn"] = 1
    early = spread(state)
    state["turn"] = 8
    assert early > spread(state) > 0


def test_a_royalist_at_25_wins_whatever_the_others_hold() -> None:
    """14.2.1: at 25 VP the Royalist wins outright; two points short at the last turn,
    it wins only the futures that bring it there, and far short none."""
    state = fresh(4)
    state["turn"] = 8
    state["declared"] = {}
    base = points_now(state)["R"]
    state["currents"]["R"]["fame"] += 30 - base
    assert win_chances(state).get("R", 0.0) > 0.9
    state["currents"]["R"]["fame"] -= 7  # 23 VP
    short = win_chances(state).get("R", 0.0)
    assert 0.0 < short < 0.5
    state["currents"]["R"]["fame"] -= 10  # 13 VP
    assert win_chances(state).get("R", 0.0) == 0.0


def test_evaluate_follows_the_threshold_not_the_margin() -> None:
    """At the last turn, a Royalist seat at 28 VP is judged far likelier to win than
    the same seat at 20 VP, although the Marais out-scores it in both."""
    state = fresh(4)
    state["turn"] = 8
    state["last_election"] = 8  # the Assembly stays as it is
    state["declared"] = {}
    state["assembly"]["M"]["count"] = 30
    hints = RevolutionHints()
    r = seat(state, "R")
    state["currents"]["R"]["fame"] += 28 - points_now(state)["R"]
    high = hints.evaluate(GAME, state)
    state["currents"]["R"]["fame"] -= 8
    low = hints.evaluate(GAME, state)
    assert high is not None and low is not None
    assert points_now(state)["M"] > 26
    assert high[r] > 0.7 > 0.2 > low[r]


def test_an_election_to_come_counts_the_regions_held() -> None:
    """R.1.6: under the Legislative the Feuillant gets a deputy per region it holds at
    the turn-4 and turn-8 elections, and the Marais one per region it holds or nobody
    does; until the last election the judgement counts the deputies it will bring."""
    state = fresh(4)
    state["turn"] = 2
    regions = state["regions"]
    region = next(r for r, data in regions.items() if r != "Paris" and data["control"] is None)
    before = points_now(state)
    state["regions"][region]["control"] = "F"
    after = points_now(state)
    assert after["F"] == before["F"] + 2  # the region and its deputy to come
    assert after["M"] == before["M"] - 1  # a neutral region's deputy lost
    state["turn"] = 8
    state["last_election"] = 8
    assert points_now(state)["F"] == before["F"] + 1  # no election left: the region only


def test_a_regime_change_in_reach_weighs_on_the_feuillant() -> None:
    """R.1.8: with the Commune raised by the Gironde and an Allied army next to Paris,
    the Gironde may install the Convention, where a Reaction majority makes the Marais
    the winner (14.3.2): the Feuillant's chances fall before the change is made."""
    state = fresh(4)
    state["turn"] = 6
    hints = RevolutionHints()
    f = seat(state, "F")
    calm = hints.evaluate(GAME, state)
    state["commune"] = {"raised": True, "controller": "G"}
    state["armies"].append(
        {"id": "allied_test", "side": "allied", "kind": "allied", "where": "Metz"}
    )
    threatened = hints.evaluate(GAME, state)
    assert calm is not None and threatened is not None
    assert threatened[f] < calm[f] - 0.1
    assert state["regime"] == "legislative"  # judged, not changed


def test_deputies_won_over_for_the_turn_do_not_count() -> None:
    """7.5.2.1, 8.3: deputies who switch sides go back before the turn ends, so after
    the last election they add nothing to the Current that swayed them."""
    state = fresh(4)
    state["turn"] = 8
    state["last_election"] = 8
    before = points_now(state)
    state["assembly"]["M"]["count"] -= 5
    state["assembly"]["F"]["count"] += 5
    state["switched"] = [{"from": "M", "to": "F", "n": 5}]
    assert points_now(state) == before
