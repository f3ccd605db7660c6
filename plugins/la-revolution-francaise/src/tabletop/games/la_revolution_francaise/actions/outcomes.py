"""7.1-7.4: what a result letter does for each action (arrest, persuasion, plot, revolt,
suppression, the Commune)."""

from __future__ import annotations

from tabletop.framework import Context, State

from ..core import (
    adjust_fame,
    name,
    person_outlaw,
    regime,
    set_control,
    track_level,
)
from ..data import KING
from ..factions import MARAIS
from ..plans import Objective, commune_action
from ..tasks import RollRecord
from .segments import SEGMENT_RULES

# Outcomes ----------------------------------------------------------------------------------


def resolve(
    state: State, actor: str, segment: str, target: str, kept: RollRecord, ctx: Context
) -> None:
    """The kept roll's letter decides the action's outcome (7.1); a kept double moves
    the actor's fame."""
    letter = kept["letter"]
    ctx.emit(
        "result",
        f"{segment} {commune_action(target) if segment == 'commune' else target}: {letter}, "
        f"{letter_effect(state, actor, segment, target, letter)} ({SEGMENT_RULES[segment]})",
    )
    delta = double_delta(state, kept["dice"])
    if delta:
        adjust_fame(state, actor, delta, ctx, " (double, 7.1)")
    OUTCOMES[segment](state, actor, target, letter, ctx)


def letter_effect(state: State, actor: str, segment: str, target: str, letter: str) -> str:
    """What the result ``letter`` of an action would do, in words (7.3, 7.4): told before
    a roll is kept, and as the result line when it is. The outcome functions below say
    it, so the words and the rule cannot drift apart."""
    return OUTCOMES[segment](state, actor, target, letter, None)


# Each outcome carries out what the letter does when given a ``ctx`` and, with or without
# one, returns it in words; ``resolve``'s result line says it, so nothing is logged twice.


def outcome_arrest(state: State, actor: str, target: str, letter: str, ctx: Context | None) -> str:
    p = state["persons"][target]
    if actor == "gov":
        if letter == "A" or (letter == "B" and regime(state)["b_prison"]):
            if ctx:
                p["status"], p["where"] = "prison", None
                state["achieved"].append(Objective("arrest", target).deed(actor))
            return f"{target} goes to prison"
        if letter == "B":
            if ctx:
                p["status"], p["where"] = "fled", None
            return f"{target} flees France until next turn"
        return f"{target} stays free"
    if letter in ("A", "B"):
        if ctx:
            p["status"], p["where"] = "fled", None
        return f"{target} leaves the map until next turn"
    return f"{target} stays where he is"


def outcome_persuade(
    state: State, actor: str, target: str, letter: str, ctx: Context | None
) -> str:
    p = state["persons"][target]
    if letter == "A":
        if ctx:
            was_outlaw = person_outlaw(state, target)
            p["current"] = actor
            state["achieved"].append(Objective("persuade", target).deed(actor))
            # freed only when the switch revokes his outlaw status
            revoked = was_outlaw and not person_outlaw(state, target)
            if p["status"] == "prison" and revoked and target != KING:
                p["status"] = "fled"
                ctx.emit("person", f"{target} is freed and returns next turn (7.3.2)")
        return f"{target} joins the {name(actor)}"
    if letter == "B" and p["status"] == "free":
        if ctx:
            p["status"], p["where"] = "fled", None
        return f"{target} leaves the map until next turn"
    return f"{target} is not won over"


def outcome_plot(state: State, actor: str, target: str, letter: str, ctx: Context | None) -> str:
    if letter == "A":
        if ctx:
            set_control(state, target, actor, ctx, " (plot)")
            state["achieved"].append(Objective("plot", target).deed(actor))
        return f"the {name(actor)} takes {target}"
    if letter == "B":
        if ctx:
            set_control(state, target, None, ctx, " (plot)")
        return f"{target} becomes or stays neutral"
    return f"{target} does not change hands"


