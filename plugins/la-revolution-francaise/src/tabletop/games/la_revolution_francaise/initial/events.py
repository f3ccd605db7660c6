"""6.2: the random events: which tables are rolled, their modifiers, and whether an
entry applies to the table as it stands."""

from __future__ import annotations

from collections.abc import Callable
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


Spec = list[Any]
"""One line of a table's modifier, as events.json writes it: its kind, then its numbers."""


def event_modifier(state: State, spec: Spec) -> int:
    """One line of a table's modifier (public source; see events.json)."""
    rule = EVENT_MODIFIERS.get(spec[0])
    if rule is None:
        raise ValueError(f"unknown event modifier {spec[0]}")
    return rule(state, spec)


def _by_level(track: str) -> Callable[[State, Spec], int]:
    """The modifier for the track's level I, II or III: ``[kind, [I, II, III]]``."""

    def modifier(state: State, spec: Spec) -> int:
        return int(spec[1][track_level(state, track) - 1])

    return modifier


def _at_least(track: str) -> Callable[[State, Spec], int]:
    """``[kind, level, modifier]``: the modifier once the track reaches the level."""

    def modifier(state: State, spec: Spec) -> int:
        return int(spec[2]) if track_level(state, track) >= spec[1] else 0

    return modifier


def _either(holds: Callable[[State], bool]) -> Callable[[State, Spec], int]:
    """``[kind, if so, if not]``."""

    def modifier(state: State, spec: Spec) -> int:
        return int(spec[1] if holds(state) else spec[2])

    return modifier


def _gov_is(state: State, spec: Spec) -> int:
    return int(spec[2]) if gov_controller(state) == spec[1] else 0


def _coalition_level_neg(state: State, spec: Spec) -> int:
    return -track_level(state, "coalition")


def _gironde_ousted(state: State, spec: Spec) -> int:
    return int(spec[1]) if state.get("gironde_ousted") else 0


def _fame_above(state: State, spec: Spec) -> int:
    return int(spec[3]) if fame(state, spec[1]) > spec[2] else 0


def _king_alive(state: State, spec: Spec) -> int:
    return 0 if state["king"]["dead"] else int(spec[1])


def _person_alive(state: State, spec: Spec) -> int:
    p = state["persons"].get(spec[1])
    return int(spec[2]) if p is not None and p["status"] != "dead" else 0


def _faction_outlawed(state: State, spec: Spec) -> int:
    return int(spec[2]) if spec[1] in state["factions_outlawed"] else 0


def _clergy_or_coalition_three(state: State, spec: Spec) -> int:
    three = track_level(state, "clergy") == 3 or track_level(state, "coalition") == 3
    return int(spec[1]) if three else 0


def _commune_level_three(state: State, spec: Spec) -> int:
    return int(spec[1]) if track_level(state, "commune") == 3 else 0


#: The kinds of modifier line the event tables use (events.json), each a small rule.
EVENT_MODIFIERS: dict[str, Callable[[State, Spec], int]] = {
    "economy_level": _by_level("economy"),
    "clergy_level": _by_level("clergy"),
    "commune_level": _by_level("commune"),
    "war": _either(lambda state: bool(state["war"])),
    "king_dead": _either(lambda state: bool(state["king"]["dead"])),
    "civil_war": _either(civil_war),
    "gov_is": _gov_is,
    "coalition_level_neg": _coalition_level_neg,
    "gironde_ousted": _gironde_ousted,
    "fame_above": _fame_above,
    "king_alive": _king_alive,
    "person_alive": _person_alive,
    "faction_outlawed": _faction_outlawed,
    "clergy_or_coalition_three": _clergy_or_coalition_three,
    "commune_level_three": _commune_level_three,
    "clergy_at_least": _at_least("clergy"),
    "economy_at_least": _at_least("economy"),
    "coalition_at_least": _at_least("coalition"),
}


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
