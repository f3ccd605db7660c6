"""Chapter 8, the Patriot's Phase: justice by regime (R.x.4.2), debates and the vote
of confidence (8.2, R.x.5), and the return of deputies who switched sides (8.3)."""

from __future__ import annotations

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import OrderedVote

from .assembly import deputies
from .core import (
    TASKS,
    Task,
    enter_phase,
    fame,
    gov_controller,
    gov_seat,
    name,
    officially_present,
    outlawed,
    person_outlaw,
    recap_note,
    regime,
    result,
    roll,
    seat_of,
)
from .data import KING, seating
from .factions import FEUILLANT, GIRONDE, MONTAGNE, ROYALIST
from .political.install import set_government, set_partner
from .political.king import king_holder
from .political.voters import deputy_voters
from .tasks import (
    ConfidenceVote,
    CoupOffer,
    JusticeVote,
    PartnerChoice,
    PartnerElection,
    PrisonerTask,
    Step,
)
from .verbs import ELECT, PARDON, VOTE
from .voting import vote_open


def patriot_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "patriot", ctx)
    prisoners = [n for n, p in state["persons"].items() if p["status"] == "prison" and n != KING]
    justice = regime(state)["justice"]
    tasks: list[Task] = []  # prisoners' questions, then the criticism
    king_free = state["persons"][KING]["status"] == "free"
    for person in prisoners:
        if (
            state["regime"] == "legislative"
            and king_free
            and state["persons"][person]["current"] in (ROYALIST, FEUILLANT)
        ):
            tasks.append(PrisonerTask(kind="king_pardon", person=person))
        if justice == "vote":
            voters = deputy_voters(state)
            tasks.append(
                {
                    "kind": "justice_vote",
                    "person": person,
                    "vote": OrderedVote.new(f"the fate of {person}", [s for s, _ in voters]),
                }
            )
        else:
            tasks.append(PrisonerTask(kind="justice_roll", person=person))
    if state["regime"] != "directorate":
        tasks.append(CoupOffer(kind="coup_offer_start", coup="limited"))  # 12.2
    tasks += [Step(kind="criticism_start"), Step(kind="deputies_return")]
    TASKS.schedule(state, *tasks)


def justice_roll(state: State, t: PrisonerTask, ctx: Context) -> None:
    """Dice justice: the Government rolls on its fame; the letter gives the fate."""
    person = t["person"]
    if state["persons"][person]["status"] != "prison":
        return
    outcomes = regime(state)["justice"]
    if "all" in outcomes:
        table = outcomes["all"]
    elif "royalist" in outcomes:
        table = outcomes["royalist" if state["persons"][person]["current"] == ROYALIST else "other"]
    else:
        table = outcomes["outlaw" if person_outlaw(state, person) else "other"]
    dice = roll(state, ctx, 2, 6, reason=f"justice for {person}, 8.1", about=gov_seat(state))
    letter = result(sum(dice), fame(state, "gov"))
    fate = table[letter]
    apply_fate(state, person, fate, ctx, letter)


def apply_fate(state: State, person: str, fate: str, ctx: Context, why: str) -> None:
    p = state["persons"][person]
    if fate == "guillotine":
        p["status"] = "dead"
        ctx.emit("justice", f"{person} is guillotined ({why})", about=NOBODY)
    elif fate == "free":
        p["status"] = "fled"  # back on the map next turn
        ctx.emit("justice", f"{person} is released ({why})", about=NOBODY)
    else:
        ctx.emit("justice", f"{person} stays in prison ({why})", about=NOBODY)


def king_pardon_needed(state: State, t: PrisonerTask) -> bool:
    """A seat holds the King and the prisoner is still in prison (R.1.4.2)."""
    seat = seat_of(state, king_holder(state))
    return seat is not None and state["persons"][t["person"]]["status"] == "prison"


def king_pardon_prompt(state: State, t: PrisonerTask) -> Prompt:
    """R.1.4.2, 11.1: the King's holder may free an imprisoned Royalist or Feuillant."""
    seat = seat_of(state, king_holder(state))
    assert seat is not None  # king_pardon_needed
    return Prompt(
        seat,
        f"The King may free {t['person']}",
        (
            Choice(PARDON("yes"), f"Free {t['person']}", detail="Back on the map next turn."),
            Choice(
                PARDON("no"),
                "Leave him to the Assembly's justice",
                detail="He stays in prison and the regime's justice decides his fate (8.1).",
                key=PASS_KEY,
            ),
        ),
        rule="R.1.4.2",
    )


