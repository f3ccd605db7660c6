"""A hint for a person: what the tree search found best at their decision, how sure
it is, and why.

The hint asks the search bot exactly as a bot seat is asked (``bot_move``'s random
source, the seat's ``InformationSet``, the game's hints), so it knows only what the
person's seat knows: the same seed and visible position give the same hint whatever
the hidden cards are (``tests/test_bots_hint.py``). It never plays: the screen shows
the suggestion and highlights it.

The choices are ranked by the very number shown beside them (issue 37): the chance of
winning (in a cooperative game the team's score when the playouts had one), among the
choices the search tried often enough for it to mean something. The search itself
plays its most visited choice, which is nearly always the same one; when it is not,
the hint still suggests the one it shows as best, so that no suggestion reads worse
than its "next best". Each estimate comes with a 95% interval from its playouts, and
a one-line reason in the game's words when the game's hints give one
(``BotHints.reason``).

``prepare`` runs on the UI thread and copies what the search needs (the state is
copied, so a move made while the search thinks changes nothing under it); the
returned callable does the thinking, in a worker thread.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from tabletop.adapters.bots import DEFAULT_STRENGTH
from tabletop.adapters.bots.ismcts import Appraisal, Budget, IsmctsBot
from tabletop.framework import Unsupported, chance
from tabletop.framework.bots import UnreadView, bot_seed
from tabletop.framework.engine import Engine
from tabletop.framework.game import Action, clone
from tabletop.framework.search import BotHints, InformationSet

#: How many choices a hint names: the suggestion and the two best alternatives.
SHOWN = 3

#: A choice is compared only when the search tried it at least this often, and at least
#: this share of its most tried choice: below that its estimate is mostly noise.
MIN_PLAYOUTS = 3
MIN_SHARE = 0.1

#: The normal quantile of a 95% interval.
Z95 = 1.96


def interval(chance: float, playouts: int) -> tuple[float, float]:
    """The 95% Wilson interval of a chance estimated from ``playouts`` (a playout cut
    short counts its fraction of a win): wide for few playouts, never outside 0-1."""
    if playouts <= 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (chance + z2 / (2 * playouts)) / (1 + z2 / playouts)
    half = (
        Z95
        * math.sqrt(chance * (1 - chance) / playouts + z2 / (4 * playouts * playouts))
        / (1 + z2 / playouts)
    )
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass(frozen=True)
class Suggestion:
    """One choice as the search judged it: its label, the chance of winning it found
    (the team's in a cooperative game), the mean final score of the playouts through
    it that finished with scores (None if none did), how many playouts went there, the
    95% interval of the chance and why the game's hints like it ("" when they do not
    say)."""

    action: Action
    label: str
    win_chance: float | None
    score: float | None
    playouts: int
    low: float | None = None
    high: float | None = None
    reason: str = ""


@dataclass(frozen=True)
class Hint:
    """What the search suggests at one decision: ``choices`` best first by the number
    each shows (at most ``SHOWN``), for ``seat`` after ``moment`` actions of the game."""

    seat: int
    moment: int
    choices: tuple[Suggestion, ...]
    cooperative: bool
    playouts: int
    unsearched: str = ""
    """Why nothing was compared, when the search made no playout: one legal choice,
    one left by the game's bot hints, or a game it cannot search from this seat."""
    untried: int = 0
    """Choices the search tried too seldom to compare (``MIN_PLAYOUTS``, ``MIN_SHARE``)."""

    @property
    def action(self) -> Action:
        return self.choices[0].action

    def lines(self) -> list[str]:
        """The hint in words: the suggestion, then each alternative, each choice's
        estimate with its interval and playouts on the line under it, and its reason
        under that; last, how sure the whole is."""
        best = self.choices[0]
        if best.win_chance is None:
            out = [f"Suggested: {best.label}", f"  ({self.unsearched})"]
            return out + ([f"  Why: {best.reason}"] if best.reason else [])
        out = [f"Suggested: {best.label}", *self._about(best, "  ")]
        if len(self.choices) > 1:
            out.append("Next best:")
            for choice in self.choices[1:]:
                out += [f"  {choice.label}", *self._about(choice, "    ")]
        sure = f"({self.playouts} simulated games, from what you can see only"
        if len(self.choices) > 1 and _overlap(best, self.choices[1]):
            sure += "; the first two are within each other's margin: about as good"
        if self.untried:
            sure += f"; {self.untried} other choice{'s' if self.untried > 1 else ''} too "
            sure += "seldom tried to compare"
        out.append(sure + ")")
        return out

    def _about(self, choice: Suggestion, indent: str) -> list[str]:
        out = [f"{indent}{self._estimate(choice)}"]
        if choice.reason:
            out.append(f"{indent}Why: {choice.reason}")
        return out

    def _estimate(self, choice: Suggestion) -> str:
        """A cooperative game's team score first (what the team plays for), else the
        chance of winning first; the chance's 95% interval and the playouts after it."""
        win = f"{100 * (choice.win_chance or 0.0):.0f}%"
        if choice.low is not None and choice.high is not None:
            win += f" (95%: {100 * choice.low:.0f}-{100 * choice.high:.0f}%)"
        tried = f", {choice.playouts} games"
        if not self.cooperative:
            score = "" if choice.score is None else f", score about {choice.score:.1f}"
            return f"win chance about {win}{score}{tried}"
        if choice.score is None:
            return f"team win chance about {win}{tried}"
        return f"team score about {choice.score:.1f}, team win chance {win}{tried}"


