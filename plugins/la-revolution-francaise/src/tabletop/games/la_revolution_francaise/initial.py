"""Chapter 6, the Initial Phase: negotiations, random events, turn order, declaration
of objectives and personality placement."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import SecretChoices

from .actions import commune_actors
from .assembly import deputies
from .core import (
    actor_seat,
    adjust_fame,
    adjust_track,
    answering,
    armies_in,
    civil_war,
    commune_may_rise,
    controlled_regions,
    controller,
    enemy_present,
    enter_phase,
    fame,
    finish,
    gov_controller,
    gov_seat,
    income_of,
    influential,
    money,
    name,
    officially_present,
    paris_fallen,
    pay,
    person_outlaw,
    regime,
    roll,
    schedule,
    seat_of,
    set_control,
    track_level,
)
from .data import ADJACENT, EVENTS, LAWS, PERSONS, REGIMES, REGION_NAMES, seating
from .political.voters import deputy_voters
from .tasks import (
    AssemblyDecision,
    EventTable,
    GovernmentDecision,
    Negotiation,
    OfferAmount,
    OfferAnswer,
    Placement,
    Step,
)
from .words import (
    FACTION_NAMES,
    kind_detail,
    objective_words,
)

# 6.1 Negotiations: money offers, accepted or refused ----------------------------------

OFFER_AMOUNTS = (50, 100, 200, 500)


def banned(giver: str, taker: str) -> bool:
    """The Royalist never deals with the Montagne or the Sans-Culotte (6.1)."""
    return {giver, taker} in ({"R", "MT"}, {"R", "SC"})


def negotiations_start(state: State, task_: Step, ctx: Context) -> None:
    enter_phase(state, "negotiations", ctx)
    seats = [s for s in range(state["players"])]
    schedule(state, Negotiation(kind="negotiate", seats=seats, index=0))


def offer_targets(state: State, seat: int) -> list[tuple[str, str]]:
    mine = seating(state["players"])[seat]
    out = []
    for giver in mine:
        if state["currents"][giver]["money"] < OFFER_AMOUNTS[0]:
            continue
        for taker in ("R", "F", "M", "G", "MT", "SC"):
            taker_seat = seat_of(state, taker)
            if taker in mine or taker_seat is None or banned(giver, taker):
                continue
            out.append((giver, taker))
        if state["patrie"]:
            out.append((giver, "gov"))  # 13.6: the Government may now be given money
    return out


def negotiate_prompt(state: State, t: Negotiation) -> Prompt | None:
    if t["index"] >= len(t["seats"]):
        return None
    seat = t["seats"][t["index"]]
    choices = [
        Choice(
            "pass",
            "Pass",
            detail="Make no offer this turn; the next seat negotiates.",
            key=PASS_KEY,
        )
    ]
    for giver, taker in offer_targets(state, seat):
        choices.append(
            Choice(
                f"offer:{giver}:{taker}",
                f"Offer money from the {name(giver)} to the {name(taker)}"
                + (" (accepted at once, 13.6)" if taker == "gov" else ""),
                detail="The other Current accepts or refuses; a gift is never owed back (6.1).",
            )
        )
    for leader, partner in pact_targets(state, seat):
        choices.append(
            Choice(
                f"pact:{leader}:{partner}",
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
        for partner in ("R", "F", "M", "G", "MT", "SC"):
            if partner in mine or seat_of(state, partner) is None or banned(leader, partner):
                continue
            if not in_pact(state, partner):
                out.append((leader, partner))
    return out


def negotiate_handle(state: State, t: Negotiation, action: str, ctx: Context) -> None:
    if action == "pass":
        t["index"] += 1
        return
    verb, giver, taker = action.split(":")
    t["index"] += 1
    if verb == "pact":
        ctx.emit("offer", f"the {name(giver)} proposes a joint objective to the {name(taker)}")
        schedule(
            state,
            OfferAnswer(kind="offer_answer", giver=giver, taker=taker, amount=0, pact=True),
        )
        return
    schedule(state, OfferAmount(kind="offer_amount", giver=giver, taker=taker))


def negotiate_empty(state: State, t: Negotiation, ctx: Context) -> None:
    finish(state)


def offer_amount_prompt(state: State, t: OfferAmount) -> Prompt | None:
    giver = t["giver"]
    seat = seat_of(state, giver)
    assert seat is not None
    choices = tuple(
        Choice(
            f"amount:{a}",
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
    amount = int(action.split(":")[1])
    finish(state)
    ctx.emit("offer", f"the {name(t['giver'])} offers {amount} to the {name(t['taker'])}")
    if t["taker"] == "gov":
        state["currents"][t["giver"]]["money"] -= amount
        state["gov"]["money"] += amount
        ctx.emit("offer", f"the Government receives {amount} (Fatherland in Danger, 13.6)")
        return
    schedule(
        state, OfferAnswer(kind="offer_answer", giver=t["giver"], taker=t["taker"], amount=amount)
    )


def offer_answer_prompt(state: State, t: OfferAnswer) -> Prompt | None:
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
            (Choice("accept", "Accept", detail=accept), Choice("refuse", "Refuse", detail=refuse)),
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
        (Choice("accept", "Accept", detail=accept), Choice("refuse", "Refuse", detail=refuse)),
        rule="6.1",
    )


def offer_answer_handle(state: State, t: OfferAnswer, action: str, ctx: Context) -> None:
    finish(state)
    if t.get("pact"):
        if action == "accept":
            state.setdefault("pacts", []).append([t["giver"], t["taker"]])
            ctx.emit(
                "offer",
                f"the {name(t['taker'])} and the {name(t['giver'])} will share an objective (6.4)",
            )
        else:
            ctx.emit("offer", f"the {name(t['taker'])} refuses the joint objective")
        return
    if action == "accept":
        state["currents"][t["giver"]]["money"] -= t["amount"]
        state["currents"][t["taker"]]["money"] += t["amount"]
        ctx.emit(
            "offer", f"the {name(t['taker'])} accepts {t['amount']} from the {name(t['giver'])}"
        )
    else:
        ctx.emit("offer", f"the {name(t['taker'])} refuses the offer")


# 6.2 Random events ----------------------------------------------------------------------

TABLES = ("economic", "political", "counter", "commune")


def random_events(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "events", ctx)
    state["last_events"] = {}
    tables = EVENTS.get(state["regime"])
    if tables is None:
        ctx.emit(
            "events",
            f"no random event tables entered for the {regime(state)['name']} yet",
            about=NOBODY,
        )
        return
    schedule(state, *(EventTable(kind="event_table", table=name_) for name_ in TABLES))


def event_modifier(state: State, spec: list[Any]) -> int:
    """One line of a table's modifier (public source; see events.json)."""
    kind = spec[0]
    if kind == "economy_level":
        return int(spec[1][track_level(state, "economy") - 1])
    if kind == "clergy_level":
        return int(spec[1][track_level(state, "clergy") - 1])
    if kind == "war":
        return int(spec[1] if state["war"] else spec[2])
    if kind == "gov_is":
        return int(spec[2]) if gov_controller(state) == spec[1] else 0
    if kind == "coalition_level_neg":
        return -track_level(state, "coalition")
    if kind == "gironde_ousted":
        return int(spec[1]) if state.get("gironde_ousted") else 0
    if kind == "fame_above":
        return int(spec[3]) if fame(state, spec[1]) > spec[2] else 0
    if kind == "king_dead":
        return int(spec[1] if state["king"]["dead"] else spec[2])
    if kind == "king_alive":
        return 0 if state["king"]["dead"] else int(spec[1])
    if kind == "person_alive":
        p = state["persons"].get(spec[1])
        return int(spec[2]) if p is not None and p["status"] != "dead" else 0
    if kind == "faction_outlawed":
        return int(spec[2]) if spec[1] in state["factions_outlawed"] else 0
    if kind == "civil_war":
        return int(spec[1] if civil_war(state) else spec[2])
    if kind == "commune_level":
        return int(spec[1][track_level(state, "commune") - 1])
    if kind == "clergy_or_coalition_three":
        three = track_level(state, "clergy") == 3 or track_level(state, "coalition") == 3
        return int(spec[1]) if three else 0
    if kind == "commune_level_three":
        return int(spec[1]) if track_level(state, "commune") == 3 else 0
    if kind in ("clergy_at_least", "economy_at_least", "coalition_at_least"):
        track = kind.split("_")[0]
        return int(spec[2]) if track_level(state, track) >= spec[1] else 0
    raise ValueError(f"unknown event modifier {kind}")


