"""13.0: a law passed or rejected, its enactment and cost, bankruptcy (10.2.2.1), the
King's veto (11.1) and the Thermidor choice."""

from __future__ import annotations

from tabletop.framework import NOBODY, Choice, Context, Prompt, State

from ..core import (
    TASKS,
    adjust_fame,
    adjust_track,
    declare_war,
    economy_factor,
    gov_controller,
    money,
    name,
    outlawed,
    pay,
    recap_note,
    seat_of,
)
from ..data import ADJACENT, KING, LAWS, PERSONS
from ..factions import MARAIS
from ..plans import Objective
from ..tasks import (
    InstallRegime,
    Step,
    Veto,
)
from ..verbs import THERMIDOR, VETO
from ..words import law_effect
from .install import install
from .king import king_holder

# Passing, rejecting, bankruptcy (13.0, 10.2.2.1) ---------------------------------------


def law_rejected(state: State, key: str, proposer: str, ctx: Context, fame_penalty: bool) -> None:
    ctx.emit("law", f"{LAWS[key]['name']} is rejected", about=NOBODY)
    if fame_penalty:
        adjust_fame(state, proposer, -1, ctx, " (law rejected)")
    if state["regime"] in ("terror", "wrath") and proposer == "gov":
        state["laws_rejected"] += 1
        if state["laws_rejected"] >= 2 and not outlawed(state, MARAIS):
            TASKS.schedule(state, Step(kind="thermidor_choice"))


def thermidor_needed(state: State, t: Step) -> bool:
    """A seat plays the Marais; the automated one decides alone (``thermidor_empty``)."""
    return seat_of(state, MARAIS) is not None


def thermidor_prompt(state: State, t: Step) -> Prompt:
    seat = seat_of(state, MARAIS)
    assert seat is not None  # thermidor_needed
    return Prompt(
        seat,
        "Two Government laws have failed: install Thermidor now?",
        (
            Choice(
                THERMIDOR("yes"),
                "Install Thermidor",
                detail="R.3.8.1: the Political Phase ends at once.",
            ),
            Choice(THERMIDOR("no"), "Not now", detail="You must wait for another rejected law."),
        ),
        rule="R.3.8.1",
    )


def thermidor_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    if THERMIDOR.arg(action) == "yes":
        end_political_phase(state)
        install(state, "thermidor", ctx)


def thermidor_empty(state: State, t: Step, ctx: Context) -> None:
    """The automated Marais always takes Thermidor (15.2.1.5 gives the Feuillant the Government)."""
    TASKS.finish(state)
    end_political_phase(state)
    TASKS.schedule(state, InstallRegime(kind="install_regime", regime="thermidor"))


def install_regime(state: State, t: InstallRegime, ctx: Context) -> None:
    install(state, t["regime"], ctx)


def end_political_phase(state: State) -> None:
    """After a regime change by failed laws the Political Phase ends (7.5.2.3.2)."""
    keep = ("law_vote", "law_tally", "fame_vote", "fame_roll", "propose", "thermidor_choice")
    while (top := TASKS.top(state)) is not None and top["kind"] in keep:
        TASKS.finish(state)


def bankruptcy(state: State, ctx: Context, why: str) -> None:
    """10.2.2.1: once per turn, controller fame -5 and Government fame -2; ``why`` says
    what the Government could not pay, for the log and the next recap."""
    if state["bankrupt_turn"] == state["turn"]:
        return
    state["bankrupt_turn"] = state["turn"]
    ctx.emit("bankrupt", f"the Government is bankrupt (10.2.2.1): {why}", about=NOBODY)
    recap_note(
        state,
        f"The Government went bankrupt (10.2.2.1): {why}; the {name(gov_controller(state))}'s "
        "fame -5, the Government's -2",
    )
    adjust_fame(state, gov_controller(state), -5, ctx, " (bankruptcy)")
    adjust_fame(state, "gov", -2, ctx, " (bankruptcy)")


