"""9.1-9.4: the phase opens; reinforcements (returning armies, the Coalition's, the
Royalist's landing and Catholic & Royal armies, the Government's volunteers) and
maintenance."""

from __future__ import annotations

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State

from ..core import (
    TASKS,
    armies_in,
    civil_war,
    controller,
    enter_phase,
    gov_seat,
    money,
    pay,
    recap_note,
    roll,
    seat_of,
)
from ..data import ALLIED, CATHOLIC, COSTS, GENERALS, MAX_VOLUNTEERS, REGION_NAMES, VENDEE
from ..factions import ROYALIST
from ..political.enact import bankruptcy
from ..tasks import (
    CoupOffer,
    Landing,
    PlaceVolunteers,
    Step,
)
from ..verbs import DONE, LAND, PLACE, RAISE
from ..words import army_name

ENEMY = ("allied", "catholic")


def military_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "military", ctx)
    TASKS.schedule(
        state,
        Step(kind="army_return"),
        Step(kind="coalition_reinforce"),
        Step(kind="catholic_reinforce"),
        Step(kind="volunteers_start"),
        Step(kind="maintenance"),
        CoupOffer(kind="coup_offer_start", coup="popular"),  # 9.5, 12.0
        CoupOffer(kind="coup_offer_start", coup="military"),
        Step(kind="pinning_start"),
        Step(kind="allied_move"),
        Step(kind="king_follow"),
        Step(kind="catholic_move_start"),
        Step(kind="gov_move_start"),
        Step(kind="hiding_start"),
        Step(kind="combat"),
        Step(kind="military_control"),
        Step(kind="kidnap_check"),
        Step(kind="capital_check"),
    )


# 9.3 Reinforcements ------------------------------------------------------------------------


def army_return(state: State, t: Step, ctx: Context) -> None:
    """Optional rule 15.1: at the start of the Military Phase the Royalist rolls a die
    for the eliminated Catholic & Royal armies, and one each for the Austrians and for
    Brunswick; a 6 brings one back."""
    if state["options"].get("army_return") != "on":
        return
    rolls: list[tuple[str, list[str]]] = [
        ("Catholic & Royal", state["catholic_gone"]),
        ("Austrian", [a for a in ("cobourg", "wurmser") if a in state["allied_gone"]]),
        ("Brunswick", [a for a in ("brunswick",) if a in state["allied_gone"]]),
    ]
    for label, gone in rolls:
        if not gone:
            continue
        (face,) = roll(
            state, ctx, 1, 6, reason=f"{label} army return, 15.1", about=seat_of(state, ROYALIST)
        )
        if face == 6:
            back = gone[0]
            pool = state["catholic_gone"] if label == "Catholic & Royal" else state["allied_gone"]
            pool.remove(back)
            ctx.emit("army", f"{army_name(back)} may return (15.1)", about=NOBODY)


def coalition_reinforce(state: State, t: Step, ctx: Context) -> None:
    """9.3.1: three armies when war comes; four more once the Convention or the
    Terror has been installed; the Fleet and Quiberon only where the Royalist holds."""
    if not state["war"]:
        return
    on_map = {a["id"] for a in state["armies"]}
    later = state.get("republic_installed", False)
    for army_id, army in ALLIED.items():
        if army_id in on_map or army_id in state["allied_gone"]:
            continue
        if army["wave"] >= 2 and not later:
            continue
        if "requires_royalist" in army and not all(
            controller(state, r) == ROYALIST for r in army["requires_royalist"]
        ):
            continue
        where = army["enters"][-1]
        if len(army["enters"]) > 1 and seat_of(state, ROYALIST) is not None:
            TASKS.schedule(state, Landing(kind="landing", army=army_id))
            continue
        state["armies"].append(
            {
                "id": army_id,
                "side": "allied",
                "kind": "allied",
                "where": where,
                "step": 0,
                "fresh": True,
            }
        )
        ctx.emit(
            "army",
            f"{army['name']} enters France at {where} (9.3.1)",
            about=NOBODY,
            army={army_id: "new"},
        )
    state["allied_placed"] = True


def landing_prompt(state: State, t: Landing) -> Prompt:
    """9.3.1 h: the Royalist lands Quiberon at Brest or Nantes."""
    seat = seat_of(state, ROYALIST)
    assert seat is not None
    army = ALLIED[t["army"]]
    choices = tuple(Choice(LAND(r), f"Land at {r}") for r in army["enters"])
    return Prompt(seat, f"Where does {army['name']} land?", choices, rule="9.3.1")


