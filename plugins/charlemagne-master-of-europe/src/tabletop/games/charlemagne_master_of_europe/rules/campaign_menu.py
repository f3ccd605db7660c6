"""The campaign's menu (rules §5): every Action each piece may take now, where it may
move first, and what each Action does in words (odds in eighths, costs, cups, the
battle's forecast). ``campaign.py`` carries the chosen Action out."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, NamedTuple

from tabletop.framework import PASS_KEY, Choice, State

from .. import board
from ..board import PIECE_CHARLEMAGNE, piece_box, piece_name
from ..data import ACTIONS, BOXES, COSTS, DIE_SIDES, REGION_ORDER, REGIONS, formation
from ..verbs import END, PIECE_MARQUIS, act, order_of
from .army import army_strength


def pieces(state: State) -> list[str]:
    return [PIECE_CHARLEMAGNE] + [PIECE_MARQUIS(r) for r in REGION_ORDER if r in state["marquis"]]


def enemy_free(state: State, box: str) -> bool:
    return not board.stack(state, box) and not board.moors_in(state, box)


def suppress_modifier(state: State, piece: str, box: str) -> int:
    """Iron Crown: +1 in Green for Charlemagne; HRE: +1 outside Pagan Regions (A27)."""
    if piece != PIECE_CHARLEMAGNE:
        return 0
    region = board.region_of(box)
    bonus = 1 if state["iron_crown"] and region == "green" else 0
    return bonus + (1 if state["hre"] and not REGIONS[region].pagan else 0)


def chances(need: int) -> int:
    """How many faces of the d8 roll above ``need`` (0 to 8)."""
    return max(0, min(DIE_SIDES, DIE_SIDES - need))


def odds(need: int) -> str:
    """A roll's odds in words, to follow "on": 'a roll above 4 on the d8: 4 in 8 (50%)'."""
    faces = chances(need)
    if faces >= DIE_SIDES:
        return "any roll (8 in 8)"
    if faces == 0:
        return f"a roll above {need} on the d8: 0 in 8 (it cannot succeed)"
    return f"a roll above {need} on the d8: {faces} in 8 ({faces * 100 // DIE_SIDES}%)"


def cups_words(spec: dict[str, Any], key: str = "cup_adjustments") -> str:
    """An Action's cup adjustments and Hostile Reactions, as the menu says them."""
    moves = [f"{n} {CUP_WORDS[s]}>{CUP_WORDS[d]}" for s, d, n in spec.get(key, [])]
    reactions = spec["hostile_reactions"]
    drawn = f"{reactions} Hostile Reaction{'s' if reactions != 1 else ''}"
    return f"Cup: {', '.join(moves)}; {drawn}" if moves else drawn


CUP_WORDS = {"friendly": "Friendly", "unfriendly": "Unfriendly", "hostile": "Hostile"}


def legal_actions(state: State, explain: bool = False) -> list[Choice]:
    """Every (piece, box after its move, action) the rules allow now. ``explain`` adds
    what a person reads (effects, odds, costs): bots and searches go without it."""
    siege = state["siege"]
    out: list[Choice] = []
    for piece in pieces(state):
        here = piece_box(state, piece)
        targets = [here, *board.reachable(state, here)]
        if piece != PIECE_CHARLEMAGNE:
            region = PIECE_MARQUIS.arg(piece)
            targets = [b for b in targets if board.region_of(b) == region]
        for box in targets:
            if siege is not None:
                if siege["piece"] == piece and siege["box"] == box:
                    out += [
                        c
                        for c in _actions_at(state, piece, box, False, explain)
                        if order_of(c.action).action == "siege"
                    ]
                continue
            out += _actions_at(state, piece, box, box != here, explain)
    if siege is None:
        out.append(
            Choice(
                END(),
                "End the campaign early",
                key=PASS_KEY,
                detail="Your pieces stay where they are; after the reactions comes the "
                "Build Phase, then Diplomacy and the Turn End.",
                consequence="3 Hostile Reactions follow, then the Campaign Phase ends",
            )
        )
    return out


def _where(piece: str, box: str, moved: bool) -> str:
    return f"{piece_name(piece)}{' moves to' if moved else ' in'} {BOXES[box].name}"


class _At(NamedTuple):
    """A piece in a box (after its move, if any), as every Action of the menu reads it."""

    state: State
    piece: str
    box: str
    where: str
    units: list[str]
    leader: str | None
    charlemagne: bool
    region: str
    explain: bool


