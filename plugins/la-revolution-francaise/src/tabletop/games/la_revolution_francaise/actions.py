"""Chapter 7.1-7.4: resolving an action, and the Personality and Regional Actions in
their fixed order (arrests, persuasion, plots, revolts, suppressions, the Commune).

Each segment gives every actor, in turn order, an ``act`` task: it picks a target or
stops. An ``attempt`` then asks which Personalities take part and how many times the
cost is paid (7.1), the dice are rolled, and with several rolls the actor picks the
result to keep.
"""

from __future__ import annotations

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State

from .core import (
    actor_seat,
    adjust_fame,
    armies_in,
    arrestable,
    commune_may_rise,
    controller,
    economy_factor,
    enter_phase,
    fame,
    finish,
    influential,
    money,
    name,
    odds_text,
    officially_present,
    pay,
    person_outlaw,
    regime,
    result,
    roll,
    schedule,
    seat_of,
    set_control,
    track_level,
)
from .data import COMMUNE_PENALTY, COSTS, KING, PERSONS, REGION_NAMES, REGIONS, TABLES
from .tasks import ActionTurn, Attempt, PickResult, RollRecord, Step
from .words import letter_effect

SEGMENTS = ("arrest", "persuade", "plot", "revolt", "suppress", "commune")
SEGMENT_RULES = {
    "arrest": "7.3.1",
    "persuade": "7.3.2",
    "plot": "7.4.1",
    "revolt": "7.4.2",
    "suppress": "7.4.3",
    "commune": "7.4.4",
}
REGIONAL = ("plot", "revolt", "suppress", "commune")


def actions_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "actions", ctx)
    tasks: list[ActionTurn | Step] = []
    for segment in SEGMENTS:
        actors = list(state["order"])
        if segment in ("arrest", "suppress"):
            actors = ["gov", *actors]
        for actor in actors:
            if actor != "gov" and seat_of(state, actor) is None:
                if segment == "plot":
                    tasks.append(Step(kind="marais_plot"))
                continue
            tasks.append(ActionTurn(kind="act", segment=segment, actor=actor))
    schedule(state, *tasks)


# Fame modifiers (7.1.1, 7.1.2, and each action's own) ----------------------------------


def base_modifiers(state: State, actor: str) -> list[tuple[int, str]]:
    mods: list[tuple[int, str]] = []
    if actor == "R":
        bonus = track_level(state, "clergy") - 1
        if bonus:
            mods.append((bonus, "dissident clergy, 7.1.1"))
    if actor == "SC":
        bonus = track_level(state, "commune") - 1
        if bonus:
            mods.append((bonus, "Commune, 7.1.2"))
    if actor == "MT" and track_level(state, "commune") == 3:
        mods.append((1, "Commune, 7.1.2"))
    return mods


