"""Hostile Reactions (rules §6): a chit drawn from the Hostile Cup after each Action
and what it does: an enemy unit or Leader arrives (§6.1), the Moors advance or ambush
(§6.2), Vikings land (§6.3), Byzantium (§6.4), an Intrigue (§6.5), a Turn End marker
(§6.6)."""

from __future__ import annotations

from tabletop.framework import NOBODY, Context, State
from tabletop.framework.stack import Step

from .. import board
from ..board import tell
from ..data import (
    BOXES,
    EVP_VALUES,
    MAP_UNITS,
    MOORS_PATH,
    REGION_ORDER,
    REGIONS,
    counter_name,
    marker_kind,
    vp_threshold,
)
from .battle import start_battle
from .common import DEFEAT_INTRIGUE, DEFEAT_MOORS, Task, lose, roll


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


HOSTILE_REACTION = Step[Task]("hostile_reaction", hostile_reaction)
