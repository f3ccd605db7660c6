"""Bots: players that choose from the legal choices seeing only their seat's view."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

from tabletop.framework.game import Action, GameDefinition, Prompt
from tabletop.framework.ports import RandomSource


class Bot(ABC):
    """A computer player. It gets the view, never the full state, so it cannot cheat."""

    name: str = "bot"

    @abstractmethod
    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        """Pick one of ``prompt.choices``; draw any randomness from ``rng`` only."""


class RandomBot(Bot):
    """Uniformly random legal play: the baseline for fuzzing and simulation."""

    name = "random"

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        return rng.choice(prompt.choices).action


#: Makes a bot for a game. Bot kinds are registered by name through a hook.
BotFactory = Callable[[GameDefinition], Bot]


def bot_seed(seed: int, seat: int) -> int:
    """A seed for a bot's own random stream, apart from the game's so that a bot's
    thinking never changes the game's dice (replay only needs the logged actions)."""
    return (seed * 1_000_003 + 7919 * (seat + 1)) % 2**63
