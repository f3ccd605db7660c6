"""Bots that play any game through the game API alone: the search bot kinds.

``register_search_bots`` adds the ``mcts`` kinds to a registry, one per strength, each
made with the game's own ``BotHints`` when it registered some. Kinds are plain names
(``mcts-quick``, ``mcts``, ``mcts-strong``) so that a save names the exact bot that
played each seat. ``describe`` gives every bot kind's one-line description for menus.
"""

from __future__ import annotations

from dataclasses import dataclass

from tabletop.adapters.bots.ismcts import Budget, IsmctsBot, SearchStats
from tabletop.framework.bots import Bot, BotFactory
from tabletop.framework.game import GameDefinition
from tabletop.framework.plugins import GameRegistry

__all__ = [
    "ACTIONS_PER_ITERATION",
    "DEFAULT_STRENGTH",
    "MIN_ACTIONS",
    "STRENGTHS",
    "Budget",
    "IsmctsBot",
    "SearchStats",
    "Strength",
    "describe",
    "register_search_bots",
]


#: The cap on a decision's simulated actions, in reference actions (Red Flag's; a
#: game's ``BotHints.action_cost`` converts them), per iteration of the strength, and
#: at least ``MIN_ACTIONS`` (the cap every strength had before issue 25): cheap games
#: rarely reach it, and it holds a game with dear actions to the time that many Red
#: Flag actions take. A count, not a clock: a strength plays the same moves on any
#: machine.
ACTIONS_PER_ITERATION = 60
MIN_ACTIONS = 6_000


@dataclass(frozen=True)
class Strength:
    """One named strength of the search bot: its kind name, budget and description."""

    kind: str
    label: str
    iterations: int
    description: str

    @property
    def actions(self) -> int:
        """The strength's cap on simulated actions a decision, in reference actions."""
        return max(MIN_ACTIONS, ACTIONS_PER_ITERATION * self.iterations)

    def budget(self, seconds: float | None = None) -> Budget:
        """The strength's budget; ``seconds`` also caps each decision's wall-clock time
        (a game server's bots: no search may hold a worker for long)."""
        return Budget(iterations=self.iterations, actions=self.actions, seconds=seconds)


#: The search bot's strengths, weakest first; ``mcts`` is the default.
STRENGTHS = (
    Strength(
        "mcts-quick", "quick", 30, "Tree search, 30 playouts a move: answers at once, plays loosely"
    ),
    Strength("mcts", "normal", 100, "Tree search, 100 playouts a move: the default opponent"),
    Strength(
        "mcts-strong", "strong", 400, "Tree search, 400 playouts a move: slower, plays its best"
    ),
)

#: The strength a bot kind of "mcts" plays at, and the hint key's.
DEFAULT_STRENGTH = next(strength for strength in STRENGTHS if strength.kind == "mcts")

#: One-line descriptions of the bot kinds every game has.
_DESCRIPTIONS = {
    "human": "A person at this screen",
    "random": "Any legal move at random: a baseline, not an opponent",
    **{strength.kind: strength.description for strength in STRENGTHS},
}


def describe(kind: str) -> str:
    """A bot kind in one line, for menus (a game's own kinds get a generic line)."""
    return _DESCRIPTIONS.get(kind, "A bot written for this game")


def register_search_bots(registry: GameRegistry, *, seconds: float | None = None) -> GameRegistry:
    """Add every search bot strength to ``registry`` for all games; returns it.
    ``seconds`` caps each decision's wall-clock time (a server's registry): the moves
    then depend on the machine's speed, which a server's bots may (their moves are
    stored as actions), and a local game's must not (a seed replays the same game)."""
    for strength in STRENGTHS:
        registry.bots[strength.kind] = (_factory(registry, strength.budget(seconds)), "")
    return registry


def _factory(registry: GameRegistry, budget: Budget) -> BotFactory:
    """Reads the hints when a bot is made, so hints registered later still count."""

    def make(game: GameDefinition) -> Bot:
        return IsmctsBot(registry.hints_for(game.info.id), budget)

    return make