def event_table(state: State, t: EventTable, ctx: Context) -> None:
    table = EVENTS[state["regime"]][t["table"]]
    if t["table"] == "commune" and paris_fallen(state):
        ctx.emit("events", "Paris has fallen: no Commune event (9.7.1)", about=NOBODY)
        return
    modifier = sum(event_modifier(state, spec) for spec in table["modifier"])
    dice = roll(state, ctx, 2, 6, reason=f"{t['table']} event, 6.2", about=gov_seat(state))
    total = max(2, min(12, sum(dice) + modifier))
    resolve_event(state, t["table"], total, ctx, rolled=f"{sum(dice)}{modifier:+d} = ")


def resolve_event(
    state: State, table_name: str, total: int, ctx: Context, rolled: str = ""
) -> None:
    """The entry ``total`` of this regime's ``table_name`` table happens (6.2): ignored
    when impossible, a question to the Government or the Assembly, or its effects."""
    entry = EVENTS[state["regime"]][table_name]["rolls"][str(total)]
    state["last_events"][table_name] = total
    ctx.emit(
        "events", f"{table_name} event: {rolled}{total}: {describe_entry(entry)}", about=NOBODY
    )
    if not entry_applies(state, entry, ctx):
        return
    if "decide" in entry and entry["decide"]["by"] == "assembly":
        from tabletop.framework.decisions import OrderedVote

        seats = [s for s, _ in deputy_voters(state)]
        vote = OrderedVote.new(entry["decide"]["question"], seats)
        schedule(
            state,
            AssemblyDecision(kind="assembly_decision", decision=entry["decide"], vote=vote),
        )
        return
    if "decide" in entry:
        schedule(state, GovernmentDecision(kind="gov_decision", decision=entry["decide"]))
        return
    for fx in entry["fx"]:
        apply_effect(state, fx, ctx)