def action_modifiers(
    state: State, actor: str, segment: str, target: str, persons: list[str]
) -> list[tuple[int, str]]:
    mods = base_modifiers(state, actor)
    if segment == "arrest" and actor == "gov":
        where = state["persons"][target]["where"]
        if controller(state, where) == state["persons"][target]["current"]:
            mods.append((-4, "his Current holds the region"))
        if influential(target, where):
            mods.append((-2, "influential there"))
        if where == "Paris" and person_outlaw(state, target):
            mods.append((5, "outlaw in Paris"))
        if state["bonuses"].get("police"):
            mods.append((state["bonuses"]["police"], "event"))
        if target == "Marat" and state["bonuses"].get("arrest_marat"):
            mods.append((state["bonuses"]["arrest_marat"], "event"))
        outlawed_left = state["persons"][target]["current"] in ("SC", "MT")
        if (
            outlawed_left
            and person_outlaw(state, target)
            and state["bonuses"].get("arrest_outlawed")
        ):
            mods.append((state["bonuses"]["arrest_outlawed"], "event"))
        if terror_bonus(state, where):
            mods.append((2, "terrorist Personality there, R.3.9.1"))
    elif segment == "arrest":
        if influential(target, state["persons"][target]["where"]):
            mods.append((-2, "influential there"))
    elif segment == "persuade":
        main = "R" if target == KING else PERSONS[target]["current"]
        if actor != main:
            mods.append((-2, "secondary Current"))
        if state["bonuses"].get(f"persuade:{actor}"):
            mods.append((state["bonuses"][f"persuade:{actor}"], "event"))
    paris = (
        segment == "commune"
        or target == "Paris"
        or (segment == "arrest" and actor == "gov" and state["persons"][target]["where"] == "Paris")
    )
    if (
        paris
        and (segment in REGIONAL or actor == "gov")
        and state["bonuses"].get(f"paris_actions:{actor}")
    ):
        mods.append((state["bonuses"][f"paris_actions:{actor}"], "event, Paris"))
    if actor == "gov" and segment in ("arrest", "suppress") and state["bonuses"].get("gov_all"):
        mods.append((state["bonuses"]["gov_all"], "event"))
    if segment in REGIONAL:
        region = "Paris" if segment == "commune" else target.split(":")[-1]
        count = sum(1 for p in persons if influential(p, region))
        if count:
            mods.append(
                (2 * count, f"{count} influential Personalit{'y' if count == 1 else 'ies'}")
            )
    if segment == "plot" and controller(state, target) is None:
        mods.append((2, "neutral region"))
    if segment == "revolt":
        if REGIONS[target]["hot"]:
            mods.append((2, "hot region"))
        if state["regions"][target]["coalition"]:
            mods.append((2, "Coalition region, 9.7.1"))
    if segment == "suppress":
        mods.append((-2, "suppressing a revolt"))
        if actor == "gov" and terror_bonus(state, target):
            mods.append((2, "terrorist Personality there, R.3.9.1"))
        if actor == "gov" and state["bonuses"].get("police"):
            mods.append((state["bonuses"]["police"], "event"))
    if segment == "commune":
        kind = target.split(":")[0]
        penalty = commune_penalty(state, actor)
        if penalty:
            mods.append((penalty, "Commune action, 7.4.4"))
        if kind == "suppress":
            mods.append((-2, "suppressing the Commune, 7.4.4.2"))
    return mods


def terror_factions(state: State) -> tuple[str, ...]:
    """Factions whose presence helps the Government (R.3.9.1, R.5.9.1, R.6.9.1, R.8.9)."""
    reg = state["regime"]
    if reg == "terror" or (reg == "prairial" and state["gov"]["controller"] == "MT"):
        return ("terroriste",)
    if reg in ("wrath", "mercy") or (reg == "prairial" and state["gov"]["controller"] == "SC"):
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
        if actor == "MT" and state["regime"] == "froi" and state.get("froi_variant") == "MT":
            return 0
        return COMMUNE_PENALTY[actor]
    if actor == "R" and state["regime"] in ("directorate", "prairial"):
        return 2 if state["bonuses"].get("raise_commune_royalist:R") else -4
    if actor == "M" and state["regime"] == "froi":
        return -3
    return 0  # the Feuillant by a Thermidor event (Pol 11), with no penalty


def commune_actors(state: State) -> set[str]:
    out = set(COMMUNE_PENALTY)
    if state["regime"] in ("directorate", "prairial"):
        out.add("R")
    if state["regime"] == "froi":
        out.add("M")
    if state["bonuses"].get("raise_commune_free:F") is not None:
        out.add("F")
    return out


# Who may be targeted -----------------------------------------------------------------


def available_persons(state: State, actor: str, region: str) -> list[str]:
    return [
        n
        for n, p in state["persons"].items()
        if p["current"] == actor
        and p["status"] == "free"
        and p["where"] == region
        and not p["acted"]
        and n != KING
    ]


