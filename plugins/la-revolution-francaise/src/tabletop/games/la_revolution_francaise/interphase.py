"""Chapter 10, the Interphase (economy, income, fame for objectives), the end of a
turn, and chapter 14, victory in three steps."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, Context, State

from .assembly import deputies
from .core import (
    TASKS,
    adjust_fame,
    adjust_track,
    controlled_regions,
    enter_phase,
    fame,
    gov_controller,
    income_of,
    name,
    paris_controller,
    result,
    roll,
    seat_of,
    subject,
    track_level,
)
from .data import REGIMES, REGION_NAMES, SETUP, TABLES, seating
from .factions import FEUILLANT, GIRONDE, MARAIS, MONTAGNE, ROYALIST, SANS_CULOTTE
from .initial.effects import Effect, apply_effect
from .plans import OWN_DEEDS, Objective
from .recap import changes
from .tasks import Step
from .words import objective_words

CURRENT_CODES = (ROYALIST, FEUILLANT, MARAIS, GIRONDE, MONTAGNE, SANS_CULOTTE)


def interphase(state: State, t: Step, ctx: Context) -> None:
    ctx.summary(
        f"Turn {state['turn']}: after the Military Phase (9)",
        [*military_lines(state), *changes(state)],
    )
    enter_phase(state, "interphase", ctx)
    declared = dict(state.get("declared", {}))
    spent = state["spent"]
    economy(state, ctx)
    pending_penalties(state, ctx)
    gains = income(state, ctx)
    standing = {who: objective_status(state, who, value) for who, value in declared.items()}
    fame_for_objectives(state, ctx)
    lines = [
        f"Economy: {spent} spent this turn, track at {state['tracks']['economy']} "
        f"(level {track_level(state, 'economy')}: costs x{track_level(state, 'economy')}) (10.1)",
        "Income: " + ", ".join(f"{name(c)} +{gains[c]}" for c in CURRENT_CODES) + " (10.2)",
        f"Government treasury reset to {state['gov']['money']} (10.2.2)",
    ]
    for who, value in declared.items():
        owner = "Government" if who == "gov" else name(who)
        status = standing[who]
        if status == "void":
            status = "void, the Government changed hands (6.4): no fame for it"
        elif status != "met":
            status = "missed"  # at the Interphase an open objective is a missed one
        lines.append(f"{owner}: {objective_words(value)}: {status} (10.3)")
    lines += changes(state)
    gov = state["gov"]
    lines.append(
        f"Regime: the {REGIMES[state['regime']]['name']}, Government held by the "
        f"{name(gov['controller'])}"
        + (f" and the {name(gov['partner'])}" if gov.get("partner") else "")
    )
    ctx.summary(f"Turn {state['turn']} ends: the Interphase (10)", lines)


def military_lines(state: State) -> list[str]:
    """Where the Military Phase left France: war, armies, occupied and revolting regions
    (all public)."""
    armies = state["armies"]

    def at(side: str) -> str:
        places = sorted({a["where"] for a in armies if a["side"] == side and a["where"]})
        return ", ".join(places) or "none"

    occupied = [r for r in REGION_NAMES if state["regions"][r]["coalition"]]
    revolts = [r for r in REGION_NAMES if state["regions"][r]["revolt"]]
    return [
        ("France is at war" if state["war"] else "France is at peace")
        + f"; Coalition track {state['tracks']['coalition']}",
        f"Revolutionary armies: {at('rev')}",
        f"Allied armies: {at('allied')}",
        f"Catholic & Royal armies: {at('catholic')}",
        f"Held by the Coalition: {', '.join(occupied) or 'none'}",
        f"In revolt: {', '.join(revolts) or 'none'}",
        f"Paris: {capital_words(state)}",
    ]


def capital_words(state: State) -> str:
    holder = paris_controller(state)
    text = f"held by the {name(holder)}" if holder else "neutral"
    if state["commune"]["raised"]:
        text += ", the Commune raised"
    return text


def economy(state: State, ctx: Context) -> None:
    """10.1: +1 on the Economy track per full 1000 assignats spent this turn."""
    steps = state["spent"] // 1000
    if steps:
        adjust_track(state, "economy", steps, ctx, f" ({state['spent']} spent, 10.1)")
    state["spent"] = 0


def pending_penalties(state: State, ctx: Context) -> None:
    """The events' penalties that waited for the Interphase (``unless_jailed``,
    ``unless_outlawed``): each applies its effect unless its Personality is in prison
    (or dead) or its faction outlawed."""
    for fx in state.pop("pending_penalties", []):
        penalty = Effect.read(fx)
        cond, effect = penalty.words[0], " ".join(penalty.words[1:])
        if penalty.verb == "unless_jailed":
            p = state["persons"].get(cond)
            if p is not None and p["status"] in ("prison", "dead"):
                continue
        elif cond in state["factions_outlawed"]:
            continue
        apply_effect(state, effect, ctx)


def minimum_income(state: State, current: str) -> int:
    """10.2.1: 100 plus 50 per Personality alive, free or fled."""
    count = sum(
        1
        for n, p in state["persons"].items()
        if p["current"] == current and p["status"] in ("free", "fled")
    )
    return 100 + 50 * count


def income(state: State, ctx: Context) -> dict[str, int]:
    """10.2: each Current's income; returns what each received."""
    gains: dict[str, int] = {}
    for c in CURRENT_CODES:
        regions = controlled_regions(state, c)
        if c == ROYALIST:
            regions = [r for r in regions if not state["regions"][r]["coalition"]]
        gain = max(sum(income_of(r) for r in regions), minimum_income(state, c))
        if c == ROYALIST:
            gain += TABLES["coalition_money"][
                ("I", "II", "III")[track_level(state, "coalition") - 1]
            ]
            if state.get("subsidies") and state["tracks"]["coalition"] >= 15:
                gain += 100  # English subsidies (a First Republic event)
        state["currents"][c]["money"] += gain
        gains[c] = gain
        prefix, about = subject(state, c)
        ctx.emit("income", f"{prefix}receives {gain}", about=about, money={c: gain})
    lost = 0
    for r in REGION_NAMES:
        reg = state["regions"][r]
        occupied = any(
            a["side"] == "catholic" for a in state["armies"] if a["where"] == r
        ) and not any(a["side"] == "rev" for a in state["armies"] if a["where"] == r)
        if reg["revolt"] or reg["coalition"] or occupied:
            lost += income_of(r)
    before = state["gov"]["money"]
    state["gov"]["money"] = max(500, 2500 - lost)
    ctx.emit(
        "income",
        f"the Government's treasury is reset to {state['gov']['money']} (10.2.2)",
        about=NOBODY,
        money={"gov": state["gov"]["money"] - before},
    )
    if state["patrie"] and seat_of(state, MARAIS) is None:
        half = gains[MARAIS] // 2  # half of this turn's income, not of its savings
        state["currents"][MARAIS]["money"] -= half
        state["gov"]["money"] += half
        ctx.emit(
            "income",
            f"the automated Marais gives the Government {half} (15.2.1.3)",
            about=NOBODY,
            money={MARAIS: -half, "gov": half},
        )
    return gains