def entry_applies(state: State, entry: dict[str, Any], ctx: Context) -> bool:
    """Events that cannot happen are ignored, with no new roll (6.2)."""
    person = entry.get("person")
    if person is not None:
        p = state["persons"].get(person)
        if p is None or p["status"] not in ("free", "fled"):
            ctx.emit("events", f"ignored: {person} is not free", about=NOBODY)
            return False
    if entry.get("war") and not state["war"]:
        ctx.emit("events", "ignored: France is at peace", about=NOBODY)
        return False
    if entry.get("any_war") and not state["war"] and not civil_war(state):
        ctx.emit("events", "ignored: France is at peace at home and abroad", about=NOBODY)
        return False
    holds = entry.get("holds")
    if holds is not None:
        p = state["persons"].get(holds[1])
        if p is None or p["current"] != holds[0] or p["status"] in ("dead", "exiled"):
            ctx.emit(
                "events", f"ignored: the {name(holds[0])} does not hold {holds[1]}", about=NOBODY
            )
            return False
    needs = entry.get("requires")
    if needs == "king_dead" and not state["king"]["dead"]:
        ctx.emit("events", "ignored: the King lives", about=NOBODY)
        return False
    if needs is not None and needs != "king_dead" and needs not in state["once"]:
        ctx.emit("events", f"ignored: needs the {needs} event first", about=NOBODY)
        return False
    once = entry.get("once")
    if once is not None:
        if once in state["once"]:
            ctx.emit("events", "ignored: it has already happened", about=NOBODY)
            return False
        state["once"].append(once)
    return True


WORDS = {
    "fame": "{0} fame {1:+}",
    "track": "{0} {1:+}",
}


def who_text(code: str) -> str:
    """A Current, or one of the event language's words for whoever it is then."""
    return {
        "gov_holder": "Government's Current",
        "not_gov_left": "Montagne or Sans-Culotte not governing",
    }.get(code) or name(code)


def describe_fx(fx: str) -> str:
    verb, *args = fx.split(" ", 1)
    rest = args[0] if args else ""
    parts = rest.split(" ") if rest else []
    if verb == "fame":
        return f"{who_text(parts[0])} fame {int(parts[1]):+d}"
    if verb == "track":
        return f"{parts[0].capitalize()} {int(parts[1]):+d}"
    if verb == "neutral":
        return f"{rest} becomes neutral"
    if verb == "neutral_revolt":
        return f"{rest} revolts, neutral"
    if verb == "take_revolt":
        return f"{name(parts[0])} takes {' '.join(parts[1:])} in revolt"
    if verb == "riot":
        return f"royalist riot in {rest}"
    if verb == "take":
        return f"{name(parts[0])} takes {' '.join(parts[1:])}"
    if verb == "pays":
        return f"the holder of {parts[0]} pays {parts[1]}" + (
            f" (not the {name(parts[2])})" if len(parts) > 2 else ""
        )
    if verb == "gov_pays":
        return f"the Government pays {rest}"
    if verb == "bonus":
        return f"this turn: {parts[0].replace('_', ' ')} {int(parts[1]):+d}" + (
            f" for the {who_text(parts[2])}" if len(parts) > 2 else ""
        )
    return describe_more(verb, rest, parts) or fx.replace("_", " ")


def describe_more(verb: str, rest: str, parts: list[str]) -> str:
    """The rarer effects of the event language, in words (a log line must never read
    like a code: "commune rises none")."""
    if verb == "commune_rises":
        return "the Commune rises" + (
            ", leaderless" if parts[0] == "none" else f" under the {who_text(parts[0])}"
        )
    if verb == "commune_calms":
        return "the Commune calms down and its leader takes Paris"
    if verb == "receive":
        return f"the {name(parts[0])} receives {parts[1]}"
    if verb in ("exile", "kill"):
        return f"{rest} is {'exiled' if verb == 'exile' else 'killed'}"
    if verb == "massacre":
        return "prison massacres: Royalist and Feuillant prisoners die"
    if verb == "free_prisoners":
        return "every prisoner is freed"
    if verb == "switch":
        return f"{parts[0]} joins the {name(parts[1])}"
    if verb in ("unless_jailed", "unless_outlawed"):
        cond, effect = parts[0], " ".join(parts[1:])
        unless = "is in prison" if verb == "unless_jailed" else "is outlawed"
        who = f"the {FACTION_NAMES[cond]} faction" if cond in FACTION_NAMES else cond
        return f"at the Interphase, unless {who} {unless}: " + describe_fx(effect)
    if verb == "withdraw":
        return f"{', '.join(parts)} leave{'s' if len(parts) == 1 else ''} France"
    if verb in ("allied_return", "allied_return_first"):
        return f"{' or '.join(parts)} may enter France again"
    if verb == "catholic_back":
        return "a destroyed Catholic & Royal army may be raised again"
    if verb == "army_removed":
        return f"a revolutionary army at {' or '.join(parts)} is removed"
    if verb == "retreat":
        return f"a revolutionary army at {' or '.join(parts)} retreats"
    if verb == "jaunaye":
        return "Peace of La Jaunaye: Clergy -5 if a Catholic & Royal army stands"
    if verb == "temp_army":
        return "the Government has a temporary army in Paris this turn"
    if verb == "desert":
        return "the Royalist picks a revolutionary army that deserts"
    if verb == "deputies_half":
        return f"half the {name(parts[0])} deputies join the {name(parts[1])}"
    if verb == "split_marais":
        return "the Marais deputies split between the Montagne and the Sans-Culotte"
    if verb == "subsidies":
        return "English subsidies for the Royalist while the Coalition is at 15 or more"
    return ""


def describe_entry(entry: dict[str, Any]) -> str:
    if "decide" in entry:
        return str(entry["decide"]["question"])
    text = "; ".join(describe_fx(fx) for fx in entry["fx"])
    if entry.get("person"):
        text = f"({entry['person']}) " + text
    return text


