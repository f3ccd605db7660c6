"""9.5.4: the Government moves its armies one by one."""

from __future__ import annotations

from typing import Any

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State, Verb

from ..core import (
    TASKS,
    armies_in,
    gov_seat,
    spread,
)
from ..tasks import (
    ArmyMoves,
    Step,
)
from ..verbs import CRUSH, MOVE, STAY, VERBS
from ..words import army_name
from .reinforcements import ENEMY


def gov_move_start(state: State, t: Step, ctx: Context) -> None:
    ids = sorted(a["id"] for a in state["armies"] if a["side"] == "rev")
    if ids and gov_seat(state) is not None:
        TASKS.schedule(state, ArmyMoves(kind="gov_move", army_ids=ids, index=0))


def reachable(state: State, start: str) -> list[str]:
    """Any distance, stopping on entering a region with an enemy army (9.5.4)."""
    return spread(start, lambda r: not any(a["side"] in ENEMY for a in armies_in(state, r)))


def army_by_id(state: State, army_id: str) -> dict[str, Any] | None:
    return next((a for a in state["armies"] if a["id"] == army_id), None)


def army_to_move(state: State, seat: int | None, t: ArmyMoves) -> dict[str, Any] | None:
    """The army ``t`` asks about next; None when nobody plays ``seat`` or all have moved
    (the Government's armies, 9.5.4, and the Catholic & Royal ones, 9.5.3, move one by one)."""
    if seat is None or t["index"] >= len(t["army_ids"]):
        return None
    return army_by_id(state, t["army_ids"][t["index"]])


def take_move(state: State, t: ArmyMoves, action: str) -> tuple[dict[str, Any], Verb, str] | None:
    """The army ``t`` asked about, with the verb and region of its move, or None when it
    stays; either way ``t`` goes on to the next army."""
    army = army_by_id(state, t["army_ids"][t["index"]])
    assert army is not None
    t["index"] += 1
    if STAY.matches(action):
        return None
    verb, (region,) = VERBS.parse(action)
    return army, verb, region


def army_moves_empty(state: State, t: ArmyMoves, ctx: Context) -> None:
    """Nobody is asked about this army (it has nowhere to go): on to the next one."""
    if t["index"] < len(t["army_ids"]):
        t["index"] += 1
        if t["index"] < len(t["army_ids"]):
            return
    TASKS.finish(state)


def gov_move_needed(state: State, t: ArmyMoves) -> bool:
    """A seated Government has an army to move next that is not pinned (9.5.1, 9.5.4)."""
    army = army_to_move(state, gov_seat(state), t)
    return army is not None and army["where"] not in state.get("pinned", [])


def gov_move_prompt(state: State, t: ArmyMoves) -> Prompt:
    seat = gov_seat(state)
    army = army_to_move(state, seat, t)
    assert seat is not None and army is not None  # gov_move_needed (not pinned either)
    here = army["where"]
    choices = [Choice(STAY(), f"Stay at {here}", detail="The army does not move.", key=PASS_KEY)]
    for r in reachable(state, here):
        choices.append(
            Choice(
                MOVE(r),
                f"Move to {r}",
                detail=f"The army moves to {r}; enemies there mean combat (9.6), an empty "
                "region comes under its military control (9.7).",
            )
        )
        if r == "Paris" and state["commune"]["raised"]:
            choices.append(
                Choice(
                    CRUSH("Paris"),
                    "Move to Paris to crush the Commune",
                    consequence="Commune track to 20 (9.9.1)",
                )
            )
    return Prompt(seat, f"Move {army_name(army['id'])} from {here}?", tuple(choices), rule="9.5.4")


def gov_move_handle(state: State, t: ArmyMoves, action: str, ctx: Context) -> None:
    moved = take_move(state, t, action)
    if moved is None:
        return
    army, verb, region = moved
    origin = army["where"]
    army["where"] = region
    ctx.emit("army", f"{army_name(army['id'])} moves to {region}")
    carnot = state["persons"].get("Carnot")
    left_alone = not any(a["where"] == origin and a["side"] == "rev" for a in state["armies"])
    if carnot and carnot.get("general") and carnot["where"] == origin and left_alone:
        carnot["where"] = region  # he goes with the last army to leave
    if verb is CRUSH:
        army["crush"] = True
        state["tracks"]["commune"] = 20
        ctx.emit("commune", "a Government army marches on the Commune: Commune track to 20 (9.9.1)")


gov_move_empty = army_moves_empty
