"""The National Assembly (3.2.3.1): deputies by Current and wing, hidden deputies,
elections (R.x.6), and the deputies' votes used by laws, justice and criticism."""

from __future__ import annotations

from tabletop.framework import NOBODY, Context, State

from .core import controlled_regions, controller, name, regime, seat_of
from .data import REGION_NAMES
from .factions import ALL


def deputies(state: State, current: str) -> int:
    row = state["assembly"].get(current)
    return int(row["count"]) if row else 0


def wings(state: State) -> dict[str, dict[str, int]]:
    """Per wing: the visible Currents' counts and the hidden total (what all may see)."""
    out: dict[str, dict[str, int]] = {"right": {}, "center": {}, "left": {}}
    for current, row in state["assembly"].items():
        if row["count"] <= 0:
            continue
        wing = out[row["wing"]]
        if row["hidden"]:
            wing["hidden"] = wing.get("hidden", 0) + row["count"]
        else:
            wing[current] = wing.get(current, 0) + row["count"]
    return out


def deputies_elected(state: State) -> dict[str, int]:
    """How many deputies each Current the regime's formula elects (R.1.6, R.2.6 and the
    others) from the regions held now; no change to the state, so the bots can ask
    what the next election would give.

    A neutral region is one without any control marker (4.6's set-up calls Brest and
    Nîmes neutral and puts no marker there); a region the Coalition holds bears the
    Coalition's marker (9.7.1), so it is not neutral and elects nobody."""
    regions = state["regions"]
    neutral = sum(
        1 for r in REGION_NAMES if controller(state, r) is None and not regions[r]["coalition"]
    )
    held = {c: len(controlled_regions(state, c)) for c in ALL}
    counts = dict.fromkeys(ALL, 0)
    for rule in regime(state)["election"]:
        c = rule["current"]
        if rule["per"] == "region":
            n = held[c]
        elif rule["per"] == "region_or_neutral":
            n = held[c] + neutral
        else:
            n = (held[c] + 1) // 2
        for other, how in rule["plus"]:
            n += held[other] // 2 if how == "half_down" else (held[other] + 1) // 2
        counts[c] = n
    return counts


def election(state: State, ctx: Context) -> None:
    """Elect the Assembly by the regime's formula (R.1.6, R.2.6 and the others)."""
    counts = deputies_elected(state)
    new: dict[str, dict[str, object]] = {}
    for rule in regime(state)["election"]:
        c = rule["current"]
        new[c] = {
            "count": counts[c],
            "wing": rule["wing"],
            "hidden": rule["hidden"],
            "aside": False,
        }
    for c in ALL:
        if c not in new:
            new[c] = {"count": 0, "wing": "center", "hidden": False, "aside": False}
    state["assembly"] = new
    state["switched"] = []
    state["last_election"] = state["turn"]
    visible = ", ".join(
        f"{name(c)} {v['count']}" for c, v in new.items() if not v["hidden"] and v["count"]
    )
    ctx.emit(
        "election",
        f"elections (R.x.6): {visible}; hidden deputies sit among the others",
        about=NOBODY,
    )
    for c, v in new.items():
        seat = seat_of(state, c)
        if v["hidden"] and seat is not None:
            ctx.emit("election", f"your hidden deputies: {v['count']}", seats=[seat], about=seat)


def election_due(state: State) -> bool:
    schedule_ = regime(state)["elections"]
    if "turns" in schedule_:
        return state["turn"] in schedule_["turns"]
    return bool(state["turn"] - state["last_election"] >= schedule_["every"])