def king_pardon_handle(state: State, t: PrisonerTask, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    if PARDON.arg(action) == "yes":
        apply_fate(state, t["person"], "free", ctx, "the King's pardon, R.1.4.2")


def justice_vote_needed(state: State, t: JusticeVote) -> bool:
    """A seat is still to vote, and the accused is still in prison (8.1)."""
    return vote_open(state, t) and state["persons"][t["person"]]["status"] == "prison"


def justice_vote_prompt(state: State, t: JusticeVote) -> Prompt:
    seat = OrderedVote(t["vote"]).next_seat
    assert seat is not None  # justice_vote_needed
    return Prompt(
        seat,
        f"Justice: is {t['person']} guilty?",
        (
            Choice(VOTE("guilty"), "Guilty", detail="Stays in prison."),
            Choice(VOTE("innocent"), "Innocent", detail="Released."),
        ),
        rule="8.1",
    )


def justice_vote_done(state: State, t: JusticeVote, ctx: Context) -> None:
    TASKS.finish(state)
    if state["persons"][t["person"]]["status"] == "prison":
        TASKS.schedule(state, {**t, "kind": "justice_tally"})


def justice_tally(state: State, t: JusticeVote, ctx: Context) -> None:
    votes = OrderedVote(t["vote"]).answers()
    guilty = innocent = 0
    for seat, value in votes.items():
        count = sum(deputies(state, c) for c in seating(state["players"])[seat])
        if value == "guilty":
            guilty += count
        else:
            innocent += count
    if guilty == innocent:
        breaker = king_holder(state) if state["regime"] == "legislative" else gov_controller(state)
        bseat = seat_of(state, breaker)
        verdict = votes.get(bseat, "guilty") if bseat is not None else "guilty"
    else:
        verdict = "guilty" if guilty > innocent else "innocent"
    ctx.reveal(f"{t['person']}: {guilty} guilty, {innocent} innocent: {verdict}", about=NOBODY)
    apply_fate(state, t["person"], "prison" if verdict == "guilty" else "free", ctx, "vote")


# 8.2 Criticism and the vote of confidence -------------------------------------------------


def challenger(state: State) -> str | None:
    crit = regime(state)["criticism"]
    if crit == "partner":  # R.7.5: the partner is replaced, if another can be
        partner = state["gov"].get("partner")
        others = [
            c
            for c in (FEUILLANT, GIRONDE, MONTAGNE)
            if c not in (partner, gov_controller(state)) and not outlawed(state, c)
        ]
        return partner if partner is not None and others else None
    if not isinstance(crit, dict):
        return None
    other = crit.get(gov_controller(state))
    if other is None or outlawed(state, other):
        return None  # R.1.5 note: no vote if the opposite Current is outlawed
    return str(other)


def criticism_start(state: State, t: Step, ctx: Context) -> None:
    if challenger(state) is None or state.get("limited_coup_turn") == state["turn"]:
        return
    seats: list[int] = []
    for c in state["order"]:
        seat = seat_of(state, c)
        if seat is not None and officially_present(state, c) and seat not in seats:
            seats.append(seat)
    if seats:
        TASKS.schedule(
            state,
            ConfidenceVote(
                kind="confidence", vote=OrderedVote.new("confidence in the Government", seats)
            ),
        )


def confidence_prompt(state: State, t: ConfidenceVote) -> Prompt:
    seat = OrderedVote(t["vote"]).next_seat
    assert seat is not None  # vote_open
    other = challenger(state)
    return Prompt(
        seat,
        f"Vote of confidence in the {name(gov_controller(state))} Government",
        (
            Choice(
                VOTE("confidence"),
                "Confidence",
                detail=f"Your deputies back the {name(gov_controller(state))}: without an "
                "absolute majority of disapproval it keeps the Government (8.2).",
            ),
            Choice(
                VOTE("disapproval"),
                "Disapproval",
                detail="An absolute majority of disapproval gives the Government "
                f"to the {name(other or '')}, with its fame and treasury (8.2).",
            ),
            Choice(VOTE("abstention"), "Abstain", detail="Abstentions are not counted (8.2)."),
        ),
        rule="8.2",
    )


def confidence_tally(state: State, t: ConfidenceVote, ctx: Context) -> None:
    votes = OrderedVote(t["vote"]).answers()
    tally = {"confidence": 0, "disapproval": 0}
    for seat, value in votes.items():
        if value in tally:
            tally[value] += sum(
                deputies(state, c)
                for c in seating(state["players"])[seat]
                if officially_present(state, c)
            )
    toppled = tally["disapproval"] * 2 > tally["confidence"] + tally["disapproval"]
    outcome = f"confidence {tally['confidence']}, disapproval {tally['disapproval']}: " + (
        "the Government falls" if toppled else "the Government stays"
    )
    ctx.reveal(outcome, about=NOBODY)
    other = challenger(state)
    new_hands = toppled and other is not None and regime(state)["criticism"] != "partner"
    recap_note(
        state,
        f"Vote of confidence (8.2): {outcome}"
        + ("; the Government's objective is void (6.4, 10.3)" if new_hands else ""),
    )
    if toppled and other is not None:
        if regime(state)["criticism"] == "partner":
            partner_election_start(state, other, ctx)
        else:
            set_government(state, other, ctx)


# R.7.5 The Directorate's new partner ----------------------------------------------------


def partner_ballots(state: State, seat: int, old_partner: str) -> int:
    """A seat's ballots in the partner's election: the deputies of its Currents present
    in the Assembly, except the toppled partner's (R.7.5)."""
    return sum(
        deputies(state, c)
        for c in seating(state["players"])[seat]
        if c != old_partner and officially_present(state, c)
    )


def partner_election_start(state: State, old_partner: str, ctx: Context) -> None:
    """R.7.5: the partner falls and the Assembly votes for another among the eligible
    Currents (the Feuillant, the Gironde, the Montagne, not outlawed); with one left
    it needs no vote."""
    holder = gov_controller(state)
    state["gov"]["partner"] = None
    candidates = [
        c
        for c in (FEUILLANT, GIRONDE, MONTAGNE)
        if c not in (holder, old_partner) and not outlawed(state, c)
    ]
    ctx.emit("government", f"the {name(old_partner)} leaves the Directorate (R.7.5)", about=NOBODY)
    if len(candidates) <= 1:
        if candidates:
            set_partner(state, candidates[0], ctx)
        return
    seats = [s for s, _ in deputy_voters(state) if partner_ballots(state, s, old_partner) > 0]
    vote = OrderedVote.new("the Directorate's new partner", seats)
    TASKS.schedule(
        state,
        PartnerElection(
            kind="partner_election", candidates=candidates, old_partner=old_partner, vote=vote
        ),
    )


def partner_election_prompt(state: State, t: PartnerElection) -> Prompt:
    seat = OrderedVote(t["vote"]).next_seat
    assert seat is not None  # vote_open
    ballots = partner_ballots(state, seat, t["old_partner"])
    return Prompt(
        seat,
        f"Elect the Directorate's new partner with your {ballots} deputies",
        tuple(
            Choice(ELECT(c), f"The {name(c)}", detail="Most deputies' ballots wins (R.7.5).")
            for c in t["candidates"]
        ),
        rule="R.7.2",
    )


def partner_election_tally(state: State, t: PartnerElection, ctx: Context) -> None:
    """Most ballots wins; on a tie the Marais chooses among the tied, as at R.7.2."""
    totals = {c: 0 for c in t["candidates"]}
    for seat, choice in OrderedVote(t["vote"]).answers().items():
        totals[choice] += partner_ballots(state, seat, t["old_partner"])
    best = max(totals.values())
    tied = [c for c in t["candidates"] if totals[c] == best]
    ctx.reveal(
        "the Assembly elects the partner: "
        + ", ".join(f"{name(c)} {v}" for c, v in totals.items())
        + " (R.7.5)",
        about=NOBODY,
    )
    if len(tied) > 1 and seat_of(state, gov_controller(state)) is not None:
        TASKS.schedule(state, PartnerChoice(kind="partner_choice", tied_currents=tied))
        return
    set_partner(state, tied[0], ctx)


def deputies_return(state: State, t: Step, ctx: Context) -> None:
    """8.3: deputies who switched go back to their own Current."""
    for move in state["switched"]:
        state["assembly"][move["to"]]["count"] = max(
            0, state["assembly"][move["to"]]["count"] - move["n"]
        )
        state["assembly"][move["from"]]["count"] += move["n"]
    if state["switched"]:
        ctx.emit("deputies", "deputies who switched sides go back (8.3)", about=NOBODY)
    state["switched"] = []
