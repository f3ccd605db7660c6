"""9.7.1: Paris (or the provisional capital) falls, and the Government chooses where it
sits."""

from __future__ import annotations

from tabletop.framework import NOBODY, Choice, Context, Prompt, State

from ..core import (
    TASKS,
    armies_in,
    capital,
    controller,
    gov_seat,
    paris_fallen,
)
from ..data import ADJACENT, REGION_NAMES
from ..factions import ROYALIST
from ..tasks import (
    CapitalChoice,
    RegionQuestion,
    Step,
)
from ..verbs import CAPITAL
from .reinforcements import ENEMY

# 9.7.1 The provisional capital ---------------------------------------------------------


def capital_lost(state: State, region: str) -> bool:
    """The Royalist side has conquered ``region`` (9.7.1, 11.3)."""
    if region == "Paris":
        return paris_fallen(state)
    return bool(state["regions"][region]["coalition"]) or controller(state, region) == ROYALIST


def capital_check(state: State, t: Step, ctx: Context) -> None:
    """After military control (9.7.1): if Paris, or the provisional capital, has fallen
    to the Royalist or the Coalition, the Government chooses a new capital, and the
    King, unless kidnapped, is taken there (11.3); once Paris is free of both again, the
    capital and the King return to it."""
    seat_ = capital(state)
    if seat_ != "Paris" and not paris_fallen(state):
        move_capital(state, "Paris", ctx, "Paris is free again; the capital returns to it")
        return
    if capital_lost(state, seat_):
        TASKS.schedule(state, CapitalChoice(kind="capital", fallen=seat_))


def move_capital(state: State, region: str, ctx: Context, why: str) -> None:
    before = capital(state)
    state["capital"] = region
    king = state["king"]
    moved = not king["dead"] and not king["kidnapped"] and king.get("where", "Paris") == before
    if moved:
        king["where"] = region
        if state["persons"]["Louis XVI"]["status"] == "free":
            state["persons"]["Louis XVI"]["where"] = region
    ctx.emit(
        "capital",
        f"{why}" + (", and the King with it" if moved else "") + " (9.7.1, 11.3)",
        about=NOBODY,
    )


def capital_choices(state: State) -> list[str]:
    """Regions free of the Coalition, the Royalist and enemy armies, nearest to Paris
    first (the order the automated Marais uses when it governs)."""
    free = [
        r
        for r in REGION_NAMES
        if not capital_lost(state, r) and not any(a["side"] in ENEMY for a in armies_in(state, r))
    ]
    distance = {"Paris": 0}
    frontier = ["Paris"]
    while frontier:
        nxt = []
        for here in frontier:
            for there in ADJACENT[here]:
                if there not in distance:
                    distance[there] = distance[here] + 1
                    nxt.append(there)
        frontier = nxt
    return sorted(free, key=lambda r: distance.get(r, 99))


def capital_needed(state: State, t: CapitalChoice) -> bool:
    """A seated Government, and somewhere to move the capital (9.7.1)."""
    return gov_seat(state) is not None and bool(capital_choices(state))


def capital_prompt(state: State, t: CapitalChoice) -> Prompt:
    seat = gov_seat(state)
    assert seat is not None  # capital_needed
    places = capital_choices(state)
    return Prompt(
        seat,
        f"{t['fallen']} has fallen: choose the provisional capital "
        "(the King, unless kidnapped, is taken there)",
        tuple(
            Choice(
                CAPITAL(r),
                r,
                detail=f"The Government sits in {r} until Paris is free of the Royalist and "
                "the Coalition; the Commune cannot rise meanwhile (9.7.1).",
            )
            for r in places
        ),
        rule="9.7.1",
    )


def capital_handle(state: State, t: CapitalChoice, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    region = CAPITAL.arg(action)
    move_capital(state, region, ctx, f"the Government makes {region} its capital")


def capital_empty(state: State, t: CapitalChoice, ctx: Context) -> None:
    """Nobody to ask: the automated Marais governs (15.2.1), and takes the free region
    nearest to Paris; with no free region at all the capital stays where it is."""
    TASKS.finish(state)
    places = capital_choices(state)
    if places:
        TASKS.schedule(state, RegionQuestion(kind="capital_auto", region=places[0]))


def capital_auto(state: State, t: RegionQuestion, ctx: Context) -> None:
    move_capital(state, t["region"], ctx, f"the Government makes {t['region']} its capital")
