"""6.1: the seats in turn order offer money (or, 6.4, a joint objective) to another
Current, who accepts or refuses."""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State

from ..core import (
    TASKS,
    enter_phase,
    name,
    seat_of,
)
from ..data import seating
from ..factions import FEUILLANT, GIRONDE, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from ..tasks import (
    Negotiation,
    OfferAmount,
    OfferAnswer,
    Step,
)
from ..verbs import ACCEPT, AMOUNT, OFFER, PACT, PASS, REFUSE, VERBS

# 6.1 Negotiations: money offers, accepted or refused ----------------------------------

OFFER_AMOUNTS = (50, 100, 200, 500)


def banned(giver: str, taker: str) -> bool:
    """The Royalist never deals with the Montagne or the Sans-Culotte (6.1)."""
    return {giver, taker} in ({ROYALIST, MONTAGNE}, {ROYALIST, SANS_CULOTTE})


def negotiations_start(state: State, task_: Step, ctx: Context) -> None:
    enter_phase(state, "negotiations", ctx)
    seats = [s for s in range(state["players"])]
    TASKS.schedule(state, Negotiation(kind="negotiate", seats=seats, index=0))


def offer_targets(state: State, seat: int) -> list[tuple[str, str]]:
    mine = seating(state["players"])[seat]
    out = []
    for giver in mine:
        if state["currents"][giver]["money"] < OFFER_AMOUNTS[0]:
            continue
        for taker in (ROYALIST, FEUILLANT, MARAIS, GIRONDE, MONTAGNE, SANS_CULOTTE):
            taker_seat = seat_of(state, taker)
            if taker in mine or taker_seat is None or banned(giver, taker):
                continue
            out.append((giver, taker))
        if state["patrie"]:
            out.append((giver, "gov"))  # 13.6: the Government may now be given money
    return out


def negotiate_needed(state: State, t: Negotiation) -> bool:
    """A seat is still to negotiate (6.1)."""
    return t["index"] < len(t["seats"])


def negotiate_prompt(state: State, t: Negotiation) -> Prompt:
    seat = t["seats"][t["index"]]
    choices = [
        Choice(
            PASS(),
            "Pass",
            detail="Make no offer this turn; the next seat negotiates.",
            key=PASS_KEY,
        )
    ]
    for giver, taker in offer_targets(state, seat):
        choices.append(
            Choice(
                OFFER(giver, taker),
                f"Offer money from the {name(giver)} to the {name(taker)}"
                + (" (accepted at once, 13.6)" if taker == "gov" else ""),
                detail="The other Current accepts or refuses; a gift is never owed back (6.1).",
            )
        )
    for leader, partner in pact_targets(state, seat):
        choices.append(
            Choice(
                PACT(leader, partner),
                f"Propose a joint objective: the {name(leader)} with the {name(partner)}",
                detail="If accepted, the first of you in turn order declares one objective "
                "for both, which both could achieve alone; both gain or lose the same fame (6.4).",
            )
        )
    return Prompt(seat, "Negotiations: make an offer, or pass", tuple(choices), rule="6.1")


def in_pact(state: State, current: str) -> bool:
    return any(current in pact for pact in state.get("pacts", []))


def pact_targets(state: State, seat: int) -> list[tuple[str, str]]:
    """Joint objectives between Currents (never the Government) that may deal with
    each other (6.1, 6.4; B19: any such pair, the player aid's list being unknown)."""
    mine = seating(state["players"])[seat]
    out = []
    for leader in mine:
        if in_pact(state, leader):
            continue
        for partner in (ROYALIST, FEUILLANT, MARAIS, GIRONDE, MONTAGNE, SANS_CULOTTE):
            if partner in mine or seat_of(state, partner) is None or banned(leader, partner):
                continue
            if not in_pact(state, partner):
                out.append((leader, partner))
    return out


