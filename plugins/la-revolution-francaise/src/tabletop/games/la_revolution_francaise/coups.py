"""Chapter 12, coups (Open scenario only, ambiguity B5): limited coups (12.2) in the
Patriot's Phase before criticism (in the Directorate before the laws, R.7.7.1), and
popular coups (12.1) and then military coups (12.3) at the start of the Military
Phase's movement. Who may try what is each regime's R.x.7."""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import OrderedVote

from .core import (
    adjust_fame,
    adjust_track,
    answering,
    civil_war,
    economy_factor,
    fame,
    finish,
    gov_controller,
    gov_seat,
    money,
    name,
    officially_present,
    outlawed,
    pay,
    result,
    roll,
    schedule,
    seat_of,
    track_level,
)
from .data import ADJACENT, COSTS, KING, REGIMES
from .interphase import finish_game
from .military.gov_moves import reachable
from .political.install import install, set_government
from .tasks import AskedInTurn, CoupAttempt, CoupOffer


def open_scenario(state: State) -> bool:
    return bool(state["options"].get("scenario") == "open")


def plotters(state: State, current: str) -> list[str]:
    """Free Personalities of the Current in Paris (12.1: at least one is needed)."""
    return [
        n
        for n, p in state["persons"].items()
        if p["current"] == current and p["status"] == "free" and p["where"] == "Paris" and n != KING
    ]


def commune_is(state: State, leaders: tuple[str, ...], level: int) -> bool:
    commune = state["commune"]
    return (
        bool(commune["raised"])
        and commune["controller"] in leaders
        and track_level(state, "commune") >= level
    )


# Who may try ----------------------------------------------------------------------------


def limited_candidates(state: State) -> list[str]:
    """R.1.7.1 (Legislative), R.7.7.1 (Directorate), R.9.7.1 (FFR), R.10.7.1 (FROI)."""
    reg, holder = state["regime"], gov_controller(state)
    out: list[str] = []
    if reg == "legislative":
        if holder == "G":
            out.append("F")
        if holder == "F" and (state.get("feuillant_couped") or track_level(state, "commune") == 3):
            out.append("G")
    elif reg == "directorate":
        # R.7.7.1 names the Gironde, the Feuillant and the Montagne: the partner too may
        # try to govern alone (ambiguities.md)
        out += [c for c in ("G", "F", "MT") if c != holder]
    elif reg == "ffr":
        if holder == "G":
            out.append("M")
        elif holder == "M" and state.get("marais_couped"):
            out.append("G")
    elif reg == "froi":
        other = "SC" if holder == "MT" else "MT"
        if state["commune"]["controller"] != holder or not state["commune"]["raised"]:
            out.append(other)
    return [c for c in out if not outlawed(state, c)]


def popular_candidates(state: State) -> list[tuple[str, list[str]]]:
    """(Current, regimes it may install; "gov" = only seize the Government)."""
    reg = state["regime"]
    war, civil = state["war"], civil_war(state)
    both, peace = war and civil, not (war and civil)
    out: list[tuple[str, list[str]]] = []
    raised = state["commune"]["raised"]
    if reg == "legislative" and raised:
        targets = ["gov"]
        if commune_is(state, ("SC",), 2) or commune_is(state, ("SC", "MT", "G"), 3):
            targets.append("convention")
        out.append(("G", targets))
    elif reg == "convention" and (commune_is(state, ("SC",), 1) or commune_is(state, ("MT",), 2)):
        out.append(("MT", ["terror"] if both else ["mercy"]))
    elif reg == "terror":
        if (
            peace
            and "indulgent" not in state["factions_outlawed"]
            and commune_is(state, ("SC",), 3)
        ):
            out.append(("M", ["mercy"]))
        if (
            both
            and "hebertiste" not in state["factions_outlawed"]
            and commune_is(state, ("SC",), 3)
        ):
            out.append(("SC", ["wrath"]))
    elif reg == "thermidor" and (war or civil):
        out += [(c, ["prairial"]) for c in ("MT", "SC") if commune_is(state, (c,), 3)]
    elif reg == "wrath" and commune_is(state, ("MT",), 2):
        out.append(("M", ["thermidor"]))
    elif reg == "mercy" and gov_controller(state) == "M" and commune_is(state, ("SC", "MT"), 3):
        out.append(("MT", ["terror"]))
    elif reg == "directorate":
        if commune_is(state, ("MT",), 3):
            out.append(("MT", ["prairial"]))
        if commune_is(state, ("SC",), 2):
            out.append(("SC", ["prairial"]))
        if commune_is(state, ("R",), 2) and not state.get("royalist_couped"):
            out.append(("R", ["vendemiaire"]))
    elif reg == "prairial" and (war or civil) and commune_is(state, ("R",), 3):
        out.append(("R", ["vendemiaire"]))
    elif reg == "ffr":
        strong = commune_is(state, ("SC",), 2) or commune_is(state, ("MT",), 3)
        if strong:
            target = ["terror"] if (war or civil) else ["mercy"]
            out.append(("MT", target))
            if state.get("mt_failed_coup"):
                out.append(("M", ["gov", *target]))
    elif reg == "froi" and not raised:
        out.append(("M", ["thermidor"]))
    return [(c, t) for c, t in out if not outlawed(state, c) and c != gov_controller(state)]


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
        schedule(state, AskedInTurn(kind="military_offer", asked=[]))
        return
    schedule(state, CoupOffer(kind="coup_offer", coup=kind, asked=[]))


