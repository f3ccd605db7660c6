"""R.x.1.1: installing a regime (its Government, outlaws, Commune and special rules), the
Directorate's partner (R.7.2) and the elections that follow a change."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, Choice, Context, Prompt, State

from ..assembly import deputies, election, election_due
from ..core import (
    TASKS,
    adjust_fame,
    adjust_track,
    controlled_regions,
    gov_controller,
    name,
    outlawed,
    seat_of,
    set_control,
)
from ..data import KING, REGIMES
from ..factions import FEUILLANT, GIRONDE, MARAIS, MONTAGNE, SANS_CULOTTE
from ..plans import Objective
from ..tasks import (
    PartnerChoice,
    Step,
)
from ..verbs import PARTNER


def install(state: State, new: str, ctx: Context, by: str | None = None) -> None:
    """Install a regime and apply its entry effects (7.5.1, R.x.1.1), in the order the
    regime sheets give them: the Government, the King, the outlaws and the prisons, the
    regions, the Personalities and deputies, the tracks, then the elections and the
    Directorate's partner."""
    old = state["regime"]
    previous_gov = gov_controller(state)
    state["previous_gov"] = previous_gov
    state["regime"] = new
    reg = REGIMES[new]
    ctx.emit("regime", f"the {reg['name']} is installed ({reg['section']})", about=NOBODY)
    state["achieved"].append(Objective("regime", new).value)
    if new in ("convention", "terror"):
        state["republic_installed"] = True  # the later Allied armies may come (9.3.1)
    gov = new_government(state, new, by)
    mt_was_outlawed = outlawed(state, MONTAGNE)
    state["gov"]["partner"] = None
    state["regime_since"] = state["turn"]
    if new == "wrath" or new not in ("terror", "wrath"):
        state["laws_rejected"] = 0  # R.5.8.1 counts Wrath's own; R.3.8.1 counts both
    set_government(state, gov, ctx)
    if state["gov"]["fame"] < 10:
        adjust_fame(state, "gov", 10 - state["gov"]["fame"], ctx, " (a new regime, 7.5.1)")
    effects: dict[str, Any] = reg.get("install", {})
    if effects.get("king_prison"):
        imprison_the_king(state, ctx)
    outlaws = install_outlaws(state, new, previous_gov, mt_was_outlawed, ctx)
    install_regions(state, new, ctx)
    install_persons(state, gov, outlaws, effects, ctx)
    install_deputies(state, effects)
    if effects.get("revolt_in"):
        for region in controlled_regions(state, effects["revolt_in"]):
            if region != "Paris":  # B20
                state["regions"][region]["revolt"] = True
                ctx.emit("revolt", f"{region} revolts (R.3.1.1)", about=NOBODY)
    for track in ("clergy", "coalition"):
        if effects.get(track):
            adjust_track(state, track, effects[track], ctx, f" ({reg['name']})")
    if reg["elections"].get("on_install") or fresh_assembly(old, new):
        election(state, ctx)
    if new == "directorate":
        choose_partner(state, ctx)


def new_government(state: State, new: str, by: str | None) -> str:
    """Who governs the new regime (R.x.2): its installer where the regime allows, else
    the regime's first Current; the First Republic of the Left keeps it (R.10.1.2)."""
    reg = REGIMES[new]
    gov = by if by is not None and by in reg["gov"] else str(reg["gov"][0])
    if new == "mercy" and by not in (MARAIS, MONTAGNE):
        gov = MONTAGNE  # R.6.2: the installer if Marais or Montagne, else the Montagne
    if new in ("thermidor", "directorate") and seat_of(state, MARAIS) is None:
        gov = FEUILLANT  # 15.2.1.5: with the Marais automated, the Feuillant takes its place
    if new == "froi":
        state["froi_variant"] = gov  # R.10.1.2
    return gov


def imprison_the_king(state: State, ctx: Context) -> None:
    """11.2: the regime jails a living King in the Temple."""
    if state["king"]["dead"] or state["persons"][KING]["status"] == "dead":
        return
    state["persons"][KING]["status"] = "prison"
    state["persons"][KING]["where"] = None
    state["king"]["status"] = "prison"
    ctx.emit("king", "Louis XVI is imprisoned in the Temple (11.2)", about=NOBODY)


def install_outlaws(
    state: State, new: str, previous_gov: str, mt_was_outlawed: bool, ctx: Context
) -> list[str]:
    """R.x.4.1: the regime's outlaws (kept apart as ``regime_outlaws``) and those of a
    failed coup still outlawed (12.2.1); Mercy and the Directorate free the jailed
    Personalities of Currents no longer outlawed (R.6.1.1, R.7.1.1)."""
    reg = REGIMES[new]
    outlaws = []
    for c in reg["outlawed"]:
        if c == "$previous_gov":
            if previous_gov in (MONTAGNE, SANS_CULOTTE):
                outlaws.append(previous_gov)
        else:
            outlaws.append(c)
    if new == "directorate" and mt_was_outlawed:
        outlaws.append(MONTAGNE)  # R.7.4.1
    state["regime_outlaws"] = list(outlaws)
    outlaws += [c for c in state["outlaw_until"] if c not in outlaws]
    previous_outlaws = list(state["outlawed"])
    state["outlawed"] = outlaws
    if new in ("mercy", "directorate"):  # R.6.1.1, R.7.1.1: jailed former outlaws go free
        for pname, p in state["persons"].items():
            if (
                p["status"] == "prison"
                and pname != KING
                and p["current"] in previous_outlaws
                and p["current"] not in outlaws
            ):
                p["status"] = "fled"
                ctx.emit("person", f"{pname} is released ({reg['section']}.1.1)", about=NOBODY)
    if new == "thermidor":  # R.4.6: the outlawed Left's deputies are set aside
        for c in (MONTAGNE, SANS_CULOTTE):
            if c in outlaws and state["assembly"][c]["count"]:
                row = state["assembly"][c]
                row["aside"], row["count"] = row["count"], 0
    return outlaws