def outcome_revolt(state: State, actor: str, target: str, letter: str, ctx: Context | None) -> str:
    if letter not in ("A", "B"):
        return f"{target} does not revolt"
    if ctx:
        state["regions"][target]["revolt"] = True
        ctx.emit("revolt", f"{target} revolts (7.4.2)")
        state["achieved"].append(Objective("revolt", target).deed(actor))
        set_control(state, target, actor if letter == "A" else None, ctx, " (revolt)")
    if letter == "A":
        return f"{target} revolts under the {name(actor)}"
    return f"{target} revolts and becomes neutral"


def outcome_suppress(
    state: State, actor: str, target: str, letter: str, ctx: Context | None
) -> str:
    if letter == "C":
        return f"the revolt in {target} goes on"
    if ctx:
        state["regions"][target]["revolt"] = False
        ctx.emit("revolt", f"the revolt in {target} ends (7.4.3)")
        state["achieved"].append(Objective("suppress", target).deed(actor))
        if actor != "gov":
            set_control(state, target, actor if letter == "A" else None, ctx, " (suppression)")
    if actor == "gov":
        return f"the revolt in {target} ends"
    if letter == "A":
        return f"the revolt in {target} ends and the {name(actor)} takes it"
    return f"the revolt in {target} ends and {target} becomes neutral"


def outcome_commune(state: State, actor: str, target: str, letter: str, ctx: Context | None) -> str:
    kind = commune_action(target)
    lvl = track_level(state, "commune")
    if kind == "raise":
        if not (letter == "A" or (letter == "B" and lvl >= 2)):
            return "the Commune does not rise"
        leader = None if letter == "B" and lvl == 2 else actor
        if actor == MARAIS and state["regime"] == "froi":
            leader = None  # R.10.9.2
        rises = "the Commune rises" + (
            f" under the {name(leader)}" if leader else ", with no leader"
        )
        if ctx:
            state["commune"] = {"raised": True, "controller": leader}
            ctx.emit("commune", rises + " (7.4.4.1)")
            state["achieved"].append(Objective("raise_commune").deed(actor))
        return rises
    if not (letter == "A" or (letter == "B" and lvl <= 2)):
        return "the Commune stands"
    holder = actor if letter == "A" or lvl == 1 else None
    if ctx:
        state["commune"] = {"raised": False, "controller": None}
        ctx.emit("commune", "the Commune is suppressed (7.4.4.2)")
        state["achieved"].append(Objective("suppress_commune").deed(actor))
        set_control(state, "Paris", holder, ctx, " (Commune suppressed)")
    return "the Commune is suppressed and Paris goes " + (
        f"to the {name(holder)}" if holder else "neutral"
    )


def success_letters(state: State, segment: str, target: str) -> str:
    """The letters that get what the action is for (7.3, 7.4): a win-over or a plot
    needs an A (a B only sends the Personality off or leaves the region neutral); an
    arrest, a revolt or a suppression an A or a B; the Commune what its level says
    (7.4.4.1, 7.4.4.2)."""
    if segment in ("persuade", "plot"):
        return "A"
    if segment != "commune":
        return "AB"
    lvl = track_level(state, "commune")
    if commune_action(target) == "raise":
        return "A" if lvl == 1 else "AB"
    return "A" if lvl == 3 else "AB"


OUTCOMES = {
    "arrest": outcome_arrest,
    "persuade": outcome_persuade,
    "plot": outcome_plot,
    "revolt": outcome_revolt,
    "suppress": outcome_suppress,
    "commune": outcome_commune,
}


def double_note(state: State, dice: list[int]) -> str | None:
    delta = double_delta(state, dice)
    return f"fame {delta:+d} (double)" if delta else None


def double_delta(state: State, dice: list[int]) -> int:
    """A double 1 costs a fame point and a double 6 gains one (7.1); reversed in the
    Euro-ish variant (15.3). Only the kept roll counts (ambiguity B6)."""
    if dice[0] != dice[1] or dice[0] not in (1, 6):
        return 0
    delta = -1 if dice[0] == 1 else 1
    return -delta if state["options"].get("euro") == "on" else delta
