"""Every rule of the game in one table: the decisions the player answers and the steps
that simply happen, run by the framework's decision stack.

The stack keeps this game's names (``state["tasks"]``, a task's ``"kind"``) so that
saves and their digests stay as they were; the game is over when ``state["outcome"]``
is set, and the stack is then emptied. The modules, in the order of a turn:
``setup`` (§2), ``turn`` (§3), ``levy`` (§4), ``campaign_menu`` and ``campaign`` (§5),
``reactions`` (§6), ``battle_display``, ``battle`` and ``battle_decisions`` (§7),
``build`` (§8), ``diplomacy`` (§9), ``turn_end`` (§10), ``endgame`` (§11).
"""

from __future__ import annotations

from tabletop.framework import Context, State
from tabletop.framework.stack import Stack

from .battle import BATTLE_CONTINUE, BATTLE_FINISH
from .battle_decisions import (
    BATTLE_ATTACK,
    BATTLE_COUNTERATTACK,
    BATTLE_DEPLOY,
    BATTLE_MANEUVER,
    BATTLE_PROMOTE,
    BATTLE_RESERVE,
    BATTLE_RESERVE_OPTIONAL,
)
from .build import BUILD_BRIDGES, BUILD_FINISH, BUILD_START
from .campaign import CAMPAIGN_ACTION, CAMPAIGN_CONTINUE, CUP_ADJUSTMENT
from .common import TASKS
from .diplomacy import DIPLOMACY_AL_ANDALUS, DIPLOMACY_STEPS, DIPLOMACY_VIKINGS
from .endgame import ENDGAME_SCORING
from .levy import LEVY_BUY, LEVY_END, LEVY_PROMOTE
from .reactions import HOSTILE_REACTION
from .setup import MARQUIS_START_DECISION, SETUP_REST, setup_game
from .turn import PHASE_STEPS, TURN_START
from .turn_end import EVP_VOLUNTARY, TURN_END_STEPS


def _over(state: State) -> bool:
    return state["outcome"] is not None


def _ran_dry(state: State, ctx: Context) -> bool:
    """Every turn pushes the next (``turn_end_progress``) and the last ends the game:
    an empty stack before the end is a bug in the rules."""
    raise RuntimeError("the task stack ran dry before the game ended")


RULES = Stack(
    [
        # Set-up and the turn's sequence
        MARQUIS_START_DECISION,
        SETUP_REST,
        TURN_START,
        *PHASE_STEPS,
        # Levy
        LEVY_BUY,
        LEVY_PROMOTE,
        LEVY_END,
        # Campaign, its Actions and the Hostile Reactions
        CAMPAIGN_CONTINUE,
        CAMPAIGN_ACTION,
        CUP_ADJUSTMENT,
        HOSTILE_REACTION,
        # Battles
        BATTLE_CONTINUE,
        BATTLE_DEPLOY,
        BATTLE_ATTACK,
        BATTLE_COUNTERATTACK,
        BATTLE_MANEUVER,
        BATTLE_RESERVE,
        BATTLE_RESERVE_OPTIONAL,
        BATTLE_PROMOTE,
        BATTLE_FINISH,
        # Build, Diplomacy, Turn End, Endgame
        BUILD_BRIDGES,
        BUILD_FINISH,
        BUILD_START,
        DIPLOMACY_VIKINGS,
        DIPLOMACY_AL_ANDALUS,
        *DIPLOMACY_STEPS,
        *TURN_END_STEPS,
        EVP_VOLUNTARY,
        ENDGAME_SCORING,
    ],
    tasks=TASKS,
    between=_ran_dry,
    over=_over,
    clear_when_over=True,
)


def start(state: State, ctx: Context) -> None:
    """Set the game up and run on to its first decision (the first Marquis)."""
    setup_game(state, ctx)
    RULES.run(state, ctx)
