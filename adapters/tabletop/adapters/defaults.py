"""The default adapter choices, for code outside the app (tests, the conformance kit)."""

from __future__ import annotations

from tabletop.adapters.dice import SeededDice
from tabletop.adapters.rng import Pcg32
from tabletop.framework.ports import Dice, RandomSource


def rng_factory(seed: int) -> RandomSource:
    return Pcg32(seed)


def dice_factory(rng: RandomSource) -> Dice:
    return SeededDice(rng)
