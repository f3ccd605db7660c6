"""R.x.8.3: a referendum on a regime, voted by the deputies (at once or pending until the
next Political Phase), and the Mercy's end-of-turn referendum."""

from __future__ import annotations

from tabletop.framework import NOBODY, Choice, Context, Prompt, State
from tabletop.framework.decisions import OrderedVote

from ..core import (
    TASKS,
    civil_war,
    controlled_regions,
    gov_controller,
    gov_seat,
    seat_of,
    track_level,
)
from ..data import REGIMES, seating
from ..factions import MARAIS
from ..tasks import (
    Referendum,
    Step,
)
from ..verbs import HOLD, VOTE
from .install import install
from .voters import automated_marais, marais_auto_vote


def referendum_task(state: State, target: str, proposer: str, pending: bool) -> Referendum:
    seats: list[int] = []
    for c in state["order"]:
        s_ = seat_of(state, c)
        if s_ is not None and s_ not in seats:
            seats.append(s_)
    return Referendum(
        kind="referendum",
        target=target,
        proposer=proposer,
        installs_next_turn=pending,
        vote=OrderedVote.new(f"referendum on the {REGIMES[target]['name']}", seats),
    )


def ballots(state: State, current: str) -> int:
    """One ballot per controlled region, none where there is a revolt or an enemy army;
    Paris always votes (R.2.8.3.1)."""
    count = 0
    for r in controlled_regions(state, current):
        blocked = state["regions"][r]["revolt"] or any(
            a["side"] in ("allied", "catholic") for a in state["armies"] if a["where"] == r
        )
        if r == "Paris" or not blocked:
            count += 1
    return count


def referendum_prompt(state: State, t: Referendum) -> Prompt:
    seat = OrderedVote(t["vote"]).next_seat
    assert seat is not None  # vote_open
    mine = seating(state["players"])[seat]
    n = sum(ballots(state, c) for c in mine)
    title = f"Referendum on the {REGIMES[t['target']]['name']}: your {n} ballots"
    if gov_controller(state) in mine:
        return Prompt(
            seat,
            title + " (the Government's Current votes yes)",
            (Choice(VOTE("yes"), "Yes", detail="Your ballots count for adoption."),),
            rule="R.2.8.3.1",
        )
    return Prompt(
        seat,
        title,
        (
            Choice(VOTE("yes"), "Yes", detail=f"Your {n} ballots count for the new regime."),
            Choice(
                VOTE("no"),
                "No",
                detail=f"Your {n} ballots count against; 14 or more against reject it.",
            ),
            Choice(VOTE("abstain"), "Abstain", detail="Your ballots are not counted."),
        ),
        rule="R.2.8.3.1",
    )


def referendum_tally(state: State, t: Referendum, ctx: Context) -> None:
    votes = OrderedVote(t["vote"]).answers()
    no = sum(
        sum(ballots(state, c) for c in seating(state["players"])[s])
        for s, v in votes.items()
        if v == "no"
    )
    if automated_marais(state) and marais_auto_vote(state, ctx) == "against":
        no += ballots(state, MARAIS)
    adopted = no <= 13
    target = REGIMES[t["target"]]["name"]
    ctx.emit(
        "referendum",
        f"referendum on the {target}: {no} regions against: "
        + ("adopted" if adopted else "rejected"),
        about=NOBODY,
    )
    if not adopted:
        return
    if t["installs_next_turn"]:
        state["pending_regime"] = t["target"]
        ctx.emit(
            "regime", f"the {target} will be installed at the next Political Phase", about=NOBODY
        )
    else:
        install(state, t["target"], ctx, by=t["proposer"])


def pending_regime(state: State, t: Step, ctx: Context) -> None:
    """A referendum adopted at the end of last turn, or Prairial's own (R.4.8.1, R.8.8.1)."""
    waiting = state.pop("pending_regime", None)
    if waiting is not None:
        install(state, waiting, ctx)
        return
    if state["regime"] == "prairial" and state.get("regime_since", 0) < state["turn"]:
        holder = gov_controller(state)
        TASKS.schedule(state, referendum_task(state, "froi", holder, pending=False))


def end_of_turn_referendum(state: State, t: Step, ctx: Context) -> None:
    """Thermidor holds one automatically at the very end of the turn (R.4.8.1); Mercy's
    Government may call one under the conditions of R.6.8.2 (Open scenario only)."""
    if state["options"].get("scenario") != "open":
        return
    if state["regime"] == "thermidor":
        TASKS.schedule(
            state, referendum_task(state, "directorate", gov_controller(state), pending=True)
        )
    elif state["regime"] == "mercy":
        calm = not state["commune"]["raised"] and track_level(state, "commune") == 1
        peace = not state["war"] and not civil_war(state)
        if calm or peace or state.get("mt_failed_coup"):
            TASKS.schedule(state, Step(kind="mercy_referendum"))


def mercy_referendum_needed(state: State, t: Step) -> bool:
    """A seat governs (R.6.8.2)."""
    return gov_seat(state) is not None


def mercy_referendum_prompt(state: State, t: Step) -> Prompt:
    seat = gov_seat(state)
    assert seat is not None  # mercy_referendum_needed
    return Prompt(
        seat,
        "Hold a referendum on the Directorate?",
        (
            Choice(HOLD("no"), "No", detail="Mercy stays; you may ask again next turn."),
            Choice(
                HOLD("yes"),
                "Yes",
                detail="Installed at the next Political Phase if adopted (R.6.8.2).",
            ),
        ),
        rule="R.6.8.2",
    )


def mercy_referendum_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    if HOLD.arg(action) == "yes":
        TASKS.schedule(
            state, referendum_task(state, "directorate", gov_controller(state), pending=True)
        )
