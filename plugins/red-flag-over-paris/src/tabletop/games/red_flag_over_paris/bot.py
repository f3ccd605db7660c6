"""A light game-specific bot: prefers moves that add own cubes or remove enemy ones.

It scores each legal action by a cheap rule of thumb from its own view only (no search),
which is enough to beat random play and to give the fuzzer more purposeful games.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import Action, Bot, GameDefinition, Prompt, RandomSource

_PREFERENCES = (
    ("put:", 5), ("pl:", 5), ("take:", 6), ("rm:", 6), ("rmx:", 4), ("turn:", 7),
    ("disc:", 4), ("ev:", 3), ("ops:", 3), ("fc:", 1), ("reuse:", 2), ("mom:", 1),
    ("kind:", 1), ("perform", 5), ("apply", 1), ("first", 2), ("spread", 2),
    ("deesc", 0), ("opp:", 4), ("own:", 0),
)


class GreedyBot(Bot):
    name = "rfop-greedy"
    reads_view = False  # it scores the prompt's choices only

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        best: list[Action] = []
        top = -1
        for choice in prompt.choices:
            score = 0
            for prefix, value in _PREFERENCES:
                if choice.action.startswith(prefix):
                    score = value
                    break
            if score > top:
                best, top = [choice.action], score
            elif score == top:
                best.append(choice.action)
        return rng.choice(best)