def apply_effect(state: State, fx: str, ctx: Context) -> None:
    """Apply one effect of the event language (see events.json and components-more.md A)."""
    verb, _, rest = fx.partition(" ")
    parts = rest.split(" ") if rest else []
    if verb == "fame":
        who = gov_controller(state) if parts[0] == "gov_holder" else parts[0]
        adjust_fame(state, who, int(parts[1]), ctx, " (event)")
    elif verb == "track":
        adjust_track(state, parts[0], int(parts[1]), ctx, " (event)")
    elif verb == "neutral":
        region = rest
        r = state["regions"][region]
        if r["revolt"] or r["coalition"] or (region == "Paris" and state["commune"]["raised"]):
            ctx.emit("events", f"ignored: {region} is in revolt or occupied", about=NOBODY)
        else:
            set_control(state, region, None, ctx, " (event)", about=NOBODY)
    elif verb == "neutral_revolt":
        region = rest
        r = state["regions"][region]
        if r["revolt"] or armies_in(state, region) or region == "Paris" or r["coalition"]:
            ctx.emit("events", f"ignored: no revolt can start in {region}", about=NOBODY)
        else:
            r["revolt"] = True
            set_control(state, region, None, ctx, " (revolt)", about=NOBODY)
            ctx.emit("revolt", f"{region} revolts (event)", about=NOBODY)
    elif verb == "take_revolt":
        current, region = parts[0], " ".join(parts[1:])
        r = state["regions"][region]
        royal_exception = current == "R" and r["coalition"]
        if r["revolt"] or region == "Paris" or (armies_in(state, region) and not royal_exception):
            ctx.emit("events", f"ignored: no revolt can start in {region}", about=NOBODY)
        else:
            r["revolt"] = True
            set_control(state, region, current, ctx, " (revolt)", about=NOBODY)
            ctx.emit("revolt", f"{region} revolts (event)", about=NOBODY)
    elif verb == "riot":
        if controller(state, rest) != "R":
            set_control(state, rest, None, ctx, " (riot)", about=NOBODY)
    elif verb == "take":
        current, region = parts[0], " ".join(parts[1:])
        r = state["regions"][region]
        if r["revolt"] or r["coalition"]:
            ctx.emit("events", f"ignored: {region} is in revolt or occupied", about=NOBODY)
        else:
            set_control(state, region, current, ctx, " (event)", about=NOBODY)
    elif verb == "pays":
        region, amount = parts[0], int(parts[1])
        holder = controller(state, region)
        exempt = parts[2] if len(parts) > 2 else None
        if holder is not None and holder != exempt:
            pay(state, holder, min(amount, money(state, holder)), ctx, f" ({region} event)")
    elif verb == "gov_pays":
        pay(state, "gov", min(int(rest), money(state, "gov")), ctx, " (event)")
    elif verb == "bonus":
        who_for = parts[2] if len(parts) > 2 else None
        if who_for == "not_gov_left":  # FROI political 7: whichever of MT/SC is not governing
            who_for = "SC" if gov_controller(state) == "MT" else "MT"
        key = parts[0] + (f":{who_for}" if who_for else "")
        state["bonuses"][key] = state["bonuses"].get(key, 0) + int(parts[1])
    elif verb == "commune_rises":
        if commune_may_rise(state):
            leader = None if parts[0] == "none" else parts[0]
            state["commune"] = {"raised": True, "controller": leader}
            ctx.emit(
                "commune",
                "the Commune rises" + (f" under the {name(leader)}" if leader else ", leaderless"),
                about=NOBODY,
            )
    elif verb == "commune_calms":
        if state["commune"]["raised"]:
            leader = state["commune"]["controller"]
            state["commune"] = {"raised": False, "controller": None}
            set_control(state, "Paris", leader, ctx, " (the Commune calms)", about=NOBODY)
    elif verb in ("exile", "kill"):
        p = state["persons"].get(rest)
        if p is not None and p["status"] != "dead":
            p["status"] = "exiled" if verb == "exile" else "dead"
            p["where"] = None
            ctx.emit(
                "person",
                f"{rest} is {'exiled' if verb == 'exile' else 'dead'} (event)",
                about=NOBODY,
            )
    elif verb == "massacre":
        king_too = rest == "king"  # Prairial's massacre spares nobody
        for pname, p in state["persons"].items():
            if (
                p["status"] == "prison"
                and p["current"] in ("R", "F")
                and (pname != "Louis XVI" or king_too)
            ):
                p["status"] = "dead"
                ctx.emit("person", f"{pname} dies in the prison massacres (event)", about=NOBODY)
                if pname == "Louis XVI":
                    state["king"]["dead"] = True
    elif verb == "free_prisoners":
        for pname, p in state["persons"].items():
            if p["status"] == "prison" and pname != "Louis XVI":
                p["status"] = "fled"
                ctx.emit("person", f"{pname} is freed (event)", about=NOBODY)
    elif verb == "receive":
        state["currents"][parts[0]]["money"] += int(parts[1])
        ctx.emit("money", f"the {name(parts[0])} receives {parts[1]} (event)", about=NOBODY)
    elif verb == "subsidies":
        state["subsidies"] = True
    elif verb == "deputies_half":
        source, target = parts
        moved = (state["assembly"][source]["count"] + 1) // 2
        state["assembly"][source]["count"] -= moved
        state["assembly"][target]["count"] += moved
        ctx.reveal(f"{moved} {name(source)} deputies join the {name(target)} (event)", about=NOBODY)
    elif verb == "split_marais":
        count = state["assembly"]["M"]["count"]
        holder = gov_controller(state)
        other = "SC" if holder == "MT" else "MT"
        first = (count + 1) // 2
        state["assembly"]["M"]["count"] = 0
        state["assembly"][holder]["count"] += first
        state["assembly"][other]["count"] += count - first
        ctx.reveal(
            f"the Marais deputies split: {first} to the {name(holder)}, "
            f"{count - first} to the {name(other)} (event)",
            about=NOBODY,
        )
    elif verb == "allied_return_first":
        for army_id in parts:
            if army_id in state["allied_gone"]:
                state["allied_gone"].remove(army_id)
                ctx.emit("army", f"{army_id} may enter again (event)", about=NOBODY)
                break
    elif verb == "catholic_back":
        if state["catholic_gone"]:
            back = state["catholic_gone"].pop(0)
            ctx.emit(
                "army",
                f"the Catholic & Royal army {back} may be raised again (event)",
                about=NOBODY,
            )
    elif verb == "switch":
        pname, current = parts[0], parts[1]
        if pname in state["persons"] and state["persons"][pname]["status"] != "dead":
            state["persons"][pname]["current"] = current
            ctx.emit("person", f"{pname} joins the {name(current)} (event)", about=NOBODY)
    elif verb in ("unless_jailed", "unless_outlawed"):
        state.setdefault("pending_penalties", []).append(fx)
    elif verb == "withdraw":
        for army_id in parts:
            gone = [a for a in state["armies"] if a["id"] == army_id]
            if gone:
                state["armies"].remove(gone[0])
                state["allied_gone"].append(army_id)
                ctx.emit("army", f"{army_id} leaves France (event)", about=NOBODY)
    elif verb == "allied_return":
        if rest in state["allied_gone"]:
            state["allied_gone"].remove(rest)
            ctx.emit("army", f"{rest} may enter again (event)", about=NOBODY)
    elif verb == "army_removed":
        for region in parts:
            found = armies_in(state, region, "rev")
            if found:
                state["armies"].remove(found[0])
                ctx.emit(
                    "army", f"a revolutionary army at {region} is removed (event)", about=NOBODY
                )
                break
    elif verb == "retreat":
        for region in parts:
            found = armies_in(state, region, "rev")
            if found:
                near = sorted(ADJACENT[region], key=lambda r: (r != "Paris", r))
                safe = [r for r in near if not enemy_present(state, r)]
                if safe:
                    found[0]["where"] = safe[0]
                    ctx.emit(
                        "army",
                        f"a revolutionary army retreats from {region} to {safe[0]}",
                        about=NOBODY,
                    )
                break
    elif verb == "jaunaye":
        if any(a["side"] == "catholic" for a in state["armies"]):
            adjust_track(state, "clergy", -5, ctx, " (La Jaunaye)")
    elif verb == "temp_army":
        state["armies"].append(
            {
                "id": f"temporary_{state['turn']}",
                "side": "rev",
                "kind": "temporary",
                "where": "Paris",
            }
        )
        ctx.emit("army", "the Government has a temporary army in Paris this turn", about=NOBODY)
    elif verb == "desert":
        if any(a["side"] == "rev" for a in state["armies"]):
            schedule(state, Step(kind="desert"))
    else:
        ctx.emit("events", f"effect not yet implemented, ignored: {fx}", about=NOBODY)


