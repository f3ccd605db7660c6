"""7.1.1-7.1.2: the fame modifiers of an action (and each action's own), the Terror's
bonus and the Commune's penalty."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.framework import State

from ..core import (
    controller,
    influential,
    person_outlaw,
    track_level,
)
from ..data import COMMUNE_PENALTY, KING, PERSONS, REGIONS
from ..factions import FEUILLANT, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from ..plans import commune_action
from .segments import REGIONAL

# Fame modifiers (7.1.1, 7.1.2, and each action's own) ----------------------------------


def base_modifiers(state: State, actor: str) -> list[tuple[int, str]]:
    mods: list[tuple[int, str]] = []
    if actor == ROYALIST:
        bonus = track_level(state, "clergy") - 1
        if bonus:
            mods.append((bonus, "dissident clergy, 7.1.1"))
    if actor == SANS_CULOTTE:
        bonus = track_level(state, "commune") - 1
        if bonus:
            mods.append((bonus, "Commune, 7.1.2"))
    if actor == MONTAGNE and track_level(state, "commune") == 3:
        mods.append((1, "Commune, 7.1.2"))
    return mods


Modifiers = list[tuple[int, str]]
"""(modifier, reason) pairs, in the order the explanation lists them."""


def action_modifiers(
    state: State, actor: str, segment: str, target: str, persons: list[str]
) -> Modifiers:
    """Every fame modifier of an attempt, in a fixed order: the actor's own (7.1.1,
    7.1.2), those of the target (arrests, persuasion), the events', the influential
    Personalities taking part, then those of the segment (plot, revolt, suppression,
    Commune)."""
    mods = base_modifiers(state, actor)
    if segment == "arrest":
        mods += arrest_modifiers(state, actor, target)
    elif segment == "persuade":
        mods += persuade_modifiers(state, actor, target)
    mods += event_modifiers(state, actor, segment, target)
    if segment in REGIONAL:
        mods += influence_modifiers(segment, target, persons)
    segment_rule = SEGMENT_MODIFIERS.get(segment)
    if segment_rule is not None:
        mods += segment_rule(state, actor, target)
    return mods


def arrest_modifiers(state: State, actor: str, target: str) -> Modifiers:
    """7.3.1: an arrest by the Government (or a removal by a Current) of ``target``."""
    where = state["persons"][target]["where"]
    if actor != "gov":
        return [(-2, "influential there")] if influential(target, where) else []
    mods: Modifiers = []
    if controller(state, where) == state["persons"][target]["current"]:
        mods.append((-4, "his Current holds the region"))
    if influential(target, where):
        mods.append((-2, "influential there"))
    if where == "Paris" and person_outlaw(state, target):
        mods.append((5, "outlaw in Paris"))
    bonuses = state["bonuses"]
    if bonuses.get("police"):
        mods.append((bonuses["police"], "event"))
    if target == "Marat" and bonuses.get("arrest_marat"):
        mods.append((bonuses["arrest_marat"], "event"))
    outlawed_left = state["persons"][target]["current"] in (SANS_CULOTTE, MONTAGNE)
    if outlawed_left and person_outlaw(state, target) and bonuses.get("arrest_outlawed"):
        mods.append((bonuses["arrest_outlawed"], "event"))
    if terror_bonus(state, where):
        mods.append((2, "terrorist Personality there, R.3.9.1"))
    return mods


def persuade_modifiers(state: State, actor: str, target: str) -> Modifiers:
    """7.3.2: a secondary Current's penalty, and an event's bonus."""
    mods: Modifiers = []
    main = ROYALIST if target == KING else PERSONS[target]["current"]
    if actor != main:
        mods.append((-2, "secondary Current"))
    if state["bonuses"].get(f"persuade:{actor}"):
        mods.append((state["bonuses"][f"persuade:{actor}"], "event"))
    return mods


def event_modifiers(state: State, actor: str, segment: str, target: str) -> Modifiers:
    """The events' bonuses this turn (6.2): to actions in Paris, and to every arrest
    and suppression by the Government."""
    mods: Modifiers = []
    paris = (
        segment == "commune"
        or target == "Paris"
        or (segment == "arrest" and actor == "gov" and state["persons"][target]["where"] == "Paris")
    )
    bonuses = state["bonuses"]
    if paris and (segment in REGIONAL or actor == "gov") and bonuses.get(f"paris_actions:{actor}"):
        mods.append((bonuses[f"paris_actions:{actor}"], "event, Paris"))
    if actor == "gov" and segment in ("arrest", "suppress") and bonuses.get("gov_all"):
        mods.append((bonuses["gov_all"], "event"))
    return mods


def influence_modifiers(segment: str, target: str, persons: list[str]) -> Modifiers:
    """7.1: +2 for each Personality taking part that is influential in the region."""
    region = "Paris" if segment == "commune" else target
    count = sum(1 for p in persons if influential(p, region))
    if not count:
        return []
    return [(2 * count, f"{count} influential Personalit{'y' if count == 1 else 'ies'}")]


def plot_modifiers(state: State, actor: str, target: str) -> Modifiers:
    """7.4.1: a plot in a neutral region."""
    return [(2, "neutral region")] if controller(state, target) is None else []


def revolt_modifiers(state: State, actor: str, target: str) -> Modifiers:
    """7.4.2: a hot region, and a region the Coalition holds (9.7.1)."""
    mods: Modifiers = []
    if REGIONS[target]["hot"]:
        mods.append((2, "hot region"))
    if state["regions"][target]["coalition"]:
        mods.append((2, "Coalition region, 9.7.1"))
    return mods


def suppress_modifiers(state: State, actor: str, target: str) -> Modifiers:
    """7.4.3: suppressing is harder; the Government's terrorists there (R.3.9.1) and
    the police event help it."""
    mods: Modifiers = [(-2, "suppressing a revolt")]
    if actor == "gov" and terror_bonus(state, target):
        mods.append((2, "terrorist Personality there, R.3.9.1"))
    if actor == "gov" and state["bonuses"].get("police"):
        mods.append((state["bonuses"]["police"], "event"))
    return mods


def commune_modifiers(state: State, actor: str, target: str) -> Modifiers:
    """7.4.4: the Current's Commune penalty, and suppressing it (7.4.4.2)."""
    mods: Modifiers = []
    penalty = commune_penalty(state, actor)
    if penalty:
        mods.append((penalty, "Commune action, 7.4.4"))
    if commune_action(target) == "suppress":
        mods.append((-2, "suppressing the Commune, 7.4.4.2"))
    return mods