def negotiate_handle(state: State, t: Negotiation, action: str, ctx: Context) -> None:
    if PASS.matches(action):
        t["index"] += 1
        return
    verb, (giver, taker) = VERBS.parse(action)
    t["index"] += 1
    if verb is PACT:
        ctx.emit("offer", f"the {name(giver)} proposes a joint objective to the {name(taker)}")
        TASKS.schedule(
            state,
            OfferAnswer(kind="offer_answer", giver=giver, taker=taker, amount=0, pact=True),
        )
        return
    TASKS.schedule(state, OfferAmount(kind="offer_amount", giver=giver, taker=taker))


def negotiate_empty(state: State, t: Negotiation, ctx: Context) -> None:
    TASKS.finish(state)


def offer_amount_prompt(state: State, t: OfferAmount) -> Prompt:
    giver = t["giver"]
    seat = seat_of(state, giver)
    assert seat is not None
    choices = tuple(
        Choice(
            AMOUNT(a),
            f"{a} assignats",
            detail=f"The {name(t['taker'])} may accept (the money changes hands now) or "
            "refuse (nothing is paid) (6.1).",
            consequence=f"the {name(giver)} keeps {state['currents'][giver]['money'] - a} "
            "if accepted",
        )
        for a in OFFER_AMOUNTS
        if a <= state["currents"][giver]["money"]
    )
    return Prompt(
        seat, f"How much does the {name(giver)} offer the {name(t['taker'])}?", choices, rule="6.1"
    )


def offer_amount_handle(state: State, t: OfferAmount, action: str, ctx: Context) -> None:
    amount = AMOUNT.number(action)
    TASKS.finish(state)
    ctx.emit("offer", f"the {name(t['giver'])} offers {amount} to the {name(t['taker'])}")
    if t["taker"] == "gov":
        state["currents"][t["giver"]]["money"] -= amount
        state["gov"]["money"] += amount
        ctx.emit(
            "offer",
            f"the Government receives {amount} (Fatherland in Danger, 13.6)",
            money={t["giver"]: -amount, "gov": amount},
        )
        return
    TASKS.schedule(
        state, OfferAnswer(kind="offer_answer", giver=t["giver"], taker=t["taker"], amount=amount)
    )


def offer_answer_prompt(state: State, t: OfferAnswer) -> Prompt:
    seat = seat_of(state, t["taker"])
    assert seat is not None
    if t.get("pact"):
        accept = (
            f"One objective for you and the {name(t['giver'])}, declared by the first of you "
            "in turn order; you both gain or lose the same fame for it (6.4)."
        )
        refuse = "No pact: each of you declares an objective of your own (6.4)."
        return Prompt(
            seat,
            f"The {name(t['giver'])} proposes a joint objective to the {name(t['taker'])}",
            (Choice(ACCEPT(), "Accept", detail=accept), Choice(REFUSE(), "Refuse", detail=refuse)),
            rule="6.4",
        )
    accept = (
        f"The {name(t['giver'])} pays you {t['amount']} assignats now; a gift is never "
        "owed back (6.1)."
    )
    refuse = f"Nothing changes hands; the {name(t['giver'])} keeps its {t['amount']} (6.1)."
    return Prompt(
        seat,
        f"The {name(t['giver'])} offers the {name(t['taker'])} {t['amount']} assignats",
        (Choice(ACCEPT(), "Accept", detail=accept), Choice(REFUSE(), "Refuse", detail=refuse)),
        rule="6.1",
    )


def offer_answer_handle(state: State, t: OfferAnswer, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    if t.get("pact"):
        if ACCEPT.matches(action):
            state.setdefault("pacts", []).append([t["giver"], t["taker"]])
            ctx.emit(
                "offer",
                f"the {name(t['taker'])} and the {name(t['giver'])} will share an objective (6.4)",
            )
        else:
            ctx.emit("offer", f"the {name(t['taker'])} refuses the joint objective")
        return
    if ACCEPT.matches(action):
        state["currents"][t["giver"]]["money"] -= t["amount"]
        state["currents"][t["taker"]]["money"] += t["amount"]
        ctx.emit(
            "offer",
            f"the {name(t['taker'])} accepts {t['amount']} from the {name(t['giver'])}",
            money={t["giver"]: -t["amount"], t["taker"]: t["amount"]},
        )
    else:
        ctx.emit("offer", f"the {name(t['taker'])} refuses the offer")