def gov_decision_prompt(state: State, t: GovernmentDecision) -> Prompt | None:
    seat = gov_seat(state)
    decide = t["decision"]
    if seat is None:
        return None
    yes = "; ".join(describe_fx(f) for f in decide["yes"])
    no = "; ".join(describe_fx(f) for f in decide["no"])
    return Prompt(
        seat,
        f"Government decision: {decide['question']}",
        (Choice("decide:yes", "Yes", consequence=yes), Choice("decide:no", "No", consequence=no)),
        rule="6.2",
    )


def gov_decision_handle(state: State, t: GovernmentDecision, action: str, ctx: Context) -> None:
    finish(state)
    answer = action.split(":")[1]
    ctx.emit("decision", f"the Government answers {answer}", about=NOBODY)
    for fx in t["decision"][answer]:
        apply_effect(state, fx, ctx)


def gov_decision_empty(state: State, t: GovernmentDecision, ctx: Context) -> None:
    """An automated Government (the automated Marais) always answers no."""
    finish(state)
    state.setdefault("auto_decisions", []).append(t["decision"]["no"])


def desert_prompt(state: State, t: Step) -> Prompt | None:
    """Legislative counter-revolution 11: the Royalist picks the army that deserts."""
    seat = seat_of(state, "R")
    armies = sorted(a["id"] for a in state["armies"] if a["side"] == "rev")
    if seat is None or not armies:
        return None
    where = {a["id"]: a["where"] for a in state["armies"]}
    choices = tuple(
        Choice(
            f"desert:{a}",
            f"{a.replace('_', ' ')} at {where[a]}",
            detail=f"This revolutionary army leaves the map; {where[a]} loses its defender.",
        )
        for a in armies
    )
    return Prompt(seat, "Which revolutionary army deserts?", choices, rule="6.2")


def desert_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    finish(state)
    army_id = action.split(":", 1)[1]
    state["armies"] = [a for a in state["armies"] if a["id"] != army_id]
    ctx.emit("army", f"{army_id.replace('_', ' ')} deserts (event)", about=NOBODY)


