"""The state's vocabulary: who plays which Current, track levels, control, war, money,
fame, and the task stack that drives the turn.

The turn is a stack of typed tasks (plain JSON dicts with a ``kind``, typed by the
TypedDicts of ``tasks``) in ``state["tasks"]``, run by the framework's ``Stack`` whose
one table of decisions and steps is ``table.STACK``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from tabletop.framework import NOBODY, Context, State
from tabletop.framework.stack import Tasks

from .data import (
    ADJACENT,
    CURRENT_NAMES,
    CURRENTS,
    PERSONS,
    REGIMES,
    REGION_NAMES,
    REGIONS,
    RESULT_ROWS,
    seating,
)
from .factions import GIRONDE, MONTAGNE, ROYALIST, SANS_CULOTTE

Task = Mapping[str, Any]
"""Any task on the stack: one of the TypedDicts of ``tasks``, read generically."""

# The task stack ---------------------------------------------------------------------------
#: Where the turn's tasks live: ``state["tasks"]``, each named by its ``kind``. The rules
#: table (``table.STACK``) is built on it; the rule modules schedule and finish tasks
#: through it (the framework's one stack dialect, issue 38), so none needs the table.
TASKS = Tasks(key="tasks", field="kind")


def answering(ctx: Context) -> int:
    """The seat whose answer a decision is applying (a vote's voter, say)."""
    assert ctx.actor is not None, "a decision is answered by a seat"
    return ctx.actor


PHASES = {
    "setup": "set-up",
    "negotiations": "Negotiations (6.1)",
    "events": "Random events (6.2)",
    "order": "Turn order (6.3)",
    "objectives": "Declaration of objectives (6.4)",
    "placement": "Personality placement (6.5)",
    "actions": "Action Phase (7.3-7.4)",
    "political": "Political Phase (7.5)",
    "patriot": "Patriot's Phase (8)",
    "military": "Military Phase (9)",
    "interphase": "Interphase (10)",
    "over": "game over",
}


def enter_phase(state: State, phase: str, ctx: Context) -> None:
    """Start a phase of the turn (5.0): the state says so, and the log has a heading."""
    state["phase"] = phase
    ctx.heading(f"{PHASES[phase]}, turn {state['turn']}")


# Seats and Currents -------------------------------------------------------------------


_SEATS: dict[int, dict[str, int]] = {}


def seat_of(state: State, current: str) -> int | None:
    """The seat that plays ``current``; None for the automated Marais (15.2)."""
    players = state["players"]
    seats = _SEATS.get(players)
    if seats is None:
        seats = _SEATS[players] = {
            c: seat for seat, row in enumerate(seating(players)) for c in row
        }
    return seats.get(current)


def subject(state: State, who: str) -> tuple[str, int]:
    """How an event names a Current or the Government: the log line already starts with
    the seat's name, so a seat's only Current needs no repeating (``about`` that seat);
    the Government and the automated Marais are named and concern no seat."""
    seat = None if who == "gov" else seat_of(state, who)
    if seat is None:
        return f"the {name(who)} ".replace("the Government", "Government"), NOBODY
    if len(seating(state["players"])[seat]) == 1:
        return "", seat
    return f"the {name(who)} ", seat


def seat_names(players: int) -> tuple[str, ...]:
    return tuple(" & ".join(CURRENT_NAMES[c] for c in row) for row in seating(players))


def name(code: str) -> str:
    return CURRENT_NAMES[code]


def played(state: State) -> list[str]:
    """The Currents in the game, played by a seat or automated."""
    return list(CURRENTS)


def automated(state: State, current: str) -> bool:
    return seat_of(state, current) is None


def gov_controller(state: State) -> str:
    return str(state["gov"]["controller"])


def gov_seat(state: State) -> int | None:
    return seat_of(state, gov_controller(state))


def actor_seat(state: State, actor: str) -> int | None:
    return gov_seat(state) if actor == "gov" else seat_of(state, actor)


# Tracks, levels, fame -------------------------------------------------------------------


def level(value: int) -> int:
    """Track level I, II or III (3.2.2; boxes 1-8, 9-16, 17-20: ambiguity B10)."""
    return 1 if value <= 8 else 2 if value <= 16 else 3


def track_level(state: State, track: str) -> int:
    return level(state["tracks"][track])


def clamp(value: int, low: int = 1, high: int = 20) -> int:
    return max(low, min(high, value))


def adjust_track(state: State, track: str, delta: int, ctx: Context, why: str = "") -> None:
    """Move a track marker, held at 1 and 20 (3.2.2). During a foreign war the
    Coalition marker moves only in the random events (9.2; ambiguity B33)."""
    if track == "coalition" and state["war"] and state.get("phase") != "events":
        ctx.emit(
            "track", f"Coalition marker stays at {state['tracks'][track]} (war, 9.2)", about=NOBODY
        )
        return
    before = state["tracks"][track]
    state["tracks"][track] = clamp(before + delta)
    if state["tracks"][track] != before:
        ctx.emit(
            "track", f"{track.capitalize()} {before} -> {state['tracks'][track]}{why}", about=NOBODY
        )
    if track == "coalition" and state["tracks"]["coalition"] >= 17 and not state["war"]:
        declare_war(state, ctx, "the Coalition declares war (9.2.2)")
    if track == "coalition" and state["war"] and state["tracks"]["coalition"] <= 8:
        end_war(state, ctx, "the Coalition marker fell to level I (9.2)")
    if track == "clergy" and state["tracks"]["clergy"] >= 17:
        state["catholic_allowed"] = True


def declare_war(state: State, ctx: Context, why: str) -> None:
    state["war"] = True
    state["war_declared_turn"] = state["turn"]
    state["tracks"]["coalition"] = 20
    ctx.emit("war", f"Foreign war: {why}; Coalition marker to 20", about=NOBODY)


def end_war(state: State, ctx: Context, why: str) -> None:
    state["war"] = False
    ctx.emit("war", f"Foreign peace: {why}", about=NOBODY)
    for pname, p in state["persons"].items():
        if p["status"] == "captured":  # R.3.9.3: a prisoner of war comes home at peace
            p["status"] = "fled"
            ctx.emit("person", f"{pname} comes home with the peace", about=NOBODY)
    state["laws_once"] = [
        k for k in state["laws_once"] if k not in ("war", "conscription", "patrie")
    ]


def fame(state: State, who: str) -> int:
    return int(state["gov"]["fame"] if who == "gov" else state["currents"][who]["fame"])


def adjust_fame(state: State, who: str, delta: int, ctx: Context, why: str = "") -> None:
    """Move ``who``'s fame, held to 1-20 (3.2.2); the log line carries the move as data
    and the next recap keeps its reason (``recap``)."""
    holder = state["gov"] if who == "gov" else state["currents"][who]
    before = holder["fame"]
    holder["fame"] = clamp(before + delta)
    if holder["fame"] != before:
        prefix, about = subject(state, who)
        ctx.emit(
            "fame",
            f"{prefix}fame {before} -> {holder['fame']}{why}",
            about=about,
            fame={who: [before, holder["fame"]]},
        )
        ledger = state.get("recap")
        if ledger is not None:
            reason = why.strip().removeprefix("(").removesuffix(")") or "no reason given"
            ledger["why"].setdefault(who, []).append([holder["fame"] - before, reason])


def recap_note(state: State, line: str) -> None:
    """An event the next recap must tell in words, as a bankruptcy or a vote's outcome
    (``recap.changes``)."""
    ledger = state.get("recap")
    if ledger is not None:
        ledger["notes"].append(line)


def money(state: State, who: str) -> int:
    return int(state["gov"]["money"] if who == "gov" else state["currents"][who]["money"])


def pay(state: State, who: str, amount: int, ctx: Context, why: str = "") -> None:
    """Spend money into the spent-assignats box (3.2.3.4): it feeds inflation (10.1)."""
    holder = state["gov"] if who == "gov" else state["currents"][who]
    assert holder["money"] >= amount, "pay() beyond the treasury"
    holder["money"] -= amount
    state["spent"] += amount
    if amount:
        prefix, about = subject(state, who)
        ctx.emit("pay", f"{prefix}spends {amount}{why}", about=about, money={who: -amount})


def economy_factor(state: State) -> int:
    """Costs are multiplied by the Economy level (7.2)."""
    return track_level(state, "economy")


# Regions, control, war ------------------------------------------------------------------


def controller(state: State, region: str) -> str | None:
    return state["regions"][region]["control"]  # type: ignore[no-any-return]


def paris_controller(state: State) -> str | None:
    """Who controls Paris: the Commune's controller while it is raised (7.4.4.1)."""
    if state["commune"]["raised"]:
        return state["commune"]["controller"]  # type: ignore[no-any-return]
    return controller(state, "Paris")


def controlled_regions(state: State, current: str) -> list[str]:
    """Regions a Current controls; Paris through the Commune when raised (B11)."""
    out = [r for r in REGION_NAMES if r != "Paris" and controller(state, r) == current]
    if paris_controller(state) == current:
        out.append("Paris")
    return out


def set_control(
    state: State,
    region: str,
    current: str | None,
    ctx: Context,
    why: str = "",
    about: int | None = NOBODY,
) -> None:
    """Give ``region`` to ``current`` (None: neutral). The line names the new holder and
    why, so it is credited to no seat (``about``), whoever's action or event it was."""
    if region == "Bordeaux" and state["regime"] == "ffr" and current != GIRONDE:
        current = None  # R.9.9
    if (
        region == "Paris"
        and state["regime"] == "froi"
        and current not in (MONTAGNE, SANS_CULOTTE, None)
    ):
        current = None  # R.10.9.1
    before = controller(state, region)
    state["regions"][region]["control"] = current
    if before != current:
        who = f"taken by the {name(current)}" if current else "becomes neutral"
        ctx.emit(
            "control", f"{region} {who}{why}", about=about, control={region: [before, current]}
        )


def spread(start: str, onward: Callable[[str], bool]) -> list[str]:
    """The regions a move from ``start`` can reach: any neighbour, and on from a region
    only where ``onward`` allows (no enemy army there, friendly ground...), in map order."""
    seen = {start}
    frontier = [start]
    while frontier:
        here = frontier.pop()
        for nxt in ADJACENT[here]:
            if nxt not in seen:
                seen.add(nxt)
                if onward(nxt):
                    frontier.append(nxt)
    seen.discard(start)
    return [r for r in REGION_NAMES if r in seen]


def revolts(state: State) -> list[str]:
    return [r for r in REGION_NAMES if state["regions"][r]["revolt"]]


def civil_war(state: State) -> bool:
    """Four or more revolts (7.4.2.1) or an active Catholic & Royal army (9.2.3)."""
    active = any(a["side"] == "catholic" and not a.get("hiding") for a in state["armies"])
    return len(revolts(state)) >= 4 or active


def armies_in(state: State, region: str, side: str | None = None) -> list[dict[str, Any]]:
    return [
        a for a in state["armies"] if a["where"] == region and (side is None or a["side"] == side)
    ]


def enemy_present(state: State, region: str) -> bool:
    """An Allied or Catholic & Royal army stands in the region."""
    return any(a["side"] in ("allied", "catholic") for a in armies_in(state, region))


def capital(state: State) -> str:
    """Where the Government sits: Paris, or the provisional capital it chose when
    Paris fell to the Royalist or the Coalition (9.7.1)."""
    return str(state.get("capital", "Paris"))


def paris_fallen(state: State) -> bool:
    """Paris is under Royalist or Allied control (9.7.1): it bears the Coalition's
    marker, or the Royalist holds it with an army there or since it fell."""
    if state["regions"]["Paris"]["coalition"]:
        return True
    if controller(state, "Paris") != ROYALIST:
        return False
    return enemy_present(state, "Paris") or capital(state) != "Paris"


def commune_may_rise(state: State) -> bool:
    """The Commune can be raised: it is not up already, no Allied or Catholic & Royal
    army stands in Paris (7.4.4.1), and Paris has not fallen (9.7.1)."""
    raised = bool(state["commune"]["raised"])
    return not raised and not enemy_present(state, "Paris") and not paris_fallen(state)


def paris_threatened(state: State) -> bool:
    """An enemy army in or next to Paris (13.6; R.1.8.1)."""
    near = {"Paris", *ADJACENT["Paris"]}
    return any(a["side"] in ("allied", "catholic") and a["where"] in near for a in state["armies"])


def regime(state: State) -> dict[str, Any]:
    return REGIMES[state["regime"]]


def officially_present(state: State, current: str) -> bool:
    """Present in the Assembly and not outlawed (R.x.2.1; 12.1.1)."""
    return current in regime(state)["official"] and not outlawed(state, current)


def outlawed(state: State, current: str) -> bool:
    return current in state["outlawed"]


def regime_outlaws(state: State) -> list[str]:
    """The Currents the regime itself outlaws (R.x.4.1), as against a Current outlawed
    for its failed coup (12.1.1, 12.2.1): Thermidor's is the left Current that governed
    before it, the Directorate's the Montagne if it was outlawed before it (R.7.4.1).
    ``install`` records them; a state set up without it reads the regime's data."""
    stored = state.get("regime_outlaws")
    if stored is not None:
        return list(stored)
    previous = str(state.get("previous_gov"))
    return [
        previous if c == "$previous_gov" else str(c)
        for c in regime(state)["outlawed"]
        if c != "$previous_gov" or previous in (MONTAGNE, SANS_CULOTTE)
    ]


def person_outlaw(state: State, person: str) -> bool:
    p = state["persons"][person]
    faction = PERSONS[person]["faction"]
    return bool(
        outlawed(state, p["current"]) or p.get("outlaw") or faction in state["factions_outlawed"]
    )


def arrestable(state: State, person: str) -> bool:
    return person_outlaw(state, person) or person in regime(state)["arrestable"]


def free_persons(state: State, current: str) -> list[str]:
    return [
        n for n, p in state["persons"].items() if p["current"] == current and p["status"] == "free"
    ]


def on_map(state: State, person: str) -> bool:
    p = state["persons"][person]
    return bool(p["status"] == "free" and p["where"] is not None)


def influential(person: str, region: str) -> bool:
    return region in PERSONS[person]["influential"]


# The Action Result Table (7.1) ----------------------------------------------------------


def column(modified_fame: int) -> int:
    """Column index for a modified fame, held to the 1-2 and 19-20 columns (B7)."""
    return (clamp(modified_fame) - 1) // 2


def result(roll: int, modified_fame: int) -> str:
    return RESULT_ROWS[clamp(roll, 2, 12)][column(modified_fame)]


_TWO_DICE = {total: 6 - abs(total - 7) for total in range(2, 13)}  # ways out of 36


@cache
def _odds(modified_fame: int, rolls: int) -> tuple[float, float, float]:
    single = {"A": 0.0, "B": 0.0, "C": 0.0}
    for total, ways in _TWO_DICE.items():
        single[result(total, modified_fame)] += ways / 36
    no_a = (1 - single["A"]) ** rolls
    c_only = single["C"] ** rolls
    return 1 - no_a, no_a - c_only, c_only


def odds(modified_fame: int, rolls: int = 1) -> dict[str, float]:
    """The chance of each result on the Action Resolution Table (7.1) for a modified
    fame, keeping the best of ``rolls`` rolls (A before B before C)."""
    a, b, c = _odds(clamp(modified_fame), rolls)
    return {"A": a, "B": b, "C": c}


@cache
def odds_text(modified_fame: int, rolls: int = 1) -> str:
    chances = odds(modified_fame, rolls)
    return ", ".join(f"{letter} {round(100 * p)}%" for letter, p in chances.items())


def roll(
    state: State, ctx: Context, count: int, sides: int, reason: str = "", about: int | None = None
) -> list[int]:
    """Roll public dice and keep them in ``recent_rolls`` (shown in every view): a
    public result must be visible where the seat looks, not only in the log."""
    faces = list(ctx.roll(count, sides, reason=reason, about=about))
    state["recent_rolls"].append({"reason": reason, "dice": faces})
    return faces


def income_of(region: str) -> int:
    return int(REGIONS[region]["income"])