#: The modifiers a segment adds after the others (7.4.1-7.4.4).
SEGMENT_MODIFIERS: dict[str, Callable[[State, str, str], Modifiers]] = {
    "plot": plot_modifiers,
    "revolt": revolt_modifiers,
    "suppress": suppress_modifiers,
    "commune": commune_modifiers,
}


def terror_factions(state: State) -> tuple[str, ...]:
    """Factions whose presence helps the Government (R.3.9.1, R.5.9.1, R.6.9.1, R.8.9)."""
    reg = state["regime"]
    if reg == "terror" or (reg == "prairial" and state["gov"]["controller"] == MONTAGNE):
        return ("terroriste",)
    if reg in ("wrath", "mercy") or (
        reg == "prairial" and state["gov"]["controller"] == SANS_CULOTTE
    ):
        return ("terroriste", "hebertiste")
    return ()


def terror_bonus(state: State, region: str | None) -> bool:
    factions = terror_factions(state)
    return bool(factions) and any(
        p["status"] == "free" and p["where"] == region and PERSONS[n]["faction"] in factions
        for n, p in state["persons"].items()
    )


def commune_penalty(state: State, actor: str) -> int:
    if actor in COMMUNE_PENALTY:
        if (
            actor == MONTAGNE
            and state["regime"] == "froi"
            and state.get("froi_variant") == MONTAGNE
        ):
            return 0
        return COMMUNE_PENALTY[actor]
    if actor == ROYALIST and state["regime"] in ("directorate", "prairial"):
        return 2 if state["bonuses"].get("raise_commune_royalist:R") else -4
    if actor == MARAIS and state["regime"] == "froi":
        return -3
    return 0  # the Feuillant by a Thermidor event (Pol 11), with no penalty


def commune_actors(state: State) -> set[str]:
    out = set(COMMUNE_PENALTY)
    if state["regime"] in ("directorate", "prairial"):
        out.add(ROYALIST)
    if state["regime"] == "froi":
        out.add(MARAIS)
    if state["bonuses"].get("raise_commune_free:F") is not None:
        out.add(FEUILLANT)
    return out