def assembly_prompt(state: State, t: AssemblyDecision) -> Prompt | None:
    from tabletop.framework.decisions import OrderedVote

    seat = OrderedVote(t["vote"]).next_seat
    if seat is None:
        return None
    yes = "; ".join(describe_fx(f) for f in t["decision"]["yes"])
    no = "; ".join(describe_fx(f) for f in t["decision"]["no"])
    return Prompt(
        seat,
        f"The Assembly votes: {t['decision']['question']}",
        (
            Choice("vote:yes", "Yes, with your deputies", consequence=yes),
            Choice("vote:no", "No, with your deputies", consequence=no),
        ),
        rule="6.2",
    )


def assembly_handle(state: State, t: AssemblyDecision, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    from tabletop.framework.decisions import OrderedVote

    OrderedVote(t["vote"]).vote(seat, action.split(":")[1], ctx)


def assembly_done(state: State, t: AssemblyDecision, ctx: Context) -> None:
    finish(state)
    schedule(state, {**t, "kind": "assembly_tally"})


def assembly_tally(state: State, t: AssemblyDecision, ctx: Context) -> None:
    """A majority of deputies decides; a tie is broken as for laws (7.5.2.3.1)."""
    from tabletop.framework.decisions import OrderedVote

    votes = OrderedVote(t["vote"]).answers()
    yes = no = 0
    for seat, value in votes.items():
        count = sum(deputies(state, c) for c in seating(state["players"])[seat])
        yes, no = (yes + count, no) if value == "yes" else (yes, no + count)
    if yes == no:
        breaker = (
            seat_of(state, state["persons"]["Louis XVI"]["current"])
            if state["regime"] == "legislative"
            else gov_seat(state)
        )
        answer = votes.get(breaker, "no") if breaker is not None else "no"
    else:
        answer = "yes" if yes > no else "no"
    ctx.reveal(f"{t['decision']['question']} {yes} yes, {no} no: {answer}")
    for fx in t["decision"][answer]:
        apply_effect(state, fx, ctx)


def run_auto_decisions(state: State, ctx: Context) -> None:
    for effects in state.pop("auto_decisions", []):
        for fx in effects:
            apply_effect(state, fx, ctx)


# 6.3 Turn order -------------------------------------------------------------------------


def turn_order(state: State, t: Step, ctx: Context) -> None:
    """Fame plus controlled regions, higher first; fame breaks ties, then dice (6.3)."""
    run_auto_decisions(state, ctx)
    enter_phase(state, "order", ctx)
    scores = {
        c: fame(state, c) + len(controlled_regions(state, c))
        for c in ("R", "F", "M", "G", "MT", "SC")
    }
    groups: dict[tuple[int, int], list[str]] = {}
    for c, s in scores.items():
        groups.setdefault((s, fame(state, c)), []).append(c)
    order: list[str] = []
    for key in sorted(groups, reverse=True):
        tied = groups[key]
        while len(tied) > 1:
            rolls = {
                c: roll(
                    state,
                    ctx,
                    1,
                    6,
                    reason=f"turn order tie, 6.3 ({name(c)})",
                    about=seat_of(state, c),
                )[0]
                for c in tied
            }
            best = max(rolls.values())
            first = [c for c in tied if rolls[c] == best]
            if len(first) == 1:
                order.append(first[0])
                tied = [c for c in tied if c != first[0]]
        order.extend(tied)
    state["order"] = order
    ctx.emit("order", "turn order: Government, " + ", ".join(name(c) for c in order), about=NOBODY)


# 6.4 Declaration of objectives: sealed, revealed together -------------------------------


def joint_follower(state: State, current: str) -> str | None:
    """The ally whose objective ``current`` declares, if ``current`` leads a pact."""
    for a, b in state.get("pacts", []):
        if current in (a, b):
            first, second = sorted((a, b), key=state["order"].index)
            return second if current == first else None
    return None


def joint_leader(state: State, current: str) -> str | None:
    for a, b in state.get("pacts", []):
        if current in (a, b):
            first, second = sorted((a, b), key=state["order"].index)
            return first if current == second else None
    return None


def declarers(state: State) -> list[str]:
    out = ["gov"] if gov_seat(state) is not None else []
    return out + [
        c
        for c in state["order"]
        if seat_of(state, c) is not None and joint_leader(state, c) is None
    ]


def objectives_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "objectives", ctx)
    state["gov"]["controller_at_objectives"] = gov_controller(state)
    state["objectives"] = {}
    state["objective_kind"] = {}
    for who in declarers(state):
        seat = actor_seat(state, who)
        assert seat is not None  # declarers() lists seated declarers only
        state["objectives"][who] = SecretChoices.new(f"objective of the {name(who)}", [seat])
    schedule(state, Step(kind="objectives"))


