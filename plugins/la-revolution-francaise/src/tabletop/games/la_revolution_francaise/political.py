"""Chapter 7.5, the Political Phase: regime changes and elections, deputies switching
sides, the King's action (7.5.2.2), and laws (7.5.2.3, chapter 13) with their votes;
the King's trial (11.4); installing a regime (R.x.1.1)."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import OrderedVote

from .assembly import deputies, election, election_due
from .core import (
    Task,
    actor_seat,
    adjust_fame,
    adjust_track,
    answering,
    civil_war,
    controlled_regions,
    declare_war,
    economy_factor,
    enter_phase,
    fame,
    finish,
    gov_controller,
    gov_seat,
    money,
    name,
    officially_present,
    outlawed,
    paris_threatened,
    pay,
    regime,
    result,
    roll,
    schedule,
    seat_of,
    set_control,
    track_level,
)
from .data import ADJACENT, COSTS, KING, LAWS, REGIMES, SWITCH_TARGETS, seating
from .tasks import (
    ActorTurn,
    AskedInTurn,
    CoupOffer,
    FameVote,
    InstallRegime,
    LawVote,
    PartnerChoice,
    Referendum,
    Step,
    Veto,
)
from .words import bankrupting, law_effect, regime_detail

# 7.5.1 Regime changes and elections -----------------------------------------------------


def political_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "political", ctx)
    state["proposed"] = []
    state["levee_this_turn"] = False
    state["gov_laws_proposed"] = 0
    tasks: list[Task] = [
        Step(kind="pending_regime"),
        AskedInTurn(kind="regime_change", asked=[]),
        Step(kind="elections"),
    ]
    if regime(state)["deputy_switch"]:
        tasks += [
            ActorTurn(kind="sway", actor=c) for c in state["order"] if seat_of(state, c) is not None
        ]
    if state["regime"] == "legislative":
        tasks.append(Step(kind="king_action"))
    if state["regime"] == "directorate":
        tasks.append(CoupOffer(kind="coup_offer_start", coup="limited"))  # R.7.7.1
    tasks.append(Step(kind="laws_start"))
    schedule(state, *tasks)


def threat(state: State) -> bool:
    """R.1.8: a Catholic army in Paris, an Allied army in or next to it, or 12+
    regions held by the Royalist and the Coalition (both counting)."""
    near = {"Paris", *ADJACENT["Paris"]}
    for army in state["armies"]:
        if (army["side"] == "catholic" and army["where"] == "Paris") or (
            army["side"] == "allied" and army["where"] in near
        ):
            return True
    held = len(controlled_regions(state, "R")) + sum(
        1 for r in state["regions"].values() if r["coalition"]
    )
    return held >= 12


def strong_commune(state: State, sc_level: int = 2) -> bool:
    """The Commune raised under the Sans-Culotte at ``sc_level`` or more, or under the
    Montagne at level III (R.1.8.2, R.2.8.1, R.6.8.1)."""
    commune = state["commune"]
    lvl = track_level(state, "commune")
    leader = commune["controller"]
    return bool(commune["raised"]) and (
        (leader == "SC" and lvl >= sc_level) or (leader == "MT" and lvl == 3)
    )


def both_wars(state: State) -> bool:
    return bool(state["war"]) and civil_war(state)


def regime_options(state: State) -> list[tuple[str, str, str]]:
    """(deciding Current, regime, "install" or "referendum") open at the start of the
    Political Phase (R.1.8, R.2.8, R.3.8, R.5.8, R.6.8)."""
    commune = state["commune"]
    leader = commune["controller"] if commune["raised"] else None
    open_ = state["options"].get("scenario") == "open"
    reg = state["regime"]
    out: list[tuple[str, str, str]] = []
    if reg == "legislative" and leader is not None and threat(state):
        if leader in ("G", "MT", "SC"):
            out.append((leader, "convention", "install"))
        if strong_commune(state):
            out.append((leader, "terror", "install"))
    elif reg == "convention":
        if leader is not None and strong_commune(state):
            if both_wars(state):
                out.append((leader, "terror", "install"))
            elif open_:
                out.append((leader, "mercy", "install"))
        gironde_commune = not commune["raised"] or leader == "G"  # R.2.8.3: not a neutral one
        if open_ and not both_wars(state) and gironde_commune and not outlawed(state, "G"):
            out.append(("G", "ffr", "referendum"))
    elif reg == "terror" and open_:
        wrath_need = (
            track_level(state, "economy") == 3
            or any(
                a["side"] in ("allied", "catholic")
                for a in state["armies"]
                if a["where"] == "Paris"
            )
            or sum(
                1
                for r in state["regions"].values()
                if r["revolt"] or r["coalition"] or r["control"] == "R"
            )
            >= 10
        )
        if (
            "hebertiste" not in state["factions_outlawed"]
            and both_wars(state)
            and leader == "SC"
            and track_level(state, "commune") >= 2
            and wrath_need
        ):
            out.append(("SC", "wrath", "install"))
        if (
            "indulgent" not in state["factions_outlawed"]
            and not both_wars(state)
            and not commune["raised"]
            and not paris_threatened(state)
            and not outlawed(state, "M")
        ):
            out.append(("M", "mercy", "install"))
        if not both_wars(state) and leader == "MT":
            out.append(("MT", "froi", "referendum"))
    elif reg == "wrath" and open_ and not both_wars(state) and not outlawed(state, "SC"):
        out.append(("SC", "froi", "referendum"))
    elif reg == "mercy" and leader is not None and both_wars(state) and strong_commune(state):
        out.append((leader, "terror", "install"))
    return out


def regime_change_prompt(state: State, t: AskedInTurn) -> Prompt | None:
    for decider in state["order"]:
        if decider in t["asked"]:
            continue
        options = [(target, how) for who, target, how in regime_options(state) if who == decider]
        seat = seat_of(state, decider)
        if not options or seat is None:
            continue
        choices = [
            Choice(
                "install:none",
                f"Keep the {regime(state)['name']}",
                detail="No change of regime now.",
                key=PASS_KEY,
            )
        ]
        for target, how in options:
            verb = "Install" if how == "install" else "Propose a referendum on"
            detail = f"The {regime_detail(target)} takes over: who governs, votes and is "
            "outlawed changes with it."
            if how == "referendum":
                detail += " Adopted unless more than 13 regions vote no."
            choices.append(
                Choice(f"{how}:{target}", f"{verb} the {REGIMES[target]['name']}", detail=detail)
            )
        return Prompt(
            seat, f"The {name(decider)} may change the regime", tuple(choices), rule="7.5.1"
        )
    return None


def regime_change_handle(state: State, t: AskedInTurn, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    how, _, target = action.partition(":")
    decider = next(
        c
        for c in state["order"]
        if c not in t["asked"]
        and seat_of(state, c) == seat
        and any(w == c for w, _, _ in regime_options(state))
    )
    if target == "none":
        t["asked"].append(decider)
        return
    finish(state)
    if how == "install":
        install(state, target, ctx, by=decider)
    else:
        schedule(state, referendum_task(state, target, decider, pending=False))


def referendum_task(state: State, target: str, proposer: str, pending: bool) -> Referendum:
    seats: list[int] = []
    for c in state["order"]:
        s_ = seat_of(state, c)
        if s_ is not None and s_ not in seats:
            seats.append(s_)
    return Referendum(
        kind="referendum",
        target=target,
        proposer=proposer,
        installs_next_turn=pending,
        vote=OrderedVote.new(f"referendum on the {REGIMES[target]['name']}", seats),
    )


def ballots(state: State, current: str) -> int:
    """One ballot per controlled region, none where there is a revolt or an enemy army;
    Paris always votes (R.2.8.3.1)."""
    count = 0
    for r in controlled_regions(state, current):
        blocked = state["regions"][r]["revolt"] or any(
            a["side"] in ("allied", "catholic") for a in state["armies"] if a["where"] == r
        )
        if r == "Paris" or not blocked:
            count += 1
    return count


def referendum_prompt(state: State, t: Referendum) -> Prompt | None:
    seat = OrderedVote(t["vote"]).next_seat
    if seat is None:
        return None
    mine = seating(state["players"])[seat]
    n = sum(ballots(state, c) for c in mine)
    title = f"Referendum on the {REGIMES[t['target']]['name']}: your {n} ballots"
    if gov_controller(state) in mine:
        return Prompt(
            seat,
            title + " (the Government's Current votes yes)",
            (Choice("vote:yes", "Yes", detail="Your ballots count for adoption."),),
            rule="R.2.8.3.1",
        )
    return Prompt(
        seat,
        title,
        (
            Choice("vote:yes", "Yes", detail=f"Your {n} ballots count for the new regime."),
            Choice(
                "vote:no",
                "No",
                detail=f"Your {n} ballots count against; 14 or more against reject it.",
            ),
            Choice("vote:abstain", "Abstain", detail="Your ballots are not counted."),
        ),
        rule="R.2.8.3.1",
    )


def referendum_handle(state: State, t: Referendum, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    OrderedVote(t["vote"]).vote(seat, action.split(":")[1], ctx)


def referendum_done(state: State, t: Referendum, ctx: Context) -> None:
    finish(state)
    schedule(state, {**t, "kind": "referendum_tally"})


def referendum_tally(state: State, t: Referendum, ctx: Context) -> None:
    votes = OrderedVote(t["vote"]).answers()
    no = sum(
        sum(ballots(state, c) for c in seating(state["players"])[s])
        for s, v in votes.items()
        if v == "no"
    )
    if automated_marais(state) and marais_auto_vote(state, ctx) == "against":
        no += ballots(state, "M")
    adopted = no <= 13
    target = REGIMES[t["target"]]["name"]
    ctx.emit(
        "referendum",
        f"referendum on the {target}: {no} regions against: "
        + ("adopted" if adopted else "rejected"),
        about=NOBODY,
    )
    if not adopted:
        return
    if t["installs_next_turn"]:
        state["pending_regime"] = t["target"]
        ctx.emit(
            "regime", f"the {target} will be installed at the next Political Phase", about=NOBODY
        )
    else:
        install(state, t["target"], ctx, by=t["proposer"])


def pending_regime(state: State, t: Step, ctx: Context) -> None:
    """A referendum adopted at the end of last turn, or Prairial's own (R.4.8.1, R.8.8.1)."""
    waiting = state.pop("pending_regime", None)
    if waiting is not None:
        install(state, waiting, ctx)
        return
    if state["regime"] == "prairial" and state.get("regime_since", 0) < state["turn"]:
        holder = gov_controller(state)
        schedule(state, referendum_task(state, "froi", holder, pending=False))


