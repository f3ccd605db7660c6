"""A hint for a person: what the tree search would choose at their decision, and why.

The hint asks the search bot exactly as a bot seat is asked (``bot_move``'s random
source, the seat's ``InformationSet``, the game's hints), so it knows only what the
person's seat knows: the same seed and visible position give the same hint whatever
the hidden cards are (``tests/test_bots_hint.py``). It never plays: the screen shows
the suggestion and highlights it.

``prepare`` runs on the UI thread and copies what the search needs (the state is
copied, so a move made while the search thinks changes nothing under it); the
returned callable does the thinking, in a worker thread.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from tabletop.adapters.bots import DEFAULT_STRENGTH
from tabletop.adapters.bots.ismcts import Budget, IsmctsBot
from tabletop.framework import chance
from tabletop.framework.bots import UnreadView, bot_seed
from tabletop.framework.engine import Engine
from tabletop.framework.game import Action, clone
from tabletop.framework.search import BotHints, InformationSet

#: How many choices a hint names: the suggestion and the two best alternatives.
SHOWN = 3


@dataclass(frozen=True)
class Suggestion:
    """One choice as the search judged it: its label, the chance of winning it found
    (the team's in a cooperative game), the mean final score of the playouts through
    it that finished with scores (None if none did) and how many playouts went there."""

    action: Action
    label: str
    win_chance: float | None
    score: float | None
    playouts: int


@dataclass(frozen=True)
class Hint:
    """What the search suggests at one decision: ``choices`` best first (at most
    ``SHOWN``), for ``seat`` after ``moment`` actions of the game."""

    seat: int
    moment: int
    choices: tuple[Suggestion, ...]
    cooperative: bool
    playouts: int
    unsearched: str = ""
    """Why nothing was compared, when the search made no playout: one legal choice,
    one left by the game's bot hints, or a game it cannot search from this seat."""

    @property
    def action(self) -> Action:
        return self.choices[0].action

    def lines(self) -> list[str]:
        """The hint in words: the suggestion, then each alternative, each choice's
        estimate on the line under it."""
        best = self.choices[0]
        if best.win_chance is None:
            return [f"Suggested: {best.label}", f"  ({self.unsearched})"]
        out = [f"Suggested: {best.label}", f"  {self._estimate(best)}"]
        if len(self.choices) > 1:
            out.append("Next best:")
            for choice in self.choices[1:]:
                out += [f"  {choice.label}", f"    {self._estimate(choice)}"]
        out.append(f"({self.playouts} simulated games, from what you can see only)")
        return out

    def _estimate(self, choice: Suggestion) -> str:
        """A cooperative game's team score first (what the team plays for), else the
        chance of winning first."""
        win = f"{100 * (choice.win_chance or 0.0):.0f}%"
        if not self.cooperative:
            score = "" if choice.score is None else f", score about {choice.score:.1f}"
            return f"win chance about {win}{score}"
        if choice.score is None:
            return f"team win chance about {win}"
        return f"team score about {choice.score:.1f}, team win chance {win}"


def prepare(
    engine: Engine, hints: BotHints | None = None, budget: Budget | None = None
) -> Callable[[], Hint]:
    """The search for a hint at the engine's current decision, ready to run anywhere:
    its seat, state copy, random source and budget (the default bot's) are fixed now.
    Raises ``ValueError`` when the game is over. ``budget`` defaults to the default
    bot's (``mcts``)."""
    prompt = engine.prompt
    if prompt is None:
        raise ValueError("the game is over: there is nothing to suggest")
    game, seat, moment = engine.game, prompt.seat, len(engine.log)
    state = clone(engine.state)
    # bot_move's source: the hint is the move the default bot would make in this seat
    rng = chance.bot_rng(bot_seed(engine.seed, seat) + moment)
    labels = {choice.action: choice.label for choice in prompt.choices}
    bot = IsmctsBot(hints, budget or DEFAULT_STRENGTH.budget())

    def think() -> Hint:
        information = InformationSet(game, state, seat, chance.dice_factory)
        action = bot.search(game, UnreadView(), prompt, rng, information)
        appraisals = bot.last.appraisals or []
        choices = [
            Suggestion(a.action, labels[a.action], a.win_chance, a.score, a.visits)
            for a in appraisals[:SHOWN]
        ] or [Suggestion(action, labels[action], None, None, 0)]
        if appraisals:
            why = ""
        elif len(prompt.choices) == 1:
            why = "the only legal choice"
        elif bot.last.root_visits:
            why = "the only choice the game's bot hints find worth making"
        else:
            why = "the game cannot be searched from your seat's view: a choice at random"
        return Hint(seat, moment, tuple(choices), game.info.cooperative, bot.last.iterations, why)

    return think