def objective_met(state: State, who: str, objective: str) -> bool:
    """Anyone's deed counts (6.4), but a plot or a persuasion must profit the declarer
    or its ally in a joint objective."""
    achieved = state["achieved"]
    declared = Objective.read(objective)
    if declared.kind in OWN_DEEDS:
        allies = {who, *(c for pact in state.get("pacts", []) if who in pact for c in pact)}
        return any(declared.deed(c) in achieved for c in allies)
    return objective in achieved


#: The turn's phases in order (5.0), and the last phase in which each kind of
#: objective can be met (where ``achieved`` records it): after it, it is missed.
PHASE_ORDER = (
    "setup",
    "negotiations",
    "events",
    "order",
    "objectives",
    "placement",
    "actions",
    "political",
    "patriot",
    "military",
    "interphase",
    "over",
)
LAST_CHANCE = {
    "arrest": "actions",
    "persuade": "actions",
    "plot": "actions",
    "revolt": "actions",
    "suppress": "actions",
    "raise_commune": "actions",
    "suppress_commune": "actions",
    "law": "political",
    "destroy": "military",
    "crush_commune": "military",
    "regime": "military",
}


def objective_status(state: State, who: str, objective: str) -> str:
    """A declared objective's standing during the turn (6.4, 10.3): "met" once done
    (it stays met, 6.4), "void" while a new Current holds the Government that declared
    it, "missed" once the last phase that could meet it is over, otherwise "open"."""
    if who == "gov" and gov_controller(state) != state["gov"]["controller_at_objectives"]:
        return "void"
    if objective_met(state, who, objective):
        return "met"
    last = LAST_CHANCE.get(Objective.read(objective).kind, "military")
    phase = state["phase"] if state["phase"] in PHASE_ORDER else "setup"
    return "missed" if PHASE_ORDER.index(phase) > PHASE_ORDER.index(last) else "open"