def end_of_turn_referendum(state: State, t: Step, ctx: Context) -> None:
    """Thermidor holds one automatically at the very end of the turn (R.4.8.1); Mercy's
    Government may call one under the conditions of R.6.8.2 (Open scenario only)."""
    if state["options"].get("scenario") != "open":
        return
    if state["regime"] == "thermidor":
        schedule(state, referendum_task(state, "directorate", gov_controller(state), pending=True))
    elif state["regime"] == "mercy":
        calm = not state["commune"]["raised"] and track_level(state, "commune") == 1
        peace = not state["war"] and not civil_war(state)
        if calm or peace or state.get("mt_failed_coup"):
            schedule(state, Step(kind="mercy_referendum"))


def mercy_referendum_prompt(state: State, t: Step) -> Prompt | None:
    seat = gov_seat(state)
    if seat is None:
        return None
    return Prompt(
        seat,
        "Hold a referendum on the Directorate?",
        (
            Choice("hold:no", "No", detail="Mercy stays; you may ask again next turn."),
            Choice(
                "hold:yes",
                "Yes",
                detail="Installed at the next Political Phase if adopted (R.6.8.2).",
            ),
        ),
        rule="R.6.8.2",
    )


def mercy_referendum_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    finish(state)
    if action.endswith("yes"):
        schedule(state, referendum_task(state, "directorate", gov_controller(state), pending=True))


