"""The tree search's hints for Charlemagne (``CmeHints``): the steward's policy as the
rollout, its evaluation, the fitted win chance a person reads, and the plan's reason
for a choice (``bot_reason``)."""

from __future__ import annotations

from collections.abc import Sequence

from tabletop.framework import Action, GameDefinition, Prompt, RandomSource, State
from tabletop.framework.search import BotHints

from .bot import evaluate_state, policy
from .bot_reason import reason
from .win_chance import win_chance


class CmeHints(BotHints):
    """The tree search's hints: the steward's policy as the rollout (without its
    battle play-outs), playouts cut after ``rollout_depth`` actions and judged by
    ``evaluate_state``.

    Four actions of the steward are enough for ``evaluate_state``, which reads the VP
    lead and the crowns (they move over a campaign, not within four actions); twelve
    cost three times as much and kept a player watching the bot waiting (issue 25).
    A simulated action costs twelve to fourteen of Red Flag's (every Battle prompt looks
    through the units, and a short playout leaves each sample's cost to fewer actions;
    docs/bots.md), which ``action_cost`` tells the search: about 430 actions, some 80
    iterations, a decision."""

    rollout_depth = 4
    action_cost = 14.0

    def rollout(
        self, game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource
    ) -> Action:
        return policy(game, state, prompt, rng, search=False)

    def evaluate(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        return (evaluate_state(state),)

    def win_chances(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        """What the hint key reports: ``evaluate_state`` steers the search well but
        reads 0.4-0.5 on turn 1, so a person is shown the fitted chance instead."""
        return (win_chance(state),)

    def reason(self, game: GameDefinition, state: State, prompt: Prompt, action: Action) -> str:
        """The steward's plan in a line, under the hint's suggestion (``bot_reason``)."""
        return reason(game, state, prompt, action)
