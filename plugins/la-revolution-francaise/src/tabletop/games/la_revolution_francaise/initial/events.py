"""6.2: the random events: which tables are rolled, their modifiers, and whether an
entry applies to the table as it stands."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, Context, State

from ..core import (
    TASKS,
    civil_war,
    enter_phase,
    fame,
    gov_controller,
    gov_seat,
    name,
    paris_fallen,
    regime,
    roll,
    track_level,
)
from ..data import EVENTS
from ..political.voters import deputy_voters
from ..tasks import (
    AssemblyDecision,
    EventTable,
    GovernmentDecision,
    Step,
)
from .effects import apply_effect, describe_entry

# 6.2 Random events ----------------------------------------------------------------------

TABLES = ("economic", "political", "counter", "commune")


def random_events(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "events", ctx)
    state["last_events"] = {}
    tables = EVENTS.get(state["regime"])
    if tables is None:
        ctx.emit(
            "events",
            f"no random event tables entered for the {regime(state)['name']} yet",
            about=NOBODY,
        )
        return
    TASKS.schedule(state, *(EventTable(kind="event_table", table=name_) for name_ in TABLES))


def event_modifier(state: State, spec: list[Any]) -> int:
    """One line of a table's modifier (public source; see events.json)."""
    kind = spec[0]
    if kind == "economy_level":
        return int(spec[1][track_level(state, "economy") - 1])
    if kind == "clergy_level":
        return int(spec[1][track_level(state, "clergy") - 1])
    if kind == "war":
        return int(spec[1] if state["war"] else spec[2])
    if kind == "gov_is":
        return int(spec[2]) if gov_controller(state) == spec[1] else 0
    if kind == "coalition_level_neg":
        return -track_level(state, "coalition")
    if kind == "gironde_ousted":
        return int(spec[1]) if state.get("gironde_ousted") else 0
    if kind == "fame_above":
        return int(spec[3]) if fame(state, spec[1]) > spec[2] else 0
    if kind == "king_dead":
        return int(spec[1] if state["king"]["dead"] else spec[2])
    if kind == "king_alive":
        return 0 if state["king"]["dead"] else int(spec[1])
    if kind == "person_alive":
        p = state["persons"].get(spec[1])
        return int(spec[2]) if p is not None and p["status"] != "dead" else 0
    if kind == "faction_outlawed":
        return int(spec[2]) if spec[1] in state["factions_outlawed"] else 0
    if kind == "civil_war":
        return int(spec[1] if civil_war(state) else spec[2])
    if kind == "commune_level":
        return int(spec[1][track_level(state, "commune") - 1])
    if kind == "clergy_or_coalition_three":
        three = track_level(state, "clergy") == 3 or track_level(state, "coalition") == 3
        return int(spec[1]) if three else 0
    if kind == "commune_level_three":
        return int(spec[1]) if track_level(state, "commune") == 3 else 0
    if kind in ("clergy_at_least", "economy_at_least", "coalition_at_least"):
        track = kind.split("_")[0]
        return int(spec[2]) if track_level(state, track) >= spec[1] else 0
    raise ValueError(f"unknown event modifier {kind}")


def event_table(state: State, t: EventTable, ctx: Context) -> None:
    table = EVENTS[state["regime"]][t["table"]]
    if t["table"] == "commune" and paris_fallen(state):
        ctx.emit("events", "Paris has fallen: no Commune event (9.7.1)", about=NOBODY)
        return
    modifier = sum(event_modifier(state, spec) for spec in table["modifier"])
    dice = roll(state, ctx, 2, 6, reason=f"{t['table']} event, 6.2", about=gov_seat(state))
    total = max(2, min(12, sum(dice) + modifier))
    resolve_event(state, t["table"], total, ctx, rolled=f"{sum(dice)}{modifier:+d} = ")


def resolve_event(
    state: State, table_name: str, total: int, ctx: Context, rolled: str = ""
) -> None:
    """The entry ``total`` of this regime's ``table_name`` table happens (6.2): ignored
    when impossible, a question to the Government or the Assembly, or its effects."""
    entry = EVENTS[state["regime"]][table_name]["rolls"][str(total)]
    state["last_events"][table_name] = total
    ctx.emit(
        "events", f"{table_name} event: {rolled}{total}: {describe_entry(entry)}", about=NOBODY
    )
    if not entry_applies(state, entry, ctx):
        return
    if "decide" in entry and entry["decide"]["by"] == "assembly":
        from tabletop.framework.decisions import OrderedVote

        seats = [s for s, _ in deputy_voters(state)]
        vote = OrderedVote.new(entry["decide"]["question"], seats)
        TASKS.schedule(
            state,
            AssemblyDecision(kind="assembly_decision", decision=entry["decide"], vote=vote),
        )
        return
    if "decide" in entry:
        TASKS.schedule(state, GovernmentDecision(kind="gov_decision", decision=entry["decide"]))
        return
    for fx in entry["fx"]:
        apply_effect(state, fx, ctx)


def entry_applies(state: State, entry: dict[str, Any], ctx: Context) -> bool:
    """Events that cannot happen are ignored, with no new roll (6.2)."""
    person = entry.get("person")
    if person is not None:
        p = state["persons"].get(person)
        if p is None or p["status"] not in ("free", "fled"):
            ctx.emit("events", f"ignored: {person} is not free", about=NOBODY)
            return False
    if entry.get("war") and not state["war"]:
        ctx.emit("events", "ignored: France is at peace", about=NOBODY)
        return False
    if entry.get("any_war") and not state["war"] and not civil_war(state):
        ctx.emit("events", "ignored: France is at peace at home and abroad", about=NOBODY)
        return False
    holds = entry.get("holds")
    if holds is not None:
        p = state["persons"].get(holds[1])
        if p is None or p["current"] != holds[0] or p["status"] in ("dead", "exiled"):
            ctx.emit(
                "events", f"ignored: the {name(holds[0])} does not hold {holds[1]}", about=NOBODY
            )
            return False
    needs = entry.get("requires")
    if needs == "king_dead" and not state["king"]["dead"]:
        ctx.emit("events", "ignored: the King lives", about=NOBODY)
        return False
    if needs is not None and needs != "king_dead" and needs not in state["once"]:
        ctx.emit("events", f"ignored: needs the {needs} event first", about=NOBODY)
        return False
    once = entry.get("once")
    if once is not None:
        if once in state["once"]:
            ctx.emit("events", "ignored: it has already happened", about=NOBODY)
            return False
        state["once"].append(once)
    return True
