"""7.5.1: the Political Phase opens with a possible regime change, asked of each Current
that may make one, in turn order (installed at once or put to a referendum)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import ResponseWindow

from ..core import (
    TASKS,
    Task,
    civil_war,
    controlled_regions,
    enter_phase,
    name,
    outlawed,
    paris_threatened,
    regime,
    seat_of,
    track_level,
)
from ..data import ADJACENT, REGIMES
from ..factions import GIRONDE, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from ..in_turn import answer_in_turn, in_turn, reached
from ..tasks import (
    ActorTurn,
    AskedInTurn,
    CoupOffer,
    Step,
)
from ..verbs import INSTALL, VERBS
from ..words import regime_detail
from .install import install
from .referendum import referendum_task

# 7.5.1 Regime changes and elections -----------------------------------------------------


def political_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "political", ctx)
    state["proposed"] = []
    state["levee_this_turn"] = False
    state["gov_laws_proposed"] = 0
    tasks: list[Task] = [
        Step(kind="pending_regime"),
        AskedInTurn(kind="regime_change", window=regime_window(state)),
        Step(kind="elections"),
    ]
    if regime(state)["deputy_switch"]:
        tasks += [
            ActorTurn(kind="sway", actor=c) for c in state["order"] if seat_of(state, c) is not None
        ]
    if state["regime"] == "legislative":
        tasks.append(Step(kind="king_action"))
    if state["regime"] == "directorate":
        tasks.append(CoupOffer(kind="coup_offer_start", coup="limited"))  # R.7.7.1
    tasks.append(Step(kind="laws_start"))
    TASKS.schedule(state, *tasks)


def threat(state: State) -> bool:
    """R.1.8: a Catholic army in Paris, an Allied army in or next to it, or 12+
    regions held by the Royalist and the Coalition (both counting)."""
    near = {"Paris", *ADJACENT["Paris"]}
    for army in state["armies"]:
        if (army["side"] == "catholic" and army["where"] == "Paris") or (
            army["side"] == "allied" and army["where"] in near
        ):
            return True
    held = len(controlled_regions(state, ROYALIST)) + sum(
        1 for r in state["regions"].values() if r["coalition"]
    )
    return held >= 12


def strong_commune(state: State, sc_level: int = 2) -> bool:
    """The Commune raised under the Sans-Culotte at ``sc_level`` or more, or under the
    Montagne at level III (R.1.8.2, R.2.8.1, R.6.8.1)."""
    commune = state["commune"]
    lvl = track_level(state, "commune")
    leader = commune["controller"]
    return bool(commune["raised"]) and (
        (leader == SANS_CULOTTE and lvl >= sc_level) or (leader == MONTAGNE and lvl == 3)
    )


def both_wars(state: State) -> bool:
    return bool(state["war"]) and civil_war(state)


def regime_options(state: State) -> list[tuple[str, str, str]]:
    """(deciding Current, regime, "install" or "referendum") open at the start of the
    Political Phase (R.1.8, R.2.8, R.3.8, R.5.8, R.6.8)."""
    commune = state["commune"]
    leader = commune["controller"] if commune["raised"] else None
    open_ = state["options"].get("scenario") == "open"
    reg = state["regime"]
    out: list[tuple[str, str, str]] = []
    if reg == "legislative" and leader is not None and threat(state):
        if leader in (GIRONDE, MONTAGNE, SANS_CULOTTE):
            out.append((leader, "convention", "install"))
        if strong_commune(state):
            out.append((leader, "terror", "install"))
    elif reg == "convention":
        if leader is not None and strong_commune(state):
            if both_wars(state):
                out.append((leader, "terror", "install"))
            elif open_:
                out.append((leader, "mercy", "install"))
        gironde_commune = not commune["raised"] or leader == GIRONDE  # R.2.8.3: not a neutral one
        if open_ and not both_wars(state) and gironde_commune and not outlawed(state, GIRONDE):
            out.append((GIRONDE, "ffr", "referendum"))
    elif reg == "terror" and open_:
        wrath_need = (
            track_level(state, "economy") == 3
            or any(
                a["side"] in ("allied", "catholic")
                for a in state["armies"]
                if a["where"] == "Paris"
            )
            or sum(
                1
                for r in state["regions"].values()
                if r["revolt"] or r["coalition"] or r["control"] == ROYALIST
            )
            >= 10
        )
        if (
            "hebertiste" not in state["factions_outlawed"]
            and both_wars(state)
            and leader == SANS_CULOTTE
            and track_level(state, "commune") >= 2
            and wrath_need
        ):
            out.append((SANS_CULOTTE, "wrath", "install"))
        if (
            "indulgent" not in state["factions_outlawed"]
            and not both_wars(state)
            and not commune["raised"]
            and not paris_threatened(state)
            and not outlawed(state, MARAIS)
        ):
            out.append((MARAIS, "mercy", "install"))
        if not both_wars(state) and leader == MONTAGNE:
            out.append((MONTAGNE, "froi", "referendum"))
    elif reg == "wrath" and open_ and not both_wars(state) and not outlawed(state, SANS_CULOTTE):
        out.append((SANS_CULOTTE, "froi", "referendum"))
    elif reg == "mercy" and leader is not None and both_wars(state) and strong_commune(state):
        out.append((leader, "terror", "install"))
    return out


def regime_window(state: State) -> dict[str, Any]:
    """7.5.1: every Current with a seat, in turn order; which of them may change the
    regime is worked out when each is reached (a pending regime may be installed first)."""
    return in_turn(state, "regime change", list(state["order"]), INSTALL("none"))


def may_change(state: State) -> Callable[[str], bool]:
    """Whether a Current has a regime change to offer now (7.5.1)."""
    deciders = {who for who, _, _ in regime_options(state)}
    return lambda c: c in deciders


def regime_change_needed(state: State, t: AskedInTurn) -> bool:
    """A Current with a regime change to offer is still to be asked (7.5.1)."""
    return reached(ResponseWindow(t["window"]), may_change(state))[1] is not None


def regime_change_prompt(state: State, t: AskedInTurn) -> Prompt:
    _, decider = reached(ResponseWindow(t["window"]), may_change(state))
    assert decider is not None  # regime_change_needed
    options = [(target, how) for who, target, how in regime_options(state) if who == decider]
    seat = seat_of(state, decider)
    assert seat is not None
    choices = [
        Choice(
            INSTALL("none"),
            f"Keep the {regime(state)['name']}",
            detail="No change of regime now.",
            key=PASS_KEY,
        )
    ]
    for target, how in options:
        verb = "Install" if how == "install" else "Propose a referendum on"
        detail = f"The {regime_detail(target)} takes over: who governs, votes and is "
        "outlawed changes with it."
        if how == "referendum":
            detail += " Adopted unless more than 13 regions vote no."
        choices.append(
            Choice(VERBS[how](target), f"{verb} the {REGIMES[target]['name']}", detail=detail)
        )
    return Prompt(seat, f"The {name(decider)} may change the regime", tuple(choices), rule="7.5.1")


def regime_change_handle(state: State, t: AskedInTurn, action: str, ctx: Context) -> None:
    verb, (target,) = VERBS.parse(action)
    decider = answer_in_turn(t["window"], may_change(state), action)
    if target == "none":
        return
    TASKS.finish(state)
    if verb is INSTALL:
        install(state, target, ctx, by=decider)
    else:
        TASKS.schedule(state, referendum_task(state, target, decider, pending=False))
