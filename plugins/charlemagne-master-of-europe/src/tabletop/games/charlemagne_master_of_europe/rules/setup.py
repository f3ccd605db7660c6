"""Set-Up (rules §2): the counters placed region by region in the rulebook's order,
the first Marquis's placement (a decision, §2.2), then the rest of the set-up."""

from __future__ import annotations

from typing import Any

from tabletop.framework import Action, Choice, Context, State
from tabletop.framework.stack import Decision, Step

from .. import board
from ..board import tell
from ..data import (
    BOXES,
    DESIDERIUS,
    ENEMY_BATTLE_UNITS,
    MAP_UNITS,
    MARKER_COUNTS,
    MARQUIS_START,
    MOORS_PATH,
    REGION_ORDER,
    REGIONS,
    START,
    STARTING_ARMY,
    counter_name,
)
from ..verbs import MARQUIS
from .army import add_unit
from .common import TASKS, Ask, Task, new_task


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
    TASKS.schedule(state, new_task("marquis_start"), new_task("setup_rest"), new_task("turn_start"))


def marquis_start_choices(state: State, task: Task) -> list[Choice]:
    out = []
    for box in MARQUIS_START:
        region = REGIONS[BOXES[box].region]
        shown = ", ".join(board.describe_stack(state, box)) or "no enemy units"
        out.append(
            Choice(
                MARQUIS(box),
                f"Marquis to {BOXES[box].name}",
                detail=f"He stays in the {region.name} Region for the whole "
                "game and takes Actions there (never a Battle, §5); each turn he is "
                "worth 1 VP (§10.4), one more unit to buy in the Levy (§4.1) and 1 "
                f"coin of upkeep (§10.3). Enemy units in {BOXES[box].name} now, top "
                f"first: {shown}.",
            )
        )
    return out


def marquis_start_apply(state: State, task: Task, action: Action, ctx: Context) -> None:
    TASKS.finish(state)
    box = MARQUIS.arg(action)
    state["marquis"][BOXES[box].region] = {"box": box, "crowned": False}
    ctx.emit("marquis", f"places a Marquis in {BOXES[box].name}")


#: Set-Up: the first Marquis goes to the Breton March or the Spanish March.
MARQUIS_START_DECISION = Decision[Task](
    "marquis_start",
    Ask(
        "§2.2 Set-up: your first Marquis",
        lambda state, task: "Place your first Marquis",
        marquis_start_choices,
    ),
    marquis_start_apply,
)


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


SETUP_REST = Step[Task]("setup_rest", setup_rest)
