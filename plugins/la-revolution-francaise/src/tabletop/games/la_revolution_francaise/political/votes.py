"""7.5.2.3.1-2: the deputies' vote on a proposed law, then the fame vote that can overturn
it; the automated Marais's votes."""

from __future__ import annotations

from tabletop.framework import NOBODY, Choice, Context, Prompt, State
from tabletop.framework.decisions import OrderedVote

from ..assembly import deputies
from ..core import (
    actor_seat,
    adjust_fame,
    fame,
    gov_controller,
    gov_seat,
    name,
    officially_present,
    person_outlaw,
    result,
    roll,
    seat_of,
    track_level,
)
from ..data import KING, LAWS, seating
from ..factions import FEUILLANT, MARAIS, MONTAGNE, SANS_CULOTTE
from ..tasks import (
    FameVote,
    LawVote,
)
from ..verbs import MOD, VOTE
from ..words import bankrupting, law_effect
from .enact import law_passed, law_rejected
from .king import king_holder, trial_verdict
from .voters import automated_marais, marais_auto_vote

# 7.5.2.3.1 Deputies' votes ----------------------------------------------------------------------


def law_vote_prompt(state: State, t: LawVote) -> Prompt:
    vote = OrderedVote(t["vote"])
    seat = vote.next_seat
    assert seat is not None  # vote_open
    trial = t["law"] == "trial"
    yes, no = ("guilty", "innocent") if trial else ("yes", "no")
    mine = seating(state["players"])[seat]
    if trial and FEUILLANT in mine:
        return Prompt(
            seat,
            "The King's trial: the Feuillant must vote innocent",
            (Choice(VOTE("innocent"), "Innocent", detail=law_effect("trial")),),
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
                VOTE(yes),
                yes.capitalize(),
                detail=f"If it passes: {effect} Your {count} deputies vote for it.",
                consequence=bankrupting(state, t["law"]),
            ),
            Choice(
                VOTE(no),
                no.capitalize(),
                detail=f"If it passes: {effect} Your {count} deputies vote against it. {against}",
            ),
        ),
        rule="7.5.2.3.1",
    )


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
    if automated_marais(state) and deputies(state, MARAIS) > 0:
        how = marais_auto_vote(state, ctx, t["law"])
        if how != "abstain":
            with_gov = (how == "with") == (gov_side == yes_word)
            if with_gov:
                yes += deputies(state, MARAIS)
            else:
                no += deputies(state, MARAIS)
    if trial:
        yes += state["bonuses"].get("trial", 0)
    yes += law_bonus(state, t["law"])
    if (
        t["proposer"] == SANS_CULOTTE
        and state["regime"] == "froi"
        and state.get("froi_variant") == SANS_CULOTTE
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


# 7.5.2.3.2 Fame votes ------------------------------------------------------------------------


def fame_voters(state: State) -> list[tuple[int, int]]:
    """Seats that may modify the roll, with their largest modifier: the Marais 2,
    the Commune's controller 3, each other Current present 1 (7.5.2.3.2)."""
    ranges: dict[int, int] = {}
    leader = state["commune"]["controller"] if state["commune"]["raised"] else None
    for c in state["order"]:
        if c == leader:
            r = 3
        elif c == MARAIS and (officially_present(state, c) or state["regime"] != "prairial"):
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

    reg = state["regime"]
    if reg == "prairial":  # R.8.9.2, R.8.9.3: the Terror's or Wrath's, by who governs
        reg = "terror" if gov_controller(state) == MONTAGNE else "wrath"
    names: tuple[str, ...] = LAWMAKERS.get(reg, ())
    if reg == "mercy":
        # R.6.9.2: for a Marais Government, with their Current's consent (taken as given
        # only when they belong to the Government's Current; see reconstructed.md)
        if gov_controller(state) != MARAIS:
            return False
        names = tuple(
            n for n in names if n in state["persons"] and state["persons"][n]["current"] == MARAIS
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


def fame_vote_prompt(state: State, t: FameVote) -> Prompt:
    vote = OrderedVote(t["vote"])
    seat = vote.next_seat
    assert seat is not None  # vote_open
    most = t["modifier_ranges"][str(seat)]
    choices = tuple(
        Choice(
            MOD(m),
            f"{m:+d}",
            detail="Added to the fame used for the vote roll; A or B passes. "
            f"If it passes: {law_effect(t['law'])}",
        )
        for m in range(-most, most + 1)
    )
    return Prompt(seat, f"Your modifier on {LAWS[t['law']]['name']}", choices, rule="7.5.2.3.2")


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
