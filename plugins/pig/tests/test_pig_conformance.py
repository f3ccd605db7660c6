"""Pig against the conformance kit: the whole generic suite, secret banks included
(resampled by Pig's own ``determinize``)."""

from __future__ import annotations

from tabletop.framework.testing import GameConformance
from tabletop.games.pig import Pig


class TestPigConformance(GameConformance):
    game = Pig()
