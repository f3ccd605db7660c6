"""7.1: an attempt: which Personalities take part, how many rolls are paid for, the
dice, and with several rolls the result kept."""

from __future__ import annotations

from tabletop.framework import Choice, Context, Prompt, State

from ..core import (
    TASKS,
    actor_seat,
    fame,
    influential,
    money,
    odds_text,
    pay,
    result,
    roll,
)
from ..plans import commune_action
from ..tasks import Attempt, PickResult, RollRecord
from ..verbs import KEEP, ROLLS, WITH
from .act import all_persons
from .modifiers import action_modifiers
from .outcomes import double_note, letter_effect, resolve
from .targets import cost

# The attempt: Personalities, number of rolls, the dice, the chosen result (7.1) ----------


def attempt_needed(state: State, t: Attempt) -> bool:
    """Who takes part, when more than one Personality could; else how many rolls, when
    more than one can be paid for (7.1). Otherwise ``attempt_empty`` decides alone."""
    actor, segment = t["actor"], t["segment"]
    if t["persons"] is None:
        return len(all_persons(state, actor, segment, t["target"])) > 1
    if t["roll_count"] is None:
        return min(3, money(state, actor) // cost(state, segment, actor)) > 1
    return False


def attempt_prompt(state: State, t: Attempt) -> Prompt:
    actor, segment = t["actor"], t["segment"]
    seat = actor_seat(state, actor)
    assert seat is not None
    if t["persons"] is None:  # attempt_needed: more than one could take part
        here = all_persons(state, actor, segment, t["target"])
        choices = [
            Choice(
                WITH("all"),
                f"All together ({', '.join(here)})",
                detail="+2 for each one influential here; all of them have acted this turn.",
            )
        ]
        choices += [
            Choice(
                WITH(p),
                f"{p} alone",
                detail=(
                    "influential here: +2"
                    if influential(p, "Paris" if segment == "commune" else t["target"])
                    else "not influential here"
                ),
            )
            for p in here
        ]
        return Prompt(seat, "Which Personalities take part?", tuple(choices), rule="7.4")
    assert t["roll_count"] is None  # attempt_needed: more than one roll affordable
    price = cost(state, segment, actor)
    most = min(3, money(state, actor) // price)
    steps = tuple(
        Choice(
            ROLLS(n),
            f"Pay {n * price} for {n} roll{'s' if n > 1 else ''}",
            detail="After rolling, you keep the roll you choose (7.1); keeping the "
            f"best: {odds_text(attempt_column(state, t), n)}.",
            consequence=f"leaves {money(state, actor) - n * price}",
        )
        for n in range(1, most + 1)
    )
    return Prompt(seat, "How many times do you pay the cost?", steps, rule="7.1")


def attempt_column(state: State, t: Attempt) -> int:
    """The modified fame an attempt rolls on, with the Personalities taking part."""
    persons = t["persons"] if t["persons"] is not None else []
    mods = action_modifiers(state, t["actor"], t["segment"], t["target"], persons)
    return fame(state, t["actor"]) + sum(m for m, _ in mods)


def attempt_handle(state: State, t: Attempt, action: str, ctx: Context) -> None:
    if WITH.matches(action):
        here = all_persons(state, t["actor"], t["segment"], t["target"])
        person = WITH.arg(action)
        t["persons"] = here if person == "all" else [person]
    else:
        t["roll_count"] = ROLLS.number(action)
        TASKS.finish(state)
        TASKS.schedule(state, Attempt({**t, "kind": "attempt_roll"}))


def attempt_empty(state: State, t: Attempt, ctx: Context) -> None:
    if t["persons"] is None:
        t["persons"] = all_persons(state, t["actor"], t["segment"], t["target"])
        return
    t["roll_count"] = 1
    TASKS.finish(state)
    TASKS.schedule(state, Attempt({**t, "kind": "attempt_roll"}))


def attempt_roll(state: State, t: Attempt, ctx: Context) -> None:
    actor, segment, target = t["actor"], t["segment"], t["target"]
    count = t["roll_count"] or 1
    persons = t["persons"] or []
    price = cost(state, segment, actor)
    pay(
        state,
        actor,
        price * count,
        ctx,
        f" ({segment}, {count} roll{'s' if count > 1 else ''})",
    )
    for p in persons:
        state["persons"][p]["acted"] = True
    mods = action_modifiers(state, actor, segment, target, persons)
    column_fame = fame(state, actor) + sum(m for m, _ in mods)
    rolls: list[RollRecord] = []
    for _ in range(count):
        dice = roll(
            state,
            ctx,
            2,
            6,
            reason=f"{segment} {commune_action(target) if segment == 'commune' else target}, 7.1",
            about=actor_seat(state, actor),
        )
        rolls.append(RollRecord(dice=list(dice), letter=result(sum(dice), column_fame)))
    if len(rolls) == 1:
        resolve(state, actor, segment, target, rolls[0], ctx)
        return
    TASKS.schedule(
        state,
        PickResult(
            kind="pick_result",
            actor=actor,
            segment=segment,
            target=target,
            persons=persons,
            rolls=rolls,
        ),
    )


def pick_prompt(state: State, t: PickResult) -> Prompt:
    seat = actor_seat(state, t["actor"])
    assert seat is not None
    choices = []
    for i, r in enumerate(t["rolls"]):
        total = sum(r["dice"])
        note = double_note(state, r["dice"])
        effect = letter_effect(state, t["actor"], t["segment"], t["target"], r["letter"])
        choices.append(
            Choice(
                KEEP(i),
                f"Keep roll {i + 1}: {total} ({'+'.join(map(str, r['dice']))}) = {r['letter']}",
                detail=f"{r['letter']}: {effect}.",
                consequence=note or "",
            )
        )
    return Prompt(seat, "Which roll do you keep?", tuple(choices), rule="7.1")


def pick_handle(state: State, t: PickResult, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    chosen = t["rolls"][KEEP.number(action)]
    resolve(state, t["actor"], t["segment"], t["target"], chosen, ctx)