def offers(state: State, t: CoupOffer) -> list[tuple[str, list[str]]]:
    if t["coup"] == "limited":
        found = [(c, ["gov"]) for c in limited_candidates(state)]
    else:
        found = popular_candidates(state)
    return [
        (c, targets)
        for c, targets in found
        if c not in t["asked"]
        and seat_of(state, c) is not None
        and plotters(state, c)
        and money(state, c) >= coup_cost(state, t["coup"])
    ]


def coup_offer_prompt(state: State, t: CoupOffer) -> Prompt | None:
    found = offers(state, t)
    if not found:
        return None
    current, targets = found[0]
    seat = seat_of(state, current)
    assert seat is not None
    price = coup_cost(state, t["coup"])
    who = plotters(state, current)
    choices = [Choice("coup:none", "No coup", detail="Attempt no coup now.", key=PASS_KEY)]
    for target in targets:
        goal = (
            "seize the Government"
            if target == "gov"
            else f"install the {REGIMES.get(target, {'name': 'Vendémiaire'})['name']}"
        )
        for n in range(1, len(who) + 1):
            choices.append(
                Choice(
                    f"coup:{target}:{n}",
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
    current, _ = offers(state, t)[0]
    t["asked"].append(current)
    parts = action.split(":")
    if parts[1] == "none":
        return
    finish(state)
    target, count = parts[1], int(parts[2])
    who = plotters(state, current)[:count]
    pay(state, current, coup_cost(state, t["coup"]), ctx, f" ({t['coup']} coup)")
    state["coup_turn"] = state["turn"]
    if t["coup"] == "popular":
        state["popular_turn"] = state["turn"]
    attempt = CoupAttempt(kind="coup", coup=t["coup"], current=current, target=target, persons=who)
    leader = state["commune"]["controller"] if state["commune"]["raised"] else None
    if (
        t["coup"] == "popular"
        and leader not in (None, current)
        and seat_of(state, leader) is not None
    ):
        schedule(state, CoupAttempt({**attempt, "kind": "coup_permission", "leader": leader}))
    else:
        schedule(state, reactions_task(state, attempt))


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


def coup_permission_prompt(state: State, t: CoupAttempt) -> Prompt | None:
    seat = seat_of(state, t["leader"])
    assert seat is not None
    return Prompt(
        seat,
        f"The {name(t['current'])} asks the Commune's leave for a popular coup",
        (
            Choice(
                "permit:yes",
                "Give leave",
                detail="The coup goes ahead with the Commune's backing (12.1).",
            ),
            Choice("permit:no", "Refuse", detail="The coup does not take place (12.1)."),
        ),
        rule="12.1",
    )


def coup_permission_handle(state: State, t: CoupAttempt, action: str, ctx: Context) -> None:
    finish(state)
    if action.endswith("no"):
        ctx.emit("coup", "the Commune refuses: no coup (12.1)")
        return
    schedule(state, reactions_task(state, t))


def reactions_prompt(state: State, t: CoupAttempt) -> Prompt | None:
    seat = OrderedVote(t["vote"]).next_seat
    if seat is None:
        return None
    return Prompt(
        seat,
        f"The {name(t['current'])} attempts a {t['coup']} coup",
        (
            Choice(
                "react:0",
                "Let it be",
                detail="No change to its roll; only an A succeeds.",
                key=PASS_KEY,
            ),
            Choice(
                "react:-1",
                "Oppose it: -1 to its roll",
                detail="Its roll column drops by 1, making an A harder (12.1).",
            ),
        ),
        rule="12.1",
    )


def reactions_handle(state: State, t: CoupAttempt, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    OrderedVote(t["vote"]).vote(seat, action.split(":")[1], ctx)


def reactions_done(state: State, t: CoupAttempt, ctx: Context) -> None:
    finish(state)
    schedule(state, {**t, "kind": "coup_roll"})


def coup_roll(state: State, t: CoupAttempt, ctx: Context) -> None:
    current = t["current"]
    penalty = sum(int(v) for v in OrderedVote(t["vote"]).answers().values())
    bonus = 2 * (len(t["persons"]) - 1) + int(
        state["bonuses"].get(f"{t['coup']}_coup:{current}", 0)
    )
    if (
        t["coup"] == "limited"
        and current == "SC"
        and state["regime"] == "froi"
        and state.get("froi_variant") == "SC"
        and state["commune"]["raised"]
    ):
        bonus += track_level(state, "commune")  # R.10.9.4
    dice = roll(state, ctx, 2, 6, reason=f"{t['coup']} coup, 12", about=seat_of(state, current))
    letter = result(sum(dice), fame(state, current) + bonus + penalty)
    ctx.emit(
        "coup",
        f"{t['coup']} coup by the {name(current)}: fame {fame(state, current)} "
        f"{bonus + penalty:+d}, roll {sum(dice)}: {letter}",
    )
    if letter == "A":
        coup_success(state, t, ctx)
    else:
        coup_failure(state, t, ctx)


def coup_success(state: State, t: CoupAttempt, ctx: Context) -> None:

    current, target = t["current"], t["target"]
    if t["coup"] == "popular":
        adjust_track(state, "commune", 3, ctx, " (popular coup, 12.1.2)")
    if target == "vendemiaire":
        state["regime"] = "vendemiaire"
        ctx.emit("regime", "Vendémiaire: the Royalist takes power and wins (R.11)")
        finish_game(state, ctx)
        return
    if target == "gov":
        old = gov_controller(state)
        set_government(state, current, ctx)
        if t["coup"] == "limited":
            adjust_fame(state, current, 1, ctx, " (limited coup, 12.2.2)")
            adjust_fame(state, old, -1, ctx, " (ousted, 12.2.2)")
            state["limited_coup_turn"] = state["turn"]
            if state["regime"] == "directorate":
                state["gov"]["partner"] = None
                state["sole_until"] = state["turn"]  # R.7.7.1: alone for one turn
            if state["regime"] == "legislative" and current == "F":
                state["feuillant_couped"] = True
            if state["regime"] == "ffr" and current == "M":
                state["marais_couped"] = True
            if (
                state["regime"] == "froi"
                and state["commune"]["controller"] == current
                and track_level(state, "commune") >= 2
            ):
                state["froi_variant"] = current  # R.10.7.2
        return
    install(state, target, ctx, by=current)


REDUCED = {("terror", "M"), ("froi", "M"), ("ffr", "M"), ("mercy", "M"), ("legislative", "G")}
COMMUNE_NEUTRAL = {
    ("terror", "SC"),
    ("thermidor", "MT"),
    ("thermidor", "SC"),
    ("mercy", "MT"),
    ("prairial", "R"),
}


def coup_failure(state: State, t: CoupAttempt, ctx: Context) -> None:
    """12.1.1, 12.2.1: the plotters are jailed as outlaws and their Current outlawed,
    for a turn after a limited coup (and the Marais' reduced cases), for good otherwise."""
    current = t["current"]
    reg = state["regime"]
    for person in t["persons"]:
        p = state["persons"][person]
        p["status"], p["where"], p["outlaw"] = "prison", None, True
        ctx.emit("person", f"{person} is arrested after the failed coup")
    short = t["coup"] == "limited" or (reg, current) in REDUCED
    if short:
        adjust_fame(state, current, -1, ctx, " (failed coup, 12.2.1)")
        state["outlaw_until"][current] = state["turn"] + 1
    elif officially_present(state, current):
        row = state["assembly"][current]
        row["aside"], row["count"] = row["count"], 0
        ctx.emit("deputies", f"the {name(current)}'s deputies are expelled (12.1.1)")
    if current not in state["outlawed"]:
        state["outlawed"].append(current)
    ctx.emit("outlaw", f"the {name(current)} is outlawed")
    if t["coup"] in ("popular", "military"):
        if t["coup"] == "popular":
            adjust_track(state, "commune", -3, ctx, " (failed popular coup, 12.1.1)")
        neutral = (reg, current) in COMMUNE_NEUTRAL and state["commune"]["raised"]
        if t["coup"] == "military" and state["commune"]["controller"] != current:
            neutral = False  # R.6.7.3.2: only a Commune the plotters' Current held
        if neutral:
            state["commune"]["controller"] = None
        if current == "MT":
            state["mt_failed_coup"] = True
        if current == "R":
            state["royalist_couped"] = True


# 12.3 Military coups ----------------------------------------------------------------------

NEVER_RALLY = ("Marat", "Chaumette", "Hébert", "Roux")


def military_candidates(state: State) -> list[tuple[str, list[str]]]:
    """Each regime's R.x.7.3: who may rally an army to march on Paris, and to what end."""
    reg = state["regime"]
    war, civil = state["war"], civil_war(state)
    both = war and civil
    table: dict[str, list[tuple[str, list[str]]]] = {
        "legislative": [("G", ["convention"])],
        "convention": [("MT", ["terror"] if both else ["mercy"])],
        "terror": [] if both else [("M", ["mercy"])],
        "wrath": [("M", ["thermidor"])],
        "mercy": [("M", ["directorate"])]
        + ([("MT", ["terror"])] if gov_controller(state) == "M" else []),
        "directorate": [("MT", ["prairial"])],
        "ffr": [("MT", ["terror"] if (war or civil) else ["mercy"])],
        "froi": [("M", ["thermidor"])],
    }
    # R.6.7.3.1: under Mercy the Marais may march on Paris even while it governs
    governing_may = reg == "mercy"
    return [
        (c, t)
        for c, t in table.get(reg, [])
        if not outlawed(state, c) and (c != gov_controller(state) or governing_may)
    ]


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


def military_offer_prompt(state: State, t: AskedInTurn) -> Prompt | None:
    for current, targets in military_candidates(state):
        seat = seat_of(state, current)
        price = coup_cost(state, "military")
        bases = rally_bases(state, current)
        if current in t["asked"] or seat is None or money(state, current) < price or not bases:
            continue
        choices = [Choice("coup:none", "No coup", detail="Attempt no coup now.", key=PASS_KEY)]
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
                            f"coup:{target}:{region}:{n}",
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
    return None


def military_offer_handle(state: State, t: AskedInTurn, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    current = next(
        c
        for c, _ in military_candidates(state)
        if c not in t["asked"] and seat_of(state, c) == seat and rally_bases(state, c)
    )
    t["asked"].append(current)
    parts = action.split(":")
    if parts[1] == "none":
        return
    finish(state)
    target, region, count = parts[1], parts[2], int(parts[3])
    who = rally_bases(state, current)[region]
    pay(state, current, coup_cost(state, "military"), ctx, " (military coup)")
    state["coup_turn"] = state["turn"]
    state["military_turn"] = state["turn"]
    bonus = 2 * (len(who) - 1) - 2 * (count - 1)
    bonus += int(state["bonuses"].get(f"rally:{current}", 0))
    if state["regime"] == "mercy" and current == "M" and gov_controller(state) == "M":
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
    schedule(state, {**attempt, "kind": "intercept", "army_ids": interceptors, "index": 0})


def _paris_neighbours() -> set[str]:

    return set(ADJACENT["Paris"])


def intercept_prompt(state: State, t: CoupAttempt) -> Prompt | None:

    seat = gov_seat(state)
    if seat is None or t["index"] >= len(t["army_ids"]):
        return None
    army_id = t["army_ids"][t["index"]]
    return Prompt(
        seat,
        f"Send {army_id.replace('_', ' ')} to intercept the rebels in Paris?",
        (
            Choice(
                "intercept:no",
                "Stay",
                detail="The army stays; the rebels face the others.",
                key=PASS_KEY,
            ),
            Choice("intercept:yes", "Intercept", detail="It fights the rebels in Paris (12.3.2)."),
        ),
        rule="12.3.2",
    )


def intercept_handle(state: State, t: CoupAttempt, action: str, ctx: Context) -> None:
    army_id = t["army_ids"][t["index"]]
    t["index"] += 1
    if action.endswith("yes"):
        for a in state["armies"]:
            if a["id"] == army_id:
                a["where"] = "Paris"
        ctx.emit("army", f"{army_id.replace('_', ' ')} intercepts in Paris (12.3.2)")


def intercept_done(state: State, t: CoupAttempt, ctx: Context) -> None:
    if t["index"] < len(t["army_ids"]):
        t["index"] += 1
        if t["index"] < len(t["army_ids"]):
            return
    finish(state)
    schedule(state, {**t, "kind": "military_coup_battle"})


def military_coup_battle(state: State, t: CoupAttempt, ctx: Context) -> None:
    """12.3.3: the Commune rises (leaderless) as the rebels enter Paris; they must beat
    every loyal army there and the Commune, one combat each on column 13-14 with their
    excess over one army (see reconstructed.md), and need an A each time."""
    if not state["commune"]["raised"]:
        state["commune"] = {"raised": True, "controller": None}
        ctx.emit("commune", "the Commune rises as the rebels enter Paris (12.3.3)")
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
        ctx.emit("combat", f"rebels against {foe.replace('_', ' ')}: {letter}")
        if letter == "A":
            if foe == "commune":
                state["commune"] = {"raised": False, "controller": None}
            else:
                state["armies"] = [a for a in state["armies"] if a["id"] != foe]
            continue
        if letter == "C":
            state["armies"].remove(sorted(rebels, key=lambda a: a["id"])[0])
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
