"""Chapter 4, set-up, and chapter 5, the order of a game turn."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, Context, State

from .core import (
    TASKS,
    name,
    regime_outlaws,
)
from .data import (
    FOUR_PLAYER_LEFT,
    KING,
    PERSONS,
    REGION_NAMES,
    REGIONS,
    REGULARS,
    SETUP,
    seating,
)
from .factions import FEUILLANT, GIRONDE, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from .recap import snapshot
from .tasks import Step


def new_state(players: int, options: dict[str, str]) -> State:
    """The position of 4.3-4.7, with the personalities the player count uses (15.2)."""
    playing = {c for row in seating(players) for c in row}
    persons: dict[str, Any] = {}
    for pname, p in PERSONS.items():
        if p["current"] not in playing and p["current"] != FEUILLANT:
            continue  # an automated Marais has no personalities (15.2.1)
        if (
            players == 4
            and p["current"] in (MONTAGNE, SANS_CULOTTE)
            and pname not in FOUR_PLAYER_LEFT
        ):
            continue  # 15.2.2
        persons[pname] = {
            "current": p["current"],
            "status": "free",  # free | prison | dead | fled | exiled
            "where": None,
            "acted": False,
            "outlaw": False,
        }
    persons[KING]["where"] = "Paris"
    fame = SETUP["fame"]
    cash = SETUP["money"]
    state: State = {
        "players": players,
        "options": dict(options),
        "turn": 1,
        "phase": "setup",
        "tasks": [],
        "currents": {
            c: {"fame": fame[c], "money": cash[c]}
            for c in (ROYALIST, FEUILLANT, MARAIS, GIRONDE, MONTAGNE, SANS_CULOTTE)
        },
        "gov": {
            "fame": fame["gov"],
            "money": cash["gov"],
            "controller": SETUP["government"],
            "controller_at_objectives": SETUP["government"],
            "partner": None,
        },
        "tracks": dict(SETUP["tracks"]),
        "regions": {
            r: {
                "control": REGIONS[r]["start_control"],
                "revolt": REGIONS[r]["start_revolt"],
                "coalition": False,
            }
            for r in REGION_NAMES
        },
        "commune": {"raised": False, "controller": None},
        "persons": persons,
        "assembly": {
            d["current"]: {
                "count": d["count"],
                "wing": d["wing"],
                "hidden": d["hidden"],
                "aside": False,
            }
            for d in SETUP["assembly"]
        },
        "switched": [],
        "regime": SETUP["regime"],
        "previous_gov": None,
        "last_election": 0,
        "outlawed": [],
        "outlaw_until": {},
        "factions_outlawed": [],
        "war": False,
        "war_declared_turn": None,
        "catholic_allowed": False,
        "armies": [
            {"id": a["id"], "side": "rev", "kind": "regular", "where": a["start"]}
            for a in REGULARS.values()
        ],
        "allied_gone": [],
        "catholic_gone": [],
        "volunteers_due": 0,
        "conscription": False,
        "patrie": False,
        "laws_once": [],
        "laws_rejected": 0,
        "king": {"status": "free", "tried": 0, "dead": False, "kidnapped": False, "where": "Paris"},
        "order": [],
        "spent": 0,
        "achieved": [],
        "objectives": {},
        "bonuses": {},
        "once": [],
        "bankrupt_turn": None,
        "last_events": {},
        "recent_rolls": [],
        "offers_made": [],
        "pacts": [],
        "winner": None,
        "result": None,
    }
    state["recap"] = snapshot(state)
    return state


def start(state: State, ctx: Context) -> None:
    TASKS.schedule(state, Step(kind="turn"))


def run_turn(state: State, task_: Step, ctx: Context) -> None:
    """One game turn's phases in their fixed order (5.0)."""
    ctx.heading(f"Turn {state['turn']} of 8 ({TURN_DATES[state['turn'] - 1]})")
    TASKS.schedule(
        state,
        Step(kind="turn_start"),
        Step(kind="negotiations_start"),
        Step(kind="random_events"),
        Step(kind="turn_order"),
        Step(kind="objectives_start"),
        Step(kind="placement_start"),
        Step(kind="actions_start"),
        Step(kind="political_start"),
        Step(kind="patriot_start"),
        Step(kind="military_start"),
        Step(kind="interphase"),
        Step(kind="end_of_turn_referendum"),
        Step(kind="turn_end"),
    )


TURN_DATES = (
    "October 1791 - March 1792",
    "April - September 1792",
    "October 1792 - March 1793",
    "April - September 1793",
    "October 1793 - March 1794",
    "April - September 1794",
    "October 1794 - March 1795",
    "April - September 1795",
)


def run_turn_start(state: State, task_: Step, ctx: Context) -> None:
    """Fled Personalities return; last turn's bonuses, switches and marks lapse."""
    for pname, p in state["persons"].items():
        if p["status"] == "fled":
            p["status"] = "free"
            ctx.emit("return", f"{pname} returns to play", about=NOBODY)
        p["acted"] = False
        p.pop("general", None)
        if p["status"] == "free" and pname != "Louis XVI":
            p["where"] = None
    state["bonuses"] = {}
    state["achieved"] = []
    state["spent"] = 0
    state["offers_made"] = []
    state["pacts"] = []
    for current, until in list(state["outlaw_until"].items()):
        if until < state["turn"]:
            del state["outlaw_until"][current]
            if current in state["outlawed"] and current not in regime_outlaws(state):
                state["outlawed"].remove(current)
                ctx.emit(
                    "outlaw", f"the {name(current)} is no longer outlawed (12.2.1)", about=NOBODY
                )
    for army in [a for a in state["armies"] if a.get("kind") == "temporary"]:
        state["armies"].remove(army)  # the event's army lasts one turn
        ctx.emit("army", "the temporary army leaves Paris", about=NOBODY, army={army["id"]: "gone"})
    if state["regime"] == "directorate" and state.get("sole_until", state["turn"]) < state["turn"]:
        # R.7.7.1: a limited coup gives sole power for one turn; then the Marais shares it
        couper = state["gov"]["controller"]
        state.pop("sole_until")
        state["gov"]["controller"], state["gov"]["partner"] = MARAIS, couper
