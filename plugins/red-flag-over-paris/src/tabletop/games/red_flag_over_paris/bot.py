"""A light game-specific bot: prefers moves that add own cubes or remove enemy ones.

It scores each legal action by a cheap rule of thumb from its own view only (no search),
which is enough to beat random play and to give the fuzzer more purposeful games.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from tabletop.framework import Action, Bot, GameDefinition, Prompt, RandomSource, State
from tabletop.framework.search import BotHints

from . import board
from .data import COMMUNE, DIM_SPACES, DIMENSIONS, FINAL_ZONE, ROUNDS, VERSAILLES
from .verbs import (
    APPLY,
    DE_ESCALATE,
    DISC,
    DONE,
    ENEMY,
    EVENT,
    FINAL_CRISIS_OPS,
    KIND,
    MOMENTUM,
    OPERATIONS,
    OWN,
    PASS,
    PERFORM,
    PLACE,
    PLAY_FIRST,
    PUT,
    REMOVE,
    REMOVE_EXTRA,
    REUSE,
    SPREAD,
    STOP,
    TAKE,
    TO_PLACE,
    TURNCOAT,
    VERBS,
)

#: The greedy score of each verb (``verbs.py``); any other scores 0. "first" is both the
#: initiative's and the scoring order's word (see verbs.py): both score the same.
_PREFERENCES = {
    verb.name: score
    for verb, score in (
        (PUT, 5),
        (PLACE, 5),
        (TAKE, 6),
        (REMOVE, 6),
        (REMOVE_EXTRA, 4),
        (TURNCOAT, 7),
        (DISC, 4),
        (EVENT, 3),
        (OPERATIONS, 3),
        (FINAL_CRISIS_OPS, 1),
        (REUSE, 2),
        (MOMENTUM, 1),
        (KIND, 1),
        (PERFORM, 5),
        (APPLY, 1),
        (PLAY_FIRST, 2),
        (SPREAD, 2),
        (DE_ESCALATE, 0),
        (ENEMY, 4),
        (OWN, 0),
    )
}


class GreedyBot(Bot):
    name = "rfop-greedy"
    reads_view = False  # it scores the prompt's choices only

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        best: list[Action] = []
        top = -1
        for choice in prompt.choices:
            score = _PREFERENCES.get(VERBS.verb_of(choice.action).name, 0)
            if score > top:
                best, top = [choice.action], score
            elif score == top:
                best.append(choice.action)
        return rng.choice(best)


# Advice to the search bots (tabletop.framework.search.BotHints) ---------------------------

#: Playout weights by action verb (``verbs.py``): a simulated player who mostly builds,
#: attacks and turns cubes, rarely passes, and avoids drawing cubes from its Final Crisis
#: zone.
_ROLLOUT_WEIGHTS = {
    verb.name: weight
    for verb, weight in (
        (TURNCOAT, 14),
        (TAKE, 12),
        (REMOVE, 12),
        (PUT, 10),
        (PLACE, 10),
        (DISC, 8),
        (ENEMY, 8),
        (PERFORM, 10),
        (EVENT, 8),
        (OPERATIONS, 8),
        (REMOVE_EXTRA, 6),
        (REUSE, 6),
        (APPLY, 4),
        (TO_PLACE, 4),
        (MOMENTUM, 2),
        (FINAL_CRISIS_OPS, 2),
        (STOP, 2),
        (DONE, 2),
        (PASS, 1),
        (OWN, 1),
    )
}
_DEFAULT_WEIGHT = 3
#: Weight of a placement that would breach the placer's Final Crisis zone (§8.3).
_BREACH_WEIGHT = 1
_PLACING = frozenset({PUT.name, PLACE.name, TURNCOAT.name})


class RfopHints(BotHints):
    """What the search bot should know about Red Flag Over Paris.

    The win test (§13.1) compares Versailles' Military VP with the Commune's Political
    VP; both are read from shared tracks, so the race is one number, the sum of the two
    tracks from Versailles' side. The evaluation adds what the board promises: control
    of each Crisis Dimension's spaces (§10.2 scores fully controlled dimensions at every
    round's end) weighted by the scorings still to come. Playouts stop after
    ``rollout_depth`` actions (a few card plays) and are judged by it.
    """

    rollout_depth = 16
    #: How many VP of margin make a side about 73% sure to win (logistic scale).
    scale = 1.0
    #: Worth of controlling all of a dimension's spaces, per scoring still to come.
    dimension_weight = 0.6

    def rollout_weights(
        self, game: GameDefinition, state: State, prompt: Prompt
    ) -> Sequence[int] | None:
        breach = board.next_breach(state, prompt.seat) == FINAL_ZONE and not state["fc"]
        weights = []
        for choice in prompt.choices:
            verb = VERBS.verb_of(choice.action).name
            weight = _ROLLOUT_WEIGHTS.get(verb, _DEFAULT_WEIGHT)
            if breach and verb in _PLACING:
                weight = _BREACH_WEIGHT
            weights.append(weight)
        return weights

    def evaluate(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        return [chance := self.versailles_chance(state), 1.0 - chance]

    def versailles_chance(self, state: State) -> float:
        """Versailles' chance to win from ``state``, from the VP race and the board."""
        if state["result"] is not None:
            return 1.0 if state["result"]["winner"] == VERSAILLES else 0.0
        margin = float(state["vp"]["military"] + state["vp"]["political"])
        scorings = 1 if state["fc"] else ROUNDS - state["round"] + 1
        for dim in DIMENSIONS:
            spaces = DIM_SPACES[dim]
            owners = [board.controller(state, s) for s in spaces]
            share = (owners.count(VERSAILLES) - owners.count(COMMUNE)) / len(spaces)
            margin += self.dimension_weight * scorings * share * abs(share)
        # A level race goes to the tiebreak, which favours the Commune; in solitaire
        # play the solo opponent wins it outright.
        margin += 0.6 if state.get("solo") == VERSAILLES else -0.3
        return 1.0 / (1.0 + math.exp(-margin / self.scale))