def law_passed(state: State, key: str, proposer: str, ctx: Context) -> None:
    law = LAWS[key]
    if (
        state["regime"] == "legislative"
        and law["family"] in ("anti_privilege", "anti_clergy")
        and state["persons"][KING]["status"] == "free"
    ):
        TASKS.schedule(state, Veto(kind="veto", law=key, proposer=proposer))
        return
    enact(state, key, proposer, ctx)


def enact(state: State, key: str, proposer: str, ctx: Context) -> None:
    law = LAWS[key]
    price = law["cost"] * economy_factor(state)
    if money(state, "gov") < price:
        ctx.emit("law", f"{law['name']} passes but the Government cannot pay {price}", about=NOBODY)
        bankruptcy(state, ctx, f"it could not pay {price} for {law['name']}")
        return
    pay(state, "gov", price, ctx, f" ({law['name']})")
    ctx.emit("law", f"{law['name']} is law ({law['section']})", about=NOBODY)
    state["achieved"].append(Objective("law", key).value)
    if law["fame"]:
        adjust_fame(state, proposer, law["fame"], ctx, f" ({law['name']})")
    for track, delta in law["tracks"].items():
        adjust_track(state, track, delta, ctx, f" ({law['name']})")
    if key == "war":
        declare_war(state, ctx, "declared by law (13.5.1)")
    if key in ("war", "conscription", "patrie"):
        state["laws_once"].append(key)
    if key == "conscription":
        state["conscription"] = True
    if key == "levee":
        state["volunteers_due"] += 3
    if key == "patrie":
        state["patrie"] = True
        # 13.6: it lasts until the war that prompted it ends, foreign for an Allied army
        # by Paris, civil for a Catholic & Royal one (both, if both are there)
        near = {"Paris", *ADJACENT["Paris"]}
        sides = {a["side"] for a in state["armies"] if a["where"] in near}
        state["patrie_by"] = [
            war for side, war in (("allied", "foreign"), ("catholic", "civil")) if side in sides
        ]
    if law["family"] == "outlaw":
        state["factions_outlawed"].append(law["faction"])

        for pname, p in state["persons"].items():
            if (
                PERSONS[pname]["faction"] == law["faction"]
                and p["status"] == "free"
                and p["where"] == "Paris"
            ):
                p["status"], p["where"] = "prison", None
                ctx.emit("person", f"{pname}, outlawed in Paris, is arrested (13.8)", about=NOBODY)


def veto_needed(state: State, t: Veto) -> bool:
    """A seat holds the King (11.1)."""
    return seat_of(state, king_holder(state)) is not None


def veto_prompt(state: State, t: Veto) -> Prompt:
    holder = king_holder(state)
    seat = seat_of(state, holder)
    assert seat is not None  # veto_needed
    law = LAWS[t["law"]]
    cost = "Commune +3, Clergy -3" + (", your fame -2" if law["family"] == "anti_clergy" else "")
    return Prompt(
        seat,
        f"The King may veto {law['name']}",
        (
            Choice(VETO("no"), "Let it pass", detail=f"It becomes law: {law_effect(t['law'])}"),
            Choice(
                VETO("yes"),
                "Veto it",
                detail="The law does not take effect (11.1).",
                consequence=cost,
            ),
        ),
        rule="11.1",
    )


def veto_handle(state: State, t: Veto, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    if VETO.arg(action) == "no":
        enact(state, t["law"], t["proposer"], ctx)
        return
    law = LAWS[t["law"]]
    ctx.emit("king", f"the King vetoes {law['name']} (11.1)")
    adjust_track(state, "commune", 3, ctx, " (veto)")
    adjust_track(state, "clergy", -3, ctx, " (veto)")
    if law["family"] == "anti_clergy":
        adjust_fame(state, king_holder(state), -2, ctx, " (veto)")