def fame_for_objectives(state: State, ctx: Context) -> None:
    """10.3: +1 for a met objective, -1 otherwise; the Government's failure also costs
    its controller a point, and a new controller voids it (6.4)."""
    for who, objective in state.get("declared", {}).items():
        met = objective_met(state, who, objective)
        words = f"{objective_words(objective)}, {'met' if met else 'missed'}"
        if who == "gov":
            if gov_controller(state) != state["gov"]["controller_at_objectives"]:
                ctx.emit(
                    "objective",
                    "the Government changed hands: its objective is void (6.4)",
                    about=NOBODY,
                )
                continue
            adjust_fame(state, "gov", 1 if met else -1, ctx, f" (objective: {words})")
            if not met:
                holders = [gov_controller(state)]
                if state["gov"].get("partner"):
                    holders.append(state["gov"]["partner"])  # R.7.2.3: both partners
                for holder in holders:
                    adjust_fame(state, holder, -1, ctx, " (the Government's objective failed)")
            continue
        adjust_fame(state, who, 1 if met else -1, ctx, f" (objective: {words})")
    if seat_of(state, MARAIS) is None:
        dice = roll(state, ctx, 2, 6, reason="automated Marais fame, 15.2.1.6", about=NOBODY)
        letter = result(sum(dice), 13)
        if letter != "B":
            adjust_fame(state, MARAIS, 1 if letter == "A" else -1, ctx, " (automated Marais)")
    state["declared"] = {}


def turn_end(state: State, t: Step, ctx: Context) -> None:
    if state["turn"] >= SETUP["turns"]:
        finish_game(state, ctx)
        return
    state["turn"] += 1
    TASKS.schedule(state, Step(kind="turn"))


# Chapter 14: victory -------------------------------------------------------------------------

FAMILY = {
    "legislative": "legislative",
    "convention": "convention",
    "ffr": "convention",
    "terror": "terror",
    "mercy": "terror",
    "wrath": "terror",
    "prairial": "terror",
    "froi": "terror",
    "thermidor": "thermidor",
    "directorate": "thermidor",
}


def victory_points(state: State) -> dict[str, int]:
    """14.1, per Current."""
    reg = state["regime"]
    paris = paris_controller(state)
    king_dead = state["king"]["dead"]
    vp: dict[str, int] = {}
    for c in CURRENT_CODES:
        points = fame(state, c) + len(controlled_regions(state, c))
        if c != ROYALIST and paris == c:
            points += 5
        if c == ROYALIST:
            points += sum(1 for r in state["regions"].values() if r["coalition"])
            points += 5 if state["king"]["kidnapped"] else 0
            points += 5 if paris == ROYALIST else 0
        if c in (FEUILLANT, MARAIS, GIRONDE):
            points += deputies(state, c)
        if c == FEUILLANT and reg == "legislative":
            points += 5
        if c == GIRONDE and reg in ("convention", "ffr"):
            points += 5
        if c == MONTAGNE:
            points += 5 if reg in ("terror", "prairial", "froi") else 0
            points += max(5 if king_dead else 0, deputies(state, c))
        if c == SANS_CULOTTE:
            points += 5 if state["commune"]["raised"] else 0
            points += 5 if reg in ("terror", "wrath", "prairial", "froi") else 0
            points += max(5 if king_dead else 0, deputies(state, c))
        vp[c] = points
    return vp


