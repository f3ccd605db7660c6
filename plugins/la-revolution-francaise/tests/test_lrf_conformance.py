"""La Révolution française against the conformance kit: sealed objectives and hidden
deputies must not leak through views, prompts or events (4 and 6 seats)."""

from __future__ import annotations

from tabletop.framework.testing import GameConformance
from tabletop.games.la_revolution_francaise import LaRevolutionFrancaise


class TestLaRevolutionFrancaiseConformance(GameConformance):
    game = LaRevolutionFrancaise()
    players = (4, 5, 6)
    # The Euro-ish variant changes only the sign of a double's fame effect (15.3);
    # the rule tests cover it, and a game here is long (about a thousand decisions).
    option_sets = ({},)
    seeds = (1,)
    fuzz_games = 1
    samples = 6
