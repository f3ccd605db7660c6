"""12.0: the coups offered to each candidate in turn order (one of each kind a turn), the
Commune's leave and the other Currents' reactions."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import OrderedVote, ResponseWindow

from ..core import (
    TASKS,
    economy_factor,
    gov_controller,
    money,
    name,
    pay,
    seat_of,
)
from ..data import COSTS, REGIMES
from ..in_turn import answer_in_turn, in_turn, reached
from ..plans import NO_COUP, CoupPlan
from ..tasks import CoupAttempt, CoupOffer, MilitaryOffer
from ..verbs import COUP, PERMIT, REACT
from .candidates import (
    limited_candidates,
    military_candidates,
    open_scenario,
    plotters,
    popular_candidates,
)

# The offer: each candidate in turn order, one coup of each kind a turn ------------------


def coup_cost(state: State, kind: str) -> int:
    key = {"limited": "limited_coup", "popular": "popular_coup", "military": "military_coup"}[kind]
    return COSTS[key] * economy_factor(state)


def coup_offer_start(state: State, t: CoupOffer, ctx: Context) -> None:
    if not open_scenario(state):
        return
    kind = t["coup"]
    if kind == "limited" and state.get("coup_turn") == state["turn"]:
        return  # 12.2: not after a popular or military coup this turn
    if kind == "popular" and state.get("popular_turn") == state["turn"]:
        return
    if kind == "military":
        if (
            state.get("popular_turn") == state["turn"]
            or state.get("military_turn") == state["turn"]
        ):
            return  # 12.3: one a turn, and none after a popular coup
        found = [c for c, _ in military_candidates(state)]
        TASKS.schedule(
            state,
            MilitaryOffer(
                kind="military_offer", window=in_turn(state, kind, found, COUP(NO_COUP.word))
            ),
        )
        return
    if kind == "limited":
        currents = limited_candidates(state)
    else:
        currents = [c for c, _ in popular_candidates(state)]
    TASKS.schedule(
        state,
        CoupOffer(
            kind="coup_offer", coup=kind, window=in_turn(state, kind, currents, COUP(NO_COUP.word))
        ),
    )


def targets(state: State, t: CoupOffer) -> dict[str, list[str]]:
    """The Currents that may attempt ``t``'s coup now (12.1, 12.2) and to what end."""
    if t["coup"] == "limited":
        return {c: ["gov"] for c in limited_candidates(state)}
    return dict(popular_candidates(state))


def able(state: State, t: CoupOffer) -> Callable[[str], bool]:
    """Whether a Current may answer the offer when it is reached: still a candidate,
    with somebody to plot and the money to pay for it."""
    found = targets(state, t)
    return lambda c: (
        c in found and bool(plotters(state, c)) and money(state, c) >= coup_cost(state, t["coup"])
    )


def offers(state: State, t: CoupOffer) -> list[tuple[str, list[str]]]:
    """The Current asked now and its targets ([] once nobody is left)."""
    _, current = reached(ResponseWindow(t["window"]), able(state, t))
    return [] if current is None else [(current, targets(state, t)[current])]


def coup_offer_needed(state: State, t: CoupOffer) -> bool:
    """A Current able to attempt the coup is still to be asked (12.0)."""
    return bool(offers(state, t))


def coup_offer_prompt(state: State, t: CoupOffer) -> Prompt:
    current, targets = offers(state, t)[0]  # coup_offer_needed: somebody is left
    seat = seat_of(state, current)
    assert seat is not None
    price = coup_cost(state, t["coup"])
    who = plotters(state, current)
    choices = [Choice(COUP(NO_COUP.word), "No coup", detail="Attempt no coup now.", key=PASS_KEY)]
    for target in targets:
        goal = (
            "seize the Government"
            if target == "gov"
            else f"install the {REGIMES.get(target, {'name': 'Vendémiaire'})['name']}"
        )
        for n in range(1, len(who) + 1):
            choices.append(
                Choice(
                    COUP(CoupPlan(target, n).word),
                    f"{t['coup'].capitalize()} coup to {goal} with {n} of your Personalities",
                    detail=f"One roll on your fame +{2 * (n - 1)}; only an A succeeds. "
                    f"{', '.join(who[:n])} take part.",
                    consequence=f"costs {price}; on failure they are arrested and the "
                    f"{name(current)} is outlawed",
                )
            )
    rule = "12.2" if t["coup"] == "limited" else "12.1"
    return Prompt(
        seat, f"The {name(current)} may attempt a {t['coup']} coup", tuple(choices), rule=rule
    )