def install(state: State, new: str, ctx: Context, by: str | None = None) -> None:
    """Install a regime and apply its entry effects (7.5.1, R.x.1.1)."""
    old = state["regime"]
    previous_gov = gov_controller(state)
    state["previous_gov"] = previous_gov
    state["regime"] = new
    reg = REGIMES[new]
    ctx.emit("regime", f"the {reg['name']} is installed ({reg['section']})", about=NOBODY)
    state["achieved"].append(f"regime:{new}")
    if new in ("convention", "terror"):
        state["republic_installed"] = True  # the later Allied armies may come (9.3.1)
    gov = by if by is not None and by in reg["gov"] else str(reg["gov"][0])
    if new == "mercy" and by not in ("M", "MT"):
        gov = "MT"  # R.6.2: the installer if Marais or Montagne, else the Montagne
    if new in ("thermidor", "directorate") and seat_of(state, "M") is None:
        gov = "F"  # 15.2.1.5: with the Marais automated, the Feuillant takes its place
    if new == "froi":
        state["froi_variant"] = gov  # R.10.1.2
    mt_was_outlawed = outlawed(state, "MT")
    state["gov"]["partner"] = None
    state["regime_since"] = state["turn"]
    if new == "wrath" or new not in ("terror", "wrath"):
        state["laws_rejected"] = 0  # R.5.8.1 counts Wrath's own; R.3.8.1 counts both
    set_government(state, gov, ctx)
    if state["gov"]["fame"] < 10:
        state["gov"]["fame"] = 10
        ctx.emit("fame", "Government fame raised to 10 (7.5.1)", about=NOBODY)
    effects: dict[str, Any] = reg.get("install", {})
    if (
        effects.get("king_prison")
        and not state["king"]["dead"]
        and state["persons"][KING]["status"] != "dead"
    ):
        state["persons"][KING]["status"] = "prison"
        state["persons"][KING]["where"] = None
        state["king"]["status"] = "prison"
        ctx.emit("king", "Louis XVI is imprisoned in the Temple (11.2)", about=NOBODY)
    outlaws = []
    for c in reg["outlawed"]:
        if c == "$previous_gov":
            if previous_gov in ("MT", "SC"):
                outlaws.append(previous_gov)
        else:
            outlaws.append(c)
    if new == "directorate" and mt_was_outlawed:
        outlaws.append("MT")  # R.7.4.1
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
        for c in ("MT", "SC"):
            if c in outlaws and state["assembly"][c]["count"]:
                row = state["assembly"][c]
                row["aside"], row["count"] = row["count"], 0
    if new == "ffr" and state["regions"]["Bordeaux"]["control"] not in ("G", None):
        set_control(state, "Bordeaux", None, ctx, " (R.9.1.1)", about=NOBODY)
    if new == "froi" and state["regions"]["Paris"]["control"] not in ("MT", "SC", None):
        set_control(state, "Paris", None, ctx, " (R.10.1.1)", about=NOBODY)
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
    for c in effects.get("remove_deputies", []):
        row = state["assembly"][c]
        row["aside"], row["count"] = row["count"], 0
    for c in effects.get("restore_deputies", []):
        row = state["assembly"][c]
        if row.get("aside"):
            row["count"], row["aside"] = row["aside"], 0
    if effects.get("revolt_in"):
        for region in controlled_regions(state, effects["revolt_in"]):
            if region != "Paris":  # B20
                state["regions"][region]["revolt"] = True
                ctx.emit("revolt", f"{region} revolts (R.3.1.1)", about=NOBODY)
    for track in ("clergy", "coalition"):
        if effects.get(track):
            adjust_track(state, track, effects[track], ctx, f" ({reg['name']})")
    fresh_assembly = (
        (new == "terror" and old in ("legislative", "ffr"))  # R.3.6
        or (new == "thermidor" and old == "froi")  # R.4.6
        or (new == "mercy" and old in ("ffr", "froi"))  # R.6.6.2
        or (new == "prairial" and old == "directorate")  # R.8.6.2
    )
    if reg["elections"].get("on_install") or fresh_assembly:
        election(state, ctx)
    if new == "directorate":
        choose_partner(state, ctx)


def choose_partner(state: State, ctx: Context, exclude: str | None = None) -> None:
    """R.7.2: the Marais shares the Government with whichever of the Feuillant, the
    Gironde and the Montagne (not outlawed) has the most deputies; on a tie the Marais
    chooses among them."""
    holder = gov_controller(state)
    eligible = [
        c for c in ("F", "G", "MT") if c != holder and c != exclude and not outlawed(state, c)
    ]
    if not eligible:
        state["gov"]["partner"] = None
        return
    best = max(deputies(state, c) for c in eligible)
    tied = [c for c in eligible if deputies(state, c) == best]
    state["gov"]["partner"] = None
    if len(tied) > 1 and seat_of(state, holder) is not None:
        schedule(state, PartnerChoice(kind="partner_choice", tied_currents=tied))
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


def partner_prompt(state: State, t: PartnerChoice) -> Prompt | None:
    seat = seat_of(state, gov_controller(state))
    assert seat is not None
    choices = tuple(
        Choice(
            f"partner:{c}",
            f"The {name(c)}",
            detail=f"The {name(c)} shares every Government decision with you (R.7.2.2).",
        )
        for c in t["tied_currents"]
    )
    return Prompt(
        seat, "Choose the Directorate's partner among the tied Currents", choices, rule="R.7.2"
    )


def partner_handle(state: State, t: PartnerChoice, action: str, ctx: Context) -> None:
    finish(state)
    set_partner(state, action.split(":")[1], ctx)