def _actions_at(
    state: State, piece: str, box: str, moved: bool, explain: bool = True
) -> list[Choice]:
    """The Actions ``piece`` may take in ``box``, in the menu's order (§5.1-§5.8)."""
    at = _At(
        state,
        piece,
        box,
        _where(piece, box, moved),
        board.stack(state, box),
        board.leader_in_box(state, box),
        piece == PIECE_CHARLEMAGNE,
        board.region_of(box),
        explain,
    )
    out: list[Choice] = []
    for actions in _ACTIONS:
        out += actions(at)
    return out


def _suppress(at: _At) -> list[Choice]:
    """Suppress one or two units with no Leader: a roll against the top unit."""
    state, units = at.state, at.units
    if not (1 <= len(units) <= 2 and at.leader is None):
        return []
    top = board.top_unit(state, at.box)
    assert top is not None
    need = board.resistance(top) + board.best_region_bonus(state, at.region)
    need -= suppress_modifier(state, at.piece, at.box)
    detail = consequence = ""
    if at.explain:
        victims = "the unit" if len(units) == 1 else f"the {len(units)} units"
        if not at.charlemagne and len(units) == 2:
            victims = "the top unit of the 2 (a Marquis removes only one)"
        cups = cups_words(ACTIONS["suppress"])
        detail = f"Eliminates {victims} on {odds(need)}."
        consequence = (
            f"cannot succeed: it needs above {need} on the d8. {cups}"
            if chances(need) == 0
            else cups
        )
    action = act(at.piece, at.box, "suppress")
    return [Choice(action, f"{at.where}: Suppress", detail, consequence)]


def _battle(at: _At) -> list[Choice]:
    """Charlemagne with an army against two units or more, or the Moors in Tension."""
    state = at.state
    if not (
        at.charlemagne
        and state["army"]
        and (
            len(at.units) >= 2
            or (board.moors_in(state, at.box) and state["al_andalus"] == "tension")
        )
    ):
        return []
    detail = consequence = ""
    if at.explain:
        detail = battle_forecast(state, at.box)
        consequence = (
            "Losing the battle loses the game. Cup: 1 Friendly>Unfriendly and the "
            "table's Unfriendly>Hostile; 2 Hostile Reactions"
        )
    action = act(at.piece, at.box, "battle")
    return [Choice(action, f"{at.where}: Battle", detail, consequence)]


def _forced_marches(at: _At) -> list[Choice]:
    """From an enemy-free box to each enemy-free box within reach (a Marquis's Region)."""
    state, box = at.state, at.box
    if not enemy_free(state, box):
        return []
    reach = board.reachable(state, box)
    if not at.charlemagne:
        reach = [b for b in reach if board.region_of(b) == PIECE_MARQUIS.arg(at.piece)]
    out: list[Choice] = []
    detail = consequence = ""
    for dest in reach:
        if not enemy_free(state, dest):
            continue
        if at.explain:
            detail = (
                f"{piece_name(at.piece)} ends in {BOXES[dest].name}, an enemy-free "
                "box; no cup adjustment."
            )
            consequence = cups_words(ACTIONS["forced_march"])
        out.append(
            Choice(
                act(at.piece, box, "forced_march", dest),
                f"{at.where}: Forced March to {BOXES[dest].name}",
                detail,
                consequence,
            )
        )
    return out


def _siege(at: _At) -> list[Choice]:
    """Siege the Leader in the box: a roll against twice (Charlemagne) or three times
    (a Marquis) his bonus."""
    if at.leader is None:
        return []
    bonus = board.leader_bonus(at.leader)
    detail = consequence = ""
    if at.explain:
        need = (2 if at.charlemagne else 3) * bonus
        failure = cups_words(ACTIONS["siege"], "cup_adjustments_failure")
        failure = failure.removeprefix("Cup: ")
        repeat = (
            "a failed Siege must be repeated, with no other Action, until it succeeds "
            "or the campaign ends"
        )
        detail = (
            f"Eliminates the Leader and the unit under him, and gains {bonus} coins, "
            f"on {odds(need)}; the top face clears the whole stack."
        )
        consequence = (
            f"cannot succeed: it needs above {need} on the d8, and {repeat}. "
            f"Each failure: {failure}"
            if chances(need) == 0
            else f"{repeat.capitalize()}. Each failure: {failure}"
        )
    action = act(at.piece, at.box, "siege")
    return [Choice(action, f"{at.where}: Siege the +{bonus} Leader", detail, consequence)]


