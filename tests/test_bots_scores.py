"""The search's reward reads scores, not only winners (issue 27): a cooperative game is
played for its team score, a competitive game's scores tell apart what the win alone
cannot, and ties between equally good choices do not go to the first listed one."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hanabi import FirstChoiceBot, HanabiHints, MiniHanabi, RuleBot
from toygames import OneDecision

from tabletop.adapters.bots import Budget, IsmctsBot
from tabletop.adapters.bots.ismcts import Reward
from tabletop.framework.bots import Bot
from tabletop.framework.game import (
    Action,
    GameDefinition,
    GameInfo,
    Prompt,
    Result,
    State,
)
from tabletop.framework.search import BotHints
from tabletop.framework.testing import new_engine, play_out

HANABI = MiniHanabi()


def _info(cooperative: bool) -> OneDecision:
    """A game whose ``info`` is all a ``Reward`` reads."""
    return OneDecision(GameInfo("t", "T", 1, 4, cooperative=cooperative), (), Result((), ()))


def _hints(**fields: Any) -> BotHints:
    hints = BotHints()
    for name, value in fields.items():
        setattr(hints, name, value)
    return hints


def test_a_game_without_scores_is_judged_by_its_winners_as_before() -> None:
    reward = Reward(_info(False), BotHints())
    assert reward(Result((1,)), 3) == ([0.0, 1.0, 0.0], [0.0, 1.0, 0.0], None)
    assert reward(Result((0, 2)), 3)[0] == [0.5, 0.0, 0.5]
    assert reward(Result(()), 2)[0] == [0.0, 0.0]


def test_competitive_scores_count_relative_to_the_other_seats() -> None:
    reward = Reward(_info(False), BotHints())
    rewards, wins, points = reward(Result((0,), (30.0, 10.0, 20.0)), 3)
    assert wins == [1.0, 0.0, 0.0] and points == [30.0, 10.0, 20.0]
    assert rewards == pytest.approx([0.9 + 0.1, 0.0, 0.05])
    # a draw (no winner, equal scores) is worth more than a loss, less than a win
    assert reward(Result((), (0.5, 0.5)), 2)[0] == pytest.approx([0.05, 0.05])


def test_a_cooperative_win_is_the_whole_teams_and_its_score_is_shared() -> None:
    reward = Reward(_info(True), _hints(score_range=(0.0, 10.0)))
    rewards, wins, points = reward(Result((0, 1, 2), (10.0, 10.0, 10.0)), 3)
    assert wins == [1.0, 1.0, 1.0]  # not 1/3 each
    assert rewards == [1.0, 1.0, 1.0] and points == [10.0, 10.0, 10.0]
    rewards, wins, _ = reward(Result((), (4.0, 4.0, 4.0)), 3)
    assert wins == [0.0, 0.0, 0.0] and rewards == pytest.approx([0.2, 0.2, 0.2])


def test_without_a_declared_range_scores_are_scaled_over_those_seen() -> None:
    reward = Reward(_info(False), _hints(score_weight=1.0))  # a solitaire, score only
    assert reward(Result((), (50.0,)), 1)[0] == [0.5]  # nothing to compare with yet
    assert reward(Result((), (150.0,)), 1)[0] == [1.0]
    assert reward(Result((), (100.0,)), 1)[0] == [0.5]
    assert reward(Result((), (0.0,)), 1)[0] == [0.0]


def test_bad_score_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="score_weight"):
        Reward(_info(False), _hints(score_weight=1.5))
    with pytest.raises(ValueError, match="score_range"):
        Reward(_info(True), _hints(score_range=(5.0, 5.0)))


def test_a_games_own_reward_replaces_the_default() -> None:
    class Backwards(HanabiHints):
        def reward(self, game: GameDefinition, result: Result) -> Sequence[float] | None:
            return [1.0 - result.scores[0] / 9] * len(result.scores)  # worst is best

    engine = new_engine(HANABI, seed=3, players=2)
    bot = IsmctsBot(Backwards(), Budget(iterations=40))
    play_out(engine, bot)
    result = engine.result
    assert result is not None and result.scores[0] == 0.0


def _mean_score(bot: Bot, seeds: range) -> float:
    total = 0.0
    for seed in seeds:
        engine = play_out(new_engine(HANABI, seed=seed, players=2, undo=False), bot)
        result = engine.result
        assert result is not None
        total += result.scores[0]
    return total / len(seeds)


def test_the_search_plays_a_cooperative_game_for_its_score() -> None:
    """First-choice play scores nothing (a blind play of its first card every turn); the
    search, which before issue 27 saw only winners (here: none short of a perfect
    score), now plays for the shared score. Budget: 40 playouts a move, two games."""
    seeds = range(1, 3)
    first = _mean_score(FirstChoiceBot(), seeds)
    search = _mean_score(IsmctsBot(HanabiHints(), Budget(iterations=40)), seeds)
    blind = _hints(score_weight=0.0, rollout=HanabiHints().rollout)
    winners_only = _mean_score(IsmctsBot(blind, Budget(iterations=40)), seeds)
    assert first == 0.0
    assert winners_only <= 1.0  # the old reward: nothing to tell the choices apart
    assert search >= 4.0


def test_the_rule_based_player_reaches_about_six() -> None:
    """The yardstick the outside author quoted (a simple rule-based bot reaches 6)."""
    assert 5.0 <= _mean_score(RuleBot(), range(1, 11)) <= 7.0


#: One decision whose every choice ends the game the same way.
ALL_ALIKE = OneDecision(GameInfo("alike", "Alike", 1, 1), ("a", "b", "c"), Result((0,), (1.0,)))


class _Reversed(BotHints):
    def candidates(self, game: GameDefinition, state: State, prompt: Prompt) -> Sequence[Action]:
        return list(reversed(prompt.actions()))


def test_equal_choices_go_by_the_hints_order_not_the_prompts() -> None:
    plain = IsmctsBot(budget=Budget(iterations=30))
    assert play_out(new_engine(ALL_ALIKE, players=1), plain).log[0][1] == "a"
    hinted = IsmctsBot(_Reversed(), Budget(iterations=30))
    assert play_out(new_engine(ALL_ALIKE, players=1), hinted).log[0][1] == "c"
    appraisals = hinted.last.appraisals
    assert appraisals is not None
    assert [a.action for a in appraisals] == ["c", "b", "a"]
    assert all(a.visits == 10 and a.win_chance == 1.0 and a.score == 1.0 for a in appraisals)