def targets(state: State, segment: str, actor: str) -> list[tuple[str, str]]:
    """(target, label) pairs the actor may attempt now."""
    out: list[tuple[str, str]] = []
    persons = state["persons"]
    if segment == "arrest":
        for n, p in persons.items():
            if n == KING or p["status"] != "free" or p["where"] is None or p["current"] == actor:
                continue
            if actor == "gov":
                if arrestable(state, n):
                    out.append((n, f"Arrest {n} ({name(p['current'])}) in {p['where']}"))
            elif not officially_present(state, actor) and controller(state, p["where"]) == actor:
                out.append((n, f"Remove {n} ({name(p['current'])}) from {p['where']}"))
    elif segment == "persuade":
        for n, p in persons.items():
            if p["current"] == actor or p["status"] not in ("free", "prison"):
                continue
            if n == KING and (state["king"]["kidnapped"] or actor not in ("R", "F")):
                continue
            data = PERSONS[n]
            if n != KING and actor not in [data["current"], *data["secondary"]]:
                continue
            out.append((n, f"Win over {n} ({name(p['current'])})"))
    elif segment == "plot":
        for r in REGION_NAMES:
            reg = state["regions"][r]
            if reg["revolt"] or reg["coalition"] or controller(state, r) == actor:
                continue
            if available_persons(state, actor, r):
                out.append(
                    (
                        r,
                        f"Plot in {r} (held by {holder_name(state, r)})",
                    )
                )
    elif segment == "revolt":
        if officially_present(state, actor):
            return out
        for r in REGION_NAMES:
            reg = state["regions"][r]
            royal = actor == "R" and reg["coalition"]
            if reg["revolt"] or (r == "Paris" and not royal) or (armies_in(state, r) and not royal):
                continue
            if reg["coalition"] and actor != "R":
                continue
            if available_persons(state, actor, r):
                out.append((r, f"Start a revolt in {r}"))
    elif segment == "suppress":
        for r in REGION_NAMES:
            reg = state["regions"][r]
            if not reg["revolt"] or reg["coalition"]:
                continue
            if actor == "gov":
                if not any(a["side"] in ("allied", "catholic") for a in armies_in(state, r)):
                    out.append((r, f"Suppress the revolt in {r}"))
            elif available_persons(state, actor, r):
                out.append((r, f"Suppress the revolt in {r}"))
    elif segment == "commune":
        if actor not in commune_actors(state) or not available_persons(state, actor, "Paris"):
            return out
        if commune_may_rise(state):  # 7.4.4.1, 9.7.1
            out.append(("raise:Paris", "Raise the Commune"))
        if state["commune"]["raised"]:
            out.append(("suppress:Paris", "Suppress the Commune"))
    return out


def holder_name(state: State, region: str) -> str:
    holder = controller(state, region)
    return f"the {name(holder)}" if holder else "nobody"


def cost(state: State, segment: str, actor: str) -> int:
    key = {
        "arrest": "arrest",
        "persuade": "persuade",
        "plot": "plot",
        "revolt": "revolt",
        "suppress": "suppress",
        "commune": "commune",
    }[segment]
    return COSTS[key] * economy_factor(state)


# The act task: an actor's attempts in one segment -----------------------------------------


def act_prompt(state: State, t: ActionTurn) -> Prompt | None:
    actor, segment = t["actor"], t["segment"]
    seat = actor_seat(state, actor)
    if seat is None:
        return None
    price = cost(state, segment, actor)
    if money(state, actor) < price:
        return None
    options = targets(state, segment, actor)
    if not options:
        return None
    choices = [
        Choice(
            "done",
            "Done",
            detail=f"No more {segment} attempts this turn; the next Current acts.",
            key=PASS_KEY,
        )
    ]
    for target, label in options:
        mods = action_modifiers(
            state, actor, segment, target, all_persons(state, actor, segment, target)
        )
        total = fame(state, actor) + sum(m for m, _ in mods)
        why = ", ".join(f"{m:+d} {w}" for m, w in mods) or "no modifier"
        choices.append(
            Choice(
                f"try:{target}",
                label,
                detail=f"Fame {fame(state, actor)}, {why}: column {max(1, min(20, total))}; "
                f"one roll gives {odds_text(total)} ({SEGMENT_RULES[segment]}).",
                consequence=f"costs {price} per roll",
            )
        )
    return Prompt(
        seat,
        f"{name(actor)}: {SEGMENT_TITLES[segment]}",
        tuple(choices),
        rule=SEGMENT_RULES[segment],
    )


SEGMENT_TITLES = {
    "arrest": "arrest or remove a Personality?",
    "persuade": "win over a Personality?",
    "plot": "plot to take a region?",
    "revolt": "start a revolt?",
    "suppress": "suppress a revolt?",
    "commune": "raise or suppress the Commune?",
}


def all_persons(state: State, actor: str, segment: str, target: str) -> list[str]:
    if segment not in REGIONAL:
        return []
    region = "Paris" if segment == "commune" else target
    return available_persons(state, actor, region)


def act_handle(state: State, t: ActionTurn, action: str, ctx: Context) -> None:
    if action == "done":
        finish(state)
        return
    target = action.split(":", 1)[1]
    schedule(
        state,
        Attempt(
            kind="attempt",
            actor=t["actor"],
            segment=t["segment"],
            target=target,
            persons=None,
            roll_count=None,
        ),
    )


# The attempt: Personalities, number of rolls, the dice, the chosen result (7.1) ----------