def _overlap(first: Suggestion, second: Suggestion) -> bool:
    if None in (first.low, first.high, second.low, second.high):
        return False
    assert first.low is not None and second.high is not None
    return first.low <= second.high


def shown_value(appraisal: Appraisal, cooperative: bool) -> float:
    """The number a choice is shown with first, and ranked by: a cooperative game's
    team score when its playouts had one, else the chance of winning."""
    if cooperative and appraisal.score is not None:
        return appraisal.score
    return appraisal.win_chance


def ranked(appraisals: Sequence[Appraisal], cooperative: bool) -> tuple[list[Appraisal], int]:
    """The choices tried often enough, best first by ``shown_value`` (more playouts
    first between equals), and how many others were left out."""
    most = max((a.visits for a in appraisals), default=0)
    enough = max(MIN_PLAYOUTS, MIN_SHARE * most)
    tried = [a for a in appraisals if a.visits >= enough] or list(appraisals)
    tried.sort(key=lambda a: (-shown_value(a, cooperative), -a.visits))
    return tried, len(appraisals) - len(tried)


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
    # bot_move's source: the hint searches as the default bot would in this seat
    rng = chance.bot_rng(bot_seed(engine.seed, seat) + moment)
    labels = {choice.action: choice.label for choice in prompt.choices}
    bot = IsmctsBot(hints, budget or DEFAULT_STRENGTH.budget())
    advice = hints or BotHints()
    cooperative = game.info.cooperative

    def think() -> Hint:
        information = InformationSet(game, state, seat, chance.dice_factory)
        action = bot.search(game, UnreadView(), prompt, rng, information)
        best, untried = ranked(bot.last.appraisals or [], cooperative)
        choices = [
            Suggestion(
                a.action,
                labels[a.action],
                a.win_chance,
                a.score,
                a.visits,
                *interval(a.win_chance, a.visits),
            )
            for a in best[:SHOWN]
        ] or [Suggestion(action, labels[action], None, None, 0)]
        try:  # the game's own words, from a world the seat cannot tell from the real one
            sample = information.sample(rng)
        except Unsupported:
            sample = None
        if sample is not None:
            choices = [
                replace(c, reason=advice.reason(game, clone(sample), prompt, c.action))
                for c in choices
            ]
        if best:
            why = ""
        elif len(prompt.choices) == 1:
            why = "the only legal choice"
        elif bot.last.root_visits:
            why = "the only choice the game's bot hints find worth making"
        else:
            why = "the game cannot be searched from your seat's view: a choice at random"
        return Hint(seat, moment, tuple(choices), cooperative, bot.last.iterations, why, untried)

    return think
