"""Council against the conformance kit: leak checks on sealed agendas and consuls."""

from __future__ import annotations

from tabletop.framework.testing import GameConformance
from tabletop.games.council import Council


class TestCouncilConformance(GameConformance):
    game = Council()