def set_government(state: State, current: str, ctx: Context) -> None:
    before = gov_controller(state)
    if before == current:
        return
    if before == "G":
        state["gironde_ousted"] = True
    state["gov"]["controller"] = current
    ctx.emit("government", f"the {name(current)} takes the Government", about=NOBODY)


def elections_run(state: State, t: Step, ctx: Context) -> None:
    if election_due(state) and state["last_election"] != state["turn"]:
        election(state, ctx)


# 7.5.2.1 Deputies switching sides ---------------------------------------------------------


def sway_sources(state: State, actor: str) -> list[str]:
    """Close Currents (7.5.2.1) with deputies to take; a hidden Current is always
    offered, since whether it has any is not the actor's to know."""
    return [
        c
        for c in SWITCH_TARGETS[actor]
        if available_deputies(state, c) > 0 or state["assembly"][c]["hidden"]
    ]


def available_deputies(state: State, current: str) -> int:
    arrived = sum(int(s["n"]) for s in state["switched"] if s["to"] == current)
    return max(0, deputies(state, current) - arrived)


def sway_person(state: State, actor: str) -> str | None:
    for pname, p in state["persons"].items():
        if (
            p["current"] == actor
            and p["status"] == "free"
            and p["where"] == "Paris"
            and not p["acted"]
            and pname != KING
        ):
            return str(pname)
    return None


def sway_prompt(state: State, t: ActorTurn) -> Prompt | None:
    actor = t["actor"]
    seat = seat_of(state, actor)
    price = COSTS["deputies"] * economy_factor(state)
    person = sway_person(state, actor)
    if seat is None or person is None or money(state, actor) < price:
        return None
    sources = sway_sources(state, actor)
    if not sources:
        return None
    choices = [Choice("done", "Done", detail="Sway no more deputies this turn.", key=PASS_KEY)]
    for c in sources:
        penalty = " (-4: automated Marais, 15.2.1.2)" if seat_of(state, c) is None else ""
        choices.append(
            Choice(
                f"sway:{c}",
                f"{person} sways {name(c)} deputies{penalty}",
                detail="A: 5 deputies, B: 3, until the end of the turn.",
                consequence=f"costs {price}",
            )
        )
    return Prompt(seat, f"{name(actor)}: sway deputies in Paris?", tuple(choices), rule="7.5.2.1")


def sway_handle(state: State, t: ActorTurn, action: str, ctx: Context) -> None:
    seat = actor_seat(state, t["actor"])
    if action == "done":
        finish(state)
        return
    actor = t["actor"]
    source = action.split(":")[1]
    person = sway_person(state, actor)
    assert person is not None
    state["persons"][person]["acted"] = True
    pay(state, actor, COSTS["deputies"] * economy_factor(state), ctx, " (deputies)")
    column = fame(state, actor) + (-4 if seat_of(state, source) is None else 0)
    from .actions import base_modifiers, double_delta

    column += sum(m for m, _ in base_modifiers(state, actor))
    column += state["bonuses"].get(f"persuade:{actor}", 0)
    dice = roll(state, ctx, 2, 6, reason="deputies, 7.5.2.1", about=seat)
    letter = result(sum(dice), column)
    delta = double_delta(state, list(dice))
    if delta:
        adjust_fame(state, actor, delta, ctx, " (double, 7.1)")
    wanted = {"A": 5, "B": 3}.get(letter, 0)
    moved = min(wanted, available_deputies(state, source))
    if moved:
        state["assembly"][source]["count"] -= moved
        state["assembly"][actor]["count"] += moved
        state["switched"].append({"from": source, "to": actor, "n": moved})
    text = f"{letter}: {moved} {name(source)} deputies join the {name(actor)} this turn"
    if state["assembly"][source]["hidden"] or state["assembly"][actor]["hidden"]:
        ctx.reveal(text)  # the number may tell hidden deputies' true count
    else:
        ctx.emit("deputies", text)


# 7.5.2.2 The King's action ---------------------------------------------------------------------


def king_holder(state: State) -> str:
    return str(state["persons"][KING]["current"])


def king_prompt(state: State, t: Step) -> Prompt | None:
    king = state["persons"][KING]
    if king["status"] != "free" or state["regime"] != "legislative":
        return None
    holder = king_holder(state)
    seat = seat_of(state, holder)
    price = COSTS["king_feuillant" if holder == "F" else "king_royalist"] * economy_factor(state)
    if seat is None or money(state, holder) < price:
        return None
    victim, step = ("G", -1) if holder == "F" else ("F", 1)
    return Prompt(
        seat,
        "The King's action (Legislative)?",
        (
            Choice("king:none", "No action", detail="The King does nothing.", key=PASS_KEY),
            Choice(
                "king:act",
                f"The King lowers the {name(victim)}'s fame by 1",
                detail=f"The {name(victim)} loses 1 fame (7.5.2.2).",
                consequence=f"costs {price}",
            ),
            Choice(
                "king:both",
                f"...and moves the Coalition marker {step:+d}",
                detail=f"The {name(victim)} loses 1 fame and the Coalition moves {step:+d} "
                "(7.5.2.2).",
                consequence=f"costs {price}",
            ),
        ),
        rule="7.5.2.2",
    )


def king_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    finish(state)
    choice = action.split(":")[1]
    if choice == "none":
        return
    holder = king_holder(state)
    pay(
        state,
        holder,
        COSTS["king_feuillant" if holder == "F" else "king_royalist"] * economy_factor(state),
        ctx,
        " (the King)",
    )
    victim, step = ("G", -1) if holder == "F" else ("F", 1)
    adjust_fame(state, victim, -1, ctx, " (the King, 7.5.2.2)")
    if choice == "both":
        adjust_track(state, "coalition", step, ctx, " (the King)")


# 7.5.2.3 Laws: proposals ------------------------------------------------------------------------


