"""12.0-12.3: who may attempt a limited, a popular or a military coup, and with whom."""

from __future__ import annotations

from collections.abc import Callable

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


Candidates = list[tuple[str, list[str]]]
"""(Current, the regimes it may install; "gov" = only seize the Government)."""


def popular_candidates(state: State) -> Candidates:
    """Each regime's R.x.7.2: who may attempt a popular coup, and to what end; never
    the Government's own Current, nor one its outlawry bars (``may_plot``)."""
    rule = POPULAR.get(state["regime"])
    out = rule(state) if rule is not None else []
    return [(c, t) for c, t in out if may_plot(state, c) and c != gov_controller(state)]


def _at_war_and_civil_war(state: State) -> bool:
    return bool(state["war"]) and civil_war(state)


def _at_war_or_civil_war(state: State) -> bool:
    return bool(state["war"]) or civil_war(state)


def _popular_legislative(state: State) -> Candidates:
    """R.1.7.2: the Gironde with any raised Commune; the Convention with a strong one."""
    if not state["commune"]["raised"]:
        return []
    targets = ["gov"]
    if commune_is(state, (SANS_CULOTTE,), 2) or commune_is(
        state, (SANS_CULOTTE, MONTAGNE, GIRONDE), 3
    ):
        targets.append("convention")
    return [(GIRONDE, targets)]


def _popular_convention(state: State) -> Candidates:
    """R.2.7.2: the Montagne; the Terror at war and in civil war, else Mercy."""
    if commune_is(state, (SANS_CULOTTE,), 1) or commune_is(state, (MONTAGNE,), 2):
        return [(MONTAGNE, ["terror"] if _at_war_and_civil_war(state) else ["mercy"])]
    return []


def _popular_terror(state: State) -> Candidates:
    """R.3.7.2: the Marais to Mercy in peace, the Sans-Culotte to Wrath at war and in
    civil war, with the Sans-Culotte's Commune at level III and their faction free."""
    out: Candidates = []
    both = _at_war_and_civil_war(state)
    if (
        not both
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
    return out


def _popular_thermidor(state: State) -> Candidates:
    """R.4.7.2: either left Current to Prairial with its own Commune at level III."""
    if not _at_war_or_civil_war(state):
        return []
    return [(c, ["prairial"]) for c in (MONTAGNE, SANS_CULOTTE) if commune_is(state, (c,), 3)]


def _popular_wrath(state: State) -> Candidates:
    """R.5.7.2: the Marais to Thermidor with the Montagne's Commune."""
    return [(MARAIS, ["thermidor"])] if commune_is(state, (MONTAGNE,), 2) else []


def _popular_mercy(state: State) -> Candidates:
    """R.6.7.2: the Montagne back to the Terror while the Marais governs."""
    if gov_controller(state) == MARAIS and commune_is(state, (SANS_CULOTTE, MONTAGNE), 3):
        return [(MONTAGNE, ["terror"])]
    return []


def _popular_directorate(state: State) -> Candidates:
    """R.7.7.2: the left to Prairial, the Royalist once to Vendémiaire."""
    out: Candidates = []
    if commune_is(state, (MONTAGNE,), 3):
        out.append((MONTAGNE, ["prairial"]))
    if commune_is(state, (SANS_CULOTTE,), 2):
        out.append((SANS_CULOTTE, ["prairial"]))
    if commune_is(state, (ROYALIST,), 2) and not state.get("royalist_couped"):
        out.append((ROYALIST, ["vendemiaire"]))
    return out


def _popular_prairial(state: State) -> Candidates:
    """R.8.7.2.1: the Royalist to Vendémiaire at war or in civil war."""
    if _at_war_or_civil_war(state) and commune_is(state, (ROYALIST,), 3):
        return [(ROYALIST, ["vendemiaire"])]
    return []


def _popular_ffr(state: State) -> Candidates:
    """R.9.7.2: the Montagne with a strong Commune; after its failed coup the Marais
    may seize power with any raised Commune (R.9.7.2.3)."""
    out: Candidates = []
    strong = commune_is(state, (SANS_CULOTTE,), 2) or commune_is(state, (MONTAGNE,), 3)
    target = ["terror"] if _at_war_or_civil_war(state) else ["mercy"]
    if strong:
        out.append((MONTAGNE, target))
    if state.get("mt_failed_coup") and state["commune"]["raised"]:
        # R.9.7.2.3: only the new regime needs the Montagne's strong Commune
        out.append((MARAIS, ["gov", *target] if strong else ["gov"]))
    return out


def _popular_froi(state: State) -> Candidates:
    """R.10.7.2: the Marais to Thermidor while the Commune is down."""
    return [] if state["commune"]["raised"] else [(MARAIS, ["thermidor"])]


#: Each regime's popular coups (R.x.7.2).
POPULAR: dict[str, Callable[[State], Candidates]] = {
    "legislative": _popular_legislative,
    "convention": _popular_convention,
    "terror": _popular_terror,
    "thermidor": _popular_thermidor,
    "wrath": _popular_wrath,
    "mercy": _popular_mercy,
    "directorate": _popular_directorate,
    "prairial": _popular_prairial,
    "ffr": _popular_ffr,
    "froi": _popular_froi,
}


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
