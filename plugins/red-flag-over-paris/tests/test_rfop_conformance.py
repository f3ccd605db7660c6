"""The framework's conformance kit run against Red Flag Over Paris."""

from __future__ import annotations

from tabletop.framework.testing import GameConformance
from tabletop.games.red_flag_over_paris import RedFlagOverParis


class TestRedFlagOverParisConformance(GameConformance):
    game = RedFlagOverParis()