def coup_offer_handle(state: State, t: CoupOffer, action: str, ctx: Context) -> None:
    current = answer_in_turn(t["window"], able(state, t), action)
    plan = CoupPlan.read(COUP.value(action))
    if plan.aim is None:
        return
    TASKS.finish(state)
    target, count = plan.aim, plan.count
    who = plotters(state, current)[:count]
    pay(state, current, coup_cost(state, t["coup"]), ctx, f" ({t['coup']} coup)")
    state["coup_turn"] = state["turn"]
    if t["coup"] == "popular":
        state["popular_turn"] = state["turn"]
    attempt = CoupAttempt(
        kind="coup_reactions", coup=t["coup"], current=current, target=target, persons=who
    )
    leader = state["commune"]["controller"] if state["commune"]["raised"] else None
    if (
        t["coup"] == "popular"
        and leader not in (None, current)
        and seat_of(state, leader) is not None
    ):
        TASKS.schedule(state, CoupAttempt({**attempt, "kind": "coup_permission", "leader": leader}))
    else:
        TASKS.schedule(state, reactions_task(state, attempt))


def reactions_task(state: State, attempt: CoupAttempt) -> CoupAttempt:
    """12.1: the other Currents with a Personality in Paris, but not the Government's,
    may each lower the roll by 1, in turn order."""
    seats: list[int] = []
    for c in state["order"]:
        seat = seat_of(state, c)
        if c in (attempt["current"], gov_controller(state)) or seat is None or seat in seats:
            continue
        if seat == seat_of(state, attempt["current"]) or seat == seat_of(
            state, gov_controller(state)
        ):
            continue
        if plotters(state, c):
            seats.append(seat)
    vote = OrderedVote.new("reactions to the coup", seats)
    return CoupAttempt({**attempt, "kind": "coup_reactions", "vote": vote})


def coup_permission_prompt(state: State, t: CoupAttempt) -> Prompt:
    seat = seat_of(state, t["leader"])
    assert seat is not None
    return Prompt(
        seat,
        f"The {name(t['current'])} asks the Commune's leave for a popular coup",
        (
            Choice(
                PERMIT("yes"),
                "Give leave",
                detail="The coup goes ahead with the Commune's backing (12.1).",
            ),
            Choice(PERMIT("no"), "Refuse", detail="The coup does not take place (12.1)."),
        ),
        rule="12.1",
    )


def coup_permission_handle(state: State, t: CoupAttempt, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    if PERMIT.arg(action) == "no":
        ctx.emit("coup", "the Commune refuses: no coup (12.1)")
        return
    TASKS.schedule(state, reactions_task(state, t))


def reactions_prompt(state: State, t: CoupAttempt) -> Prompt:
    seat = OrderedVote(t["vote"]).next_seat
    assert seat is not None  # vote_open
    return Prompt(
        seat,
        f"The {name(t['current'])} attempts a {t['coup']} coup",
        (
            Choice(
                REACT("0"),
                "Let it be",
                detail="No change to its roll; only an A succeeds.",
                key=PASS_KEY,
            ),
            Choice(
                REACT("-1"),
                "Oppose it: -1 to its roll",
                detail="Its roll column drops by 1, making an A harder (12.1).",
            ),
        ),
        rule="12.1",
    )