def landing_handle(state: State, t: Landing, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    region = LAND.arg(action)
    army = ALLIED[t["army"]]
    step = -1 if region != army["enters"][-1] else 0
    state["armies"].append(
        {
            "id": t["army"],
            "side": "allied",
            "kind": "allied",
            "where": region,
            "step": step,
            "fresh": True,
        }
    )
    ctx.emit("army", f"{army['name']} lands at {region} (9.3.1)", army={t["army"]: "new"})


def catholic_needed(state: State, t: Step) -> bool:
    """A seated Royalist may raise a Catholic & Royal army (9.3.2): the clergy has been
    at III, an army is left to raise and a general stands in the Vendée."""
    if seat_of(state, ROYALIST) is None or not state["catholic_allowed"]:
        return False
    return bool(catholic_free(state)) and bool(catholic_regions(state))


def catholic_free(state: State) -> list[str]:
    """The Catholic & Royal armies neither on the map nor destroyed for good."""
    on_map = {a["id"] for a in state["armies"]}
    return [a for a in CATHOLIC if a not in on_map and a not in state["catholic_gone"]]


def catholic_regions(state: State) -> list[str]:
    """The Vendée's regions where a Royalist general stands, free (9.3.2)."""
    return [
        r
        for r in VENDEE
        if any(
            p["where"] == r and p["status"] == "free" and p["current"] == ROYALIST and n in GENERALS
            for n, p in state["persons"].items()
        )
    ]


def catholic_prompt(state: State, t: Step) -> Prompt:
    """9.3.2: with the clergy once at III, raise an army in the Vendée beside a general."""
    seat = seat_of(state, ROYALIST)
    assert seat is not None  # catholic_needed
    free = catholic_free(state)
    regions = catholic_regions(state)
    choices = [
        Choice(DONE(), "Raise no more", detail="No more armies raised this turn.", key=PASS_KEY)
    ]
    choices += [
        Choice(
            RAISE(r),
            f"Raise {CATHOLIC[free[0]]['name']} in {r}",
            detail=f"A Catholic & Royal army appears in {r} beside your general (9.3.2).",
            consequence=f"upkeep {COSTS['maintenance']} a turn",
        )
        for r in regions
    ]
    return Prompt(seat, "Raise a Catholic & Royal army?", tuple(choices), rule="9.3.2")


def catholic_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    if DONE.matches(action):
        TASKS.finish(state)
        return
    region = RAISE.arg(action)
    army_id = catholic_free(state)[0]
    state["armies"].append({"id": army_id, "side": "catholic", "kind": "catholic", "where": region})
    ctx.emit(
        "army", f"{CATHOLIC[army_id]['name']} is raised in {region} (9.3.2)", army={army_id: "new"}
    )


def volunteers_start(state: State, t: Step, ctx: Context) -> None:
    if state["conscription"] and not (state["war"] or civil_war(state)):
        state["conscription"] = False
        ctx.emit("law", "Conscription ends with the peace (13.5.2)", about=NOBODY)
    due = state["volunteers_due"] + (1 if state["conscription"] else 0)
    state["volunteers_due"] = 0
    raised = sum(1 for a in state["armies"] if a["kind"] == "volunteer")
    due = min(due, MAX_VOLUNTEERS - raised)
    if due > 0:
        TASKS.schedule(state, PlaceVolunteers(kind="place_volunteer", volunteers_left=due))


def volunteer_regions(state: State) -> list[str]:
    """9.3.3: not Royalist, no enemy army, no revolt."""
    return [
        r
        for r in REGION_NAMES
        if controller(state, r) != ROYALIST
        and not state["regions"][r]["revolt"]
        and not any(a["side"] in ENEMY for a in armies_in(state, r))
    ]


def volunteer_needed(state: State, t: PlaceVolunteers) -> bool:
    """A seated Government has volunteers to place and somewhere to place them (9.3.3)."""
    return (
        gov_seat(state) is not None and bool(volunteer_regions(state)) and t["volunteers_left"] > 0
    )


def volunteer_prompt(state: State, t: PlaceVolunteers) -> Prompt:
    seat = gov_seat(state)
    assert seat is not None  # volunteer_needed
    regions = volunteer_regions(state)
    return Prompt(
        seat,
        f"Place a volunteer army ({t['volunteers_left']} to place)",
        tuple(
            Choice(
                PLACE(r),
                r,
                detail=f"A volunteer army appears in {r}; "
                + "it defends the region and ends a revolt there (9.7).",
            )
            for r in regions
        ),
        rule="9.3.3",
    )


def volunteer_handle(state: State, t: PlaceVolunteers, action: str, ctx: Context) -> None:
    region = PLACE.arg(action)
    state["volunteer_serial"] = state.get("volunteer_serial", 0) + 1
    state["armies"].append(
        {
            "id": f"volunteer_{state['volunteer_serial']}",
            "side": "rev",
            "kind": "volunteer",
            "where": region,
        }
    )
    ctx.emit(
        "army",
        f"a volunteer army is raised at {region} (9.3.3)",
        army={f"volunteer_{state['volunteer_serial']}": "new"},
    )
    t["volunteers_left"] -= 1


# 9.4 Maintenance ------------------------------------------------------------------------------


def maintenance(state: State, t: Step, ctx: Context) -> None:
    """100 per army per turn (not multiplied by the Economy: ambiguity B16)."""
    each = COSTS["maintenance"]
    rev = [a for a in state["armies"] if a["side"] == "rev" and a["kind"] != "temporary"]
    rev.sort(key=lambda a: (a["kind"] != "volunteer", a["id"]))
    unpaid = []
    while rev and money(state, "gov") < each * len(rev):
        lost = rev.pop(0)
        state["armies"].remove(lost)
        unpaid.append(army_name(lost["id"]))
        ctx.emit(
            "army",
            f"{army_name(lost['id'])} is disbanded for want of pay (9.4)",
            about=NOBODY,
            army={lost["id"]: "gone"},
        )
        if lost["kind"] == "regular":
            bankruptcy(state, ctx, "it could not pay its regular armies' upkeep (9.4)")
    if unpaid:
        recap_note(state, f"Disbanded for want of pay (9.4): {', '.join(unpaid)}")
    pay(state, "gov", each * len(rev), ctx, " (army maintenance)")
    cath = [a for a in state["armies"] if a["side"] == "catholic"]
    while cath and money(state, ROYALIST) < each * len(cath):
        lost = cath.pop()
        state["armies"].remove(lost)
        state["catholic_gone"].append(lost["id"])
        ctx.emit(
            "army",
            f"{CATHOLIC[lost['id']]['name']} disbands (9.4)",
            about=NOBODY,
            army={lost["id"]: "gone"},
        )
    pay(state, ROYALIST, each * len(cath), ctx, " (Catholic army upkeep)")
