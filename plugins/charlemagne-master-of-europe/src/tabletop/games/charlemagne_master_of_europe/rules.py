"""The rules, one decision at a time (section names are the rulebook's; see
docs/games/charlemagne-master-of-europe/rules-summary.md).

Each banner below is one decision or one automatic step of the turn: its prompt, the
handlers of its answers and the steps it schedules sit together. Battles are in
``battle.py``.
"""

from __future__ import annotations

import math
from abc import abstractmethod
from typing import Any, ClassVar

from tabletop.framework import NOBODY, PASS_KEY, Action, Choice, Context, Prompt, State

from . import board
from .board import PIECE_CHARLEMAGNE, piece_box, piece_name, tell
from .data import (
    ACTIONS,
    BOXES,
    CORONATION_PAM,
    COSTS,
    COUNTER_GROUPS,
    DESIDERIUS,
    DIE_SIDES,
    ENEMY_BATTLE_UNITS,
    EVP_MAX,
    EVP_VALUES,
    FINAL_VP_THRESHOLD,
    FRIENDLY_FACTORS,
    LAST_TURN,
    MAP_UNITS,
    MARKER_COUNTS,
    MARQUIS_START,
    MOORS_PATH,
    REGION_ORDER,
    REGIONS,
    START,
    STARTING_ARMY,
    TURN_END_ADDED_AFTER,
    counter_name,
    formation,
    marker_kind,
    minimum_army_strength,
    vp_threshold,
    wealth_threshold,
)
from .tasks import (
    DEFEAT_FINAL_CONDITIONS,
    DEFEAT_FINAL_VP,
    DEFEAT_INTRIGUE,
    DEFEAT_MOORS,
    DEFEAT_THRESHOLD,
    VICTORY,
    VICTORY_EASY,
    Decision,
    Task,
    advance,
    decision,
    lose,
    new_task,
    roll,
    schedule,
    special,
    step,
)

# =====================================================================================
# Set-Up (rules: Set-Up)
# =====================================================================================


def new_state(easy: bool) -> State:
    return {
        "turn": 1,
        "phase": "set-up",
        "easy": easy,
        "stacks": {box: [] for box in BOXES},
        "leader_side": [],
        "cups": {"friendly": [], "unfriendly": [], "hostile": []},
        "battle_cup": [],
        "dead_pool": [],
        "removed": [],
        "moors": {box: [] for box in MOORS_PATH},
        "vikings": {region: [] for region in REGION_ORDER},
        "turn_end_track": [],
        "charlemagne": "aachen",
        "hre": False,
        "iron_crown": False,
        "marquis": {},
        "churches": {},
        "treasury": START["treasury"],
        "taxes": START["taxes"],
        "vp": START["vp"],
        "evp": START["evp"],
        "pam": START["pam"],
        "pam_vp_bonus_used": False,
        "pam_church_bonus_used": False,
        "al_andalus": "peace",
        "byzantine": "peace",
        "army": [],
        "next_unit": 1,
        "levy_bought": 0,
        "siege": None,
        "campaign_ending": False,
        "battle": None,
        "report": [],
        "rolls": [],
        "drawn": [],
        "tasks": [],
        "outcome": None,
    }


def _units_of(region: str) -> list[str]:
    return sorted(
        u.id for u in MAP_UNITS.values() if board.region_of(u.box) == region and u.id != DESIDERIUS
    )


def _draw_until(state: State, cup: str, ctx: Context, done: Any) -> None:
    """Draw from ``cup`` one at a time, each to its own box, until ``done(drawn)``."""
    drawn: list[str] = []
    while state["cups"][cup] and not done(drawn):
        bag: list[str] = state["cups"][cup]
        chit = bag.pop(ctx.rng.randbelow(len(bag)))
        drawn.append(chit)
        box = MAP_UNITS[chit].box
        state["stacks"][box].append(chit)
        tell(ctx, "setup", f"{counter_name(chit)} is placed in {BOXES[box].name}")


def setup_game(state: State, ctx: Context) -> None:
    """Green, Yellow and Purple set-up; then the Marquis choice; the rest after it."""
    for chit in _units_of("green"):
        board.put_in_cup(state, "hostile", chit)
    _draw_until(
        state, "hostile", ctx, lambda d: sum(1 for c in d if MAP_UNITS[c].box == "lombardy") >= 3
    )
    state["stacks"]["lombardy"].append(DESIDERIUS)
    state["leader_side"].append(DESIDERIUS)
    for chit in _units_of("yellow"):
        board.put_in_cup(state, "unfriendly", chit)
    _draw_until(state, "unfriendly", ctx, lambda d: len(d) >= 4)
    for chit in _units_of("purple"):
        board.put_in_cup(state, "friendly", chit)
    _draw_until(state, "friendly", ctx, lambda d: len(d) >= 4)
    for chit in list(state["cups"]["friendly"]):
        board.put_in_cup(state, "unfriendly", chit)
    state["cups"]["friendly"] = []
    schedule(state, new_task("marquis_start"), new_task("setup_rest"), new_task("turn_start"))


@decision
class MarquisStart(Decision):
    """Set-Up: the first Marquis goes to the Breton March or the Spanish March."""

    kind = "marquis_start"
    rule = "§2.2 Set-up: your first Marquis"

    def text(self, state: State, task: Task) -> str:
        return "Place your first Marquis"

    def choices(self, state: State, task: Task) -> list[Choice]:
        out = []
        for box in MARQUIS_START:
            region = REGIONS[BOXES[box].region]
            shown = ", ".join(board.describe_stack(state, box)) or "no enemy units"
            out.append(
                Choice(
                    f"marquis:{box}",
                    f"Marquis to {BOXES[box].name}",
                    detail=f"He stays in the {region.name} Region for the whole "
                    "game and takes Actions there (never a Battle, §5); each turn he is "
                    "worth 1 VP (§10.4), one more unit to buy in the Levy (§4.1) and 1 "
                    f"coin of upkeep (§10.3). Enemy units in {BOXES[box].name} now, top "
                    f"first: {shown}.",
                )
            )
        return out

    def apply(self, state: State, task: Task, action: Action, ctx: Context) -> None:
        box = action.split(":", 1)[1]
        state["marquis"][BOXES[box].region] = {"box": box, "crowned": False}
        ctx.emit("marquis", f"places a Marquis in {BOXES[box].name}")


@step("setup_rest")
def setup_rest(state: State, task: Task, ctx: Context) -> None:
    """Orange, Brown, Home, Diplomacy, Battle Cup, Army and Tracks set-up."""
    for chit in _units_of("orange"):
        board.put_in_cup(state, "friendly", chit)
    _draw_until(state, "friendly", ctx, lambda d: len(d) >= 2)
    for chit in _units_of("brown"):
        board.put_in_cup(state, "friendly", chit)
    _draw_until(
        state,
        "friendly",
        ctx,
        lambda d: sum(1 for c in d if board.region_of(MAP_UNITS[c].box) == "brown") >= 2,
    )
    for chit in list(state["cups"]["friendly"]):
        board.put_in_cup(state, "hostile", chit)
    state["cups"]["friendly"] = []
    for chit in _units_of("blue"):
        board.put_in_cup(state, "friendly", chit)
    for kind in ("intrigue", "moors", "viking", "byzantium"):
        for n in range(1, MARKER_COUNTS[kind] + 1):
            board.put_in_cup(state, "friendly", f"{kind}-{n}")
    board.put_in_cup(state, "hostile", "turn_end-1")
    board.put_in_cup(state, "hostile", "turn_end-2")
    state["turn_end_track"] = [f"turn_end-{n}" for n in range(3, MARKER_COUNTS["turn_end"] + 1)]
    state["battle_cup"] = sorted(ENEMY_BATTLE_UNITS)
    for kind, level, count in STARTING_ARMY:
        for _ in range(count):
            add_unit(state, kind, level)
    tell(ctx, "setup", "the set-up is complete: Charlemagne (young) stands in Aachen")


