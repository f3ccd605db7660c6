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
4. credits every seat its share of the win to the nodes on the path.

Chance (dice, draws) is resolved by the bot's own random source inside the samples, so
the tree is "open loop": a node stands for a sequence of choices, whatever the dice
said. The answer is the most visited legal choice at the root.

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
from dataclasses import dataclass
from typing import Any

from tabletop.framework.bots import SearchBot
from tabletop.framework.chance import dice_factory
from tabletop.framework.context import Context
from tabletop.framework.errors import Unsupported
from tabletop.framework.game import Action, GameDefinition, Prompt, Result, State
from tabletop.framework.ports import RandomSource
from tabletop.framework.search import BotHints, InformationSet

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
    the seat that made the choice leading here; ``available`` counts how often the
    choice was legal when its parent was visited (ISMCTS's correction for choices that
    exist only in some samples)."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 0
        self.reward = 0.0


@dataclass
class SearchStats:
    """What the last search did, for tests, tournaments and the docs' measurements."""

    iterations: int = 0
    seconds: float = 0.0
    actions: int = 0
    """Actions applied in simulations (tree walks and playouts)."""
    root_visits: dict[Action, int] | None = None


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
        if type(self.hints).candidates is not BotHints.candidates:
            worth = self._candidates(game, first_sample, prompt)
            if len(worth) == 1:  # the hints leave one choice: nothing to search
                self.last = SearchStats(0, time.perf_counter() - started, 0, {worth[0]: 0})
                return worth[0]
        cap = self.action_cap
        root = _Node()
        done = 0
        self._actions = 0
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
        best = max(visits.values())
        return next(action for action in legal if visits.get(action) == best)

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
        rewards = self._playout(game, state, prompt, rng)
        for node_on_path, seat in zip(path[1:], seats, strict=True):
            node_on_path.visits += 1
            node_on_path.reward += rewards[seat] if seat < len(rewards) else 0.0
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
        self, game: GameDefinition, state: State, prompt: Prompt | None, rng: RandomSource
    ) -> list[float]:
        """Play on by the rollout policy; each seat's share of the outcome in [0, 1]."""
        hints = self.hints
        dice = dice_factory(rng)
        depth = hints.rollout_depth
        steps = 0
        while prompt is not None:
            if depth is not None and steps >= depth:
                judged = hints.evaluate(game, state)
                if judged is not None:
                    return [float(value) for value in judged]
                depth = None
            if steps >= MAX_PLAYOUT:
                return []
            action = hints.rollout(game, state, prompt, rng)
            game.apply(state, prompt.seat, action, Context(rng, dice, actor=prompt.seat))
            prompt = game.prompt(state)
            steps += 1
            self._actions += 1
        result = game.result(state)
        return _shares(result)


def _shares(result: Result | None) -> list[float]:
    """1 for a sole winner, 1/k each for k winners sharing the win, 0 for the rest."""
    if result is None or not result.winners:
        return []
    players = max(max(result.winners) + 1, len(result.scores))
    shares = [0.0] * players
    for seat in result.winners:
        shares[seat] = 1.0 / len(result.winners)
    return shares
