"""12.3: a military coup: the armies rallied, the march on Paris and its interception,
the battle for the capital."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import ResponseWindow

from ..core import (
    TASKS,
    adjust_track,
    answering,
    fame,
    gov_controller,
    gov_seat,
    money,
    name,
    pay,
    result,
    roll,
    seat_of,
)
from ..data import ADJACENT, KING, REGIMES
from ..factions import MARAIS
from ..in_turn import answer_in_turn, reached
from ..military.gov_moves import reachable
from ..plans import NO_COUP, CoupPlan
from ..political.install import install
from ..tasks import CoupAttempt, MilitaryOffer
from ..verbs import COUP, INTERCEPT
from ..words import army_name
from .candidates import military_candidates
from .offer import coup_cost
from .outcome import coup_failure

# 12.3 Military coups ----------------------------------------------------------------------

NEVER_RALLY = ("Marat", "Chaumette", "Hébert", "Roux")


def rally_bases(state: State, current: str) -> dict[str, list[str]]:
    """Regions where the Current has rallying Personalities beside a loyal army that can
    reach Paris this turn (12.3.1), with those Personalities."""

    out: dict[str, list[str]] = {}
    for n, p in state["persons"].items():
        if p["current"] != current or p["status"] != "free" or p["where"] is None:
            continue
        if n in NEVER_RALLY or p.get("outlaw") or n == KING:
            continue
        where = p["where"]
        loyal = [
            a
            for a in state["armies"]
            if a["where"] == where and a["side"] == "rev" and a["kind"] != "temporary"
        ]
        if loyal and (where == "Paris" or "Paris" in reachable(state, where)):
            out.setdefault(where, []).append(n)
    return out


def military_able(state: State) -> Callable[[str], bool]:
    """Whether a Current may rally an army when it is reached (12.3): still a
    candidate, the money for it and a Personality beside a loyal army."""
    found = {c for c, _ in military_candidates(state)}
    price = coup_cost(state, "military")
    return lambda c: c in found and money(state, c) >= price and bool(rally_bases(state, c))


def military_offer_needed(state: State, t: MilitaryOffer) -> bool:
    """A Current able to attempt a military coup is still to be asked (12.3)."""
    return reached(ResponseWindow(t["window"]), military_able(state))[1] is not None


def military_offer_prompt(state: State, t: MilitaryOffer) -> Prompt:
    _, current = reached(ResponseWindow(t["window"]), military_able(state))
    assert current is not None  # military_offer_needed
    targets = dict(military_candidates(state))[current]
    seat = seat_of(state, current)
    assert seat is not None
    price = coup_cost(state, "military")
    bases = rally_bases(state, current)
    choices = [Choice(COUP(NO_COUP.word), "No coup", detail="Attempt no coup now.", key=PASS_KEY)]
    for region, who in bases.items():
        armies = sum(
            1
            for a in state["armies"]
            if a["where"] == region and a["side"] == "rev" and a["kind"] != "temporary"
        )
        for target in targets:
            for n in range(1, min(3, armies) + 1):
                choices.append(
                    Choice(
                        COUP(CoupPlan(target, n, region).word),
                        f"Rally {n} of the armies at {region}: "
                        f"install the {REGIMES[target]['name']}",
                        detail=f"{', '.join(who)} try to rally them: A or B, fame "
                        f"+{2 * (len(who) - 1)} -{2 * (n - 1)}; then they march on "
                        "Paris and must beat every defender and the Commune.",
                        consequence=f"costs {price}; the Personalities become outlaws",
                    )
                )
    return Prompt(
        seat, f"The {name(current)} may attempt a military coup", tuple(choices), rule="12.3"
    )


def military_offer_handle(state: State, t: MilitaryOffer, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    current = answer_in_turn(t["window"], military_able(state), action)
    plan = CoupPlan.read(COUP.value(action))
    if plan.aim is None:
        return
    assert plan.region is not None, "a military coup's plan names its army's region (12.3)"
    TASKS.finish(state)
    target, region, count = plan.aim, plan.region, plan.count
    who = rally_bases(state, current)[region]
    pay(state, current, coup_cost(state, "military"), ctx, " (military coup)")
    state["coup_turn"] = state["turn"]
    state["military_turn"] = state["turn"]
    bonus = 2 * (len(who) - 1) - 2 * (count - 1)
    bonus += int(state["bonuses"].get(f"rally:{current}", 0))
    if state["regime"] == "mercy" and current == MARAIS and gov_controller(state) == MARAIS:
        bonus += 2  # R.6.7.3.1
    dice = roll(state, ctx, 2, 6, reason="rallying an army, 12.3.1", about=seat)
    letter = result(sum(dice), fame(state, current) + bonus)
    ctx.emit(
        "coup",
        f"the {name(current)} tries to rally {count} of the armies at {region}: {letter}",
    )
    if letter == "C":
        ctx.emit("coup", "the army stays loyal (12.3.1)")
        return
    for person in who:
        state["persons"][person]["outlaw"] = True
    loyal = sorted(
        (
            a
            for a in state["armies"]
            if a["where"] == region and a["side"] == "rev" and a["kind"] != "temporary"
        ),
        key=lambda a: a["id"],
    )[:count]
    rebels = [a["id"] for a in loyal]
    for army in loyal:
        army["rebel"] = current
        army["where"] = "Paris"
    for person in who:
        state["persons"][person]["where"] = "Paris"
    ctx.emit("coup", f"rebel armies march on Paris with {', '.join(who)} (12.3.2)")
    attempt = {
        "coup": "military",
        "current": current,
        "target": target,
        "persons": who,
        "rebels": rebels,
    }
    interceptors = sorted(
        a["id"]
        for a in state["armies"]
        if a["side"] == "rev"
        and not a.get("rebel")
        and a["where"] in _paris_neighbours()
        and region != "Paris"
        and not any(
            e["where"] == a["where"] and e["side"] in ("allied", "catholic")
            for e in state["armies"]
        )
    )
    TASKS.schedule(state, {**attempt, "kind": "intercept", "army_ids": interceptors, "index": 0})


def _paris_neighbours() -> set[str]:

    return set(ADJACENT["Paris"])


def intercept_needed(state: State, t: CoupAttempt) -> bool:
    """A seated Government has an army left to send against the rebels (12.3.2)."""
    return gov_seat(state) is not None and t["index"] < len(t["army_ids"])


def intercept_prompt(state: State, t: CoupAttempt) -> Prompt:
    seat = gov_seat(state)
    assert seat is not None  # intercept_needed
    army_id = t["army_ids"][t["index"]]
    return Prompt(
        seat,
        f"Send {army_id.replace('_', ' ')} to intercept the rebels in Paris?",
        (
            Choice(
                INTERCEPT("no"),
                "Stay",
                detail="The army stays; the rebels face the others.",
                key=PASS_KEY,
            ),
            Choice(INTERCEPT("yes"), "Intercept", detail="It fights the rebels in Paris (12.3.2)."),
        ),
        rule="12.3.2",
    )


def intercept_handle(state: State, t: CoupAttempt, action: str, ctx: Context) -> None:
    army_id = t["army_ids"][t["index"]]
    t["index"] += 1
    if INTERCEPT.arg(action) == "yes":
        for a in state["armies"]:
            if a["id"] == army_id:
                a["where"] = "Paris"
        ctx.emit("army", f"{army_id.replace('_', ' ')} intercepts in Paris (12.3.2)")


def intercept_done(state: State, t: CoupAttempt, ctx: Context) -> None:
    if t["index"] < len(t["army_ids"]):
        t["index"] += 1
        if t["index"] < len(t["army_ids"]):
            return
    TASKS.finish(state)
    TASKS.schedule(state, {**t, "kind": "military_coup_battle"})


def military_coup_battle(state: State, t: CoupAttempt, ctx: Context) -> None:
    """12.3.3: the Commune rises (leaderless) as the rebels enter Paris; they must beat
    every loyal army there and the Commune, one combat each on column 13-14 with their
    excess over one army (see reconstructed.md), and need an A each time."""
    if not state["commune"]["raised"]:
        state["commune"] = {"raised": True, "controller": None}
        ctx.emit("commune", "the Commune rises as the rebels enter Paris (12.3.3)", about=NOBODY)
    won = True
    defenders = [
        a["id"]
        for a in state["armies"]
        if a["where"] == "Paris" and a["side"] == "rev" and not a.get("rebel")
    ]
    for foe in [*defenders, "commune"]:
        rebels = [a for a in state["armies"] if a.get("rebel")]
        if not rebels:
            won = False
            break
        dice = roll(
            state,
            ctx,
            2,
            6,
            reason=f"rebels against {foe}, 12.3.3",
            about=seat_of(state, t["current"]),
        )
        letter = result(sum(dice) + len(rebels) - 1, 13)
        foe_name = "the Commune" if foe == "commune" else army_name(foe)
        ctx.emit(
            "combat", f"rebels against {foe_name}: {letter}", about=seat_of(state, t["current"])
        )
        if letter == "A":
            if foe == "commune":
                state["commune"] = {"raised": False, "controller": None}
            else:
                state["armies"] = [a for a in state["armies"] if a["id"] != foe]
                ctx.emit(
                    "army", f"{foe_name} is destroyed (12.3.3)", about=NOBODY, army={foe: "gone"}
                )
            continue
        if letter == "C":
            lost = sorted(rebels, key=lambda a: a["id"])[0]
            state["armies"].remove(lost)
            ctx.emit(
                "army",
                f"the rebel {army_name(lost['id'])} is destroyed (12.3.3)",
                about=NOBODY,
                army={lost["id"]: "gone"},
            )
        won = False
        break
    for a in state["armies"]:
        a.pop("rebel", None)
    if won:
        adjust_track(state, "commune", -5, ctx, " (military coup, 12.3.3.2)")
        for person in t["persons"]:
            state["persons"][person]["outlaw"] = False

        install(state, t["target"], ctx, by=t["current"])
        return
    adjust_track(state, "commune", 5, ctx, " (failed military coup, 12.3.3.1)")
    coup_failure(state, {**t, "coup": "military"}, ctx)