def objective_kinds(state: State, who: str, joint: bool = True) -> dict[str, list[tuple[str, str]]]:
    """The objectives a declarer may choose, by kind: (value, label) pairs (6.4.1, 6.4.2)."""
    regions = list(REGION_NAMES)
    reg = regime(state)
    kinds: dict[str, list[tuple[str, str]]] = {}
    if who == "gov":
        kinds["arrest"] = [
            (f"arrest:{p}", f"Arrest {p}")
            for p in state["persons"]
            if p != "Louis XVI" and state["persons"][p]["status"] not in ("dead",)
        ]
        kinds["suppress"] = [(f"suppress:{r}", f"Suppress the revolt in {r}") for r in regions]
        kinds["destroy"] = [(f"destroy:{r}", f"Destroy an enemy army in {r}") for r in regions]
        kinds["crush_commune"] = [("crush_commune", "Crush the Commune by force")]
        if "gov" in reg["laws_by"] and state["regime"] != "legislative":
            kinds["law"] = [(f"law:{k}", f"Pass {law['name']}") for k, law in LAWS.items()]
        return kinds
    kinds["persuade"] = [
        (f"persuade:{p}", f"Win over {p}")
        for p, data in PERSONS.items()
        if p in state["persons"]
        and state["persons"][p]["current"] != who
        and who in [data["current"], *data["secondary"]]
        and state["persons"][p]["status"] != "dead"
    ]
    kinds["plot"] = [
        (f"plot:{r}", f"Take {r} by a plot") for r in regions if controller(state, r) != who
    ]
    kinds["revolt"] = [(f"revolt:{r}", f"Start a revolt in {r}") for r in regions if r != "Paris"]
    kinds["suppress"] = [
        (f"suppress:{r}", f"Suppress the revolt in {r}") for r in regions if r != "Paris"
    ]
    kinds["commune"] = [
        ("raise_commune", "Raise the Commune"),
        ("suppress_commune", "Suppress the Commune"),
    ]
    if "currents" in reg["laws_by"]:
        kinds["law"] = [(f"law:{k}", f"Pass {law['name']}") for k, law in LAWS.items()]
    regimes_ = (
        ("convention", "terror", "thermidor")
        if state["options"].get("scenario") != "open"
        else (
            "convention",
            "terror",
            "thermidor",
            "wrath",
            "mercy",
            "directorate",
            "prairial",
            "ffr",
            "froi",
        )
    )
    kinds["regime"] = [
        (f"regime:{k}", f"Install the {REGIMES[k]['name']}")
        for k in regimes_
        if k != state["regime"]
    ]
    follower = joint_follower(state, who) if joint else None
    if follower is not None:  # 6.4: each ally must be able to achieve it alone
        mine = able(state, who, kinds)
        theirs = able(state, follower, objective_kinds(state, follower, joint=False))
        allowed = {value for pairs in theirs.values() for value, _ in pairs}
        kinds = {k: [(v, label) for v, label in pairs if v in allowed] for k, pairs in mine.items()}
    return {k: v for k, v in kinds.items() if v}


def able(
    state: State, who: str, kinds: dict[str, list[tuple[str, str]]]
) -> dict[str, list[tuple[str, str]]]:
    """The objectives ``who`` could achieve by its own actions (6.4 on joint ones): only
    Currents outside the Assembly start revolts, only those present propose laws, only
    the Commune's Currents act on it."""

    out = dict(kinds)
    if officially_present(state, who):
        out.pop("revolt", None)
    else:
        out.pop("law", None)
    if who not in commune_actors(state):
        out.pop("commune", None)
    return out


KIND_LABELS = {
    "arrest": "Arrest a Personality",
    "suppress": "Suppress a revolt",
    "destroy": "Destroy an enemy army",
    "crush_commune": "Crush the Commune",
    "law": "Have a law passed",
    "persuade": "Win over a Personality",
    "plot": "Take a region by plot",
    "revolt": "Start a revolt",
    "commune": "Raise or suppress the Commune",
    "regime": "Change the regime",
}


def next_declarer(state: State) -> str | None:
    for who in declarers(state):
        if (
            who in state["objectives"]
            and SecretChoices(state["objectives"][who]).next_seat is not None
        ):
            return who
    return None


def objectives_prompt(state: State, t: Step) -> Prompt | None:
    who = next_declarer(state)
    if who is None:
        return None
    seat = actor_seat(state, who)
    assert seat is not None
    kinds = objective_kinds(state, who)
    kind = state["objective_kind"].get(who)
    if kind is None:
        choices = tuple(
            Choice(
                f"kind:{k}",
                KIND_LABELS[k],
                detail=f"{kind_detail(k)} Next you name the target ({len(kinds[k])} possible).",
            )
            for k in kinds
        )
        return Prompt(seat, f"Declare the {name(who)}'s objective: what kind?", choices, rule="6.4")
    options = kinds[kind]
    choices = tuple(
        Choice(
            f"objective:{value}",
            label,
        )
        for value, label in options
    )
    choices += (
        Choice(
            "kind:back",
            "Choose another kind",
            detail="Back to the kinds of objective; nothing is declared yet.",
            key=PASS_KEY,
        ),
    )
    return Prompt(seat, f"Declare the {name(who)}'s objective", choices, rule="6.4")


def objectives_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    who = next_declarer(state)
    assert who is not None
    verb, _, value = action.partition(":")
    if verb == "kind":
        state["objective_kind"][who] = None if value == "back" else value
        return
    state["objective_kind"][who] = None
    SecretChoices(state["objectives"][who]).choose(seat, value, ctx, label=objective_words(value))


def objectives_done(state: State, t: Step, ctx: Context) -> None:
    finish(state)
    schedule(state, Step(kind="objectives_reveal"))