def attempt_prompt(state: State, t: Attempt) -> Prompt | None:
    actor, segment = t["actor"], t["segment"]
    seat = actor_seat(state, actor)
    assert seat is not None
    if t["persons"] is None:
        here = all_persons(state, actor, segment, t["target"])
        if len(here) <= 1:
            return None
        choices = [
            Choice(
                "with:all",
                f"All together ({', '.join(here)})",
                detail="+2 for each one influential here; all of them have acted this turn.",
            )
        ]
        choices += [
            Choice(
                f"with:{p}",
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
    if t["roll_count"] is None:
        price = cost(state, segment, actor)
        most = min(3, money(state, actor) // price)
        if most <= 1:
            return None
        steps = tuple(
            Choice(
                f"rolls:{n}",
                f"Pay {n * price} for {n} roll{'s' if n > 1 else ''}",
                detail="After rolling, you keep the roll you choose (7.1); keeping the "
                f"best: {odds_text(attempt_column(state, t), n)}.",
                consequence=f"leaves {money(state, actor) - n * price}",
            )
            for n in range(1, most + 1)
        )
        return Prompt(seat, "How many times do you pay the cost?", steps, rule="7.1")
    return None


def attempt_column(state: State, t: Attempt) -> int:
    """The modified fame an attempt rolls on, with the Personalities taking part."""
    persons = t["persons"] if t["persons"] is not None else []
    mods = action_modifiers(state, t["actor"], t["segment"], t["target"], persons)
    return fame(state, t["actor"]) + sum(m for m, _ in mods)


def attempt_handle(state: State, t: Attempt, action: str, ctx: Context) -> None:
    verb, _, value = action.partition(":")
    if verb == "with":
        here = all_persons(state, t["actor"], t["segment"], t["target"])
        t["persons"] = here if value == "all" else [value]
    else:
        t["roll_count"] = int(value)
        finish(state)
        schedule(state, Attempt({**t, "kind": "attempt_roll"}))


def attempt_empty(state: State, t: Attempt, ctx: Context) -> None:
    if t["persons"] is None:
        t["persons"] = all_persons(state, t["actor"], t["segment"], t["target"])
        return
    t["roll_count"] = 1
    finish(state)
    schedule(state, Attempt({**t, "kind": "attempt_roll"}))


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
            reason=f"{segment} {target.split(':')[0] if segment == 'commune' else target}, 7.1",
            about=actor_seat(state, actor),
        )
        rolls.append(RollRecord(dice=list(dice), letter=result(sum(dice), column_fame)))
    if len(rolls) == 1:
        resolve(state, actor, segment, target, rolls[0], ctx)
        return
    schedule(
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


def pick_prompt(state: State, t: PickResult) -> Prompt | None:
    seat = actor_seat(state, t["actor"])
    assert seat is not None
    choices = []
    for i, r in enumerate(t["rolls"]):
        total = sum(r["dice"])
        note = double_note(state, r["dice"])
        effect = letter_effect(state, t["actor"], t["segment"], t["target"], r["letter"])
        choices.append(
            Choice(
                f"keep:{i}",
                f"Keep roll {i + 1}: {total} ({'+'.join(map(str, r['dice']))}) = {r['letter']}",
                detail=f"{r['letter']}: {effect}.",
                consequence=note or "",
            )
        )
    return Prompt(seat, "Which roll do you keep?", tuple(choices), rule="7.1")


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


def pick_handle(state: State, t: PickResult, action: str, ctx: Context) -> None:
    finish(state)
    chosen = t["rolls"][int(action.split(":")[1])]
    resolve(state, t["actor"], t["segment"], t["target"], chosen, ctx)


# Outcomes ----------------------------------------------------------------------------------


def resolve(
    state: State, actor: str, segment: str, target: str, kept: RollRecord, ctx: Context
) -> None:
    """The kept roll's letter decides the action's outcome (7.1); a kept double moves
    the actor's fame."""
    letter = kept["letter"]
    ctx.emit(
        "result",
        f"{segment} {target.split(':')[0] if segment == 'commune' else target}: {letter}, "
        f"{letter_effect(state, actor, segment, target, letter)} ({SEGMENT_RULES[segment]})",
    )
    delta = double_delta(state, kept["dice"])
    if delta:
        adjust_fame(state, actor, delta, ctx, " (double, 7.1)")
    OUTCOMES[segment](state, actor, target, letter, ctx)


def outcome_arrest(state: State, actor: str, target: str, letter: str, ctx: Context) -> None:
    """What the letter does to the Personality; ``resolve``'s result line has already
    said it in words (``letter_effect``), so nothing is logged twice."""
    p = state["persons"][target]
    if actor == "gov":
        if letter == "A" or (letter == "B" and regime(state)["b_prison"]):
            p["status"], p["where"] = "prison", None
            state["achieved"].append(f"arrest:{target}")
        elif letter == "B":
            p["status"], p["where"] = "fled", None
    elif letter in ("A", "B"):
        p["status"], p["where"] = "fled", None


def outcome_persuade(state: State, actor: str, target: str, letter: str, ctx: Context) -> None:
    p = state["persons"][target]
    if letter == "A":  # resolve's result line says he joins (letter_effect)
        was_outlaw = person_outlaw(state, target)
        p["current"] = actor
        state["achieved"].append(f"persuade:{target}:{actor}")
        # freed only when the switch revokes his outlaw status
        revoked = was_outlaw and not person_outlaw(state, target)
        if p["status"] == "prison" and revoked and target != KING:
            p["status"] = "fled"
            ctx.emit("person", f"{target} is freed and returns next turn (7.3.2)")
    elif letter == "B" and p["status"] == "free":
        p["status"], p["where"] = "fled", None


def outcome_plot(state: State, actor: str, target: str, letter: str, ctx: Context) -> None:
    if letter == "A":
        set_control(state, target, actor, ctx, " (plot)")
        state["achieved"].append(f"plot:{target}:{actor}")
    elif letter == "B":
        set_control(state, target, None, ctx, " (plot)")


def outcome_revolt(state: State, actor: str, target: str, letter: str, ctx: Context) -> None:
    if letter in ("A", "B"):
        state["regions"][target]["revolt"] = True
        ctx.emit("revolt", f"{target} revolts (7.4.2)")
        state["achieved"].append(f"revolt:{target}")
        set_control(state, target, actor if letter == "A" else None, ctx, " (revolt)")


def outcome_suppress(state: State, actor: str, target: str, letter: str, ctx: Context) -> None:
    if letter == "C":
        return
    state["regions"][target]["revolt"] = False
    ctx.emit("revolt", f"the revolt in {target} ends (7.4.3)")
    state["achieved"].append(f"suppress:{target}")
    if actor != "gov":
        set_control(state, target, actor if letter == "A" else None, ctx, " (suppression)")


def outcome_commune(state: State, actor: str, target: str, letter: str, ctx: Context) -> None:
    kind = target.split(":")[0]
    lvl = track_level(state, "commune")
    if kind == "raise":
        if letter == "A" or (letter == "B" and lvl >= 2):
            leader = None if letter == "B" and lvl == 2 else actor
            if actor == "M" and state["regime"] == "froi":
                leader = None  # R.10.9.2
            state["commune"] = {"raised": True, "controller": leader}
            ctx.emit(
                "commune",
                "the Commune rises"
                + (f" under the {name(leader)}" if leader else ", with no leader")
                + " (7.4.4.1)",
            )
            state["achieved"].append("raise_commune")
        return
    if letter == "A" or (letter == "B" and lvl <= 2):
        state["commune"] = {"raised": False, "controller": None}
        ctx.emit("commune", "the Commune is suppressed (7.4.4.2)")
        state["achieved"].append("suppress_commune")
        holder = actor if letter == "A" or lvl == 1 else None
        set_control(state, "Paris", holder, ctx, " (Commune suppressed)")


OUTCOMES = {
    "arrest": outcome_arrest,
    "persuade": outcome_persuade,
    "plot": outcome_plot,
    "revolt": outcome_revolt,
    "suppress": outcome_suppress,
    "commune": outcome_commune,
}


# 15.2.1.1 The automated Marais plots --------------------------------------------------------


def marais_plot(state: State, t: Step, ctx: Context) -> None:
    dice = roll(state, ctx, 2, 6, reason="automated Marais, 15.2.1.1", about=NOBODY)
    entry = TABLES["marais_automaton"]["rolls"][str(sum(dice))]

    def free_to_change(region: str) -> bool:
        reg = state["regions"][region]
        return not reg["revolt"] and not reg["coalition"]

    for region in entry["control"]:
        if free_to_change(region):
            set_control(state, region, "M", ctx, " (automated Marais)", about=NOBODY)
    for region in entry.get("gironde", []):
        if free_to_change(region):
            set_control(state, region, "G", ctx, " (automated Marais)", about=NOBODY)
    for region in entry["neutral"]:
        if free_to_change(region) and controller(state, region) not in (None, "M"):
            set_control(state, region, None, ctx, " (automated Marais)", about=NOBODY)