def laws_start(state: State, t: Step, ctx: Context) -> None:
    reg = regime(state)
    tasks: list[Task] = []
    if (
        state["king"].get("retrial") == state["turn"]
        and state["persons"][KING]["status"] == "prison"
    ):
        # 11.3.1: after a recapture the trial is held whatever the regime, +4 for death
        state["bonuses"]["trial"] = state["bonuses"].get("trial", 0) + 4
        state["proposed"].append("trial")
        voters = deputy_voters(state)
        tasks.append(
            {
                "kind": "law_vote",
                "law": "trial",
                "proposer": "gov",
                "vote": OrderedVote.new("the King's trial", [s for s, _ in voters]),
            }
        )
    if "gov" in reg["laws_by"] and reg["gov_laws"]:
        tasks.append(ActorTurn(kind="propose", actor="gov"))
    if "currents" in reg["laws_by"]:
        tasks += [
            ActorTurn(kind="propose", actor=c)
            for c in state["order"]
            if officially_present(state, c) and seat_of(state, c) is not None
        ]
        if state["regime"] in ("convention", "ffr", "froi") and seat_of(state, "M") is None:
            # 15.2.1.3: with the Marais automated, the Government's Current proposes two
            tasks.append(ActorTurn(kind="propose", actor=gov_controller(state)))
    schedule(state, *tasks)


def law_allowed(state: State, actor: str, key: str) -> bool:
    law = LAWS[key]
    fam = law["family"]
    if key in state["proposed"]:
        return False  # B4: once per turn
    if fam in ("anti_privilege", "anti_clergy") and (
        actor == "F" or state["regime"] in ("thermidor", "directorate")
    ):
        return False
    if key in ("war", "conscription", "patrie") and key in state["laws_once"]:
        return False
    if key == "war" and state["war"]:
        return False
    if key == "conscription" and not (state["war"] or civil_war(state)):
        return False
    if key == "conscription" and state.get("conscription"):
        return False  # 13.5.2: still in force until both wars have ended
    if key == "levee" and (state["regime"] == "legislative" or state["levee_this_turn"]):
        return False
    if key == "patrie" and not paris_threatened(state):
        return False
    if key == "trial":
        return trial_allowed(state)
    if fam == "outlaw":
        return (
            actor == "gov"
            and state["regime"] in law["regimes"]
            and law["faction"] not in state["factions_outlawed"]
        )
    return True


def trial_allowed(state: State) -> bool:
    """11.4: only with the King in prison, in a provisional regime, by its own limits."""
    king = state["persons"][KING]
    if king["status"] != "prison" or not regime(state)["trial"]:
        return False
    tried = int(state["king"]["tried"])
    if state["regime"] == "convention":
        return tried == 0
    if state["regime"] in ("terror", "wrath", "prairial"):
        return True
    return tried == 0 or (tried == 1 and bool(state["king"].get("gov_voted_guilty", False)))


def propose_prompt(state: State, t: ActorTurn) -> Prompt | None:
    actor = t["actor"]
    seat = actor_seat(state, actor)
    if seat is None:
        return None
    if actor == "gov":
        if state["gov_laws_proposed"] >= regime(state)["gov_laws"]:
            return None
        price = 0
    else:
        price = COSTS["law"] * economy_factor(state)
        if money(state, actor) < price:
            return None
    keys = [k for k in LAWS if law_allowed(state, actor, k)]
    if not keys:
        return None
    vote = (
        "deputies' vote"
        if regime(state)["vote"] == "deputies" or keys == ["trial"]
        else "fame vote"
    )
    choices = [
        Choice(
            "done",
            "Propose no law" if actor != "gov" else "No more laws",
            detail="Propose nothing more this turn; the next proposer goes on.",
            key=PASS_KEY,
        )
    ]
    for k in keys:
        law = LAWS[k]
        warn = bankrupting(state, k)
        cost = f"costs {price} to propose" if price else ""
        choices.append(
            Choice(
                f"law:{k}",
                f"Propose {law['name']} ({law['section']})",
                detail=f"If passed: {law_effect(k)} Decided by {vote}.",
                consequence="; ".join(w for w in (cost, warn) if w),
            )
        )
    return Prompt(seat, f"{name(actor)}: propose a law?", tuple(choices), rule="7.5.2.3")


def propose_handle(state: State, t: ActorTurn, action: str, ctx: Context) -> None:
    actor = t["actor"]
    if action == "done":
        finish(state)
        return
    key = action.split(":")[1]
    if actor == "gov":
        state["gov_laws_proposed"] += 1
    else:
        pay(state, actor, COSTS["law"] * economy_factor(state), ctx, " (proposing a law)")
        finish(state)
    state["proposed"].append(key)
    if key == "levee":
        state["levee_this_turn"] = True
    ctx.emit("law", f"the {name(actor)} proposes {LAWS[key]['name']}")
    if key == "trial" or regime(state)["vote"] == "deputies":
        voters = deputy_voters(state)
        schedule(
            state,
            {
                "kind": "law_vote",
                "law": key,
                "proposer": actor,
                "vote": OrderedVote.new(f"{LAWS[key]['name']}", [s for s, _ in voters]),
            },
        )
    else:
        givers = fame_voters(state)
        schedule(
            state,
            {
                "kind": "fame_vote",
                "law": key,
                "proposer": actor,
                "modifier_ranges": {str(s): r for s, r in givers},
                "vote": OrderedVote.new(
                    f"modifiers on {LAWS[key]['name']}", [s for s, _ in givers]
                ),
            },
        )


# 7.5.2.3.1 Deputies' votes ----------------------------------------------------------------------


def deputy_voters(state: State) -> list[tuple[int, list[str]]]:
    """Every seat, in turn order, with its Currents: a seat whose deputies are all
    hidden votes too (with none, its ballot simply weighs nothing), so that who is
    asked never tells how hidden deputies are split."""
    out: list[tuple[int, list[str]]] = []
    for c in state["order"]:
        seat = seat_of(state, c)
        if seat is None or any(s == seat for s, _ in out):
            continue
        out.append((seat, list(seating(state["players"])[seat])))
    return out


