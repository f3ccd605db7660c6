"""§12 The Final Crisis and §13 the end: the set-aside cards and the Final Crisis card
make the last hand (cut to as many cards as rounds were played), the momentum VP are
added, and the winner is decided, with the tiebreak chain when no side is ahead."""

from __future__ import annotations

from tabletop.framework import Context, Prompt, State
from tabletop.framework.stack import Decision, Rule

from .. import board, solo
from ..data import (
    COMMUNE,
    FINAL_CRISIS_CARD,
    MOMENTUM_MAX,
    MOMENTUM_NAMES,
    MOMENTUM_VP,
    PIVOTALS,
    SIDE_NAMES,
    VERSAILLES,
    VP_CAP,
    card_name,
)
from ..verbs import DROP
from ..viewing import card_label
from . import tasks
from .choices import CARD_KEYS, card_choice, card_slots
from .tasks import TASKS, FinalCrisisDiscard
from .told import PUBLIC, restate

#: How a result's summary names the winner.
WINNER_NAMES = ("Versailles", "The Commune")


def gather_step(state: State, ctx: Context) -> None:
    """§12.2: set-aside cards plus the Final Crisis card, cut to the rounds played."""
    state["fc"] = True
    ctx.heading("The Final Crisis (§12)")
    for seat in (COMMUNE, VERSAILLES):
        hand = state["aside"][seat]
        state["aside"][seat] = []
        parts = [f"takes up its {len(hand)} set-aside card(s)"]
        if state["fc_card"][seat]:
            hand.append(FINAL_CRISIS_CARD[seat])
            state["fc_card"][seat] = False
            parts.append(f"its Final Crisis card {card_name(FINAL_CRISIS_CARD[seat])}")
        state["hands"][seat] = hand
        ctx.emit("final_crisis", " and ".join(parts) + " (§12.2)", about=seat)
        ctx.emit(
            "final_crisis",
            "Final Crisis hand: " + ", ".join(card_name(c) for c in hand),
            seats=[seat],
            about=seat,
            hand=hand,
        )
        if len(hand) > state["round"] and seat != solo.seat_of(state):
            TASKS.schedule(state, tasks.final_crisis_discard(seat))
    state["dealt"] = [list(hand) for hand in state["hands"]]  # the keys' places
    if solo.seat_of(state) is not None:  # one play per round played, the last its card
        state["solo_fc_plays"] = state["round"]


def discard_prompt(state: State, task: FinalCrisisDiscard) -> Prompt:
    seat = task["seat"]
    choices = tuple(
        card_choice(DROP, f"Discard {card_label(c)}", c, CARD_KEYS[slot])
        for c, slot in card_slots(state, seat)
    )
    text = f"Final Crisis: discard down to {state['round']} card(s)"
    return Prompt(seat, text, choices, "§12.2", public=PUBLIC)


def discard_apply(state: State, task: FinalCrisisDiscard, action: str, ctx: Context) -> None:
    seat = task["seat"]
    card = DROP.number(action)
    state["hands"][seat].remove(card)
    state["discard"].append([card, seat, state["round"]])
    restate(state, seat, ctx, "discard", f"discards {card_name(card)} (§12.2)", card=card)
    if len(state["hands"][seat]) <= state["round"]:
        TASKS.finish(state)


def finish_step(state: State, ctx: Context) -> None:
    """§9.4 momentum VP, then §13 victory and the tiebreak chain."""
    ctx.heading("End of the game: momentum VP and victory (§9.4, §13)")
    for seat in (VERSAILLES, COMMUNE):
        if state["momentum"][seat] == MOMENTUM_MAX:
            board.add_vp(
                state,
                seat,
                MOMENTUM_VP[seat],
                1,
                f"{MOMENTUM_NAMES[seat]} at {MOMENTUM_MAX} (§9.4)",
            )
            ctx.emit(
                "score",
                f"{MOMENTUM_NAMES[seat]} is at {MOMENTUM_MAX}: +1 {MOMENTUM_VP[seat]} VP (§9.4)",
                about=seat,
            )
    winner, reason = victory(state)
    state["result"] = {"winner": winner, "summary": f"{WINNER_NAMES[winner]} wins: {reason}"}
    ctx.emit("end", f"wins: {reason}", about=winner)


def victory(state: State) -> tuple[int, str]:
    """§13: military vs political VP; else the four tiebreak tests; else the Commune.

    The reason is worded to follow "<side> wins: ", so that the result's summary and
    the log's last line (which names the winner itself) share it."""
    v_mil = board.vp_of(state, VERSAILLES, "military")
    c_pol = board.vp_of(state, COMMUNE, "political")
    if v_mil >= 0 and v_mil > c_pol:
        return VERSAILLES, f"{v_mil} Military VP against the Commune's {c_pol} Political VP (§13.1)"
    if c_pol >= 0 and c_pol > v_mil:
        return COMMUNE, f"{c_pol} Political VP against Versailles' {v_mil} Military VP (§13.1)"
    bot = solo.seat_of(state)
    if bot is not None:
        return bot, (
            "no side ahead, and the solo opponent wins every tie that would go "
            "to the tiebreak (solitaire)"
        )
    met = [0, 0]
    notes: list[str] = []
    sides = (VERSAILLES, COMMUNE)
    tests = [
        (
            "most combined VP",
            [board.vp_of(state, s, "political") + board.vp_of(state, s, "military") for s in sides],
        ),
        ("most objectives fulfilled", [len(state["fulfilled"][s]) for s in sides]),
        (
            "most Pivotal Spaces controlled",
            [sum(1 for p in PIVOTALS if board.controls(state, p, s)) for s in sides],
        ),
        ("final Initiative Player", [int(state["initiative"] == s) for s in sides]),
    ]
    for label, values in tests:
        if values[0] != values[1]:
            best = 0 if values[0] > values[1] else 1
            met[best] += 1
            notes.append(f"{label}: {SIDE_NAMES[best]}")
        else:
            notes.append(f"{label}: even")
    detail = "; ".join(notes)
    if met[0] > met[1]:
        return VERSAILLES, f"tiebreak {met[0]}-{met[1]} ({detail}) (§13.2)"
    if met[1] > met[0]:
        return COMMUNE, f"tiebreak {met[1]}-{met[0]} ({detail}) (§13.2)"
    return (
        COMMUNE,
        f"tiebreak level {met[0]}-{met[1]}, which goes to the Commune ({detail}) (§13.2)",
    )


def final_account(state: State) -> list[str]:
    """The final score in words: each side's VP, what the result's scores are, and every
    VP change of the game with its reason (the game-over screen shows these lines)."""
    lines = [
        "Scores: Versailles' Military VP and the Commune's Political VP, the two numbers "
        "§13.1 compares.",
    ]
    for seat in (VERSAILLES, COMMUNE):
        lines.append(
            f"{SIDE_NAMES[seat]}: Political VP {board.vp_of(state, seat, 'political'):+d}, "
            f"Military VP {board.vp_of(state, seat, 'military'):+d}, "
            f"objectives fulfilled {len(state['fulfilled'][seat])}."
        )
    log = state.get("vp_log", [])
    if not log:
        lines.append("No VP changed hands during the game.")
    for when, seat, kind, amount, moved, why in log:
        change = f"{moved:+d} {kind} VP"
        if moved != amount:
            change += f" (of {amount:+d}: the track stops at {VP_CAP})"
        lines.append(f"{when}: {SIDE_NAMES[seat]} {change}, {why}.")
    return lines


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (Decision("final_crisis_discard", discard_prompt, discard_apply),)
