"""12.1-12.2: the coup's roll, and what success or failure does."""

from __future__ import annotations

from tabletop.framework import Context, State
from tabletop.framework.decisions import OrderedVote

from ..core import (
    adjust_fame,
    adjust_track,
    fame,
    gov_controller,
    name,
    officially_present,
    result,
    roll,
    seat_of,
    track_level,
)
from ..factions import FEUILLANT, GIRONDE, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from ..interphase import finish_game
from ..political.install import install, set_government
from ..tasks import CoupAttempt


def coup_roll(state: State, t: CoupAttempt, ctx: Context) -> None:
    current = t["current"]
    penalty = sum(int(v) for v in OrderedVote(t["vote"]).answers().values())
    bonus = 2 * (len(t["persons"]) - 1) + int(
        state["bonuses"].get(f"{t['coup']}_coup:{current}", 0)
    )
    if (
        t["coup"] == "limited"
        and current == SANS_CULOTTE
        and state["regime"] == "froi"
        and state.get("froi_variant") == SANS_CULOTTE
        and state["commune"]["raised"]
    ):
        bonus += track_level(state, "commune")  # R.10.9.4
    plotter = seat_of(state, current)
    dice = roll(state, ctx, 2, 6, reason=f"{t['coup']} coup, 12", about=plotter)
    letter = result(sum(dice), fame(state, current) + bonus + penalty)
    ctx.emit(  # the plotters' deed, whoever reacted last (12.1)
        "coup",
        f"{t['coup']} coup by the {name(current)}: fame {fame(state, current)} "
        f"{bonus + penalty:+d}, roll {sum(dice)}: {letter}",
        about=plotter,
    )
    if letter == "A":
        coup_success(state, t, ctx)
    else:
        coup_failure(state, t, ctx)


def coup_success(state: State, t: CoupAttempt, ctx: Context) -> None:

    current, target = t["current"], t["target"]
    if t["coup"] == "popular":
        adjust_track(state, "commune", 3, ctx, " (popular coup, 12.1.2)")
    if target == "vendemiaire":
        # R.7.7.2.3, R.8.7.2.1, R.11.1: the Royalist governs, and the game ends at once
        # with his win (14.0)
        state["regime"] = "vendemiaire"
        state["gov"]["controller"], state["gov"]["partner"] = ROYALIST, None
        ctx.emit(
            "regime",
            "Vendémiaire: the Royalist takes power and wins (R.11)",
            about=seat_of(state, ROYALIST),
        )
        finish_game(state, ctx)
        return
    if target == "gov":
        old = gov_controller(state)
        set_government(state, current, ctx)
        if t["coup"] == "limited":
            adjust_fame(state, current, 1, ctx, " (limited coup, 12.2.2)")
            adjust_fame(state, old, -1, ctx, " (ousted, 12.2.2)")
            state["limited_coup_turn"] = state["turn"]
            if state["regime"] == "directorate":
                state["gov"]["partner"] = None
                state["sole_until"] = state["turn"]  # R.7.7.1: alone for one turn
            if state["regime"] == "legislative" and current == FEUILLANT:
                state["feuillant_couped"] = True
            if state["regime"] == "ffr" and current == MARAIS:
                state["marais_couped"] = True
            if (
                state["regime"] == "froi"
                and state["commune"]["controller"] == current
                and track_level(state, "commune") >= 2
            ):
                state["froi_variant"] = current  # R.10.7.2
        return
    install(state, target, ctx, by=current)


REDUCED = {
    ("terror", MARAIS),
    ("froi", MARAIS),
    ("ffr", MARAIS),
    ("mercy", MARAIS),
    ("legislative", GIRONDE),
}
COMMUNE_NEUTRAL = {
    ("terror", SANS_CULOTTE),
    ("thermidor", MONTAGNE),
    ("thermidor", SANS_CULOTTE),
    ("mercy", MONTAGNE),
    ("prairial", ROYALIST),
}


def coup_failure(state: State, t: CoupAttempt, ctx: Context) -> None:
    """12.1.1, 12.2.1: the plotters are jailed as outlaws and their Current outlawed,
    for a turn after a limited coup (and the Marais' reduced cases), for good otherwise."""
    current = t["current"]
    plotter = seat_of(state, current)
    reg = state["regime"]
    for person in t["persons"]:
        p = state["persons"][person]
        p["status"], p["where"], p["outlaw"] = "prison", None, True
        ctx.emit("person", f"{person} is arrested after the failed coup", about=plotter)
    short = t["coup"] == "limited" or (reg, current) in REDUCED
    if short:
        adjust_fame(state, current, -1, ctx, " (failed coup, 12.2.1)")
        state["outlaw_until"][current] = state["turn"] + 1
    elif officially_present(state, current):
        row = state["assembly"][current]
        row["aside"], row["count"] = row["count"], 0
        ctx.emit("deputies", f"the {name(current)}'s deputies are expelled (12.1.1)", about=plotter)
    if current not in state["outlawed"]:
        state["outlawed"].append(current)
    ctx.emit("outlaw", f"the {name(current)} is outlawed", about=plotter)
    if t["coup"] in ("popular", "military"):
        if t["coup"] == "popular":
            adjust_track(state, "commune", -3, ctx, " (failed popular coup, 12.1.1)")
        neutral = (reg, current) in COMMUNE_NEUTRAL and state["commune"]["raised"]
        if t["coup"] == "military" and state["commune"]["controller"] != current:
            neutral = False  # R.6.7.3.2: only a Commune the plotters' Current held
        if neutral:
            state["commune"]["controller"] = None
        if current == MONTAGNE:
            state["mt_failed_coup"] = True
        if current == ROYALIST:
            state["royalist_couped"] = True
