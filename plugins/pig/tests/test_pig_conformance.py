"""Pig against the conformance kit: the whole generic suite, plus Pig's hidden banks."""

from __future__ import annotations

from tabletop.framework import RandomSource, State, clone
from tabletop.framework.testing import GameConformance
from tabletop.games.pig import Pig


class TestPigConformance(GameConformance):
    game = Pig()

    def hidden_variants(self, state: State, seat: int, rng: RandomSource) -> State:
        """With secret banks, a seat cannot know the other banks while play goes on:
        any values below the target are consistent with what it sees."""
        variant: State = clone(state)
        if state["secret"] and state["winner"] is None:
            for other in range(len(variant["banks"])):
                if other != seat:
                    variant["banks"][other] = rng.randint(0, state["target"] - 1)
        return variant