def install_regions(state: State, new: str, ctx: Context) -> None:
    """R.9.1.1, R.10.1.1: the First Republics' capitals held only by their own."""
    if new == "ffr" and state["regions"]["Bordeaux"]["control"] not in (GIRONDE, None):
        set_control(state, "Bordeaux", None, ctx, " (R.9.1.1)", about=NOBODY)
    if new == "froi" and state["regions"]["Paris"]["control"] not in (MONTAGNE, SANS_CULOTTE, None):
        set_control(state, "Paris", None, ctx, " (R.10.1.1)", about=NOBODY)


def install_persons(
    state: State, gov: str, outlaws: list[str], effects: dict[str, Any], ctx: Context
) -> None:
    """R.x.1.1: the Government's and the regime's friends leave prison, outlaws in
    Paris are arrested (7.5.1), and Personalities change sides."""
    freed = set(effects.get("free", [])) | {gov}
    for pname, p in state["persons"].items():
        if p["status"] == "prison" and p["current"] in freed and pname != KING:
            p["status"] = "fled"
            ctx.emit("person", f"{pname} is released (R.x.1.1)", about=NOBODY)
    for pname, p in state["persons"].items():
        if (
            p["status"] == "free"
            and p["where"] == "Paris"
            and pname != KING
            and p["current"] in outlaws
        ):
            p["status"], p["where"] = "prison", None
            ctx.emit("person", f"{pname}, an outlaw in Paris, is arrested (7.5.1)", about=NOBODY)
    for person, current in effects.get("switch", {}).items():
        if person in state["persons"] and state["persons"][person]["status"] != "dead":
            state["persons"][person]["current"] = current


def install_deputies(state: State, effects: dict[str, Any]) -> None:
    """R.x.1.1: deputies set aside by the regime, or back from being set aside."""
    for c in effects.get("remove_deputies", []):
        row = state["assembly"][c]
        row["aside"], row["count"] = row["count"], 0
    for c in effects.get("restore_deputies", []):
        row = state["assembly"][c]
        if row.get("aside"):
            row["count"], row["aside"] = row["aside"], 0


def fresh_assembly(old: str, new: str) -> bool:
    """The changes of regime that elect a new Assembly at once."""
    return (
        (new == "terror" and old in ("legislative", "ffr"))  # R.3.6
        or (new == "thermidor" and old == "froi")  # R.4.6
        or (new == "mercy" and old in ("ffr", "froi"))  # R.6.6.2
        or (new == "prairial" and old == "directorate")  # R.8.6.2
    )


def choose_partner(state: State, ctx: Context, exclude: str | None = None) -> None:
    """R.7.2: the Marais shares the Government with whichever of the Feuillant, the
    Gironde and the Montagne (not outlawed) has the most deputies; on a tie the Marais
    chooses among them."""
    holder = gov_controller(state)
    eligible = [
        c
        for c in (FEUILLANT, GIRONDE, MONTAGNE)
        if c != holder and c != exclude and not outlawed(state, c)
    ]
    if not eligible:
        state["gov"]["partner"] = None
        return
    best = max(deputies(state, c) for c in eligible)
    tied = [c for c in eligible if deputies(state, c) == best]
    state["gov"]["partner"] = None
    if len(tied) > 1 and seat_of(state, holder) is not None:
        TASKS.schedule(state, PartnerChoice(kind="partner_choice", tied_currents=tied))
        return
    set_partner(state, tied[0], ctx)


def set_partner(state: State, partner: str, ctx: Context) -> None:
    state["gov"]["partner"] = partner
    holder = name(gov_controller(state))
    ctx.emit(
        "government",
        f"the {name(partner)} shares the Government with the {holder} (R.7.2)",
        about=NOBODY,
    )


def partner_prompt(state: State, t: PartnerChoice) -> Prompt:
    seat = seat_of(state, gov_controller(state))
    assert seat is not None
    choices = tuple(
        Choice(
            PARTNER(c),
            f"The {name(c)}",
            detail=f"The {name(c)} shares every Government decision with you (R.7.2.2).",
        )
        for c in t["tied_currents"]
    )
    return Prompt(
        seat, "Choose the Directorate's partner among the tied Currents", choices, rule="R.7.2"
    )


def partner_handle(state: State, t: PartnerChoice, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    set_partner(state, PARTNER.arg(action), ctx)


def set_government(state: State, current: str, ctx: Context) -> None:
    before = gov_controller(state)
    if before == current:
        return
    if before == GIRONDE:
        state["gironde_ousted"] = True
    state["gov"]["controller"] = current
    ctx.emit("government", f"the {name(current)} takes the Government", about=NOBODY)


def elections_run(state: State, t: Step, ctx: Context) -> None:
    if election_due(state) and state["last_election"] != state["turn"]:
        election(state, ctx)
