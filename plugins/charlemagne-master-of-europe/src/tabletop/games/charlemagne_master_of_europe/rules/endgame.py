"""Endgame Scoring and winning (rules §11, A23): after turn 16's victory points, the
final penalties and Emergency VP, then the five conditions of a win."""

from __future__ import annotations

from tabletop.framework import Context, State
from tabletop.framework.stack import Step

from .. import board
from ..data import BOXES, EVP_VALUES, FINAL_VP_THRESHOLD, minimum_army_strength
from .army import army_strength
from .common import (
    DEFEAT_FINAL_CONDITIONS,
    DEFEAT_FINAL_VP,
    VICTORY,
    VICTORY_EASY,
    Task,
    lose,
    note,
)


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


ENDGAME_SCORING = Step[Task]("endgame_scoring", endgame_scoring)