REVOLUTION_AT_25 = {
    FEUILLANT: False,
    MARAIS: False,
    GIRONDE: True,
    MONTAGNE: True,
    SANS_CULOTTE: True,
}


def winner(state: State, vp: dict[str, int]) -> tuple[str, str, str]:
    """The winner, the regime family for the also-rans, and why (14.2, 14.3)."""
    if state["regime"] == "vendemiaire":
        return ROYALIST, "all", "the Royalist installed Vendémiaire by a popular coup (14.0, R.11)"
    if vp[ROYALIST] >= 25:
        return ROYALIST, "all", "the Royalist has 25 VP or more: Divine Right Monarchy (14.2.1)"
    revolution = sum(1 for c, rev in REVOLUTION_AT_25.items() if (vp[c] >= 25) == rev)
    side = "Revolution" if revolution >= 3 else "Reaction"
    family = FAMILY.get(state["regime"], "thermidor")

    def best(a: str, b: str) -> str:
        return a if vp[a] >= vp[b] else b

    reg = state["regime"]
    if family == "legislative":
        win = GIRONDE if side == "Revolution" else best(FEUILLANT, MARAIS)
    elif family == "convention":
        win = best(MONTAGNE, GIRONDE) if side == "Revolution" else MARAIS
    elif family == "terror":
        win = best(MONTAGNE, SANS_CULOTTE) if side == "Revolution" else MARAIS
    elif reg == "directorate":
        win = best(GIRONDE, MONTAGNE) if side == "Revolution" else best(FEUILLANT, MARAIS)
        if win == MONTAGNE:
            family = "terror"
    else:
        win = GIRONDE if side == "Revolution" else best(FEUILLANT, MARAIS)
    return win, family, f"{side} has the majority under the {reg} (14.2.2, 14.3)"


def ranking(state: State, win: str, family: str) -> dict[str, int]:
    """14.4 the also-rans, from the completed table (ambiguity B24)."""
    table = TABLES["also_rans"]
    order = table["order"]
    for w, fam, ranks in table["rows"]:
        if w == win and (fam == family or fam == "all"):
            return {c: int(r) for c, r in zip(order, ranks, strict=True)}
    # No printed row: the winner first, the others by VP.
    vp = victory_points(state)
    rest = sorted((c for c in order if c != win), key=lambda c: -vp[c])
    return {win: 1, **{c: i + 2 for i, c in enumerate(rest)}}


def finish_game(state: State, ctx: Context) -> None:
    vp = victory_points(state)
    win, family, why = winner(state, vp)
    ranks = ranking(state, win, family)
    state["phase"] = "over"
    while TASKS.top(state) is not None:  # the game ends here, whatever was to follow
        TASKS.finish(state)
    seats = seating(state["players"])
    seat_rank = [min(ranks[c] for c in row) for row in seats]
    state["result"] = {"winner": win, "vp": vp, "ranks": ranks, "seat_rank": seat_rank, "why": why}
    text = ", ".join(f"{name(c)} {vp[c]}" for c in CURRENT_CODES)
    ctx.reveal(f"the game ends: {why}; the {name(win)} wins. VP: {text}", about=NOBODY)
    ctx.summary(
        f"The game ends: the {name(win)} wins (14)",
        [
            (why[0].upper() + why[1:]).replace(
                f"under the {state['regime']} ", f"under the {REGIMES[state['regime']]['name']} "
            ),
            "Victory points: " + text,
            "Ranks: "
            + ", ".join(f"{name(c)} {r}" for c, r in sorted(ranks.items(), key=lambda x: x[1])),
            *changes(state),
        ],
    )


def as_result(state: State) -> dict[str, Any] | None:
    return state.get("result")
