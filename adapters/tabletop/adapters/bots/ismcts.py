"""Information-set Monte Carlo tree search: a bot for every seat of every game.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012), written for Tabletop's
game API. Each iteration

1. samples a full state from the bot's information set (the game's ``determinize``:
   what the seat cannot see is drawn again), so the bot never reads hidden state;
2. walks down one tree of action sequences shared by all samples, choosing at each
   decision the child with the best upper confidence bound among the choices legal in
   this sample (a child's "availability" counts the visits in which it was legal);
   every seat's decisions are in the tree, each judged by the seat that makes it;
3. adds one new child, then plays on with the game's rollout policy (random by
   default) until the game ends or the hints' playout depth is reached, where the
   game's evaluation scores the state;
4. credits every seat its reward to the nodes on the path: its win (a side's win is a
   whole win for each of its seats; a tie shared between seats, a share), and
   where the game has scores, its score brought into [0, 1] (``Reward``).

Chance (dice, draws) is resolved by the bot's own random source inside the samples, so
the tree is "open loop": a node stands for a sequence of choices, whatever the dice
said. The answer is the most visited legal choice at the root; between choices visited
equally often, the one with the better mean reward, then the one the hints' candidates
(or the prompt) list first.

The budget is a number of iterations and a cap on the simulated actions they may use
(both deterministic: the same seed, position and budget give the same move on any
machine), and optionally a wall-clock limit (not reproducible). The search stops at
whichever comes first. The action cap keeps a long game without hints (whose every
playout is a whole game) from thinking for minutes. It is counted in reference actions
(Red Flag Over Paris'): a game whose hints say one of its actions costs k of those
(``BotHints.action_cost``) gets a k times smaller cap, so that every game's default bot
answers in about the same time, still without reading a clock.
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from tabletop.framework.bots import SearchBot
from tabletop.framework.chance import dice_factory
from tabletop.framework.context import Context
from tabletop.framework.errors import Unsupported
from tabletop.framework.game import Action, GameDefinition, Prompt, Result, State
from tabletop.framework.ports import RandomSource
from tabletop.framework.search import (
    COMPETITIVE_SCORE_WEIGHT,
    COOPERATIVE_SCORE_WEIGHT,
    BotHints,
    InformationSet,
)

#: Exploration constant of the UCB rule, for rewards in [0, 1].
EXPLORATION = 0.7
#: Longest playout before it is called a draw (a game that loops in random play).
MAX_PLAYOUT = 5_000


@dataclass(frozen=True)
class Budget:
    """How long the bot thinks per decision: ``iterations`` samples and playouts, at most
    ``actions`` simulated actions in all (in reference actions: divided by the game's
    ``BotHints.action_cost``), and/or ``seconds`` of wall-clock time (whichever ends
    first; at least one iteration is always made). Only ``seconds`` makes the bot's
    moves depend on the machine: no bot kind sets it."""

    iterations: int | None = 100
    seconds: float | None = None
    actions: int | None = 6_000

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations, seconds or both")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError(f"iterations must be 1 or more, not {self.iterations}")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError(f"seconds must be more than 0, not {self.seconds}")
        if self.actions is not None and self.actions < 1:
            raise ValueError(f"actions must be 1 or more, not {self.actions}")

    @property
    def deterministic(self) -> bool:
        return self.seconds is None


class _Node:
    """One sequence of choices from the root. ``reward`` is the total credit earned by
    the seat that made the choice leading here, ``wins`` its total share of wins (a
    playout cut short adds the hints' ``win_chances``, by default the evaluation),
    ``points`` the total of its own scores in the ``scored`` playouts that finished
    with scores; ``available`` counts how often the choice was legal when its parent
    was visited (ISMCTS's correction for choices that exist only in some samples)."""

    __slots__ = ("available", "children", "points", "reward", "scored", "visits", "wins")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0
        self.wins = 0.0
        self.points = 0.0
        self.scored = 0


@dataclass(frozen=True)
class Appraisal:
    """What the search thinks of one choice at the root, for the seat deciding: how
    often it played the choice, its mean reward (what the search maximises), the chance
    of winning it found (for a cooperative game, the team's), and the mean final score
    of the playouts through it that finished with scores (None if none did)."""

    action: Action
    visits: int
    value: float
    win_chance: float
    score: float | None


#: A finished playout for every seat: rewards, shares of the win, own scores (or None).
Playout = tuple[list[float], list[float], list[float] | None]


class Reward:
    """A finished playout's reward for each seat, in [0, 1]: a share of the win and,
    when the result has scores, a share from the scores (``BotHints.score_weight``).

    The win: 1 for a sole winner, 1/k each for k winners sharing a tie; a side's win
    (``Result.side``) is 1 for each of its seats, and in a cooperative game
    (``GameInfo.cooperative``) a win is the team's, 1 for every seat. The scores:
    in a competitive game with several seats, a seat's score relative to the others'
    ((score - lowest) / (highest - lowest), 0.5 each when all are equal); in a
    cooperative game the team's score and in a solitaire the seat's, each brought into
    [0, 1] by min-max over ``BotHints.score_range``, or over the scores this search has
    seen so far when the game declares no range. A game's own ``BotHints.reward``
    replaces all of this."""

    def __init__(self, game: GameDefinition, hints: BotHints) -> None:
        self.cooperative = game.info.cooperative
        weight = hints.score_weight
        if weight is None:
            weight = COOPERATIVE_SCORE_WEIGHT if self.cooperative else COMPETITIVE_SCORE_WEIGHT
        if not 0.0 <= weight <= 1.0:
            raise ValueError(f"score_weight must be in [0, 1], not {weight}")
        self.weight = weight
        self.range = hints.score_range
        if self.range is not None and not self.range[0] < self.range[1]:
            raise ValueError(f"score_range must be (lowest, highest), not {self.range}")
        self.seen: tuple[float, float] | None = None

    def __call__(self, result: Result, seats: int) -> Playout:
        """The rewards, the wins and each seat's own score (None without scores) of a
        finished game, for ``seats`` seats at least."""
        scores = result.scores
        players = max([seats, len(scores), *(seat + 1 for seat in result.winners)])
        wins = [0.0] * players
        if result.winners and self.cooperative:
            wins = [1.0] * players
        elif result.winners:
            # a side's win is one whole win for each of its members (issue 38); a tie
            # between seats playing for themselves is shared
            share = 1.0 if result.side else 1.0 / len(result.winners)
            for seat in result.winners:
                wins[seat] = share
        if not scores:
            return wins, wins, None
        if self.cooperative:
            team = max(scores)
            points = [team] * players
            parts = [self.scaled(team)] * players
        else:
            points = [float(score) for score in scores] + [0.0] * (players - len(scores))
            if len(scores) == 1:
                parts = [self.scaled(scores[0])] + [0.0] * (players - 1)
            else:
                low, high = min(scores), max(scores)
                parts = [0.5 if high == low else (score - low) / (high - low) for score in scores]
                parts += [0.0] * (players - len(scores))
        weight = self.weight
        rewards = [
            (1.0 - weight) * win + weight * part for win, part in zip(wins, parts, strict=True)
        ]
        return rewards, wins, points

    def scaled(self, score: float) -> float:
        """``score`` into [0, 1] over the declared range, or the range seen so far."""
        if self.range is not None:
            low, high = self.range
        else:
            seen = self.seen
            low, high = (
                (score, score) if seen is None else (min(seen[0], score), max(seen[1], score))
            )
            self.seen = (low, high)
        if high <= low:
            return 0.5
        return min(1.0, max(0.0, (score - low) / (high - low)))


@dataclass
class SearchStats:
    """What the last search did, for tests, tournaments and the docs' measurements."""

    iterations: int = 0
    seconds: float = 0.0
    actions: int = 0
    """Actions applied in simulations (tree walks and playouts)."""
    root_visits: dict[Action, int] | None = None
    appraisals: list[Appraisal] | None = None
    """Every searched choice at the root, the one played first, then in the order of
    preference (most visits, then mean reward): the hint key's source."""


class IsmctsBot(SearchBot):
    """Information-set MCTS with the game's optional ``BotHints``."""

    name = "mcts"
    reads_view = False  # it decides from sampled states, never from the view

    def __init__(
        self,
        hints: BotHints | None = None,
        budget: Budget | None = None,
        exploration: float = EXPLORATION,
    ) -> None:
        self.hints = hints or BotHints()
        self.budget = budget or Budget()
        cost = self.hints.action_cost
        if not cost > 0:  # also refuses NaN
            raise ValueError(f"{type(self.hints).__name__}.action_cost must be above 0, not {cost}")
        self.exploration = exploration
        self.last = SearchStats()
        self._actions = 0
        self._reward: Reward | None = None

    def hurried(self, seconds: float) -> IsmctsBot:
        """The same search thinking at most ``seconds`` a decision (its budget's other
        limits kept): a person waiting at a table is answered in time on a slow or busy
        machine, while a quick machine never reaches the limit."""
        current = self.budget.seconds
        if current is not None and current <= seconds:
            return self
        return IsmctsBot(self.hints, replace(self.budget, seconds=seconds), self.exploration)

    @property
    def action_cap(self) -> int | None:
        """The most simulated actions of this game a search starts iterations for: the
        budget's reference actions divided by the game's ``action_cost``."""
        actions = self.budget.actions
        if actions is None:
            return None
        return max(1, round(actions / self.hints.action_cost))

    def search(
        self,
        game: GameDefinition,
        view: dict[str, Any],
        prompt: Prompt,
        rng: RandomSource,
        information: InformationSet,
    ) -> Action:
        legal = prompt.actions()
        if len(legal) == 1:
            self.last = SearchStats(0, 0.0, 0, {legal[0]: 0})
            return legal[0]
        started = time.perf_counter()
        deadline = None if self.budget.seconds is None else started + self.budget.seconds
        limit = self.budget.iterations
        try:
            first_sample = information.sample(rng)
        except Unsupported:
            # Hidden information and no determinize: searching would mean reading the
            # real state, so the seat is played uniformly at random instead.
            self.last = SearchStats(0, 0.0, 0, {})
            return rng.choice(prompt.choices).action
        order = list(legal)  # how ties between equally good choices are broken
        if self._hinted():
            worth = self._candidates(game, first_sample, prompt)
            order = [*worth, *(action for action in legal if action not in worth)]
            if len(worth) == 1:  # the hints leave one choice: nothing to search
                self.last = SearchStats(0, time.perf_counter() - started, 0, {worth[0]: 0})
                return worth[0]
        cap = self.action_cap
        root = _Node()
        done = 0
        self._actions = 0
        self._reward = Reward(game, self.hints)
        while limit is None or done < limit:
            if done and cap is not None and self._actions >= cap:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            sample = first_sample if done == 0 else information.sample(rng)
            self._iterate(game, sample, root, rng)
            done += 1
        children = root.children
        visits = {action: children[action].visits for action in legal if action in children}
        self.last = SearchStats(done, time.perf_counter() - started, self._actions, visits)
        if not visits:  # the hints left one choice: no tree was needed
            first = self._candidates(game, information.sample(rng), prompt)[0]
            self.last.root_visits = {first: 0}
            return first
        # Most visits; between equals the better mean reward, then the order the
        # hints' candidates (or the prompt) give, never the prompt's order alone.
        ranked = sorted(
            (action for action in order if action in visits),
            key=lambda action: (-visits[action], -_mean(children[action])),
        )
        self.last.appraisals = [_appraise(action, children[action]) for action in ranked]
        return ranked[0]

    def _hinted(self) -> bool:
        return type(self.hints).candidates is not BotHints.candidates

    # One iteration ---------------------------------------------------------------------

    def _iterate(self, game: GameDefinition, state: State, root: _Node, rng: RandomSource) -> None:
        dice = dice_factory(rng)
        path: list[_Node] = [root]
        seats: list[int] = []
        node = root
        prompt = game.prompt(state)
        # Selection and expansion: down the tree while every legal choice has a child.
        while prompt is not None:
            actions = self._candidates(game, state, prompt)
            if len(actions) == 1:  # forced: no node, the same decision point goes on
                action = actions[0]
            else:
                untried = [a for a in actions if a not in node.children]
                if untried:
                    action = untried[0]
                    for a in actions:
                        child = node.children.get(a)
                        if child is not None:
                            child.available += 1
                    child = node.children[action] = _Node()
                    child.available = 1
                    node = child
                    path.append(node)
                    seats.append(prompt.seat)
                    game.apply(state, prompt.seat, action, Context(rng, dice, actor=prompt.seat))
                    self._actions += 1
                    prompt = game.prompt(state)
                    break
                action = self._select(node, actions)
                node = node.children[action]
                path.append(node)
                seats.append(prompt.seat)
            game.apply(state, prompt.seat, action, Context(rng, dice, actor=prompt.seat))
            self._actions += 1
            prompt = game.prompt(state)
        rewards, wins, points = self._playout(game, state, prompt, rng, max(seats, default=0) + 1)
        for node_on_path, seat in zip(path[1:], seats, strict=True):
            node_on_path.visits += 1
            if seat < len(rewards):
                node_on_path.reward += rewards[seat]
                node_on_path.wins += wins[seat]
            if points is not None and seat < len(points):
                node_on_path.points += points[seat]
                node_on_path.scored += 1
        root.visits += 1

    def _candidates(self, game: GameDefinition, state: State, prompt: Prompt) -> Sequence[Action]:
        """The hints' ordered, pruned choices; all of them if the hints prune to nothing
        or name an action that is not legal (a bug in the hints must not make a bot
        play an illegal move)."""
        if type(self.hints).candidates is BotHints.candidates:
            return prompt.actions()
        legal = prompt.actions()
        chosen = [a for a in self.hints.candidates(game, state, prompt) if a in legal]
        return chosen or legal

    def _select(self, node: _Node, actions: Sequence[Action]) -> Action:
        """UCB1 over the children legal now, counting each child's availability."""
        best_action = actions[0]
        best_score = -math.inf
        for action in actions:
            child = node.children[action]
            child.available += 1
            score = child.reward / child.visits + self.exploration * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best_action, best_score = action, score
        return best_action

    def _playout(
        self,
        game: GameDefinition,
        state: State,
        prompt: Prompt | None,
        rng: RandomSource,
        seats: int,
    ) -> Playout:
        """Play on by the rollout policy; each seat's reward in [0, 1], its share of the
        win (where the evaluation judged a cut playout: the hints' win chance) and its
        score (``Reward``), for ``seats`` at least."""
        hints = self.hints
        dice = dice_factory(rng)
        depth = hints.rollout_depth
        steps = 0
        while prompt is not None:
            if depth is not None and steps >= depth:
                judged = hints.evaluate(game, state)
                if judged is not None:
                    values = [float(value) for value in judged]
                    chances = hints.win_chances(game, state)
                    if chances is None:
                        return values, values, None
                    return values, [float(chance) for chance in chances], None
                depth = None
            if steps >= MAX_PLAYOUT:
                return [], [], None
            action = hints.rollout(game, state, prompt, rng)
            game.apply(state, prompt.seat, action, Context(rng, dice, actor=prompt.seat))
            prompt = game.prompt(state)
            steps += 1
            self._actions += 1
        result = game.result(state)
        if result is None:
            return [], [], None
        own = hints.reward(game, result)
        if own is not None:
            values = [float(value) for value in own]
            scores = [float(score) for score in result.scores] if result.scores else None
            return values, values, scores
        reward = self._reward if self._reward is not None else Reward(game, hints)
        return reward(result, seats)


def _mean(node: _Node) -> float:
    return node.reward / node.visits if node.visits else 0.0


def _appraise(action: Action, node: _Node) -> Appraisal:
    visits = node.visits
    return Appraisal(
        action,
        visits,
        _mean(node),
        node.wins / visits if visits else 0.0,
        node.points / node.scored if node.scored else None,
    )