def add_unit(state: State, kind: str, level: int, new: bool = False) -> None:
    state["army"].append({"id": state["next_unit"], "kind": kind, "level": level, "new": new})
    state["next_unit"] += 1


# =====================================================================================
# The turn (rules: Sequence of Play)
# =====================================================================================


@step("turn_start")
def turn_start(state: State, task_: Task, ctx: Context) -> None:
    state["report"] = []
    ctx.heading(f"Game Turn {state['turn']}", turn=state["turn"])
    if state["turn"] > 1:
        ctx.heading(f"Turn {state['turn']}: Levy Phase", turn=state["turn"])
    levy = (
        [new_task("levy_buy"), new_task("levy_promote"), new_task("levy_end")]
        if state["turn"] > 1
        else []
    )
    schedule(
        state,
        *levy,
        new_task("campaign_begin"),
        new_task("campaign_continue"),
        new_task("build_begin"),
        new_task("build_bridges"),
        new_task("build_finish"),
        new_task("build_start"),
        new_task("diplomacy_begin"),
        new_task("diplomacy_vikings"),
        new_task("diplomacy_al_andalus"),
        new_task("diplomacy_byzantine"),
        new_task("diplomacy_england"),
        new_task("diplomacy_vatican"),
        new_task("turn_end_begin"),
        new_task("turn_end_deescalation"),
        new_task("turn_end_dead_pool"),
        new_task("turn_end_taxes"),
        new_task("turn_end_upkeep"),
        new_task("turn_end_victory_points"),
        new_task("turn_end_threshold"),
        new_task("evp_voluntary"),
        new_task("turn_end_minimum_army"),
        new_task("turn_end_progress"),
    )
    state["phase"] = "levy" if state["turn"] > 1 else "campaign"


def note(state: State, line: str) -> None:
    """A line for the summary at the end of the turn (what scored, what changed)."""
    state["report"].append(line)


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def _phase_step(kind: str, phase: str) -> None:
    def begin(state: State, task_: Task, ctx: Context) -> None:
        state["phase"] = phase
        ctx.heading(f"Turn {state['turn']}: {phase.title()} Phase", turn=state["turn"])

    step(kind)(begin)


_phase_step("campaign_begin", "campaign")
_phase_step("build_begin", "build")
_phase_step("diplomacy_begin", "diplomacy")
_phase_step("turn_end_begin", "turn end")


# =====================================================================================
# Levy Phase: recruiting (rules: Levy Phase, Recruiting New Units)
# =====================================================================================


def levy_limit(state: State) -> int:
    return 1 + len(state["marquis"]) + int(state["iron_crown"]) + int(state["hre"])


def counter_free(state: State, kind: str, level: int) -> bool:
    """A counter for (kind, level) is in the Force Pool: its sheet is not all in use."""
    for group_kind, levels, count in COUNTER_GROUPS:
        if group_kind == kind and level in levels:
            used = sum(1 for u in state["army"] if u["kind"] == kind and u["level"] in levels)
            return used < count
    return False


@decision
class LevyBuy(Decision):
    kind = "levy_buy"
    rule = "§4.1 Levy: recruiting"

    def text(self, state: State, task: Task) -> str:
        left = levy_limit(state) - state["levy_bought"]
        units = "1 more unit" if left == 1 else f"{left} more units"
        return f"Recruit: {units} this turn (Treasury {state['treasury']})"

    def choices(self, state: State, task: Task) -> list[Choice]:
        out = []
        if state["levy_bought"] < levy_limit(state):
            for kind, level, cost in (
                ("infantry", 1, COSTS["infantry_1"]),
                ("scara", 2, COSTS["scara_2"]),
            ):
                if state["treasury"] >= cost and counter_free(state, kind, level):
                    out.append(
                        Choice(
                            f"buy:{kind}",
                            f"Buy a Level {level} {kind.title()} ({cost} coins)",
                            detail=unit_detail(kind, level)
                            + f" Army Strength {army_strength(state)} -> "
                            f"{army_strength(state) + level}.",
                            consequence=f"-{cost} coins (Treasury {state['treasury']} -> "
                            f"{state['treasury'] - cost})"
                            + (
                                "; 1 coin of upkeep a turn once at Level 4"
                                if kind == "scara"
                                else ""
                            ),
                        )
                    )
        need = minimum_army_strength(max(state["turn"], 4))
        out.append(
            Choice(
                "done",
                "Recruit no more",
                detail=f"Keep the {state['treasury']} coins; the promotion of a veteran "
                f"follows. Army Strength {army_strength(state)} (the minimum is {need} "
                f"from turn {max(state['turn'], 4)}).",
                key=PASS_KEY,
            )
        )
        return out

    def apply(self, state: State, task: Task, action: Action, ctx: Context) -> None:
        if action == "done":
            return
        kind = action.split(":", 1)[1]
        level, cost = (1, COSTS["infantry_1"]) if kind == "infantry" else (2, COSTS["scara_2"])
        state["treasury"] -= cost
        state["levy_bought"] += 1
        add_unit(state, kind, level, new=True)
        ctx.emit("levy", f"recruits a Level {level} {kind.title()} for {cost} coins")
        schedule(state, new_task("levy_buy"))


def unit_detail(kind: str, level: int) -> str:
    attack, defense = FRIENDLY_FACTORS[(kind, level)]
    extra = (
        " Scara eliminate a full-strength enemy they hit in a battle's first Attack Round."
        if kind == "scara"
        else ""
    )
    return f"{kind.title()} Level {level}: Attack {attack}, Defense {defense}.{extra}"


# =====================================================================================
# Levy Phase: promoting a veteran (rules: Promoting Veterans; A24 mandatory)
# =====================================================================================


def promotable_levels(state: State) -> list[int]:
    return sorted(
        {
            u["level"]
            for u in state["army"]
            if u["kind"] == "infantry"
            and u["level"] in (1, 2)
            and not u["new"]
            and (u["level"] == 1 or counter_free(state, "infantry", 3))
        }
    )


@decision
class LevyPromote(Decision):
    kind = "levy_promote"
    rule = "§4.2 Levy: promoting a veteran"

    def needed(self, state: State, task: Task) -> bool:
        return bool(promotable_levels(state))

    def text(self, state: State, task: Task) -> str:
        return "Promote one Infantry unit (not one just bought)"

    def choices(self, state: State, task: Task) -> list[Choice]:
        return [
            Choice(
                f"promote:{level}",
                f"Promote a Level {level} Infantry to Level {level + 1}",
                detail=unit_detail("infantry", level + 1)
                + f" You have {veterans(state, level)} Level {level} Infantry that may be "
                f"promoted; Army Strength {army_strength(state)} -> {army_strength(state) + 1}.",
            )
            for level in promotable_levels(state)
        ]

    def apply(self, state: State, task: Task, action: Action, ctx: Context) -> None:
        level = int(action.split(":", 1)[1])
        unit = next(
            u
            for u in state["army"]
            if u["kind"] == "infantry" and u["level"] == level and not u["new"]
        )
        unit["level"] += 1
        ctx.emit("levy", f"promotes a Level {level} Infantry to Level {level + 1}")


