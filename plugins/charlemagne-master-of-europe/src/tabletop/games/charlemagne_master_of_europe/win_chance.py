"""The chance of winning the hint key reports (issue 27): a logistic model fitted on
the steward's own games, kept apart from ``bot.evaluate_state``.

The search needs a value that steers it (``evaluate_state``: a VP lead with bonuses,
which reads 0.4-0.5 on turn 1), a person needs a probability. Using the fitted model
as the search's value halved ``mcts``'s final VP and made its searches longer
(balance.md), so it is only what ``CmeHints.win_chances`` reports: the search's moves
do not change.

Fitted on 1 December 2026 on 51 steward games played through ``bot_move``
(``batch_seed`` 9100, games 0-25, and 9200, games 0-24; 12 won), the features read at
each turn's first decision and every 40 actions, 1049 positions. Fitted on the games
with index % 4 != 3 (39 games, Newton's method, L2 of 1 on the weights); on the other
12 games (222 positions) the Brier score is 0.098 (0.177 for a constant rate), and
predicted against observed by quintile was 0.01/0.00, 0.06/0.00, 0.19/0.11, 0.30/0.27,
0.69/0.67. A fresh game reads 0.21 (the steward then won 18.5% of 200 games).

Checked again on the steward of issue 27's second round (commit ``04b7c8d``, which wins
more): 74 new games (seeds 8000-8073, through ``bot_move``, 20 won), 1,541 positions
read as above: Brier score 0.186, against 0.218 for the constant rate; predicted
against observed by quintile 0.01/0.02, 0.13/0.11, 0.26/0.31, 0.58/0.51, 0.93/0.62
(the top fifth reads too sure); turn 1 reads 0.24. A refit on those games did no
better under five-fold cross-validation (0.186), so the weights stay.

Each weight multiplies one feature in log-odds: the lead (VP plus the EVP's worth, less
this turn's VP threshold) counts a little less as the campaign goes on; each turn gone
costs ``TURN`` (the Churches and Bridges & Roads built count against the time they
took), and turn 1 has its own term; the Strength margin over this turn's Minimum Army
Strength is capped at ±10.
"""

from __future__ import annotations

import math

from tabletop.framework import State

from . import board
from .bot_plan import evp_worth, strength_margin
from .data import LAST_TURN, vp_threshold

BIAS = 0.551
LEAD = 0.024
LEAD_LATE = -0.012
TURN = -0.978
FIRST_TURN = -0.812
ROADS = 1.893
CHURCH = 1.876
MOORS = -0.539
MARGIN = 0.030
MARGIN_CAP = 10


def win_chance(state: State) -> float:
    """The estimated chance that the steward's play wins from ``state`` (rules: Winning
    and Losing): 1 or 0 once the game is decided, else the fitted model above."""
    outcome = state["outcome"]
    if outcome is not None:
        return 1.0 if outcome["won"] else 0.0
    turn = min(state["turn"], LAST_TURN)
    lead = state["vp"] + evp_worth(state) - vp_threshold(turn)
    margin = max(-MARGIN_CAP, min(MARGIN_CAP, strength_margin(state, 1)))
    logit = BIAS + lead * (LEAD + LEAD_LATE * turn / LAST_TURN)
    logit += TURN * turn + (FIRST_TURN if turn == 1 else 0.0)
    logit += ROADS * len(board.roads_regions(state))
    logit += CHURCH * board.finished_churches(state)
    logit += MOORS * board.moors_on_map(state) + MARGIN * margin
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, logit))))
