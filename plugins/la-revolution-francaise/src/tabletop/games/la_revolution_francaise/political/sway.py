"""7.5.2.1: a Current (or the Government) sends a Personality in Paris to sway another
Current's deputies to its side until the end of the turn."""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State

from ..actions.modifiers import base_modifiers
from ..actions.outcomes import double_delta
from ..assembly import deputies
from ..core import (
    TASKS,
    actor_seat,
    adjust_fame,
    economy_factor,
    fame,
    money,
    name,
    odds_text,
    pay,
    result,
    roll,
    seat_of,
)
from ..data import COSTS, KING, SWITCH_TARGETS
from ..tasks import (
    ActorTurn,
)
from ..verbs import DONE, SWAY

# 7.5.2.1 Deputies switching sides ---------------------------------------------------------


def sway_sources(state: State, actor: str) -> list[str]:
    """Close Currents (7.5.2.1) with deputies to take; a hidden Current is always
    offered, since whether it has any is not the actor's to know."""
    return [
        c
        for c in SWITCH_TARGETS[actor]
        if available_deputies(state, c) > 0 or state["assembly"][c]["hidden"]
    ]


def available_deputies(state: State, current: str) -> int:
    arrived = sum(int(s["n"]) for s in state["switched"] if s["to"] == current)
    return max(0, deputies(state, current) - arrived)


def sway_person(state: State, actor: str) -> str | None:
    for pname, p in state["persons"].items():
        if (
            p["current"] == actor
            and p["status"] == "free"
            and p["where"] == "Paris"
            and not p["acted"]
            and pname != KING
        ):
            return str(pname)
    return None


def sway_needed(state: State, t: ActorTurn) -> bool:
    """The actor has a seat, a Personality in Paris to sway with, the money, and
    deputies to sway (7.5.2.1)."""
    actor = t["actor"]
    if seat_of(state, actor) is None or sway_person(state, actor) is None:
        return False
    if money(state, actor) < COSTS["deputies"] * economy_factor(state):
        return False
    return bool(sway_sources(state, actor))


def sway_prompt(state: State, t: ActorTurn) -> Prompt:
    actor = t["actor"]
    seat = seat_of(state, actor)
    price = COSTS["deputies"] * economy_factor(state)
    person = sway_person(state, actor)
    assert seat is not None and person is not None  # sway_needed
    sources = sway_sources(state, actor)
    choices = [Choice(DONE(), "Done", detail="Sway no more deputies this turn.", key=PASS_KEY)]
    for c in sources:
        penalty = " (-4: automated Marais, 15.2.1.2)" if seat_of(state, c) is None else ""
        mods = sway_modifiers(state, actor, c)
        total = fame(state, actor) + sum(m for m, _ in mods)
        why = ", ".join(f"{m:+d} {w}" for m, w in mods) or "no modifier"
        choices.append(
            Choice(
                SWAY(c),
                f"{person} sways {name(c)} deputies{penalty}",
                detail=f"Fame {fame(state, actor)}, {why}: column {max(1, min(20, total))}; "
                f"one roll (7.5.2: only one) gives {odds_text(total)}. A: 5 deputies, B: 3, "
                "C: none, until the end of the turn.",
                consequence=f"costs {price}",
            )
        )
    return Prompt(seat, f"{name(actor)}: sway deputies in Paris?", tuple(choices), rule="7.5.2.1")


def sway_modifiers(state: State, actor: str, source: str) -> list[tuple[int, str]]:
    """The fame modifiers of swaying ``source``'s deputies (7.5.2.1): the actor's own
    (7.1.1, 7.1.2), an event's persuasion bonus, -4 against the automated Marais
    (15.2.1.2). The prompt shows them and the roll uses them."""
    mods = base_modifiers(state, actor)
    bonus = state["bonuses"].get(f"persuade:{actor}", 0)
    if bonus:
        mods.append((bonus, "event"))
    if seat_of(state, source) is None:
        mods.append((-4, "automated Marais, 15.2.1.2"))
    return mods


def sway_handle(state: State, t: ActorTurn, action: str, ctx: Context) -> None:
    seat = actor_seat(state, t["actor"])
    if DONE.matches(action):
        TASKS.finish(state)
        return
    actor = t["actor"]
    source = SWAY.arg(action)
    person = sway_person(state, actor)
    assert person is not None
    state["persons"][person]["acted"] = True
    pay(state, actor, COSTS["deputies"] * economy_factor(state), ctx, " (deputies)")
    column = fame(state, actor) + sum(m for m, _ in sway_modifiers(state, actor, source))
    dice = roll(state, ctx, 2, 6, reason="deputies, 7.5.2.1", about=seat)
    letter = result(sum(dice), column)
    delta = double_delta(state, list(dice))
    if delta:
        adjust_fame(state, actor, delta, ctx, " (double, 7.1)")
    wanted = {"A": 5, "B": 3}.get(letter, 0)
    moved = min(wanted, available_deputies(state, source))
    if moved:
        state["assembly"][source]["count"] -= moved
        state["assembly"][actor]["count"] += moved
        state["switched"].append({"from": source, "to": actor, "n": moved})
    text = f"{letter}: {moved} {name(source)} deputies join the {name(actor)} this turn"
    if state["assembly"][source]["hidden"] or state["assembly"][actor]["hidden"]:
        ctx.reveal(text)  # the number may tell hidden deputies' true count
    else:
        ctx.emit("deputies", text)
