"""15.2.1.1: the automated Marais plots on its own."""

from __future__ import annotations

from tabletop.framework import NOBODY, Context, State

from ..core import (
    controller,
    roll,
    set_control,
)
from ..data import TABLES
from ..factions import GIRONDE, MARAIS
from ..tasks import Step

# 15.2.1.1 The automated Marais plots --------------------------------------------------------


def marais_plot(state: State, t: Step, ctx: Context) -> None:
    dice = roll(state, ctx, 2, 6, reason="automated Marais, 15.2.1.1", about=NOBODY)
    entry = TABLES["marais_automaton"]["rolls"][str(sum(dice))]

    def free_to_change(region: str) -> bool:
        reg = state["regions"][region]
        return not reg["revolt"] and not reg["coalition"]

    for region in entry["control"]:
        if free_to_change(region):
            set_control(state, region, MARAIS, ctx, " (automated Marais)", about=NOBODY)
    for region in entry.get("gironde", []):
        if free_to_change(region):
            set_control(state, region, GIRONDE, ctx, " (automated Marais)", about=NOBODY)
    for region in entry["neutral"]:
        if free_to_change(region) and controller(state, region) not in (None, MARAIS):
            set_control(state, region, None, ctx, " (automated Marais)", about=NOBODY)
