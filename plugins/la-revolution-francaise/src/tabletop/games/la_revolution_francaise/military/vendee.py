"""9.5.3 and 9.8: the Catholic & Royal armies move with their generals, and may hide from
combat in the Vendée."""

from __future__ import annotations

from typing import Any

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State

from ..core import (
    TASKS,
    armies_in,
    controller,
    seat_of,
    set_control,
    spread,
)
from ..data import ADJACENT, CATHOLIC, GENERALS, REGION_NAMES, VENDEE
from ..factions import ROYALIST
from ..tasks import (
    ArmyMoves,
    RegionQuestion,
    Step,
)
from ..verbs import HIDE, KING_ACTION, MOVE, STAY
from .gov_moves import army_moves_empty, army_to_move, take_move

# 9.5.3 Catholic and Royal armies ------------------------------------------------------------


def generals_with(state: State, region: str) -> list[str]:
    return [
        n
        for n, p in state["persons"].items()
        if n in GENERALS
        and p["status"] == "free"
        and p["where"] == region
        and p["current"] == ROYALIST
    ]


def catholic_move_start(state: State, t: Step, ctx: Context) -> None:
    for a in state["armies"]:
        a.pop("hiding", None)
    ids = sorted(a["id"] for a in state["armies"] if a["side"] == "catholic")
    if ids and seat_of(state, ROYALIST) is not None:
        TASKS.schedule(state, ArmyMoves(kind="catholic_move", army_ids=ids, index=0))


def catholic_destinations(state: State, army: dict[str, Any]) -> list[str]:
    """Within the Vendée alone; with a general, as the Allied armies move: one region,
    or on through Royalist or Coalition ground free of revolutionary armies and of
    non-Royalist revolts (9.5.3, 9.5.2)."""
    here = army["where"]
    if here in state.get("pinned", []) and armies_in(state, here, "rev"):
        return []
    if not generals_with(state, here):
        return [r for r in REGION_NAMES if r in ADJACENT[here] and r in VENDEE]

    def onward(region: str) -> bool:
        reg = state["regions"][region]
        royalist = controller(state, region) == ROYALIST
        friendly = (reg["coalition"] or royalist) and not armies_in(state, region, "rev")
        return bool(friendly) and not (reg["revolt"] and not royalist)

    return spread(here, onward)


def catholic_move_needed(state: State, t: ArmyMoves) -> bool:
    """A seated Royalist has a Catholic & Royal army to move next, and somewhere it may
    go (9.5.3)."""
    army = army_to_move(state, seat_of(state, ROYALIST), t)
    return army is not None and bool(catholic_destinations(state, army))


def catholic_move_prompt(state: State, t: ArmyMoves) -> Prompt:
    seat = seat_of(state, ROYALIST)
    army = army_to_move(state, seat, t)
    assert seat is not None and army is not None  # catholic_move_needed
    places = catholic_destinations(state, army)
    generals = generals_with(state, army["where"])
    escort = f" with {', '.join(generals)}" if generals else ""
    choices = [
        Choice(
            STAY(),
            f"Stay at {army['where']}",
            detail="The army does not move this turn.",
            key=PASS_KEY,
        )
    ]
    choices += [
        Choice(
            MOVE(r),
            f"Move to {r}{escort}",
            detail=f"The army marches to {r}; it fights any revolutionary army there (9.6).",
        )
        for r in places
    ]
    king = state["king"]
    if king["kidnapped"] and not king["dead"] and king.get("where") == army["where"]:
        choices += [
            Choice(
                KING_ACTION(r),
                f"Move to {r}{escort}, taking Louis XVI",
                detail="The kidnapped King may leave with an army (11.3).",
            )
            for r in places
        ]
    return Prompt(
        seat,
        f"Move {CATHOLIC[army['id']]['name']} from {army['where']}?",
        tuple(choices),
        rule="9.5.3",
    )


def catholic_move_handle(state: State, t: ArmyMoves, action: str, ctx: Context) -> None:
    moved = take_move(state, t, action)
    if moved is None:
        return
    army, verb, region = moved
    if verb is KING_ACTION:
        state["king"]["where"] = region
        state["persons"]["Louis XVI"]["where"] = region
        ctx.emit("king", f"Louis XVI goes with the army to {region} (11.3)")
    for general in generals_with(state, army["where"]):
        state["persons"][general]["where"] = region  # the generals move with it
    army["where"] = region
    ctx.emit("army", f"{CATHOLIC[army['id']]['name']} moves to {region} (9.5.3)")


catholic_move_empty = army_moves_empty


# 9.8 The military Vendée: hiding from combat ------------------------------------------------


def hiding_start(state: State, t: Step, ctx: Context) -> None:
    regions = [
        r
        for r in VENDEE
        if armies_in(state, r, "rev")
        and armies_in(state, r, "catholic")
        and generals_with(state, r)
        and r not in state.get("pinned", [])
    ]
    if regions and seat_of(state, ROYALIST) is not None:
        TASKS.schedule(state, *(RegionQuestion(kind="hide", region=r) for r in regions))


def hide_prompt(state: State, t: RegionQuestion) -> Prompt:
    seat = seat_of(state, ROYALIST)
    assert seat is not None
    return Prompt(
        seat,
        f"Do the Catholic & Royal armies at {t['region']} avoid combat?",
        (
            Choice(HIDE("no"), "Fight", detail="Combat on the Combat Results Table (9.6)."),
            Choice(
                HIDE("yes"),
                "Melt into the countryside",
                consequence="your control marker there is removed; they do not count for civil war",
            ),
        ),
        rule="9.8",
    )


def hide_handle(state: State, t: RegionQuestion, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    if HIDE.arg(action) == "no":
        return
    region = t["region"]
    for a in armies_in(state, region, "catholic"):
        a["hiding"] = True
    if controller(state, region) == ROYALIST:
        set_control(state, region, None, ctx, " (the army hides, 9.8)")
    ctx.emit("army", f"the Catholic & Royal armies at {region} avoid combat (9.8)")