def objectives_reveal(state: State, t: Step, ctx: Context) -> None:
    """Every sealed objective is shown at once (6.4), in words and credited to no seat
    (the last seat to seal one did not reveal the others)."""
    state["declared"] = {}
    lines = []
    for who, data in state["objectives"].items():
        sealed = SecretChoices(data)
        if not sealed.complete:
            raise ValueError(f"not every seat has chosen yet ({sealed.topic})")
        value = next(iter(sealed.answers().values()))
        state["declared"][who] = value
        owner = (
            f"the Government ({name(gov_controller(state))})"
            if who == "gov"
            else f"the {name(who)}"
        )
        line = f"{owner}: {objective_words(value)}"
        follower = joint_follower(state, who) if who != "gov" else None
        if follower is not None:
            state["declared"][follower] = value
            line += f", shared with the {name(follower)} (6.4)"
        lines.append(line)
    ctx.reveal("objectives revealed (6.4): " + "; ".join(lines), about=NOBODY)
    ctx.summary(
        f"Turn {state['turn']}: the objectives (6.4)",
        [
            *(line[0].upper() + line[1:] for line in lines),
            "Met: fame +1 in the Interphase; missed: -1.",
        ],
    )


# 6.5 Personality placement ----------------------------------------------------------


def placement_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "placement", ctx)
    schedule(
        state,
        {
            "kind": "placement",
            "order": [c for c in state["order"] if seat_of(state, c) is not None],
            "index": 0,
        },
    )


def unplaced(state: State, current: str) -> list[str]:
    return [
        n
        for n, p in state["persons"].items()
        if p["current"] == current
        and p["status"] == "free"
        and p["where"] is None
        and n != "Louis XVI"
    ]


def placement_prompt(state: State, t: Placement) -> Prompt | None:
    if t["index"] >= len(t["order"]):
        return None
    current = t["order"][t["index"]]
    todo = unplaced(state, current)
    if not todo:
        return None
    person = todo[0]
    seat = seat_of(state, current)
    assert seat is not None
    must_paris = (
        gov_controller(state) == current
        and len(todo) == 1
        and not any(
            p["where"] == "Paris" and p["current"] == current and p["status"] == "free"
            for n, p in state["persons"].items()
            if n != "Louis XVI"  # he cannot act for the Government (11.0)
        )
    )
    if must_paris:
        regions = ["Paris"]
    elif t.get("showing_all"):
        regions = list(REGION_NAMES)
    else:
        regions = likely_places(state, current, person)
    choices = [
        Choice(
            f"place:{r}",
            r,
        )
        for r in regions
    ]
    if person == "Carnot" and carnot_may_command(state):
        for r in REGION_NAMES:
            if any(a["where"] == r and a["side"] == "rev" for a in state["armies"]):
                choices.append(
                    Choice(
                        f"general:{r}",
                        f"Send Carnot to command the armies at {r}",
                        detail="+1 or -1 to their combat rolls; he moves with them and takes "
                        "no action this turn (R.3.9.3).",
                    )
                )
    if not must_paris:
        if t.get("showing_all"):
            choices.append(
                Choice(
                    "back",
                    "Back to the usual places",
                    detail="Back to the short list of regions where he usually goes.",
                    key=PASS_KEY,
                )
            )
        else:
            choices.append(Choice("more", "Another region...", detail="Choose among all 26."))
    return Prompt(seat, f"Place {person} ({name(current)})", tuple(choices), rule="6.5")


def carnot_may_command(state: State) -> bool:
    """R.3.9.3, R.5.9.3, R.6.9.3 (and Prairial under the Montagne, R.8.9.2): Carnot, not
    an outlaw, may command the armies when the Marais (his holder) sends him."""

    reg = state["regime"]
    allowed = reg in ("terror", "wrath", "mercy") or (
        reg == "prairial" and gov_controller(state) == "MT"
    )
    carnot = state["persons"].get("Carnot")
    return bool(
        allowed and carnot and carnot["current"] == "M" and not person_outlaw(state, "Carnot")
    )


def likely_places(state: State, current: str, person: str) -> list[str]:
    """The short list first shown (6.5): Paris, where he is influential, where his
    Current holds, and the regions in revolt; every region is one choice further."""
    return [
        r
        for r in REGION_NAMES
        if r == "Paris"
        or influential(person, r)
        or controller(state, r) == current
        or state["regions"][r]["revolt"]
    ]


def place_detail(state: State, current: str, person: str, region: str) -> str:
    """Where a Personality would stand, and what he could do from there this turn."""
    holder = controller(state, region)
    revolt = state["regions"][region]["revolt"]
    notes = [
        f"{region} (income {income_of(region)}): "
        + (f"held by the {name(holder)}" if holder else "neutral")
        + (", in revolt" if revolt else "")
    ]
    notes.append(
        "influential here: +2 to regional actions"
        if influential(person, region)
        else "not influential here"
    )
    if revolt:
        notes.append("he could take part in suppressing the revolt (7.4.3)")
    elif holder != current:
        notes.append("he could plot to take it (7.4.1)")
    if region == "Paris":
        notes.append("in Paris he may sway deputies (7.5.2.1)")
    return "; ".join(notes) + "."


def placement_handle(state: State, t: Placement, action: str, ctx: Context) -> None:
    if action in ("more", "back"):
        t["showing_all"] = action == "more"
        return
    t["showing_all"] = False
    current = t["order"][t["index"]]
    person = unplaced(state, current)[0]
    verb, _, region = action.partition(":")
    state["persons"][person]["where"] = region
    if verb == "general":
        state["persons"][person]["general"] = True
        state["persons"][person]["acted"] = True
        ctx.emit("place", f"{person} takes command of the armies at {region} (R.3.9.3)")
        return
    ctx.emit("place", f"{person} goes to {region}")


def placement_empty(state: State, t: Placement, ctx: Context) -> None:
    if t["index"] < len(t["order"]) and not unplaced(state, t["order"][t["index"]]):
        t["index"] += 1
        if t["index"] < len(t["order"]):
            return
    finish(state)
