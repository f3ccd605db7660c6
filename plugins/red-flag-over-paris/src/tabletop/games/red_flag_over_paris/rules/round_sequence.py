"""§5 The fixed order of a round, and §12 of the Final Crisis.

``state["step"]`` names where the sequence stands; ``advance`` takes the next step
when the decision stack is empty. A round: deal and keep objectives, choose who plays
first, alternate card plays, set aside the last card, bonus actions, dimension
scoring, objectives, then the next round or the Final Crisis. The Final Crisis:
gather the last hand, choose who plays first, play the hands out, bonus actions,
dimension scoring, the end.
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.framework import Context, State

from .. import board, solo
from ..board import other
from ..data import (
    CARDS,
    COMMUNE,
    HAND_SIZE,
    PIVOTALS,
    PLAYS,
    ROUNDS,
    SIDE_NAMES,
    SPACES,
    VERSAILLES,
    VP_CAP,
    card_name,
)
from ..viewing import objective_name
from . import deck, final_crisis, initiative_order, scoring, tasks
from .tasks import TASKS


def advance(state: State, ctx: Context) -> bool:
    """Take the sequence's next step (the decision stack's ``between``: called when no
    task is waiting); False once the game is over."""
    step: str = state["step"]
    if step == "plays":  # first: the step taken most often, once for every card play
        seat = state["active"]
        if not may_play(state, seat):
            seat = other(seat)
        if not may_play(state, seat):
            state["step"] = "bonus" if state["fc"] else "aside"
            return True
        state["active"] = seat
        TASKS.schedule(state, tasks.card_play(seat), tasks.end_of_card_play(seat))
        return True
    plain = _PLAIN_STEPS.get(step)
    if plain is not None:
        take, following = plain
        take(state, ctx)
        state["step"] = following
    elif step == "initiative":
        TASKS.schedule(state, tasks.initiative_order(initiative_order.leader(state)))
        state["step"] = "plays"
    elif step == "bonus":
        ctx.heading(f"End of {_when(state)}: Pivotal Space bonus actions (§10.1)")
        held: list[str] = []
        for p in PIVOTALS:
            if board.controller(state, p) is not None:
                held.append(p)
        if held:
            TASKS.schedule(state, tasks.bonus_order(state["initiative"], held))
        state["step"] = "dims"
    elif step == "dims":
        ctx.heading(f"End of {_when(state)}: scoring (§10.2, §11)")
        scoring.dimensions_step(state, ctx)
        state["step"] = "fc_end" if state["fc"] else "objectives"
    elif step == "check":
        ctx.summary(f"End of Round {state['round']} of {ROUNDS}", round_recap(state))
        if state["round"] >= ROUNDS or board.final_crisis_due(state):
            state["step"] = "fc_gather"
        else:
            state["round"] += 1
            state["step"] = "deal"
    return step != "over"


def round_recap(state: State) -> list[str]:
    """The lines of the pause at a round's end: every VP change of the round with its
    cause, what became of the revealed objectives, where the VP stand, what comes next.
    All of it is public by now (the objectives were revealed in §11)."""
    when = f"Round {state['round']}"
    lines = []
    for logged, seat, kind, amount, moved, why in state.get("vp_log", []):
        if logged == when:
            capped = "" if moved == amount else f" (the track stops at {VP_CAP})"
            lines.append(f"{SIDE_NAMES[seat]} {amount:+d} {kind} VP{capped}: {why}")
    if not lines:
        lines.append("No VP changed hands this round.")
    for card in state["revealed"]:
        owner = next((s for s in (VERSAILLES, COMMUNE) if card in state["fulfilled"][s]), None)
        if owner is not None:
            lines.append(f"{SIDE_NAMES[owner]} fulfilled the objective {card_name(card)} (§11)")
        elif card in state["obj_removed"]:
            lines.append(
                f"The objective {card_name(card)} left the game: its owner did not hold "
                "its space (§11)"
            )
    for kind in ("military", "political"):
        ahead = VERSAILLES if board.vp_of(state, VERSAILLES, kind) >= 0 else COMMUNE
        lines.append(
            f"{kind.capitalize()} VP now: {SIDE_NAMES[ahead]} "
            f"{board.vp_of(state, ahead, kind):+d}, {SIDE_NAMES[other(ahead)]} "
            f"{board.vp_of(state, other(ahead), kind):+d}"
        )
    if state["round"] >= ROUNDS:
        lines.append("Next: the Final Crisis, after the last round (§12)")
    elif board.final_crisis_due(state):
        lines.append("Next: the Final Crisis, both Final Crisis zones are breached (§12.1)")
    else:
        lines.append(f"Next: Round {state['round'] + 1}, new hands are dealt (§5.1)")
    return lines


def _when(state: State) -> str:
    return "Final Crisis" if state["fc"] else f"Round {state['round']}"


def may_play(state: State, seat: int) -> bool:
    """§5.3: three plays a round from a hand; in the Final Crisis, until the hand is out."""
    if "solo" in state and seat == solo.seat_of(state):
        return solo.may_play(state, seat)
    if state["fc"]:
        return bool(state["hands"][seat])
    return bool(state["plays"][seat] < PLAYS and state["hands"][seat])


def deal(state: State, ctx: Context) -> None:
    """§5.1-5.2: four strategy and two objective cards each, then keep one objective.

    The deck was shuffled at setup, so dealing draws no chance, but each side now sees
    its cards: a reveal to that side alone says which (and makes the deal an undo
    barrier). Only the counts are public."""
    ctx.heading(f"Round {state['round']} of {ROUNDS}")
    bot = solo.seat_of(state)
    for seat in (VERSAILLES, COMMUNE):
        if seat == bot:
            continue  # the solo opponent holds no cards: it reveals the deck's top card
        for _ in range(HAND_SIZE):
            card = deck.draw(state, ctx)
            if card is not None:
                state["hands"][seat].append(card)
        for _ in range(2):
            if state["obj_deck"]:
                state["obj_hand"][seat].append(state["obj_deck"].pop())
        if bot is not None:
            _solo_redraw(state, seat)
        hand, objectives = state["hands"][seat], state["obj_hand"][seat]
        ctx.emit(
            "deal",
            f"is dealt {len(hand)} Strategy and {len(objectives)} Objective cards (§5.1)",
            about=seat,
            cards=len(hand),
            objectives=len(objectives),
        )
        ctx.reveal(
            "receives "
            + ", ".join([card_name(c) for c in hand])
            + "; objectives "
            + ", ".join([objective_name(c) for c in objectives]),
            seats=[seat],
            about=seat,
            hand=list(hand),
            objectives=list(objectives),
        )
    # each card's place in the hand as dealt: its keys stay put as the others leave
    state["dealt"] = [list(hand) for hand in state["hands"]]
    state["revealed"] = []
    for seat in (COMMUNE, VERSAILLES):
        if state["obj_hand"][seat]:
            TASKS.schedule(state, tasks.keep_objective(seat))


def _solo_redraw(state: State, seat: int) -> None:
    """Solitaire setup: two objectives of one dimension are redrawn; the second goes
    to the bottom of the objective deck until one of another dimension comes up."""
    objectives, objective_deck = state["obj_hand"][seat], state["obj_deck"]

    def dimension(card: int) -> str | None:
        return SPACES[CARDS[card].space or ""].dimension

    for _ in range(len(objective_deck)):
        if len(objectives) < 2 or dimension(objectives[0]) != dimension(objectives[1]):
            return
        objective_deck.insert(0, objectives.pop())
        objectives.append(objective_deck.pop())


def set_aside(state: State, ctx: Context) -> None:
    """§5.3: the card left after three plays is set aside face down for the Final Crisis."""
    for seat in (VERSAILLES, COMMUNE):
        kept = state["hands"][seat]
        if kept:
            ctx.emit(
                "aside",
                f"sets aside {len(kept)} card(s) face down for the Final Crisis (§5.3)",
                about=seat,
                count=len(kept),
            )
            ctx.emit(
                "aside",
                "sets aside " + ", ".join([card_name(c) for c in kept]),
                seats=[seat],
                about=seat,
                cards=kept,
            )
        state["aside"][seat].extend(kept)
        state["hands"][seat] = []


#: The steps of the sequence that do one thing and always go on to the same next step.
_PLAIN_STEPS: dict[str, tuple[Callable[[State, Context], None], str]] = {
    "deal": (deal, "initiative"),
    "aside": (set_aside, "bonus"),
    "objectives": (scoring.reveal_objectives_step, "objective_events"),
    "objective_events": (scoring.objective_events_step, "check"),
    "fc_gather": (final_crisis.gather_step, "initiative"),
    "fc_end": (final_crisis.finish_step, "over"),
}
