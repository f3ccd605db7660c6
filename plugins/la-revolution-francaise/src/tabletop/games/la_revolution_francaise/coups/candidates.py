"""12.0-12.3: who may attempt a limited, a popular or a military coup, and with whom."""

from __future__ import annotations

from tabletop.framework import State

from ..core import (
    civil_war,
    gov_controller,
    outlawed,
    regime_outlaws,
    track_level,
)
from ..data import KING
from ..factions import FEUILLANT, GIRONDE, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE


def open_scenario(state: State) -> bool:
    return bool(state["options"].get("scenario") == "open")


def plotters(state: State, current: str) -> list[str]:
    """Free Personalities of the Current in Paris (12.1: at least one is needed)."""
    return [
        n
        for n, p in state["persons"].items()
        if p["current"] == current and p["status"] == "free" and p["where"] == "Paris" and n != KING
    ]


def commune_is(state: State, leaders: tuple[str, ...], level: int) -> bool:
    commune = state["commune"]
    return (
        bool(commune["raised"])
        and commune["controller"] in leaders
        and track_level(state, "commune") >= level
    )


# Who may try ----------------------------------------------------------------------------


def limited_candidates(state: State) -> list[str]:
    """R.1.7.1 (Legislative), R.7.7.1 (Directorate), R.9.7.1 (FFR), R.10.7.1 (FROI)."""
    reg, holder = state["regime"], gov_controller(state)
    out: list[str] = []
    if reg == "legislative":
        if holder == GIRONDE:
            out.append(FEUILLANT)
        if holder == FEUILLANT and (
            state.get("feuillant_couped") or track_level(state, "commune") == 3
        ):
            out.append(GIRONDE)
    elif reg == "directorate":
        # R.7.7.1 names the Gironde, the Feuillant and the Montagne: the partner too may
        # try to govern alone (ambiguities.md)
        out += [c for c in (GIRONDE, FEUILLANT, MONTAGNE) if c != holder]
    elif reg == "ffr":
        if holder == GIRONDE:
            out.append(MARAIS)
        elif holder == MARAIS and state.get("marais_couped"):
            out.append(GIRONDE)
    elif reg == "froi":
        other = SANS_CULOTTE if holder == MONTAGNE else MONTAGNE
        if state["commune"]["controller"] != holder or not state["commune"]["raised"]:
            out.append(other)
    return [c for c in out if not outlawed(state, c)]


def popular_candidates(state: State) -> list[tuple[str, list[str]]]:
    """(Current, regimes it may install; "gov" = only seize the Government)."""
    reg = state["regime"]
    war, civil = state["war"], civil_war(state)
    both, peace = war and civil, not (war and civil)
    out: list[tuple[str, list[str]]] = []
    raised = state["commune"]["raised"]
    if reg == "legislative" and raised:
        targets = ["gov"]
        if commune_is(state, (SANS_CULOTTE,), 2) or commune_is(
            state, (SANS_CULOTTE, MONTAGNE, GIRONDE), 3
        ):
            targets.append("convention")
        out.append((GIRONDE, targets))
    elif reg == "convention" and (
        commune_is(state, (SANS_CULOTTE,), 1) or commune_is(state, (MONTAGNE,), 2)
    ):
        out.append((MONTAGNE, ["terror"] if both else ["mercy"]))
    elif reg == "terror":
        if (
            peace
            and "indulgent" not in state["factions_outlawed"]
            and commune_is(state, (SANS_CULOTTE,), 3)
        ):
            out.append((MARAIS, ["mercy"]))
        if (
            both
            and "hebertiste" not in state["factions_outlawed"]
            and commune_is(state, (SANS_CULOTTE,), 3)
        ):
            out.append((SANS_CULOTTE, ["wrath"]))
    elif reg == "thermidor" and (war or civil):
        out += [(c, ["prairial"]) for c in (MONTAGNE, SANS_CULOTTE) if commune_is(state, (c,), 3)]
    elif reg == "wrath" and commune_is(state, (MONTAGNE,), 2):
        out.append((MARAIS, ["thermidor"]))
    elif (
        reg == "mercy"
        and gov_controller(state) == MARAIS
        and commune_is(state, (SANS_CULOTTE, MONTAGNE), 3)
    ):
        out.append((MONTAGNE, ["terror"]))
    elif reg == "directorate":
        if commune_is(state, (MONTAGNE,), 3):
            out.append((MONTAGNE, ["prairial"]))
        if commune_is(state, (SANS_CULOTTE,), 2):
            out.append((SANS_CULOTTE, ["prairial"]))
        if commune_is(state, (ROYALIST,), 2) and not state.get("royalist_couped"):
            out.append((ROYALIST, ["vendemiaire"]))
    elif reg == "prairial" and (war or civil) and commune_is(state, (ROYALIST,), 3):
        out.append((ROYALIST, ["vendemiaire"]))
    elif reg == "ffr":
        strong = commune_is(state, (SANS_CULOTTE,), 2) or commune_is(state, (MONTAGNE,), 3)
        target = ["terror"] if (war or civil) else ["mercy"]
        if strong:
            out.append((MONTAGNE, target))
        if state.get("mt_failed_coup") and raised:
            # R.9.7.2.3: the Marais may then seize power with any raised Commune; only
            # the new regime needs the Montagne's strong Commune
            out.append((MARAIS, ["gov", *target] if strong else ["gov"]))
    elif reg == "froi" and not raised:
        out.append((MARAIS, ["thermidor"]))
    return [(c, t) for c, t in out if may_plot(state, c) and c != gov_controller(state)]


def may_plot(state: State, current: str) -> bool:
    """A popular coup the regime gives a Current (R.x.7.2) is not taken away by the
    regime's own outlawry: the Directorate and Prairial outlaw the Royalist (R.7.4.1,
    R.8.4.1) and give him Vendémiaire (R.7.7.2.3, R.8.7.2.1), Thermidor outlaws one of
    the two left Currents (R.4.4.1) and names both for Prairial (R.4.7.2). A Current
    outlawed for a coup of its own that failed waits until the outlawry ends (12.2.1,
    R.9.7.2.3). See ambiguities.md."""
    if not outlawed(state, current):
        return True
    return current in regime_outlaws(state) and current not in state["outlaw_until"]


def military_candidates(state: State) -> list[tuple[str, list[str]]]:
    """Each regime's R.x.7.3: who may rally an army to march on Paris, and to what end."""
    reg = state["regime"]
    war, civil = state["war"], civil_war(state)
    both = war and civil
    table: dict[str, list[tuple[str, list[str]]]] = {
        "legislative": [(GIRONDE, ["convention"])],
        "convention": [(MONTAGNE, ["terror"] if both else ["mercy"])],
        "terror": [] if both else [(MARAIS, ["mercy"])],
        "wrath": [(MARAIS, ["thermidor"])],
        "mercy": [(MARAIS, ["directorate"])]
        + ([(MONTAGNE, ["terror"])] if gov_controller(state) == MARAIS else []),
        "directorate": [(MONTAGNE, ["prairial"])],
        "ffr": [(MONTAGNE, ["terror"] if (war or civil) else ["mercy"])],
        "froi": [(MARAIS, ["thermidor"])],
    }
    # R.6.7.3.1: under Mercy the Marais may march on Paris even while it governs
    governing_may = reg == "mercy"
    return [
        (c, t)
        for c, t in table.get(reg, [])
        if not outlawed(state, c) and (c != gov_controller(state) or governing_may)
    ]
