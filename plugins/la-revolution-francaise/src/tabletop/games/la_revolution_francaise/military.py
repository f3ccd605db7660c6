"""Chapter 9, the Military Phase: reinforcements (9.3), maintenance (9.4), movement
(9.5), combat (9.6) and military control (9.7), with the Commune (9.9)."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State

from .actions import base_modifiers
from .core import (
    adjust_fame,
    answering,
    armies_in,
    capital,
    civil_war,
    controller,
    economy_factor,
    end_war,
    enter_phase,
    finish,
    gov_seat,
    money,
    paris_fallen,
    pay,
    result,
    roll,
    schedule,
    seat_of,
    set_control,
    track_level,
)
from .data import ADJACENT, ALLIED, CATHOLIC, COSTS, GENERALS, MAX_VOLUNTEERS, REGION_NAMES, VENDEE
from .political.enact import bankruptcy
from .tasks import (
    ArmyMoves,
    CapitalChoice,
    CoupOffer,
    Kidnap,
    Landing,
    LossChoice,
    PlaceVolunteers,
    RegionQuestion,
    Step,
)
from .words import army_name

ENEMY = ("allied", "catholic")


def military_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "military", ctx)
    schedule(
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
            state, ctx, 1, 6, reason=f"{label} army return, 15.1", about=seat_of(state, "R")
        )
        if face == 6:
            back = gone[0]
            pool = state["catholic_gone"] if label == "Catholic & Royal" else state["allied_gone"]
            pool.remove(back)
            ctx.emit("army", f"{back} may return (15.1)", about=NOBODY)


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
            controller(state, r) == "R" for r in army["requires_royalist"]
        ):
            continue
        where = army["enters"][-1]
        if len(army["enters"]) > 1 and seat_of(state, "R") is not None:
            schedule(state, Landing(kind="landing", army=army_id))
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
        ctx.emit("army", f"{army['name']} enters France at {where} (9.3.1)", about=NOBODY)
    state["allied_placed"] = True


def landing_prompt(state: State, t: Landing) -> Prompt | None:
    """9.3.1 h: the Royalist lands Quiberon at Brest or Nantes."""
    seat = seat_of(state, "R")
    assert seat is not None
    army = ALLIED[t["army"]]
    choices = tuple(Choice(f"land:{r}", f"Land at {r}") for r in army["enters"])
    return Prompt(seat, f"Where does {army['name']} land?", choices, rule="9.3.1")


def landing_handle(state: State, t: Landing, action: str, ctx: Context) -> None:
    finish(state)
    region = action.split(":", 1)[1]
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
    ctx.emit("army", f"{army['name']} lands at {region} (9.3.1)")


def catholic_prompt(state: State, t: Step) -> Prompt | None:
    """9.3.2: with the clergy once at III, raise an army in the Vendée beside a general."""
    seat = seat_of(state, "R")
    if seat is None or not state["catholic_allowed"]:
        return None
    on_map = {a["id"] for a in state["armies"]}
    free = [a for a in CATHOLIC if a not in on_map and a not in state["catholic_gone"]]
    if not free:
        return None
    regions = [
        r
        for r in VENDEE
        if any(
            p["where"] == r and p["status"] == "free" and p["current"] == "R" and n in GENERALS
            for n, p in state["persons"].items()
        )
    ]
    if not regions:
        return None
    choices = [
        Choice("done", "Raise no more", detail="No more armies raised this turn.", key=PASS_KEY)
    ]
    choices += [
        Choice(
            f"raise:{r}",
            f"Raise {CATHOLIC[free[0]]['name']} in {r}",
            detail=f"A Catholic & Royal army appears in {r} beside your general (9.3.2).",
            consequence=f"upkeep {COSTS['maintenance']} a turn",
        )
        for r in regions
    ]
    return Prompt(seat, "Raise a Catholic & Royal army?", tuple(choices), rule="9.3.2")


def catholic_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    if action == "done":
        finish(state)
        return
    region = action.split(":", 1)[1]
    on_map = {a["id"] for a in state["armies"]}
    army_id = next(a for a in CATHOLIC if a not in on_map and a not in state["catholic_gone"])
    state["armies"].append({"id": army_id, "side": "catholic", "kind": "catholic", "where": region})
    ctx.emit("army", f"{CATHOLIC[army_id]['name']} is raised in {region} (9.3.2)")


def volunteers_start(state: State, t: Step, ctx: Context) -> None:
    if state["conscription"] and not (state["war"] or civil_war(state)):
        state["conscription"] = False
        ctx.emit("law", "Conscription ends with the peace (13.5.2)", about=NOBODY)
    due = state["volunteers_due"] + (1 if state["conscription"] else 0)
    state["volunteers_due"] = 0
    raised = sum(1 for a in state["armies"] if a["kind"] == "volunteer")
    due = min(due, MAX_VOLUNTEERS - raised)
    if due > 0:
        schedule(state, PlaceVolunteers(kind="place_volunteer", volunteers_left=due))


def volunteer_regions(state: State) -> list[str]:
    """9.3.3: not Royalist, no enemy army, no revolt."""
    return [
        r
        for r in REGION_NAMES
        if controller(state, r) != "R"
        and not state["regions"][r]["revolt"]
        and not any(a["side"] in ENEMY for a in armies_in(state, r))
    ]


def volunteer_prompt(state: State, t: PlaceVolunteers) -> Prompt | None:
    seat = gov_seat(state)
    regions = volunteer_regions(state)
    if seat is None or not regions or t["volunteers_left"] <= 0:
        return None
    return Prompt(
        seat,
        f"Place a volunteer army ({t['volunteers_left']} to place)",
        tuple(
            Choice(
                f"place:{r}",
                r,
                detail=f"A volunteer army appears in {r}; "
                + "it defends the region and ends a revolt there (9.7).",
            )
            for r in regions
        ),
        rule="9.3.3",
    )


def volunteer_handle(state: State, t: PlaceVolunteers, action: str, ctx: Context) -> None:
    region = action.split(":", 1)[1]
    state["volunteer_serial"] = state.get("volunteer_serial", 0) + 1
    state["armies"].append(
        {
            "id": f"volunteer_{state['volunteer_serial']}",
            "side": "rev",
            "kind": "volunteer",
            "where": region,
        }
    )
    ctx.emit("army", f"a volunteer army is raised at {region} (9.3.3)")
    t["volunteers_left"] -= 1


# 9.4 Maintenance ------------------------------------------------------------------------------


def maintenance(state: State, t: Step, ctx: Context) -> None:
    """100 per army per turn (not multiplied by the Economy: ambiguity B16)."""
    each = COSTS["maintenance"]
    rev = [a for a in state["armies"] if a["side"] == "rev" and a["kind"] != "temporary"]
    rev.sort(key=lambda a: (a["kind"] != "volunteer", a["id"]))
    while rev and money(state, "gov") < each * len(rev):
        lost = rev.pop(0)
        state["armies"].remove(lost)
        ctx.emit(
            "army", f"{army_name(lost['id'])} is disbanded for want of pay (9.4)", about=NOBODY
        )
        if lost["kind"] == "regular":
            bankruptcy(state, ctx)
    pay(state, "gov", each * len(rev), ctx, " (army maintenance)")
    cath = [a for a in state["armies"] if a["side"] == "catholic"]
    while cath and money(state, "R") < each * len(cath):
        lost = cath.pop()
        state["armies"].remove(lost)
        state["catholic_gone"].append(lost["id"])
        ctx.emit("army", f"{CATHOLIC[lost['id']]['name']} disbands (9.4)", about=NOBODY)
    pay(state, "R", each * len(cath), ctx, " (Catholic army upkeep)")


# 9.5 Movement -------------------------------------------------------------------------------


def pinning_start(state: State, t: Step, ctx: Context) -> None:
    """9.5.1: where his armies share a region with revolutionary armies, the Royalist
    says at the start of movement whether he holds them there for combat."""
    state["pinned"] = []
    regions = [
        r
        for r in REGION_NAMES
        if armies_in(state, r, "rev") and any(a["side"] in ENEMY for a in armies_in(state, r))
    ]
    if regions and seat_of(state, "R") is not None:
        schedule(state, *(RegionQuestion(kind="pin", region=r) for r in regions))


def pin_prompt(state: State, t: RegionQuestion) -> Prompt | None:
    seat = seat_of(state, "R")
    assert seat is not None
    return Prompt(
        seat,
        f"Pin the revolutionary armies at {t['region']}?",
        (
            Choice("pin:yes", "Pin them", detail="They cannot leave; combat follows (9.5.1)."),
            Choice(
                "pin:no",
                "Let them move",
                detail="The Government may move them away this turn (9.5.1).",
                key=PASS_KEY,
            ),
        ),
        rule="9.5.1",
    )


def pin_handle(state: State, t: RegionQuestion, action: str, ctx: Context) -> None:
    finish(state)
    if action.endswith("yes"):
        state["pinned"].append(t["region"])
        ctx.emit("army", f"the Royalist pins the revolutionary armies at {t['region']} (9.5.1)")


def king_follow_prompt(state: State, t: Step) -> Prompt | None:
    """11.3: the kidnapped King may leave with an Allied army that marches off."""
    seat = seat_of(state, "R")
    places = state.get("king_escorts", [])
    if seat is None or not places:
        return None
    choices = [
        Choice(
            "follow:stay",
            f"Louis XVI stays at {state['king']['where']}",
            detail="The King stays where he is.",
            key=PASS_KEY,
        )
    ]
    choices += [
        Choice(
            f"follow:{r}",
            f"Louis XVI goes with the Allied army to {r}",
            detail="The kidnapped King moves with his escort (11.3).",
        )
        for r in places
    ]
    return Prompt(seat, "Does the King leave with the Allies?", tuple(choices), rule="11.3")


def king_follow_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    finish(state)
    state["king_escorts"] = []
    region = action.split(":", 1)[1]
    if region != "stay":
        state["king"]["where"] = region
        state["persons"]["Louis XVI"]["where"] = region
        ctx.emit("king", f"Louis XVI goes with the Allies to {region} (11.3)")


def king_follow_empty(state: State, t: Step, ctx: Context) -> None:
    state["king_escorts"] = []
    finish(state)


def allied_move(state: State, t: Step, ctx: Context) -> None:
    """9.5.2: along the printed path, out of a region only once it is theirs, on
    through Royalist or Coalition ground free of revolutionary armies and revolts."""
    if track_level(state, "coalition") < 2:  # 9.2: they stop at level I, resume above it
        for a in state["armies"]:
            a.pop("fresh", None)
        return
    for army in [a for a in state["armies"] if a["side"] == "allied"]:
        if army.pop("fresh", False):
            continue
        path = [ALLIED[army["id"]]["enters"][-1], *ALLIED[army["id"]]["route"]]
        if army["id"] == "quiberon" and not state["regions"]["Paris"]["coalition"]:
            continue
        here = army["where"]
        if not state["regions"][here]["coalition"] or armies_in(state, here, "rev"):
            continue
        step = army.get("step", 0)
        while step + 1 < len(path):
            nxt = path[step + 1]
            step += 1
            army["where"] = nxt
            reg = state["regions"][nxt]
            friendly = (
                (reg["coalition"] or controller(state, nxt) == "R")
                and not armies_in(state, nxt, "rev")
                and not (reg["revolt"] and controller(state, nxt) != "R")
            )
            if not friendly:
                break
        army["step"] = step
        king = state["king"]
        if (
            army["where"] != here
            and king["kidnapped"]
            and not king["dead"]
            and king.get("where") == here
        ):
            state.setdefault("king_escorts", []).append(army["where"])
        if army["where"] != here:
            ctx.emit(
                "army",
                f"{ALLIED[army['id']]['name']} marches to {army['where']} (9.5.2)",
                about=NOBODY,
            )


# 9.5.3 Catholic and Royal armies ------------------------------------------------------------


def generals_with(state: State, region: str) -> list[str]:
    return [
        n
        for n, p in state["persons"].items()
        if n in GENERALS and p["status"] == "free" and p["where"] == region and p["current"] == "R"
    ]


def catholic_move_start(state: State, t: Step, ctx: Context) -> None:
    for a in state["armies"]:
        a.pop("hiding", None)
    ids = sorted(a["id"] for a in state["armies"] if a["side"] == "catholic")
    if ids and seat_of(state, "R") is not None:
        schedule(state, ArmyMoves(kind="catholic_move", army_ids=ids, index=0))


def catholic_destinations(state: State, army: dict[str, Any]) -> list[str]:
    """Within the Vendée alone; with a general, as the Allied armies move: one region,
    or on through Royalist or Coalition ground free of revolutionary armies and of
    non-Royalist revolts (9.5.3, 9.5.2)."""
    here = army["where"]
    if here in state.get("pinned", []) and armies_in(state, here, "rev"):
        return []
    if not generals_with(state, here):
        return [r for r in REGION_NAMES if r in ADJACENT[here] and r in VENDEE]
    seen = {here}
    frontier = [here]
    while frontier:
        at = frontier.pop()
        for nxt in sorted(ADJACENT[at]):
            if nxt in seen:
                continue
            seen.add(nxt)
            reg = state["regions"][nxt]
            friendly = (reg["coalition"] or controller(state, nxt) == "R") and not armies_in(
                state, nxt, "rev"
            )
            if friendly and not (reg["revolt"] and controller(state, nxt) != "R"):
                frontier.append(nxt)
    seen.discard(here)
    return [r for r in REGION_NAMES if r in seen]


def catholic_move_prompt(state: State, t: ArmyMoves) -> Prompt | None:
    seat = seat_of(state, "R")
    if seat is None or t["index"] >= len(t["army_ids"]):
        return None
    army = army_by_id(state, t["army_ids"][t["index"]])
    if army is None:
        return None
    places = catholic_destinations(state, army)
    if not places:
        return None
    generals = generals_with(state, army["where"])
    escort = f" with {', '.join(generals)}" if generals else ""
    choices = [
        Choice(
            "stay",
            f"Stay at {army['where']}",
            detail="The army does not move this turn.",
            key=PASS_KEY,
        )
    ]
    choices += [
        Choice(
            f"move:{r}",
            f"Move to {r}{escort}",
            detail=f"The army marches to {r}; it fights any revolutionary army there (9.6).",
        )
        for r in places
    ]
    king = state["king"]
    if king["kidnapped"] and not king["dead"] and king.get("where") == army["where"]:
        choices += [
            Choice(
                f"king:{r}",
                f"Move to {r}{escort}, taking Louis XVI",
                detail="The kidnapped King may leave with an army (11.3).",
            )
            for r in places
        ]
    return Prompt(
        seat,
        f"Move {CATHOLIC[army['id']]['name']} from {army['where']}?",
        tuple(choices),
        rule="9.5.3",
    )


def catholic_move_handle(state: State, t: ArmyMoves, action: str, ctx: Context) -> None:
    army = army_by_id(state, t["army_ids"][t["index"]])
    assert army is not None
    t["index"] += 1
    if action == "stay":
        return
    verb, region = action.split(":", 1)
    if verb == "king":
        state["king"]["where"] = region
        state["persons"]["Louis XVI"]["where"] = region
        ctx.emit("king", f"Louis XVI goes with the army to {region} (11.3)")
    for general in generals_with(state, army["where"]):
        state["persons"][general]["where"] = region  # the generals move with it
    army["where"] = region
    ctx.emit("army", f"{CATHOLIC[army['id']]['name']} moves to {region} (9.5.3)")


def catholic_move_empty(state: State, t: ArmyMoves, ctx: Context) -> None:
    if t["index"] < len(t["army_ids"]):
        t["index"] += 1
        if t["index"] < len(t["army_ids"]):
            return
    finish(state)


# 9.8 The military Vendée: hiding from combat ------------------------------------------------


def hiding_start(state: State, t: Step, ctx: Context) -> None:
    regions = [
        r
        for r in VENDEE
        if armies_in(state, r, "rev")
        and armies_in(state, r, "catholic")
        and generals_with(state, r)
        and r not in state.get("pinned", [])
    ]
    if regions and seat_of(state, "R") is not None:
        schedule(state, *(RegionQuestion(kind="hide", region=r) for r in regions))


def hide_prompt(state: State, t: RegionQuestion) -> Prompt | None:
    seat = seat_of(state, "R")
    assert seat is not None
    return Prompt(
        seat,
        f"Do the Catholic & Royal armies at {t['region']} avoid combat?",
        (
            Choice("hide:no", "Fight", detail="Combat on the Combat Results Table (9.6)."),
            Choice(
                "hide:yes",
                "Melt into the countryside",
                consequence="your control marker there is removed; they do not count for civil war",
            ),
        ),
        rule="9.8",
    )


def hide_handle(state: State, t: RegionQuestion, action: str, ctx: Context) -> None:
    finish(state)
    if action.endswith("no"):
        return
    region = t["region"]
    for a in armies_in(state, region, "catholic"):
        a["hiding"] = True
    if controller(state, region) == "R":
        set_control(state, region, None, ctx, " (the army hides, 9.8)")
    ctx.emit("army", f"the Catholic & Royal armies at {region} avoid combat (9.8)")


# 11.3 Kidnapping the King --------------------------------------------------------------------


def kidnap_check(state: State, t: Step, ctx: Context) -> None:
    king = state["king"]
    where = king.get("where", "Paris")
    if king["kidnapped"] and not king["dead"]:
        sides = {a["side"] for a in armies_in(state, where) if not a.get("hiding")}
        if sides == {"rev"}:  # 11.3.1: his escort is gone and the Revolution holds him
            person = state["persons"]["Louis XVI"]
            person["status"], person["where"], person["current"] = "prison", None, "F"
            king["kidnapped"], king["status"] = False, "prison"
            king["retrial"] = state["turn"] + 1
            ctx.emit(
                "king",
                "Louis XVI is recaptured; his trial follows next turn (11.3.1)",
                about=NOBODY,
            )
        return
    if king["dead"] or king["kidnapped"] or seat_of(state, "R") is None:
        return
    sides = {a["side"] for a in armies_in(state, where) if not a.get("hiding")}
    if sides and "rev" not in sides:
        schedule(state, Kidnap(kind="kidnap", where=where))


def kidnap_cost(state: State) -> int:
    return COSTS["kidnap"] * economy_factor(state) if state["regime"] == "legislative" else 0


def kidnap_prompt(state: State, t: Kidnap) -> Prompt | None:
    seat = seat_of(state, "R")
    assert seat is not None
    price = kidnap_cost(state)
    choices = [
        Choice("kidnap:no", "Leave the King", detail="He is taken to the provisional capital.")
    ]
    if money(state, "R") >= price:
        choices.append(
            Choice(
                "kidnap:try",
                "Try to kidnap the King",
                detail="One roll on your fame: A or B succeeds (11.3).",
                consequence=f"costs {price}" if price else "",
            )
        )
    return Prompt(
        seat, f"Your armies hold {t['where']}: kidnap Louis XVI?", tuple(choices), rule="11.3"
    )


def kidnap_handle(state: State, t: Kidnap, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    finish(state)
    if action.endswith("try"):
        pay(state, "R", kidnap_cost(state), ctx, " (kidnapping the King)")
        dice = roll(state, ctx, 2, 6, reason="kidnapping the King, 11.3", about=seat)

        column = state["currents"]["R"]["fame"] + sum(m for m, _ in base_modifiers(state, "R"))
        if result(sum(dice), column) in ("A", "B"):
            king = state["persons"]["Louis XVI"]
            king["current"], king["status"], king["where"] = "R", "free", t["where"]
            state["king"]["kidnapped"] = True
            state["king"]["status"] = "free"
            ctx.emit("king", "the Royalist kidnaps Louis XVI (11.3)")
            return
        ctx.emit("king", "the kidnapping fails (11.3)")
    # 11.3: a King left behind is taken to the provisional capital (``capital_check``)


# 9.7.1 The provisional capital ---------------------------------------------------------


def capital_lost(state: State, region: str) -> bool:
    """The Royalist side has conquered ``region`` (9.7.1, 11.3)."""
    if region == "Paris":
        return paris_fallen(state)
    return bool(state["regions"][region]["coalition"]) or controller(state, region) == "R"


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
        schedule(state, CapitalChoice(kind="capital", fallen=seat_))


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


def capital_prompt(state: State, t: CapitalChoice) -> Prompt | None:
    seat = gov_seat(state)
    places = capital_choices(state)
    if seat is None or not places:
        return None
    return Prompt(
        seat,
        f"{t['fallen']} has fallen: choose the provisional capital "
        "(the King, unless kidnapped, is taken there)",
        tuple(
            Choice(
                f"capital:{r}",
                r,
                detail=f"The Government sits in {r} until Paris is free of the Royalist and "
                "the Coalition; the Commune cannot rise meanwhile (9.7.1).",
            )
            for r in places
        ),
        rule="9.7.1",
    )


def capital_handle(state: State, t: CapitalChoice, action: str, ctx: Context) -> None:
    finish(state)
    region = action.split(":", 1)[1]
    move_capital(state, region, ctx, f"the Government makes {region} its capital")


def capital_empty(state: State, t: CapitalChoice, ctx: Context) -> None:
    """Nobody to ask: the automated Marais governs (15.2.1), and takes the free region
    nearest to Paris; with no free region at all the capital stays where it is."""
    finish(state)
    places = capital_choices(state)
    if places:
        schedule(state, RegionQuestion(kind="capital_auto", region=places[0]))


def capital_auto(state: State, t: RegionQuestion, ctx: Context) -> None:
    move_capital(state, t["region"], ctx, f"the Government makes {t['region']} its capital")


def gov_move_start(state: State, t: Step, ctx: Context) -> None:
    ids = sorted(a["id"] for a in state["armies"] if a["side"] == "rev")
    if ids and gov_seat(state) is not None:
        schedule(state, ArmyMoves(kind="gov_move", army_ids=ids, index=0))


def reachable(state: State, start: str) -> list[str]:
    """Any distance, stopping on entering a region with an enemy army (9.5.4)."""
    seen = {start}
    frontier = [start]
    while frontier:
        here = frontier.pop()
        for nxt in sorted(ADJACENT[here]):
            if nxt in seen:
                continue
            seen.add(nxt)
            if not any(a["side"] in ENEMY for a in armies_in(state, nxt)):
                frontier.append(nxt)
    seen.discard(start)
    return [r for r in REGION_NAMES if r in seen]


def army_by_id(state: State, army_id: str) -> dict[str, Any] | None:
    return next((a for a in state["armies"] if a["id"] == army_id), None)


def gov_move_prompt(state: State, t: ArmyMoves) -> Prompt | None:
    seat = gov_seat(state)
    if seat is None or t["index"] >= len(t["army_ids"]):
        return None
    army = army_by_id(state, t["army_ids"][t["index"]])
    if army is None:
        return None
    here = army["where"]
    if here in state.get("pinned", []):
        return None  # pinned (9.5.1)
    choices = [Choice("stay", f"Stay at {here}", detail="The army does not move.", key=PASS_KEY)]
    for r in reachable(state, here):
        choices.append(
            Choice(
                f"move:{r}",
                f"Move to {r}",
                detail=f"The army moves to {r}; enemies there mean combat (9.6), an empty "
                "region comes under its military control (9.7).",
            )
        )
        if r == "Paris" and state["commune"]["raised"]:
            choices.append(
                Choice(
                    "crush:Paris",
                    "Move to Paris to crush the Commune",
                    consequence="Commune track to 20 (9.9.1)",
                )
            )
    return Prompt(seat, f"Move {army_name(army['id'])} from {here}?", tuple(choices), rule="9.5.4")


def gov_move_handle(state: State, t: ArmyMoves, action: str, ctx: Context) -> None:
    army = army_by_id(state, t["army_ids"][t["index"]])
    assert army is not None
    t["index"] += 1
    if action == "stay":
        return
    verb, region = action.split(":", 1)
    origin = army["where"]
    army["where"] = region
    ctx.emit("army", f"{army_name(army['id'])} moves to {region}")
    carnot = state["persons"].get("Carnot")
    left_alone = not any(a["where"] == origin and a["side"] == "rev" for a in state["armies"])
    if carnot and carnot.get("general") and carnot["where"] == origin and left_alone:
        carnot["where"] = region  # he goes with the last army to leave
    if verb == "crush":
        army["crush"] = True
        state["tracks"]["commune"] = 20
        ctx.emit("commune", "a Government army marches on the Commune: Commune track to 20 (9.9.1)")


def gov_move_empty(state: State, t: ArmyMoves, ctx: Context) -> None:
    if t["index"] < len(t["army_ids"]):
        t["index"] += 1
        if t["index"] < len(t["army_ids"]):
            return
    finish(state)


# 9.6 Combat ------------------------------------------------------------------------------------

LOSS_ORDER = {
    "temporary": 0,
    "volunteer": 1,
    "commune": 2,
    "regular": 3,
    "catholic": 0,
    "allied": 1,
}


def combat(state: State, t: Step, ctx: Context) -> None:
    invaders = [a for a in armies_in(state, "Paris") if a["side"] in ENEMY and not a.get("hiding")]
    if invaders and not state["commune"]["raised"] and not paris_fallen(state):  # 9.7.1
        state["commune"] = {"raised": True, "controller": None}
        ctx.emit("commune", "the Commune rises against the invaders of Paris (9.9.2)", about=NOBODY)
    for region in REGION_NAMES:
        rev = [a for a in armies_in(state, region, "rev") if not a.get("crush")]
        enemy = [a for a in armies_in(state, region) if a["side"] in ENEMY and not a.get("hiding")]
        if region == "Paris" and state["commune"]["raised"] and enemy:
            rev = [*rev, {"id": "commune", "side": "rev", "kind": "commune", "where": "Paris"}]
        if rev and enemy:
            battle(state, region, rev, enemy, ctx)
        crushers = [a for a in armies_in(state, region, "rev") if a.get("crush")]
        if region == "Paris" and crushers and state["commune"]["raised"]:
            crush_commune(state, crushers, ctx)
        for a in crushers:
            a.pop("crush", None)


def battle(
    state: State, region: str, rev: list[dict[str, Any]], enemy: list[dict[str, Any]], ctx: Context
) -> None:
    """One roll: the larger side attacks (ties: the Revolution) and adds its excess;
    column 13-14: A the defender loses an army, C the attacker does (9.6)."""
    rev_attacks = len(rev) >= len(enemy)
    excess = abs(len(rev) - len(enemy))
    if region == "Lille" and rev_attacks and state["bonuses"].get("lille_holds"):
        ctx.emit("combat", "the army of Lille does not attack this turn (event)", about=NOBODY)
        return
    if region == "Metz" and rev_attacks:
        excess += int(state["bonuses"].get("metz_combat", 0))
    dice = roll(
        state,
        ctx,
        2,
        6,
        reason=f"combat at {region}, 9.6",
        about=gov_seat(state) if rev_attacks else seat_of(state, "R"),
    )
    modifier = excess
    if carnot_commands(state, region):
        modifier += 1 if rev_attacks else -1  # R.3.9.3: the Government's extra +1 or -1
    letter = result(sum(dice) + modifier, 13)
    attacker, defender = (rev, enemy) if rev_attacks else (enemy, rev)
    ctx.emit(
        "combat",
        f"combat at {region}: {'Revolution' if rev_attacks else 'Counter-revolution'} "
        f"attacks, {sum(dice)}+{excess}: {letter}, "
        + {"A": "the defender loses an army", "B": "no loss", "C": "the attacker loses an army"}[
            letter
        ]
        + " (9.6)",
        about=NOBODY,
    )
    if letter == "A":
        lose(state, region, defender, ctx)
    elif letter == "C":
        lose(state, region, attacker, ctx)


def carnot_commands(state: State, region: str) -> bool:
    carnot = state["persons"].get("Carnot")
    return bool(
        carnot
        and carnot.get("general")
        and carnot["status"] == "free"
        and carnot["where"] == region
    )


def lose(state: State, region: str, side: list[dict[str, Any]], ctx: Context) -> None:
    """9.6: the owner picks which army is lost when the stack holds different kinds
    (the Government for the Revolution and the Commune, 9.9.2; the Royalist for the
    Allied and Catholic armies); otherwise any one of them goes."""
    side.sort(key=lambda a: (LOSS_ORDER.get(a["kind"], 5), a["id"]))
    kinds = {a["kind"] for a in side}
    owner = gov_seat(state) if side[0]["side"] == "rev" else seat_of(state, "R")
    if len(kinds) > 1 and owner is not None:
        schedule(
            state,
            {
                "kind": "loss",
                "region": region,
                "army_ids": [a["id"] for a in side],
                "owner_seat": owner,
            },
        )
        return
    eliminate(state, region, side[0]["id"], ctx)


def eliminate(state: State, region: str, army_id: str, ctx: Context) -> None:
    if army_id == "commune":
        state["commune"] = {"raised": False, "controller": None}
        ctx.emit("commune", "the Commune is destroyed in battle (9.9.2)", about=NOBODY)
        return
    lost = next(a for a in state["armies"] if a["id"] == army_id)
    state["armies"].remove(lost)
    ctx.emit("army", f"{army_name(lost['id'])} is destroyed at {region}", about=NOBODY)
    if lost["side"] == "allied":
        state["allied_gone"].append(lost["id"])
        state["achieved"].append(f"destroy:{region}")
    elif lost["side"] == "catholic":
        state["catholic_gone"].append(lost["id"])
        state["achieved"].append(f"destroy:{region}")
    elif not armies_in(state, region, "rev"):
        if any(a["side"] == "catholic" for a in armies_in(state, region)) and not armies_in(
            state, region, "allied"
        ):
            adjust_fame(state, "R", 1, ctx, " (Royalist spoils, 9.6.1)")
        if carnot_commands(state, region):
            (face,) = roll(state, ctx, 1, 6, reason="Carnot's fate, R.3.9.3", about=gov_seat(state))
            if face <= 3:
                carnot = state["persons"]["Carnot"]
                carnot["status"], carnot["where"] = "captured", None
                ctx.emit("person", "Carnot is taken prisoner by the enemy (R.3.9.3)", about=NOBODY)


def loss_prompt(state: State, t: LossChoice) -> Prompt | None:
    names = {a["id"]: a for a in state["armies"]}
    choices = tuple(
        Choice(
            f"lose:{army_id}",
            "the Commune"
            if army_id == "commune"
            else f"{army_id.replace('_', ' ')} ({names[army_id]['kind']})",
            consequence="a regular army can never be rebuilt (9.3.3)"
            if army_id in names and names[army_id]["kind"] == "regular"
            else "",
        )
        for army_id in t["army_ids"]
    )
    return Prompt(
        t["owner_seat"], f"Combat at {t['region']}: which army is lost?", choices, rule="9.6"
    )


def loss_handle(state: State, t: LossChoice, action: str, ctx: Context) -> None:
    finish(state)
    eliminate(state, t["region"], action.split(":", 1)[1], ctx)


def crush_commune(state: State, crushers: list[dict[str, Any]], ctx: Context) -> None:
    """9.9.1 (engine reading): 2d6 + armies beyond the first, column 13-14."""
    dice = roll(
        state, ctx, 2, 6, reason="Government against the Commune, 9.9.1", about=gov_seat(state)
    )
    letter = result(sum(dice) + len(crushers) - 1, 13)
    if letter == "A":
        state["commune"] = {"raised": False, "controller": None}
        state["achieved"].append("crush_commune")
        ctx.emit("commune", "the Government crushes the Commune (9.9.1)", about=NOBODY)
    elif letter == "C":
        state["armies"].remove(crushers[0])
        ctx.emit(
            "army",
            f"{army_name(crushers[0]['id'])} is destroyed by the Commune",
            about=NOBODY,
        )
    else:
        ctx.emit("commune", "the Commune holds out (9.9.1)", about=NOBODY)


# 9.7 Military control ---------------------------------------------------------------------------


def military_control(state: State, t: Step, ctx: Context) -> None:
    for region in REGION_NAMES:
        sides = {a["side"] for a in armies_in(state, region) if not a.get("hiding")}
        reg = state["regions"][region]
        if sides == {"rev"}:
            if reg["coalition"]:
                reg["coalition"] = False
                ctx.emit("control", f"{region} is freed from the Coalition (9.7.2)", about=NOBODY)
            if reg["revolt"]:
                reg["revolt"] = False
                ctx.emit(
                    "revolt", f"the army puts down the revolt in {region} (9.7.2)", about=NOBODY
                )
        elif sides and "rev" not in sides:
            if "allied" in sides and not reg["coalition"]:
                reg["coalition"] = True
                ctx.emit("control", f"{region} falls to the Coalition (9.7.1)", about=NOBODY)
                if controller(state, region) not in ("R", None):
                    set_control(state, region, None, ctx, " (Coalition)", about=NOBODY)
            if "catholic" in sides and controller(state, region) != "R":
                set_control(
                    state, region, "R", ctx, " (Catholic & Royal army, 9.7.1)", about=NOBODY
                )
    prompted = state.get("patrie_by") or ["foreign", "civil"]
    over = ("foreign" not in prompted or not state["war"]) and (
        "civil" not in prompted or not civil_war(state)
    )
    if state["patrie"] and over:
        state["patrie"] = False
        state["laws_once"] = [k for k in state["laws_once"] if k != "patrie"]
        ctx.emit("law", "the Fatherland is no longer in danger (13.6)", about=NOBODY)
    if (
        state["war"]
        and state.get("allied_placed")
        and not any(a["side"] == "allied" for a in state["armies"])
    ):
        end_war(state, ctx, "no Allied army is left in France (9.2)")
