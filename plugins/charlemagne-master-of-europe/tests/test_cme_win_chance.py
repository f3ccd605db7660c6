"""The hint key's win chance (issue 27): a probability fitted on the steward's games,
reported by the search without steering it."""

from __future__ import annotations

from cme_helpers import GAME, blank

from tabletop.framework.testing import new_engine
from tabletop.games.charlemagne_master_of_europe import CmeHints
from tabletop.games.charlemagne_master_of_europe.bot import evaluate_state
from tabletop.games.charlemagne_master_of_europe.win_chance import win_chance


def test_a_fresh_game_reads_near_the_steward_s_measured_rate() -> None:
    """The steward wins about one game in five (balance.md); the search's own value
    reads far more on turn 1, which is why the hint does not report it."""
    fresh = new_engine(GAME, seed=5, players=1).state
    assert 0.10 <= win_chance(fresh) <= 0.30
    assert evaluate_state(fresh) > 0.35


def test_the_chance_grows_with_the_lead_and_is_certain_once_decided() -> None:
    state = blank(turn=5)
    chances = []
    for vp in (0, 10, 20, 30, 40):
        state["vp"] = vp
        chances.append(win_chance(state))
    assert 0 < chances[0] < chances[1] < chances[2] < chances[3] < chances[4] < 1
    for won in (True, False):
        state["outcome"] = {"won": won, "reason": "test", "category": "test"}
        assert win_chance(state) == (1.0 if won else 0.0)


def test_the_hints_report_it_and_keep_evaluate_for_the_search() -> None:
    hints = CmeHints()
    state = new_engine(GAME, seed=5, players=1).state
    assert hints.win_chances(GAME, state) == (win_chance(state),)
    assert hints.evaluate(GAME, state) == (evaluate_state(state),)