def veterans(state: State, level: int) -> int:
    """Infantry of ``level`` not bought this turn: those the Levy may promote."""
    return sum(
        1 for u in state["army"] if u["kind"] == "infantry" and u["level"] == level and not u["new"]
    )


@step("levy_end")
def levy_end(state: State, task_: Task, ctx: Context) -> None:
    """The Levy is over: this turn's recruits are veterans from now on."""
    state["levy_bought"] = 0
    for unit in state["army"]:
        unit["new"] = False


# =====================================================================================
# Campaign Phase: choosing an Action (rules: Campaign Phase, Actions)
# =====================================================================================


def pieces(state: State) -> list[str]:
    return [PIECE_CHARLEMAGNE] + [f"marquis:{r}" for r in REGION_ORDER if r in state["marquis"]]


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
            region = piece.split(":", 1)[1]
            targets = [b for b in targets if board.region_of(b) == region]
        for box in targets:
            if siege is not None:
                if siege["piece"] == piece and siege["box"] == box:
                    out += [
                        c
                        for c in _actions_at(state, piece, box, False, explain)
                        if c.action.endswith(":siege")
                    ]
                continue
            out += _actions_at(state, piece, box, box != here, explain)
    if siege is None:
        out.append(
            Choice(
                "end",
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


def _actions_at(
    state: State, piece: str, box: str, moved: bool, explain: bool = True
) -> list[Choice]:
    units = board.stack(state, box)
    leader = board.leader_in_box(state, box)
    charlemagne = piece == PIECE_CHARLEMAGNE
    region = board.region_of(box)
    where = _where(piece, box, moved)
    prefix = f"act:{piece}:{box}"
    out: list[Choice] = []
    detail = consequence = ""
    if 1 <= len(units) <= 2 and leader is None:
        top = board.top_unit(state, box)
        assert top is not None
        need = board.resistance(top) + board.best_region_bonus(state, region)
        need -= suppress_modifier(state, piece, box)
        if explain:
            victims = "the unit" if len(units) == 1 else f"the {len(units)} units"
            if not charlemagne and len(units) == 2:
                victims = "the top unit of the 2 (a Marquis removes only one)"
            cups = cups_words(ACTIONS["suppress"])
            detail = f"Eliminates {victims} on {odds(need)}."
            consequence = (
                f"cannot succeed: it needs above {need} on the d8. {cups}"
                if chances(need) == 0
                else cups
            )
        out.append(Choice(f"{prefix}:suppress", f"{where}: Suppress", detail, consequence))
    if (
        charlemagne
        and state["army"]
        and (len(units) >= 2 or (board.moors_in(state, box) and state["al_andalus"] == "tension"))
    ):
        if explain:
            detail = battle_forecast(state, box)
            consequence = (
                "Losing the battle loses the game. Cup: 1 Friendly>Unfriendly and the "
                "table's Unfriendly>Hostile; 2 Hostile Reactions"
            )
        out.append(Choice(f"{prefix}:battle", f"{where}: Battle", detail, consequence))
    if enemy_free(state, box):
        reach = board.reachable(state, box)
        if not charlemagne:
            reach = [b for b in reach if board.region_of(b) == piece.split(":", 1)[1]]
        for dest in reach:
            if enemy_free(state, dest):
                if explain:
                    detail = (
                        f"{piece_name(piece)} ends in {BOXES[dest].name}, an enemy-free "
                        "box; no cup adjustment."
                    )
                    consequence = cups_words(ACTIONS["forced_march"])
                out.append(
                    Choice(
                        f"{prefix}:forced_march:{dest}",
                        f"{where}: Forced March to {BOXES[dest].name}",
                        detail,
                        consequence,
                    )
                )
    if leader is not None:
        bonus = board.leader_bonus(leader)
        if explain:
            need = (2 if charlemagne else 3) * bonus
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
        out.append(
            Choice(f"{prefix}:siege", f"{where}: Siege the +{bonus} Leader", detail, consequence)
        )
    if units and leader is None:
        top = board.top_unit(state, box)
        assert top is not None
        cost = math.ceil(board.resistance(top) / 2)
        if state["treasury"] >= cost:
            if explain:
                detail = (
                    f"Buys off the top unit, {board.name(state, top)}, for certain (half "
                    "its Resistance, rounded up)."
                )
                consequence = (
                    f"-{cost} coins (Treasury {state['treasury']} -> "
                    f"{state['treasury'] - cost}). " + cups_words(ACTIONS["raid"])
                )
            out.append(
                Choice(f"{prefix}:raid", f"{where}: Raid ({cost} coins)", detail, consequence)
            )
    if charlemagne and can_place_marquis(state, box):
        if explain:
            detail = (
                f"Taxes +2 (to {state['taxes'] + 2}); 1 VP each Turn End while he serves; "
                "he acts in this Region only, and you may recruit one more unit a turn."
            )
            consequence = (
                f"-{COSTS['marquis']} coins (Treasury {state['treasury']} -> "
                f"{state['treasury'] - COSTS['marquis']}), 1 coin of upkeep a turn. "
                + cups_words(ACTIONS["marquis"])
            )
        out.append(
            Choice(f"{prefix}:marquis", f"{where}: place a Marquis (6 coins)", detail, consequence)
        )
    if units and REGIONS[region].pagan:
        seconds: list[str | None] = [None]
        if charlemagne:
            near = [
                b
                for b in BOXES[box].adjacent
                if REGIONS[board.region_of(b)].pagan and board.stack(state, b)
            ]
            seconds = list(near) if near else [None]
        for second in seconds:
            count = len(units) + (len(board.stack(state, second)) if second else 0)
            if state["vp"] < count:
                continue
            also = f" and {BOXES[second].name}" if second else ""
            if explain:
                detail = f"Eliminates every unit in {BOXES[box].name}{also} for certain."
                consequence = f"-{count} VP (1 per counter). " + cups_words(
                    ACTIONS["forced_conversion"]
                )
            out.append(
                Choice(
                    f"{prefix}:forced_conversion" + (f":{second}" if second else ""),
                    f"{where}: Forced Conversion{also}",
                    detail,
                    consequence,
                )
            )
    return out


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


@step("campaign_continue")
def campaign_continue(state: State, task_: Task, ctx: Context) -> None:
    """Another Action, unless a second Turn End marker has ended the campaign."""
    if state["campaign_ending"] or (
        state["siege"] is not None and board.leader_in_box(state, state["siege"]["box"]) is None
    ):
        state["siege"] = None
    if state["campaign_ending"]:
        state["campaign_ending"] = False
        state["siege"] = None
        tell(ctx, "phase", "the Campaign Phase ends")
        return
    schedule(state, new_task("campaign_action"), new_task("campaign_continue"))


SIEGE_RULE = "§5.4 Campaign: Siege"


@decision
class CampaignAction(Decision):
    kind = "campaign_action"
    rule = "§5 Campaign: Actions"

    def prompt(self, state: State, task: Task) -> Prompt:
        """A Siege under way cites the Siege's own section: nothing else may be done."""
        rule = SIEGE_RULE if state["siege"] is not None else self.rule
        return Prompt(0, self.text(state, task), tuple(self.choices(state, task)), rule=rule)

    def text(self, state: State, task: Task) -> str:
        if state["siege"] is not None:
            return f"The Siege of {BOXES[state['siege']['box']].name} goes on"
        return "Choose an Action (move one adjacent box first if you like)"

    def choices(self, state: State, task: Task) -> list[Choice]:
        return legal_actions(state)

    def explain(self, state: State, task: Task, prompt: Prompt) -> Prompt:
        """The same choices with what each does (odds, costs, forecasts): worked out
        only for a person, since bots and searches ask for this prompt very often."""
        return Prompt(prompt.seat, prompt.text, tuple(legal_actions(state, True)), prompt.rule)

    def apply(self, state: State, task_: Task, action: Action, ctx: Context) -> None:
        if action == "end":
            ctx.emit("campaign", "ends the campaign early")
            state["campaign_ending"] = True
            schedule(
                state,
                *[new_task("hostile_reaction")] * ACTIONS["end_campaign"]["hostile_reactions"],
            )
            return
        _, piece_kind, *rest = action.split(":")
        if piece_kind == "marquis":
            piece = f"marquis:{rest[0]}"
            rest = rest[1:]
        else:
            piece = PIECE_CHARLEMAGNE
        box, verb, *extra = rest
        if piece_box(state, piece) != box:
            move_piece(state, piece, box)
            ctx.emit("move", f"{piece_name(piece)} moves to {BOXES[box].name}")
        ACTION_HANDLERS[verb](state, piece, box, extra[0] if extra else None, ctx)


def move_piece(state: State, piece: str, box: str) -> None:
    if piece == PIECE_CHARLEMAGNE:
        state["charlemagne"] = box
    else:
        state["marquis"][piece.split(":", 1)[1]]["box"] = box


def after_action(state: State, cups: list[list[Any]], reactions: int) -> None:
    schedule(
        state,
        *[new_task("cup_adjustment", source=s, target=t, count=n) for s, t, n in cups],
        *[new_task("hostile_reaction")] * reactions,
    )


@step("cup_adjustment")
def cup_adjustment(state: State, task_: Task, ctx: Context) -> None:
    board.cup_adjustment(state, task_["source"], task_["target"], task_["count"], ctx)


# --- Suppress Action (rules: Suppress Action; A16 highest Leader, A17 top unit) ----------


def suppress(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    units = board.stack(state, box)
    top = board.top_unit(state, box)
    assert top is not None
    region = board.region_of(box)
    need = board.resistance(top) + board.best_region_bonus(state, region)
    face = roll(state, ctx, "Suppress")
    total = face + suppress_modifier(state, piece, box)
    if total > need:
        victims = list(units) if piece == PIECE_CHARLEMAGNE else [units[-1]]
        ctx.emit("suppress", f"suppresses {BOXES[box].name} ({total} beats {need})")
        for victim in reversed(victims):
            board.eliminate(state, victim, ctx)
    else:
        ctx.emit("suppress", f"fails to suppress {BOXES[box].name} ({total} against {need})")
    spec = ACTIONS["suppress"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


# --- Battle Action (rules: Battle Action; battles in battle.py) -----------------------


def battle_action(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    from .battle import start_battle

    start_battle(state, box, ambush=False, moors_chit=None, ctx=ctx)


# --- Forced March Action (rules: Forced March Action) ---------------------------------


def forced_march(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    assert extra is not None
    move_piece(state, piece, extra)
    ctx.emit("forced_march", f"{piece_name(piece)} force-marches to {BOXES[extra].name}")
    spec = ACTIONS["forced_march"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


# --- Siege Action (rules: Siege Action; A18 a natural top face adds to a success) -----


def siege(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    leader = board.leader_in_box(state, box)
    assert leader is not None
    bonus = board.leader_bonus(leader)
    need = (2 if piece == PIECE_CHARLEMAGNE else 3) * bonus
    face = roll(state, ctx, "Siege")
    spec = ACTIONS["siege"]
    if face > need:
        ctx.emit("siege", f"the Siege of {BOXES[box].name} succeeds ({face} beats {need})")
        state["siege"] = None
        units = board.stack(state, box)
        victims = list(units) if special(face) else [c for c in units[-2:]]
        for victim in reversed(victims):
            board.eliminate(state, victim, ctx)
        board.gain_coins(state, bonus)
        after_action(state, spec["cup_adjustments_success"], spec["hostile_reactions"])
    else:
        ctx.emit(
            "siege", f"the Siege of {BOXES[box].name} fails ({face} against {need}): it must go on"
        )
        state["siege"] = {"piece": piece, "box": box}
        after_action(state, spec["cup_adjustments_failure"], spec["hostile_reactions"])


# --- Raid Action (rules: Raid Action) --------------------------------------------------


def raid(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    top = board.top_unit(state, box)
    assert top is not None
    cost = math.ceil(board.resistance(top) / 2)
    state["treasury"] -= cost
    ctx.emit("raid", f"pays {cost} coins to buy off {board.name(state, top)}")
    board.eliminate(state, top, ctx)
    spec = ACTIONS["raid"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


# --- Marquis Action (rules: Marquis Action; A4 Marquis <= Finished Churches + 2) ------


def marquis_action(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    state["treasury"] -= COSTS["marquis"]
    state["marquis"][board.region_of(box)] = {"box": box, "crowned": False}
    state["taxes"] += 2
    ctx.emit("marquis", f"places a Marquis in {BOXES[box].name}: Taxes +2")
    spec = ACTIONS["marquis"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


# --- Forced Conversion Action (rules: Forced Conversion Action; A29) --------------------


def forced_conversion(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    victims = list(board.stack(state, box))
    if extra is not None:
        victims += list(board.stack(state, extra))
    ctx.emit("forced_conversion", f"forces conversion: {len(victims)} VP lost")
    for victim in victims:
        board.eliminate(state, victim, ctx)
    board.lose_vp(state, len(victims))
    spec = ACTIONS["forced_conversion"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


ACTION_HANDLERS = {
    "suppress": suppress,
    "battle": battle_action,
    "forced_march": forced_march,
    "siege": siege,
    "raid": raid,
    "marquis": marquis_action,
    "forced_conversion": forced_conversion,
}


# =====================================================================================
# Hostile Reactions (rules: Hostile Reactions)
# =====================================================================================


@step("hostile_reaction")
def hostile_reaction(state: State, task_: Task, ctx: Context) -> None:
    chit = board.draw_from_cup(state, "hostile", ctx)
    if chit is None:
        tell(ctx, "reaction", "the Hostile Cup is empty: no reaction")
        return
    kind = marker_kind(chit)
    if kind is None:
        enemy_unit_arrives(state, chit, ctx)
    else:
        MARKER_REACTIONS[kind](state, chit, ctx)


def dispose(state: State, chit: str, ctx: Context) -> None:
    """An enemy unit eliminated before it reaches the map."""
    region = board.region_of(MAP_UNITS[chit].box)
    if region in board.roads_regions(state):
        board.put_in_cup(state, "friendly", chit)
        tell(ctx, "eliminate", f"{counter_name(chit)} is eliminated into the Friendly Cup")
    else:
        state["dead_pool"].append(chit)
        tell(ctx, "eliminate", f"{counter_name(chit)} is eliminated to the Dead Pool")


def enemy_unit_arrives(state: State, chit: str, ctx: Context) -> None:
    """Enemy Units and Leaders: the priorities in order (A10 for the Leader flip)."""
    unit = MAP_UNITS[chit]
    box = unit.box
    if board.pieces_in(state, box):
        dispose(state, chit, ctx)
        return
    if board.region_of(box) in board.roads_regions(state):
        face = roll(state, ctx, f"Bridges & Roads against {counter_name(chit)}")
        if face > unit.resistance:
            dispose(state, chit, ctx)
            return
    units = board.stack(state, box)
    leader = board.leader_in_box(state, box)
    if unit.leader is not None and leader is None and len(units) >= 3:
        state["leader_side"].append(chit)
        state["leader_side"].sort()
        units.append(chit)
        tell(ctx, "reaction", f"{board.name(state, chit)} rises in {BOXES[box].name}")
    elif leader is not None:
        units.insert(len(units) - 1, chit)
        tell(ctx, "reaction", f"{counter_name(chit)} joins {BOXES[box].name} under its Leader")
    else:
        units.append(chit)
        tell(ctx, "reaction", f"{counter_name(chit)} is placed in {BOXES[box].name}")


def moors_arrive(state: State, chit: str, ctx: Context) -> None:
    """The Moors: Tension, then the next path box; Charlemagne there means an Ambush."""
    state["al_andalus"] = "tension"
    if board.moors_in(state, MOORS_PATH[-1]):
        state["dead_pool"].append(chit)  # kept somewhere: the count of counters holds
        lose(state, ctx, "the Moors reach beyond Poitiers", DEFEAT_MOORS)
        return
    box = next(b for b in MOORS_PATH if not board.moors_in(state, b))
    if state["charlemagne"] == box:
        from .battle import start_battle

        ctx.emit("ambush", f"the Moors ambush Charlemagne in {BOXES[box].name}")
        start_battle(state, box, ambush=True, moors_chit=chit, ctx=ctx)
        return
    for victim in list(reversed(board.stack(state, box))):
        board.eliminate(state, victim, ctx)
    state["moors"][box].append(chit)
    tell(ctx, "moors", f"the Moors advance into {BOXES[box].name}")


def vikings_arrive(state: State, chit: str, ctx: Context) -> None:
    """Vikings: Purple until it holds 3 (A6), then Blue; that Region's dead return."""
    region = "purple" if board.vikings_in(state, "purple") < 3 else "blue"
    state["vikings"][region].append(chit)
    back = [
        c
        for c in state["dead_pool"]
        if c in MAP_UNITS and board.region_of(MAP_UNITS[c].box) == region
    ]
    for counter in back:
        state["dead_pool"].remove(counter)
        board.put_in_cup(state, "hostile", counter)
    tell(
        ctx,
        "vikings",
        f"Vikings land in the {REGIONS[region].name} Region; "
        f"{len(back)} dead unit(s) of that Region go to the Hostile Cup",
    )


def byzantium_reacts(state: State, chit: str, ctx: Context) -> None:
    state["dead_pool"].append(chit)
    if state["byzantine"] == "peace":
        state["byzantine"] = "tension"
        tell(ctx, "byzantium", "relations with Byzantium turn to Tension")
        return
    regions = sum(1 for r in REGION_ORDER if board.region_leaders(state, r))
    loss = 3 * (board.moors_boxes(state) + regions + board.count_in_dead_pool(state, "byzantium"))
    board.lose_vp(state, loss)
    tell(ctx, "byzantium", f"Byzantium outshines you: -{loss} VP")


def intrigue_reacts(state: State, chit: str, ctx: Context) -> None:
    """Intrigue (A35): Taxes cover the shortfall, then coins, then whole EVP spaces."""
    threshold = vp_threshold(state["turn"])
    short = threshold - state["vp"] - state["taxes"]
    if short > 0:
        paid = min(state["treasury"], short)
        state["treasury"] -= paid
        short -= paid
        while short > 0 and state["evp"] > 0:
            short -= EVP_VALUES[state["evp"]]
            state["evp"] -= 1
    state["dead_pool"].append(chit)
    if short > 0:
        lose(state, ctx, "a court intrigue overthrows you", DEFEAT_INTRIGUE)
        return
    ctx.emit("intrigue", "overcomes a court intrigue")


def turn_end_drawn(state: State, chit: str, ctx: Context) -> None:
    state["dead_pool"].append(chit)
    ended = board.count_in_dead_pool(state, "turn_end") >= 2
    if ended:
        state["campaign_ending"] = True
    ctx.emit(
        "turn_end",
        "a Turn End marker is drawn" + (": the Campaign Phase will end" if ended else ""),
        about=NOBODY,
    )


MARKER_REACTIONS = {
    "moors": moors_arrive,
    "viking": vikings_arrive,
    "byzantium": byzantium_reacts,
    "intrigue": intrigue_reacts,
    "turn_end": turn_end_drawn,
}


# =====================================================================================
# Build Phase (rules: Build Phase; A26 in the listed order; Viking Regions skipped)
# =====================================================================================


class BuildDecision(Decision):
    """A Build step offered again after each purchase until the player moves on."""

    @abstractmethod
    def options(self, state: State) -> list[Choice]:
        """What can be built now (empty: the step is skipped)."""

    def needed(self, state: State, task: Task) -> bool:
        return bool(self.options(state))

    #: What comes after this step, for the pass choice's detail.
    after: ClassVar[str]

    def choices(self, state: State, task: Task) -> list[Choice]:
        done = Choice(
            "next",
            "Build nothing more here",
            detail=f"Keep the {state['treasury']} coins; {self.after}.",
            key=PASS_KEY,
        )
        return [*self.options(state), done]


@decision
class BuildBridges(BuildDecision):
    kind = "build_bridges"
    rule = "§8.1 Build: Bridges & Roads"
    after = "finishing Churches comes next"

    def text(self, state: State, task: Task) -> str:
        return f"Build Bridges & Roads (costs 4 coins; Treasury {state['treasury']})"

    def options(self, state: State) -> list[Choice]:
        out: list[Choice] = []
        if state["treasury"] < COSTS["bridges_and_roads"]:
            return out
        for region, marquis in sorted(state["marquis"].items()):
            if (
                not marquis["crowned"]
                and state["churches"].get(region) == "finished"
                and not board.region_has_enemies(state, region)
            ):
                score = len(board.roads_regions(state)) + 1
                out.append(
                    Choice(
                        f"bridges:{region}",
                        f"Bridges & Roads in {REGIONS[region].name}",
                        detail=f"Taxes +1, +{score} VP now; all its boxes become "
                        "adjacent, and its eliminated enemies go to the Friendly Cup.",
                        consequence=f"-{COSTS['bridges_and_roads']} coins",
                    )
                )
        return out

    def apply(self, state: State, task_: Task, action: Action, ctx: Context) -> None:
        if action == "next":
            return
        region = action.split(":", 1)[1]
        state["treasury"] -= COSTS["bridges_and_roads"]
        state["marquis"][region]["crowned"] = True
        state["taxes"] += 1
        score = len(board.roads_regions(state))
        state["vp"] += score
        ctx.emit("build", f"builds Bridges & Roads in {REGIONS[region].name}: +{score} VP")
        schedule(state, new_task(self.kind))


@decision
class BuildFinish(BuildDecision):
    kind = "build_finish"
    rule = "§8.2 Build: finishing a Church"
    after = "starting a Church comes next"

    def text(self, state: State, task: Task) -> str:
        return f"Finish a Church (costs 4 coins; Treasury {state['treasury']})"

    def options(self, state: State) -> list[Choice]:
        out: list[Choice] = []
        if state["treasury"] < COSTS["church_finish"]:
            return out
        if board.finished_churches(state) + 1 > len(state["marquis"]) + 2:
            return out
        for region, status in sorted(state["churches"].items()):
            if status == "started" and not board.vikings_in(state, region):
                gain = board.finished_churches(state, viking_free=True) + 1
                out.append(
                    Choice(
                        f"finish:{region}",
                        f"Finish the Church in {REGIONS[region].name}",
                        detail=f"Taxes +{gain} (to {state['taxes'] + gain}); 1 VP each "
                        "Turn End while no Vikings are in the Region.",
                        consequence=f"-{COSTS['church_finish']} coins, 1 coin of upkeep a turn",
                    )
                )
        return out

    def apply(self, state: State, task_: Task, action: Action, ctx: Context) -> None:
        if action == "next":
            return
        region = action.split(":", 1)[1]
        state["treasury"] -= COSTS["church_finish"]
        state["churches"][region] = "finished"
        gain = board.finished_churches(state, viking_free=True)
        state["taxes"] += gain
        ctx.emit("build", f"finishes the Church in {REGIONS[region].name}: Taxes +{gain}")
        if board.finished_churches(state) >= 3 and not state["pam_church_bonus_used"]:
            state["pam_church_bonus_used"] = True
            board.raise_pam(state, ctx, "three Finished Churches")
        schedule(state, new_task(self.kind))


@decision
class BuildStart(BuildDecision):
    kind = "build_start"
    rule = "§8.3 Build: starting a Church"
    after = "the Diplomacy Phase comes next, then the Turn End"

    def text(self, state: State, task: Task) -> str:
        return (
            f"Start a Church where Charlemagne stands (costs 2 coins; Treasury {state['treasury']})"
        )

    def options(self, state: State) -> list[Choice]:
        region = board.region_of(state["charlemagne"])
        if (
            state["treasury"] < COSTS["church_start"]
            or region in state["churches"]
            or len(state["churches"]) >= 4
            or board.vikings_in(state, region)
        ):
            return []
        if REGIONS[region].pagan and board.finished_churches(state) < 3:
            return []
        return [
            Choice(
                f"start:{region}",
                f"Start a Church in {REGIONS[region].name}",
                detail="A Church started now can be finished (4 coins) in a later Build "
                "Phase; a Finished Church raises Taxes and scores 1 VP a turn.",
                consequence=f"-{COSTS['church_start']} coins",
            )
        ]

    def apply(self, state: State, task_: Task, action: Action, ctx: Context) -> None:
        if action == "next":
            return
        region = action.split(":", 1)[1]
        state["treasury"] -= COSTS["church_start"]
        state["churches"][region] = "started"
        ctx.emit("build", f"starts a Church in {REGIONS[region].name}")


# =====================================================================================
# Diplomacy Phase (rules: Diplomacy Phase)
# =====================================================================================


@decision
class DiplomacyVikings(Decision):
    """The Vikings: a Marquis removes one free; coins buy off the rest (A7)."""

    kind = "diplomacy_vikings"
    rule = "§9.1 Diplomacy: the Vikings"

    def needed(self, state: State, task: Task) -> bool:
        return bool(self._options(state, task))

    def text(self, state: State, task: Task) -> str:
        return f"Deal with the Vikings ({state['treasury']} coins)"

    def _options(self, state: State, task: Task) -> list[Choice]:
        out = []
        for region in REGION_ORDER:
            count = board.vikings_in(state, region)
            if not count:
                continue
            if region in state["marquis"] and region not in task.get("used", []):
                out.append(
                    Choice(
                        f"free:{region}",
                        f"Your Marquis drives off a Viking in {REGIONS[region].name}",
                        detail="Free, once a turn for each Marquis: one Viking leaves for "
                        f"the Dead Pool ({count - 1} left in the Region).",
                    )
                )
            if state["treasury"] >= count:
                out.append(
                    Choice(
                        f"buy:{region}",
                        f"Buy off a Viking in {REGIONS[region].name} ({count} coins)",
                        detail="A Viking costs a coin of taxes each turn, keeps its Region "
                        "from scoring as free and its Church from scoring.",
                        consequence=f"-{count} coins",
                    )
                )
        return out

    def choices(self, state: State, task: Task) -> list[Choice]:
        left = board.vikings_on_map(state)
        done = Choice(
            "done",
            "Leave the Vikings be",
            detail=f"{left} Viking{'s' if left != 1 else ''} stay on the map: each costs 1 "
            "coin of taxes a turn; a Region with Vikings neither scores as free nor builds.",
            key=PASS_KEY,
        )
        return [*self._options(state, task), done]

    def apply(self, state: State, task_: Task, action: Action, ctx: Context) -> None:
        if action == "done":
            return
        verb, region = action.split(":", 1)
        used = list(task_.get("used", []))
        if verb == "free":
            used.append(region)
        else:
            state["treasury"] -= board.vikings_in(state, region)
        chit = state["vikings"][region].pop()
        state["dead_pool"].append(chit)
        tell(ctx, "vikings", f"a Viking leaves the {REGIONS[region].name} Region")
        schedule(state, new_task(self.kind, used=used))


@decision
class DiplomacyAlAndalus(Decision):
    kind = "diplomacy_al_andalus"
    rule = "§9.2 Diplomacy: Al-Andalus"

    def needed(self, state: State, task: Task) -> bool:
        return board.moors_on_map(state) > 0

    def text(self, state: State, task: Task) -> str:
        return f"Negotiate with Al-Andalus? ({board.moors_on_map(state)} Moors on the map)"

    def choices(self, state: State, task: Task) -> list[Choice]:
        need = board.moors_on_map(state) - state["pam"]
        return [
            Choice(
                "negotiate",
                "Negotiate",
                detail=f"Removes the northernmost Moors and makes Peace on {odds(need)} "
                f"(the die + PAM {state['pam']:+d} above {board.moors_on_map(state)} Moors).",
                consequence="" if chances(need) else f"cannot succeed: it needs above {need}",
            ),
            Choice(
                "decline",
                "Do not negotiate",
                detail="The Moors stay where they are and Al-Andalus keeps its stance; each "
                "Moors box costs 1 coin of taxes a turn.",
                key=PASS_KEY,
            ),
        ]

    def apply(self, state: State, task_: Task, action: Action, ctx: Context) -> None:
        if action == "decline":
            return
        total = roll(state, ctx, "Al-Andalus") + state["pam"]
        if total > board.moors_on_map(state):
            north = next(b for b in reversed(MOORS_PATH) if board.moors_in(state, b))
            board.eliminate_moors(state, north, ctx)
            state["al_andalus"] = "peace"
            ctx.emit("al_andalus", "peace with Al-Andalus")
        else:
            ctx.emit("al_andalus", "the Moors refuse")


@step("diplomacy_byzantine")
def diplomacy_byzantine(state: State, task_: Task, ctx: Context) -> None:
    if state["byzantine"] != "tension":
        return
    face = roll(state, ctx, "Byzantium")
    if face + state["pam"] >= state["turn"] or special(face):
        back = [c for c in state["dead_pool"] if marker_kind(c) == "byzantium"]
        for chit in back:
            state["dead_pool"].remove(chit)
            board.put_in_cup(state, "friendly", chit)
        state["byzantine"] = "peace"
        tell(ctx, "byzantium", "peace with Byzantium")
        note(state, "Byzantium: peace is made")
    else:
        tell(ctx, "byzantium", "Byzantium stays cold")
        note(state, "Byzantium: still at Tension")


@step("diplomacy_england")
def diplomacy_england(state: State, task_: Task, ctx: Context) -> None:
    """England (rules §9.4): Taxes at the Wealth threshold advance the EVP marker; on a
    full track that advance is paid as 1 VP instead. Below the threshold nothing
    happens, full track or not: the VP replaces a gain, it is not a gain of its own."""
    wealth = wealth_threshold(state["turn"])
    if state["taxes"] < wealth:
        note(state, f"England: Taxes {state['taxes']} below Wealth {wealth}, no EVP")
        return
    if state["evp"] >= EVP_MAX:
        state["vp"] += 1
        ctx.emit("england", "England's support is at its height: +1 VP")
        note(state, "England: the EVP track is full, +1 VP instead")
    else:
        state["evp"] += 1
        ctx.emit("england", f"England supports you: the EVP marker moves to {state['evp']}")
        note(state, f"England: Taxes met Wealth {wealth}, EVP marker to {state['evp']}")


@step("diplomacy_vatican")
def diplomacy_vatican(state: State, task_: Task, ctx: Context) -> None:
    """Coronation first (A2: at the PAM's reachable top), then the once-only VP step."""
    if not state["hre"] and state["pam"] >= CORONATION_PAM and state["charlemagne"] == "rome":
        state["hre"] = True
        state["taxes"] += 3
        ctx.emit("coronation", "is crowned Holy Roman Emperor: Taxes +3")
        note(state, "Vatican: crowned Holy Roman Emperor, Taxes +3")
    if not state["pam_vp_bonus_used"] and state["vp"] >= vp_threshold(state["turn"]):
        state["pam_vp_bonus_used"] = True
        board.raise_pam(state, ctx, "the Vatican approves your standing")
        note(state, f"Vatican: PAM to {state['pam']:+d}, +1 VP")


# =====================================================================================
# Turn End Phase (rules: Turn End Phase)
# =====================================================================================


@step("turn_end_deescalation")
def turn_end_deescalation(state: State, task_: Task, ctx: Context) -> None:
    """De-Escalation (A22: 'topmost unit' under a Leader is the unit beneath him)."""
    before = sum(len(board.stack(state, box)) for box in BOXES)
    _deescalate(state, ctx)
    gone = before - sum(len(board.stack(state, box)) for box in BOXES)
    note(state, f"De-escalation: {plural(gone, 'enemy counter')} removed")


def _deescalate(state: State, ctx: Context) -> None:
    limit = 2 if state["hre"] else 1
    for region in REGION_ORDER:
        pagan = REGIONS[region].pagan
        for box in REGIONS[region].boxes:
            leader = board.leader_in_box(state, box)
            if (
                leader is not None
                and not pagan
                and leader != DESIDERIUS
                and board.leader_bonus(leader) <= limit
            ):
                board.eliminate(state, leader, ctx)
        if pagan and board.region_leaders(state, region):
            continue
        calm = (
            state["churches"].get(region) == "finished"
            and not board.vikings_in(state, region)
            and not any(board.moors_in(state, b) for b in REGIONS[region].boxes)
        )
        for box in REGIONS[region].boxes:
            units = board.stack(state, box)
            leader = board.leader_in_box(state, box)
            if calm and leader is None and units:
                board.eliminate(state, units[-1], ctx)
            elif not calm and leader is not None:
                below = [c for c in units if c != leader]
                if below:
                    board.eliminate(state, below[-1], ctx)
    for box in BOXES:
        units = board.stack(state, box)
        if board.pieces_in(state, box) and units and board.leader_in_box(state, box) is None:
            board.eliminate(state, units[-1], ctx)


@step("turn_end_dead_pool")
def turn_end_dead_pool(state: State, task_: Task, ctx: Context) -> None:
    board.resolve_dead_pool(state, ctx)


@step("turn_end_taxes")
def turn_end_taxes(state: State, task_: Task, ctx: Context) -> None:
    income = (
        state["taxes"]
        - board.moors_boxes(state)
        - board.vikings_on_map(state)
        - board.leaders_on_map(state)
    )
    less = state["taxes"] - income
    why = f" ({state['taxes']} less {less} for Moors, Vikings, Leaders)" if less else ""
    if income < 0:
        board.lose_vp(state, -income)
        ctx.emit("taxes", f"taxes fall short by {-income}: -{-income} VP")
        note(state, f"Taxes: short by {-income}, -{-income} VP{why}")
    else:
        before = state["treasury"]
        board.gain_coins(state, income)
        ctx.emit("taxes", f"collects {income} coins")
        note(state, f"Taxes: +{plural(income, 'coin')}{why}")
        if before + income > state["treasury"]:
            note(state, f"  the Treasury holds at most 20: {before + income - 20} lost")


@step("turn_end_upkeep")
def turn_end_upkeep(state: State, task_: Task, ctx: Context) -> None:
    scara4 = sum(1 for u in state["army"] if u["kind"] == "scara" and u["level"] == 4)
    due = len(state["marquis"]) + board.finished_churches(state) + scara4
    paid = min(due, state["treasury"])
    state["treasury"] -= paid
    ctx.emit("upkeep", f"pays {paid} of {due} coins of upkeep")
    if due:
        note(state, f"Upkeep: -{paid} of {due} coins; Treasury {state['treasury']}")


def earned_vp(state: State) -> dict[str, int]:
    """The Earn Victory Points items, each counted (rules: Earn Victory Points)."""
    return {
        "Level 4 units retiring": sum(1 for u in state["army"] if u["level"] == 4),
        "Regions free of enemies": sum(
            1 for r in REGION_ORDER if not board.region_has_enemies(state, r)
        ),
        "Intrigue markers in the Dead Pool": board.count_in_dead_pool(state, "intrigue"),
        "Holy Roman Emperor": int(state["hre"]),
        "King of the Lombards": int(state["iron_crown"]),
        "Marquis in play": len(state["marquis"]),
        "Finished Churches (no Vikings)": board.finished_churches(state, viking_free=True),
        "Treasury (per 5 coins)": state["treasury"] // 5,
    }


@step("turn_end_victory_points")
def turn_end_victory_points(state: State, task_: Task, ctx: Context) -> None:
    items = earned_vp(state)
    state["army"] = [u for u in state["army"] if u["level"] != 4]
    total = sum(items.values())
    state["vp"] += total
    ctx.emit(
        "victory_points",
        f"earns {total} VP (" + ", ".join(f"{k} {v}" for k, v in items.items() if v) + ")",
    )
    note(state, f"VP earned: +{total}, now {state['vp']}")
    for item, value in items.items():
        if value:
            note(state, f"  {item}: +{value}")
    if state["turn"] == LAST_TURN:
        state["tasks"] = [new_task("endgame_scoring")]


def spend_evp_spaces(state: State, needed: int) -> int:
    """Move the EVP marker back whole spaces until ``needed`` is covered (no change)."""
    gained = 0
    while gained < needed and state["evp"] > 0:
        gained += EVP_VALUES[state["evp"]]
        state["evp"] -= 1
    return gained


@step("turn_end_threshold")
def turn_end_threshold(state: State, task_: Task, ctx: Context) -> None:
    threshold = vp_threshold(state["turn"])
    if state["vp"] >= threshold:
        note(state, f"VP threshold {threshold}: met with {state['vp']} VP")
        return
    gained = spend_evp_spaces(state, threshold - state["vp"])
    state["vp"] += gained
    if gained:
        ctx.emit("evp", f"spends Emergency VP: +{gained} VP")
        note(state, f"VP threshold {threshold}: reached with +{gained} Emergency VP")
    if state["vp"] < threshold:
        note(state, f"VP threshold {threshold}: missed with {state['vp']} VP, the game is lost")
        ctx.summary(f"Turn {state['turn']} ends in defeat", state["report"])
        lose(
            state,
            ctx,
            f"{state['vp']} VP is short of turn {state['turn']}'s threshold of {threshold}",
            DEFEAT_THRESHOLD,
        )


@decision
class EvpVoluntary(Decision):
    """Voluntary EVP spending: each space spent is worth half, rounded down (A8)."""

    kind = "evp_voluntary"
    rule = "§10.5 Turn End: Emergency VP"

    def needed(self, state: State, task: Task) -> bool:
        """Only when a spend is worth something: a space worth 1 gives nothing at half."""
        return bool(state["evp"] > 0) and voluntary_worth(state, state["evp"]) > 0

    def text(self, state: State, task: Task) -> str:
        return f"Spend Emergency VP? (marker on {state['evp']})"

    def choices(self, state: State, task: Task) -> list[Choice]:
        out = [
            Choice(
                "keep",
                "Keep them",
                detail="Kept EVP cover a later shortfall at full value and count in full "
                "at the end of the game.",
                key=PASS_KEY,
            )
        ]
        for spaces in range(1, state["evp"] + 1):
            worth = voluntary_worth(state, spaces)
            if worth == 0:
                continue  # a pointless spend: the marker would move back for nothing
            full = sum(EVP_VALUES[state["evp"] - i] for i in range(spaces))
            plural = "space" if spaces == 1 else "spaces"
            out.append(
                Choice(
                    f"spend:{spaces}",
                    f"Spend {spaces} EVP {plural} for {worth} VP",
                    detail=f"VP {state['vp']} -> {state['vp'] + worth}; the EVP marker moves "
                    f"back to {state['evp'] - spaces}.",
                    consequence=f"Spent now they are worth half: {worth} VP instead of {full}",
                )
            )
        return out

    def apply(self, state: State, task_: Task, action: Action, ctx: Context) -> None:
        if action == "keep":
            return
        spaces = int(action.split(":", 1)[1])
        worth = voluntary_worth(state, spaces)
        state["evp"] -= spaces
        state["vp"] += worth
        ctx.emit("evp", f"spends {plural(spaces, 'EVP space')}: +{worth} VP")
        note(state, f"Emergency VP: {plural(spaces, 'space')} spent for +{worth} VP")


def voluntary_worth(state: State, spaces: int) -> int:
    """VP from spending the top ``spaces`` EVP spaces now: half, rounded down (A8)."""
    return int(sum(EVP_VALUES[state["evp"] - i] for i in range(spaces)) // 2)


def army_strength(state: State) -> int:
    return sum(int(u["level"]) for u in state["army"])


@step("turn_end_minimum_army")
def turn_end_minimum_army(state: State, task_: Task, ctx: Context) -> None:
    """Minimum Army Strength (A14: not below the VP Threshold; off in Easy Mode)."""
    need = minimum_army_strength(state["turn"])
    short = need - army_strength(state)
    if state["easy"] or state["turn"] == 1 or short <= 0:
        if need and not state["easy"]:
            note(state, f"Army strength {army_strength(state)}: meets the minimum {need}")
        return
    floor = min(state["vp"], vp_threshold(state["turn"]))
    state["vp"] = max(floor, state["vp"] - short)
    ctx.emit(
        "minimum_army", f"the army is {short} short of strength {need}: VP fall to {state['vp']}"
    )
    note(state, f"Army strength {army_strength(state)} below {need}: VP fall to {state['vp']}")


@step("turn_end_progress")
def turn_end_progress(state: State, task_: Task, ctx: Context) -> None:
    board.cup_adjustment(state, "friendly", "unfriendly", 4, ctx, edge_case=False)
    board.cup_adjustment(state, "unfriendly", "hostile", 4, ctx, edge_case=False)
    cups = state["cups"]
    note(state, "Cups: 4 Friendly>Unfriendly, then 4 Unfriendly>Hostile")
    note(
        state,
        f"Cups now: Friendly {len(cups['friendly'])}, Unfriendly {len(cups['unfriendly'])}, "
        f"Hostile {len(cups['hostile'])}",
    )
    if state["turn"] in TURN_END_ADDED_AFTER and state["turn_end_track"]:
        board.put_in_cup(state, "hostile", state["turn_end_track"].pop(0))
        tell(ctx, "turn_end", "another Turn End marker goes into the Hostile Cup")
        note(state, "A Turn End marker joins the Hostile cup: campaigns get longer")
    ended = state["turn"]
    state["turn"] += 1
    turn = state["turn"]
    note(
        state,
        f"Now {state['vp']} VP, Treasury {state['treasury']}, Taxes {state['taxes']}, "
        f"EVP {state['evp']}",
    )
    note(
        state,
        f"Turn {turn} needs {vp_threshold(turn)} VP, Wealth {wealth_threshold(turn)}, "
        f"Army {minimum_army_strength(turn)}",
    )
    ctx.summary(f"Turn {ended} ends", state["report"])
    state["report"] = []
    schedule(state, new_task("turn_start"))


# =====================================================================================
# Endgame Scoring and Winning (rules: Endgame Scoring; Winning and Losing; A23)
# =====================================================================================


@step("endgame_scoring")
def endgame_scoring(state: State, task_: Task, ctx: Context) -> None:
    penalty = (
        board.vikings_on_map(state)
        + sum(1 for b in BOXES if board.stack(state, b))
        + board.leaders_on_map(state)
    )
    board.lose_vp(state, penalty)
    held = sum(EVP_VALUES[1 : state["evp"] + 1])
    state["vp"] += held
    state["evp"] = 0
    short = minimum_army_strength(state["turn"]) - army_strength(state)
    if short > 0 and not state["easy"]:
        board.lose_vp(state, short)
    ctx.emit(
        "endgame",
        f"final scoring: -{penalty} for enemies left, +{held} EVP"
        + (f", -{short} army strength" if short > 0 and not state["easy"] else ""),
    )
    note(state, f"Final scoring: -{penalty} VP for Vikings, enemy boxes and Leaders left")
    note(state, f"Emergency VP held: +{held} VP")
    if short > 0 and not state["easy"]:
        note(state, f"Army {short} short of the minimum: -{short} VP")
    note(state, f"Final total: {state['vp']} VP (145 needed)")
    missing = []
    if state["vp"] < FINAL_VP_THRESHOLD:
        missing.append(f"{state['vp']} VP is short of {FINAL_VP_THRESHOLD}")
    if board.moors_on_map(state):
        missing.append("Moors remain on the map")
    if not state["iron_crown"]:
        missing.append("not King of the Lombards")
    if not state["hre"]:
        missing.append("not Holy Roman Emperor")
    if len(board.roads_regions(state)) < 4:
        missing.append(f"only {len(board.roads_regions(state))} Bridges & Roads Regions")
    for item in missing:
        note(state, f"Missing: {item}")
    ctx.summary("The game ends: turn 16's final scoring", state["report"])
    if missing:
        short = state["vp"] < FINAL_VP_THRESHOLD
        lose(state, ctx, "; ".join(missing), DEFEAT_FINAL_VP if short else DEFEAT_FINAL_CONDITIONS)
    else:
        mark = " (Easy Mode*)" if state["easy"] else ""
        state["outcome"] = {
            "won": True,
            "reason": f"Master of Europe with {state['vp']} VP{mark}",
            "category": VICTORY_EASY if state["easy"] else VICTORY,
        }
        ctx.emit("victory", f"conquers Europe with {state['vp']} VP{mark}")


def start(state: State, ctx: Context) -> None:
    setup_game(state, ctx)
    advance(state, ctx)
