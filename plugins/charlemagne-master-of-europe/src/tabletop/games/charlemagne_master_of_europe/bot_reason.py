"""Why the steward's plan likes a choice, in one line, for the hint key (issue 37):
``CmeHints.reason``. It reads the same numbers the steward weighs (``bot_plan``,
``bot.battle_estimate``) and says them in the rules' words, so a person learns what
the plan is after ("Siege first: each Leader on the map costs a coin of taxes").

Every function receives one state sampled from the player's information set, never
the real one: a reason tells nothing the player cannot see.
"""

from __future__ import annotations

from tabletop.framework import Action, GameDefinition, Prompt, State
from tabletop.framework.actions import split

from . import board
from .bot import battle_estimate
from .bot_plan import (
    LEVY_AHEAD,
    coins_kept,
    frees_region,
    goal_box,
    odds_above,
    strength_margin,
)
from .data import BOXES, DESIDERIUS, REGIONS, minimum_army_strength
from .rules.campaign_menu import suppress_modifier
from .verbs import ACT, BUY_UNIT, DONE, END, NEGOTIATE, order_of


def reason(game: GameDefinition, state: State, prompt: Prompt, action: Action) -> str:
    """The steward's reason for ``action`` at ``prompt``; "" where it has none to give."""
    if not state["tasks"]:
        return ""
    kind = state["tasks"][-1]["kind"]
    if kind == "campaign_action":
        return _campaign(game, state, action)
    if kind == "levy_buy":
        return _levy(state, action)
    if kind in ("build_start", "build_finish", "build_bridges"):
        return (
            "Build in the plan's order (Purple, Yellow, Blue, Green): Churches raise the "
            "Taxes, score VP and the Papal Approval; Bridges & Roads are a final condition"
        )
    if kind == "diplomacy_al_andalus":
        if NEGOTIATE.matches(action):
            return "Peace sends the northernmost Moors home: each Moors box costs a coin of taxes"
        return "The roll cannot beat the Moors on the map: keep the stance as it is"
    if kind == "diplomacy_vikings" and not DONE.matches(action):
        return "A Viking costs a coin of taxes each turn and keeps its Region from scoring"
    return ""


def _campaign(game: GameDefinition, state: State, action: Action) -> str:
    if END.matches(action):
        return "End the campaign: no Action left is worth the Hostile Reactions it draws"
    if not ACT.matches(action):
        return ""
    order = order_of(action)
    box, verb = order.box, order.action
    where = BOXES[box].name
    if verb == "battle":
        won, played = battle_estimate(game, state, action)
        crown = (
            ", and Desiderius falls with the box: the Iron Crown" if _desiderius(state, box) else ""
        )
        return (
            f"Battle in {where}: won {won} of {played} times played out; a win clears the "
            f"box and promotes a unit per wing{crown}"
        )
    if verb == "siege":
        leader = board.leader_in_box(state, box)
        bonus = board.leader_bonus(leader) if leader else 0
        need = (2 if order.piece == "charlemagne" else 3) * bonus
        crown = " and the Iron Crown with him" if leader == DESIDERIUS else ""
        odds = round(100 * odds_above(need))
        return (
            f"Siege first: the +{bonus} Leader in {where} falls on {odds}% of rolls{crown}, "
            "and each Leader on the map costs a coin of taxes every turn"
        )
    if verb == "suppress":
        top = board.top_unit(state, box)
        if top is None:
            return ""
        region = board.region_of(box)
        need = board.resistance(top) + board.best_region_bonus(state, region)
        need -= suppress_modifier(state, order.piece, box)
        victims = len(board.stack(state, box)) if order.piece == "charlemagne" else 1
        free = (
            f"; it frees the {REGIONS[region].name} Region, which scores VP at each Turn End"
            if frees_region(state, box, victims)
            else ""
        )
        return f"Suppress in {where}: {round(100 * odds_above(need))}% to clear it{free}"
    if verb == "marquis":
        return (
            "A Marquis raises the Taxes, scores a VP every turn, adds a recruit at each "
            "Levy, and Bridges & Roads need him"
        )
    if verb == "forced_march":
        goal = goal_box(state)
        towards = f" towards {BOXES[goal].name}" if goal else ""
        return f"Forced March{towards}: nothing better is in reach from here"
    if verb == "raid":
        return f"Raid in {where}: coins for the Marquis and Churches the plan needs"
    return ""


def _desiderius(state: State, box: str) -> bool:
    return DESIDERIUS in board.stack(state, box)


def _levy(state: State, action: Action) -> str:
    turn = state["turn"] + LEVY_AHEAD - 1
    need = minimum_army_strength(turn)
    margin = strength_margin(state, LEVY_AHEAD)
    if BUY_UNIT.matches(action):
        kind = split(action)[1][0]
        if margin < 0:
            return (
                f"The army will be {-margin} Strength short of the minimum ({need} by turn "
                f"{turn}): each point short costs a VP at every Turn End; a {kind.title()} "
                "buys Strength"
            )
        return f"A {kind.title()} adds Strength the coming Battles will spend"
    if DONE.matches(action):
        kept = coins_kept(state)
        if margin >= 0:
            return (
                f"The army meets the coming minimum ({need}); keep the coins for Marquis "
                f"and Churches ({kept} wanted)"
                if kept
                else f"The army meets the coming minimum ({need})"
            )
        return f"Keep the coins: the Marquis and Churches the plan builds want {kept}"
    return ""