def law_vote_prompt(state: State, t: LawVote) -> Prompt | None:
    vote = OrderedVote(t["vote"])
    seat = vote.next_seat
    if seat is None:
        return None
    trial = t["law"] == "trial"
    yes, no = ("guilty", "innocent") if trial else ("yes", "no")
    mine = seating(state["players"])[seat]
    if trial and "F" in mine:
        return Prompt(
            seat,
            "The King's trial: the Feuillant must vote innocent",
            (Choice("vote:innocent", "Innocent", detail=law_effect("trial")),),
            rule="11.4",
        )
    effect = law_effect(t["law"])
    count = sum(deputies(state, c) for c in mine)
    against = (
        "Nothing changes if it fails."
        if not (t["proposer"] == "gov" and state["patrie"])
        else "Opposing a Government law while the Fatherland is in danger costs your "
        "present Currents 1 fame (13.6)."
    )
    return Prompt(
        seat,
        f"Vote on {LAWS[t['law']]['name']} with your deputies",
        (
            Choice(
                f"vote:{yes}",
                yes.capitalize(),
                detail=f"If it passes: {effect} Your {count} deputies vote for it.",
                consequence=bankrupting(state, t["law"]),
            ),
            Choice(
                f"vote:{no}",
                no.capitalize(),
                detail=f"If it passes: {effect} Your {count} deputies vote against it. {against}",
            ),
        ),
        rule="7.5.2.3.1",
    )