def _raid(at: _At) -> list[Choice]:
    """Buy off the top unit of a stack with no Leader, for half its Resistance."""
    state = at.state
    if not (at.units and at.leader is None):
        return []
    top = board.top_unit(state, at.box)
    assert top is not None
    cost = math.ceil(board.resistance(top) / 2)
    if state["treasury"] < cost:
        return []
    detail = consequence = ""
    if at.explain:
        detail = (
            f"Buys off the top unit, {board.name(state, top)}, for certain (half "
            "its Resistance, rounded up)."
        )
        consequence = (
            f"-{cost} coins (Treasury {state['treasury']} -> "
            f"{state['treasury'] - cost}). " + cups_words(ACTIONS["raid"])
        )
    action = act(at.piece, at.box, "raid")
    return [Choice(action, f"{at.where}: Raid ({cost} coins)", detail, consequence)]


def _marquis(at: _At) -> list[Choice]:
    """Charlemagne places a Marquis where the rules allow one (``can_place_marquis``)."""
    state = at.state
    if not (at.charlemagne and can_place_marquis(state, at.box)):
        return []
    detail = consequence = ""
    if at.explain:
        detail = (
            f"Taxes +2 (to {state['taxes'] + 2}); 1 VP each Turn End while he serves; "
            "he acts in this Region only, and you may recruit one more unit a turn."
        )
        consequence = (
            f"-{COSTS['marquis']} coins (Treasury {state['treasury']} -> "
            f"{state['treasury'] - COSTS['marquis']}), 1 coin of upkeep a turn. "
            + cups_words(ACTIONS["marquis"])
        )
    action = act(at.piece, at.box, "marquis")
    return [Choice(action, f"{at.where}: place a Marquis (6 coins)", detail, consequence)]


def _forced_conversions(at: _At) -> list[Choice]:
    """In a Pagan Region, every unit of the box (Charlemagne: and of a Pagan box next to
    it) for 1 VP a counter."""
    state, box, units = at.state, at.box, at.units
    if not (units and REGIONS[at.region].pagan):
        return []
    seconds: list[str | None] = [None]
    if at.charlemagne:
        near = [
            b
            for b in BOXES[box].adjacent
            if REGIONS[board.region_of(b)].pagan and board.stack(state, b)
        ]
        seconds = list(near) if near else [None]
    out: list[Choice] = []
    detail = consequence = ""
    for second in seconds:
        count = len(units) + (len(board.stack(state, second)) if second else 0)
        if state["vp"] < count:
            continue
        also = f" and {BOXES[second].name}" if second else ""
        if at.explain:
            detail = f"Eliminates every unit in {BOXES[box].name}{also} for certain."
            consequence = f"-{count} VP (1 per counter). " + cups_words(
                ACTIONS["forced_conversion"]
            )
        out.append(
            Choice(
                act(at.piece, box, "forced_conversion", second),
                f"{at.where}: Forced Conversion{also}",
                detail,
                consequence,
            )
        )
    return out


#: The menu's Actions for a piece in a box, in the order the menu lists them.
_ACTIONS: tuple[Callable[[_At], list[Choice]], ...] = (
    _suppress,
    _battle,
    _forced_marches,
    _siege,
    _raid,
    _marquis,
    _forced_conversions,
)


def _span(values: list[int]) -> str:
    low, high = min(values), max(values)
    return str(low) if low == high else f"{low}-{high}"


def battle_forecast(state: State, box: str) -> str:
    """What the Enemy Formation roll can bring (rules §7.1), before the Battle is chosen:
    the enemy's numbers per wing over the eight faces, against the army you have."""
    if board.moors_in(state, box):
        column, add, words = "moors", 0, "the Moors column, the die alone"
    else:
        top = board.top_unit(state, box)
        assert top is not None
        leader = board.leader_in_box(state, box)
        region = board.region_of(box)
        bonus = board.leader_bonus(leader) if leader else board.best_region_bonus(state, region)
        add = board.resistance(top) + bonus
        colour = REGIONS[region].name.split(" (", 1)[0]
        column, words = region, f"d8 + {add} on the {colour} column"
    rows = [formation(column, face + add) for face in range(1, DIE_SIDES + 1)]
    return (
        f"Enemy Formation ({words}): {_span([r[0] for r in rows])} enemy units face your "
        f"Left wing and {_span([r[1] for r in rows])} your Right; your army has "
        f"{len(state['army'])} units (strength {army_strength(state)}). A win clears the "
        "box and promotes one unit per wing."
    )


def can_place_marquis(state: State, box: str) -> bool:
    region = board.region_of(box)
    return (
        enemy_free(state, box)
        and not board.region_leaders(state, region)
        and region not in state["marquis"]
        and len(state["marquis"]) < 4
        and len(state["marquis"]) + 1 <= board.finished_churches(state) + 2
        and state["treasury"] >= COSTS["marquis"]
    )
