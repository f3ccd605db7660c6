"""6.2: what an event's effects do (``apply_effect``) and how they read in words
(``describe_fx``)."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, Context, State

from ..core import (
    TASKS,
    adjust_fame,
    adjust_track,
    armies_in,
    commune_may_rise,
    controller,
    enemy_present,
    gov_controller,
    money,
    name,
    pay,
    set_control,
)
from ..data import ADJACENT
from ..factions import FEUILLANT, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from ..tasks import (
    Step,
)
from ..words import (
    FACTION_NAMES,
    army_name,
)

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


#: The event effects whose words are one sentence: ``{rest}`` stands for the effect's
#: arguments as written (a region), ``{either}`` for its regions joined by "or".
EFFECT_WORDS = {
    "neutral": "{rest} becomes neutral",
    "neutral_revolt": "{rest} revolts, neutral",
    "riot": "royalist riot in {rest}",
    "gov_pays": "the Government pays {rest}",
    "commune_calms": "the Commune calms down and its leader takes Paris",
    "massacre": "prison massacres: Royalist and Feuillant prisoners die",
    "free_prisoners": "every prisoner is freed",
    "allied_return": "{either} may enter France again",
    "allied_return_first": "{either} may enter France again",
    "catholic_back": "a destroyed Catholic & Royal army may be raised again",
    "army_removed": "a revolutionary army at {either} is removed",
    "retreat": "a revolutionary army at {either} retreats",
    "jaunaye": "Peace of La Jaunaye: Clergy -5 if a Catholic & Royal army stands",
    "temp_army": "the Government has a temporary army in Paris this turn",
    "desert": "the Royalist picks a revolutionary army that deserts",
    "split_marais": "the Marais deputies split between the Montagne and the Sans-Culotte",
    "subsidies": "English subsidies for the Royalist while the Coalition is at 15 or more",
}


def describe_fx(fx: str) -> str:
    verb, *args = fx.split(" ", 1)
    rest = args[0] if args else ""
    parts = rest.split(" ") if rest else []
    words = EFFECT_WORDS.get(verb)
    if words is not None:
        return words.format(rest=rest, either=" or ".join(parts))
    if verb == "fame":
        return f"{who_text(parts[0])} fame {int(parts[1]):+d}"
    if verb == "track":
        return f"{parts[0].capitalize()} {int(parts[1]):+d}"
    if verb == "take_revolt":
        return f"{name(parts[0])} takes {' '.join(parts[1:])} in revolt"
    if verb == "take":
        return f"{name(parts[0])} takes {' '.join(parts[1:])}"
    if verb == "pays":
        return f"the holder of {parts[0]} pays {parts[1]}" + (
            f" (not the {name(parts[2])})" if len(parts) > 2 else ""
        )
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
    if verb == "receive":
        return f"the {name(parts[0])} receives {parts[1]}"
    if verb in ("exile", "kill"):
        return f"{rest} is {'exiled' if verb == 'exile' else 'killed'}"
    if verb == "switch":
        return f"{parts[0]} joins the {name(parts[1])}"
    if verb in ("unless_jailed", "unless_outlawed"):
        cond, effect = parts[0], " ".join(parts[1:])
        unless = "is in prison" if verb == "unless_jailed" else "is outlawed"
        who = f"the {FACTION_NAMES[cond]} faction" if cond in FACTION_NAMES else cond
        return f"at the Interphase, unless {who} {unless}: " + describe_fx(effect)
    if verb == "withdraw":
        return f"{', '.join(parts)} leave{'s' if len(parts) == 1 else ''} France"
    if verb == "deputies_half":
        return f"half the {name(parts[0])} deputies join the {name(parts[1])}"
    return ""


def describe_entry(entry: dict[str, Any]) -> str:
    if "decide" in entry:
        return str(entry["decide"]["question"])
    text = "; ".join(describe_fx(fx) for fx in entry["fx"])
    if entry.get("person"):
        text = f"({entry['person']}) " + text
    return text


def _event_revolt(
    state: State, region: str, owner: str | None, blocked: bool, ctx: Context
) -> None:
    """An event's revolt in ``region``, controlled by ``owner`` (None: neutral), unless
    ``blocked``, which the log says (the event then does nothing there)."""
    if blocked:
        ctx.emit("events", f"ignored: no revolt can start in {region}", about=NOBODY)
        return
    state["regions"][region]["revolt"] = True
    set_control(state, region, owner, ctx, " (revolt)", about=NOBODY)
    ctx.emit("revolt", f"{region} revolts (event)", about=NOBODY)


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
        r = state["regions"][rest]
        blocked = r["revolt"] or armies_in(state, rest) or rest == "Paris" or r["coalition"]
        _event_revolt(state, rest, None, bool(blocked), ctx)
    elif verb == "take_revolt":
        current, region = parts[0], " ".join(parts[1:])
        r = state["regions"][region]
        royal_exception = current == ROYALIST and r["coalition"]
        blocked = (
            r["revolt"] or region == "Paris" or (armies_in(state, region) and not royal_exception)
        )
        _event_revolt(state, region, current, bool(blocked), ctx)
    elif verb == "riot":
        if controller(state, rest) != ROYALIST:
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
            who_for = SANS_CULOTTE if gov_controller(state) == MONTAGNE else MONTAGNE
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
                and p["current"] in (ROYALIST, FEUILLANT)
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
        ctx.emit(
            "money",
            f"the {name(parts[0])} receives {parts[1]} (event)",
            about=NOBODY,
            money={parts[0]: int(parts[1])},
        )
    elif verb == "subsidies":
        state["subsidies"] = True
    elif verb == "deputies_half":
        source, target = parts
        moved = (state["assembly"][source]["count"] + 1) // 2
        state["assembly"][source]["count"] -= moved
        state["assembly"][target]["count"] += moved
        ctx.reveal(f"{moved} {name(source)} deputies join the {name(target)} (event)", about=NOBODY)
    elif verb == "split_marais":
        count = state["assembly"][MARAIS]["count"]
        holder = gov_controller(state)
        other = SANS_CULOTTE if holder == MONTAGNE else MONTAGNE
        first = (count + 1) // 2
        state["assembly"][MARAIS]["count"] = 0
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
                ctx.emit(
                    "army",
                    f"{army_name(army_id)} leaves France (event)",
                    about=NOBODY,
                    army={army_id: "gone"},
                )
    elif verb == "allied_return":
        if rest in state["allied_gone"]:
            state["allied_gone"].remove(rest)
            ctx.emit("army", f"{army_name(rest)} may enter again (event)", about=NOBODY)
    elif verb == "army_removed":
        for region in parts:
            found = armies_in(state, region, "rev")
            if found:
                state["armies"].remove(found[0])
                ctx.emit(
                    "army",
                    f"{army_name(found[0]['id'])} at {region} is removed (event)",
                    about=NOBODY,
                    army={found[0]["id"]: "gone"},
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
        ctx.emit(
            "army",
            "the Government has a temporary army in Paris this turn",
            about=NOBODY,
            army={f"temporary_{state['turn']}": "new"},
        )
    elif verb == "desert":
        if any(a["side"] == "rev" for a in state["armies"]):
            TASKS.schedule(state, Step(kind="desert"))
    else:
        ctx.emit("events", f"effect not yet implemented, ignored: {fx}", about=NOBODY)
