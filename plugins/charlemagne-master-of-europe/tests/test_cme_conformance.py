"""The framework's conformance kit (with its leak checks on the cups) run against
Charlemagne, Master of Europe."""

from __future__ import annotations

from tabletop.framework.testing import GameConformance
from tabletop.games.charlemagne_master_of_europe import CharlemagneMasterOfEurope


class TestCharlemagneConformance(GameConformance):
    game = CharlemagneMasterOfEurope()
    seeds = (1, 2)
    fuzz_games = 12
    samples = 6