def law_vote_handle(state: State, t: LawVote, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    OrderedVote(t["vote"]).vote(seat, action.split(":")[1], ctx)


def law_vote_done(state: State, t: LawVote, ctx: Context) -> None:
    finish(state)
    schedule(state, {**t, "kind": "law_tally"})


def marais_auto_vote(state: State, ctx: Context, law: str | None = None) -> str:
    """15.2.1.4: 1-2 with the Government, 3-4 abstain, 5-6 against; +1 to the die on
    outlawing the Merciful under the Terror, Wrath or Prairial."""
    (face,) = roll(state, ctx, 1, 6, reason="automated Marais vote, 15.2.1.4", about=NOBODY)
    if law == "outlaw_indulgents" and state["regime"] in ("terror", "wrath", "prairial"):
        face += 1
    return "with" if face <= 2 else "abstain" if face <= 4 else "against"


def law_tally(state: State, t: LawVote, ctx: Context) -> None:
    votes = OrderedVote(t["vote"]).answers()
    trial = t["law"] == "trial"
    yes_word = "guilty" if trial else "yes"
    yes = no = 0
    for seat, value in votes.items():
        count = sum(deputies(state, c) for c in seating(state["players"])[seat])
        if value == yes_word:
            yes += count
        else:
            no += count
    gseat = gov_seat(state)
    gov_side = votes.get(gseat, yes_word) if gseat is not None else yes_word
    if automated_marais(state) and deputies(state, "M") > 0:
        how = marais_auto_vote(state, ctx, t["law"])
        if how != "abstain":
            with_gov = (how == "with") == (gov_side == yes_word)
            if with_gov:
                yes += deputies(state, "M")
            else:
                no += deputies(state, "M")
    if trial:
        yes += state["bonuses"].get("trial", 0)
    yes += law_bonus(state, t["law"])
    if (
        t["proposer"] == "SC"
        and state["regime"] == "froi"
        and state.get("froi_variant") == "SC"
        and state["commune"]["raised"]
    ):
        yes += track_level(state, "commune")  # R.10.9.4
    if yes != no:
        passed = yes > no
        how = ""
    else:
        breaker = (
            king_holder(state)
            if state["regime"] == "legislative" and state["persons"][KING]["status"] == "free"
            else gov_controller(state)
        )
        bseat = seat_of(state, breaker)
        passed = votes.get(bseat, yes_word) == yes_word if bseat is not None else True
        how = f", the tie broken by the {name(breaker)}"
    ctx.reveal(
        f"{LAWS[t['law']]['name']}: {yes} {yes_word}, {no} against{how}: "
        + ("passed" if passed else "rejected"),
        about=NOBODY,
    )
    if trial:
        if gov_seat(state) is not None:
            state["king"]["gov_voted_guilty"] = votes.get(gov_seat(state) or 0) == "guilty"
        trial_verdict(state, passed, ctx)
        return
    if t["proposer"] == "gov":
        fatherland_penalty(state, [s for s, v in votes.items() if v != yes_word], ctx)
    if passed:
        law_passed(state, t["law"], t["proposer"], ctx)
    else:
        law_rejected(state, t["law"], t["proposer"], ctx, fame_penalty=False)


def fatherland_penalty(state: State, opponents: list[int], ctx: Context) -> None:
    """13.6: while the Fatherland is in danger, officially present Currents that opposed
    a Government law lose 1 fame."""
    if not state["patrie"]:
        return
    for seat in opponents:
        for c in seating(state["players"])[seat]:
            if officially_present(state, c):
                adjust_fame(state, c, -1, ctx, " (opposed the Government, 13.6)")


def automated_marais(state: State) -> bool:
    return seat_of(state, "M") is None


# 7.5.2.3.2 Fame votes ------------------------------------------------------------------------


def fame_voters(state: State) -> list[tuple[int, int]]:
    """Seats that may modify the roll, with their largest modifier: the Marais 2,
    the Commune's controller 3, each other Current present 1 (7.5.2.3.2)."""
    ranges: dict[int, int] = {}
    leader = state["commune"]["controller"] if state["commune"]["raised"] else None
    for c in state["order"]:
        if c == leader:
            r = 3
        elif c == "M" and (officially_present(state, c) or state["regime"] != "prairial"):
            r = 2 if state["regime"] != "prairial" else 0
        elif officially_present(state, c):
            r = 1
        else:
            continue
        seat = seat_of(state, c)
        if seat is None or r == 0:
            continue
        ranges[seat] = ranges.get(seat, 0) + r
    ordered: list[tuple[int, int]] = []
    for c in state["order"]:
        seat = seat_of(state, c)
        if seat is not None and seat in ranges and all(s != seat for s, _ in ordered):
            ordered.append((seat, ranges[seat]))
    return ordered


LAWMAKERS = {
    "terror": ("Robespierre", "Saint-Just"),
    "wrath": ("Hébert", "Chaumette"),
    "mercy": ("Danton", "Desmoulins"),
}


def lawmaker_present(state: State) -> bool:
    """A lawmaker of the regime free in Paris and not an outlaw (R.3.9.2, R.5.9.2)."""
    from .core import person_outlaw

    reg = state["regime"]
    if reg == "prairial":  # R.8.9.2, R.8.9.3: the Terror's or Wrath's, by who governs
        reg = "terror" if gov_controller(state) == "MT" else "wrath"
    names: tuple[str, ...] = LAWMAKERS.get(reg, ())
    if reg == "mercy":
        # R.6.9.2: for a Marais Government, with their Current's consent (taken as given
        # only when they belong to the Government's Current; see reconstructed.md)
        if gov_controller(state) != "M":
            return False
        names = tuple(
            n for n in names if n in state["persons"] and state["persons"][n]["current"] == "M"
        )
    return any(
        n in state["persons"]
        and state["persons"][n]["status"] == "free"
        and state["persons"][n]["where"] == "Paris"
        and not person_outlaw(state, n)
        for n in names
    )


def law_bonus(state: State, key: str) -> int:
    """Event bonuses for outlawing a faction this turn (6.2; Terror, Thermidor tables)."""
    law = LAWS[key]
    if law["family"] != "outlaw":
        return 0
    bonus = state["bonuses"]
    return int(bonus.get(f"outlaw_{law['faction']}", 0)) + int(bonus.get("outlaw_any", 0))


def fame_vote_prompt(state: State, t: FameVote) -> Prompt | None:
    vote = OrderedVote(t["vote"])
    seat = vote.next_seat
    if seat is None:
        return None
    most = t["modifier_ranges"][str(seat)]
    choices = tuple(
        Choice(
            f"mod:{m}",
            f"{m:+d}",
            detail="Added to the fame used for the vote roll; A or B passes. "
            f"If it passes: {law_effect(t['law'])}",
        )
        for m in range(-most, most + 1)
    )
    return Prompt(seat, f"Your modifier on {LAWS[t['law']]['name']}", choices, rule="7.5.2.3.2")


def fame_vote_handle(state: State, t: FameVote, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    OrderedVote(t["vote"]).vote(seat, action.split(":")[1], ctx)


def fame_vote_done(state: State, t: FameVote, ctx: Context) -> None:
    finish(state)
    schedule(state, {**t, "kind": "fame_roll"})


def fame_roll(state: State, t: FameVote, ctx: Context) -> None:
    votes = OrderedVote(t["vote"]).answers()
    total = sum(int(v) for v in votes.values())
    if t["proposer"] == "gov":
        fatherland_penalty(state, [s for s, v in votes.items() if int(v) < 0], ctx)
    if automated_marais(state) and state["regime"] != "prairial":
        how = marais_auto_vote(state, ctx, t["law"])
        total += {"with": 2, "abstain": 0, "against": -2}[how]
    total += state["bonuses"].get("votes", 0)
    total += law_bonus(state, t["law"])
    if t["proposer"] == "gov":
        total += int(state["bonuses"].get("gov_all", 0))
    if t["proposer"] == "gov" and lawmaker_present(state):
        total += 2  # R.3.9.2 / R.5.9.2: one lawmaker's +2, never cumulative
    who = t["proposer"] if state["regime"] == "convention" else "gov"
    column = fame(state, who) + total
    dice = roll(
        state, ctx, 2, 6, reason="law vote, 7.5.2.3.2", about=actor_seat(state, t["proposer"])
    )
    letter = result(sum(dice), column)
    ctx.emit(
        "law",
        f"{LAWS[t['law']]['name']}: fame {fame(state, who)} {total:+d}, roll {sum(dice)}: {letter}",
        about=NOBODY,
    )
    if letter in ("A", "B"):
        law_passed(state, t["law"], t["proposer"], ctx)
    else:
        law_rejected(state, t["law"], t["proposer"], ctx, fame_penalty=True)


# Passing, rejecting, bankruptcy (13.0, 10.2.2.1) ---------------------------------------


def law_rejected(state: State, key: str, proposer: str, ctx: Context, fame_penalty: bool) -> None:
    ctx.emit("law", f"{LAWS[key]['name']} is rejected", about=NOBODY)
    if fame_penalty:
        adjust_fame(state, proposer, -1, ctx, " (law rejected)")
    if state["regime"] in ("terror", "wrath") and proposer == "gov":
        state["laws_rejected"] += 1
        if state["laws_rejected"] >= 2 and not outlawed(state, "M"):
            schedule(state, Step(kind="thermidor_choice"))


def thermidor_prompt(state: State, t: Step) -> Prompt | None:
    seat = seat_of(state, "M")
    if seat is None:
        return None
    return Prompt(
        seat,
        "Two Government laws have failed: install Thermidor now?",
        (
            Choice(
                "thermidor:yes",
                "Install Thermidor",
                detail="R.3.8.1: the Political Phase ends at once.",
            ),
            Choice("thermidor:no", "Not now", detail="You must wait for another rejected law."),
        ),
        rule="R.3.8.1",
    )


def thermidor_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    finish(state)
    if action.endswith("yes"):
        end_political_phase(state)
        install(state, "thermidor", ctx)


def thermidor_empty(state: State, t: Step, ctx: Context) -> None:
    """The automated Marais always takes Thermidor (15.2.1.5 gives the Feuillant the Government)."""
    finish(state)
    end_political_phase(state)
    schedule(state, InstallRegime(kind="install_regime", regime="thermidor"))


def install_regime(state: State, t: InstallRegime, ctx: Context) -> None:
    install(state, t["regime"], ctx)


def end_political_phase(state: State) -> None:
    """After a regime change by failed laws the Political Phase ends (7.5.2.3.2)."""
    keep = ("law_vote", "law_tally", "fame_vote", "fame_roll", "propose", "thermidor_choice")
    while state["tasks"] and state["tasks"][-1]["kind"] in keep:
        state["tasks"].pop()


def bankruptcy(state: State, ctx: Context) -> None:
    """10.2.2.1: once per turn, controller fame -5 and Government fame -2."""
    if state["bankrupt_turn"] == state["turn"]:
        return
    state["bankrupt_turn"] = state["turn"]
    ctx.emit("bankrupt", "the Government is bankrupt (10.2.2.1)", about=NOBODY)
    adjust_fame(state, gov_controller(state), -5, ctx, " (bankruptcy)")
    adjust_fame(state, "gov", -2, ctx, " (bankruptcy)")


def law_passed(state: State, key: str, proposer: str, ctx: Context) -> None:
    law = LAWS[key]
    if (
        state["regime"] == "legislative"
        and law["family"] in ("anti_privilege", "anti_clergy")
        and state["persons"][KING]["status"] == "free"
    ):
        schedule(state, Veto(kind="veto", law=key, proposer=proposer))
        return
    enact(state, key, proposer, ctx)


def enact(state: State, key: str, proposer: str, ctx: Context) -> None:
    law = LAWS[key]
    price = law["cost"] * economy_factor(state)
    if money(state, "gov") < price:
        ctx.emit("law", f"{law['name']} passes but the Government cannot pay {price}", about=NOBODY)
        bankruptcy(state, ctx)
        return
    pay(state, "gov", price, ctx, f" ({law['name']})")
    ctx.emit("law", f"{law['name']} is law ({law['section']})", about=NOBODY)
    state["achieved"].append(f"law:{key}")
    if law["fame"]:
        adjust_fame(state, proposer, law["fame"], ctx, f" ({law['name']})")
    for track, delta in law["tracks"].items():
        adjust_track(state, track, delta, ctx, f" ({law['name']})")
    if key == "war":
        declare_war(state, ctx, "declared by law (13.5.1)")
    if key in ("war", "conscription", "patrie"):
        state["laws_once"].append(key)
    if key == "conscription":
        state["conscription"] = True
    if key == "levee":
        state["volunteers_due"] += 3
    if key == "patrie":
        state["patrie"] = True
        # 13.6: it lasts until the war that prompted it ends, foreign for an Allied army
        # by Paris, civil for a Catholic & Royal one (both, if both are there)
        near = {"Paris", *ADJACENT["Paris"]}
        sides = {a["side"] for a in state["armies"] if a["where"] in near}
        state["patrie_by"] = [
            war for side, war in (("allied", "foreign"), ("catholic", "civil")) if side in sides
        ]
    if law["family"] == "outlaw":
        state["factions_outlawed"].append(law["faction"])
        from .data import PERSONS

        for pname, p in state["persons"].items():
            if (
                PERSONS[pname]["faction"] == law["faction"]
                and p["status"] == "free"
                and p["where"] == "Paris"
            ):
                p["status"], p["where"] = "prison", None
                ctx.emit("person", f"{pname}, outlawed in Paris, is arrested (13.8)", about=NOBODY)


def veto_prompt(state: State, t: Veto) -> Prompt | None:
    holder = king_holder(state)
    seat = seat_of(state, holder)
    if seat is None:
        return None
    law = LAWS[t["law"]]
    cost = "Commune +3, Clergy -3" + (", your fame -2" if law["family"] == "anti_clergy" else "")
    return Prompt(
        seat,
        f"The King may veto {law['name']}",
        (
            Choice("veto:no", "Let it pass", detail=f"It becomes law: {law_effect(t['law'])}"),
            Choice(
                "veto:yes",
                "Veto it",
                detail="The law does not take effect (11.1).",
                consequence=cost,
            ),
        ),
        rule="11.1",
    )


def veto_handle(state: State, t: Veto, action: str, ctx: Context) -> None:
    finish(state)
    if action.endswith("no"):
        enact(state, t["law"], t["proposer"], ctx)
        return
    law = LAWS[t["law"]]
    ctx.emit("king", f"the King vetoes {law['name']} (11.1)")
    adjust_track(state, "commune", 3, ctx, " (veto)")
    adjust_track(state, "clergy", -3, ctx, " (veto)")
    if law["family"] == "anti_clergy":
        adjust_fame(state, king_holder(state), -2, ctx, " (veto)")


# 11.4 The King's trial ----------------------------------------------------------------------


def trial_verdict(state: State, guilty: bool, ctx: Context) -> None:
    state["king"]["tried"] += 1
    sign = 1 if guilty else -1
    if guilty:
        state["persons"][KING]["status"] = "dead"
        state["king"]["dead"] = True
        ctx.emit("king", "Louis XVI is guillotined (11.4)", about=NOBODY)
        state["achieved"].append("law:trial")
    else:
        ctx.emit("king", "Louis XVI is spared and stays in prison (11.4)", about=NOBODY)
    adjust_track(state, "coalition", 5 * sign, ctx, " (trial)")
    adjust_track(state, "clergy", 5 * sign, ctx, " (trial)")
    for c, d in (("SC", 3), ("MT", 3), ("G", -2), ("F", -2)):
        adjust_fame(state, c, d * sign, ctx, " (trial)")


__all__ = ["bankruptcy", "install", "set_control", "set_government"]
