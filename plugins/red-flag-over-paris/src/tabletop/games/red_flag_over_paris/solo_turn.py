"""The solo opponent's turn (rulebook pp. 8-11, as summarised in the brief's
components.md) and ``act``, by which the decision stack hands it every decision of its
seat (``rules/table.py``: the stack's ``stand_in``).

Its card play is the solo turn: the momentum check, the deck's top card revealed, its
event or the discarded event, then operations; in the Final Crisis, cards revealed until
a useful event. Every other decision is answered by ``solo.decide`` from the prompt's
legal choices, so it can never make an illegal move. The decision comes in as an
argument: this module does not import the table, so the table may import it.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import Context, State
from tabletop.framework.stack import Decision

from . import board, events
from .data import (
    CARDS,
    FINAL_CRISIS_CARD,
    MOMENTUM_MAX,
    MOMENTUM_NAMES,
    SIDE_NAMES,
    VERSAILLES,
    card_name,
)
from .rules import deck, tasks
from .rules.tasks import TASKS
from .solo import REMOVED_CARDS, Task, available, decide, event_useful


def act(state: State, task: Task, rule: Decision[Any], ctx: Context) -> None:
    """Carry out the bot's decision now due (``rule``, the task's), as the bot: its
    events name its seat."""
    seat = task["seat"]
    before = ctx.actor
    ctx.actor = seat
    try:
        if task["name"] == "card_play":
            turn(state, task, ctx)
            return
        prompt = rule.prompt(state, task)
        assert prompt.seat == seat
        rule.apply(state, task, decide(state, task, prompt.actions(), ctx), ctx)
    finally:
        ctx.actor = before


def needs_momentum(state: State, seat: int) -> bool:
    """Step (a), the momentum check: Versailles with fewer than 3 Available cubes, the
    Commune with fewer than 2 empty pool spaces, raises its momentum."""
    if state["momentum"][seat] >= MOMENTUM_MAX:
        return False
    if seat == VERSAILLES:
        return available(state, seat) < 3
    capacity = board.pool_capacity(state, seat) or 0
    return capacity - int(state["pool"][seat]) < 2


def turn(state: State, task: Task, ctx: Context) -> None:
    """The bot's card play, in place of a card from a hand."""
    seat = task["seat"]
    TASKS.finish(state)
    if state["fc"]:
        _final_crisis_turn(state, seat, ctx)
        return
    later: list[tasks.MomentumPlacement] = []
    if needs_momentum(state, seat):
        ctx.emit("solo", f"momentum check: raises {MOMENTUM_NAMES[seat]} (solo a)")
        later = board.shift_momentum(state, seat, 1, ctx)
    card = deck.draw(state, ctx)
    if card is None:
        ctx.emit("solo", "no card left to reveal: the turn ends (solo b)")
        TASKS.schedule(state, *later)
        return
    ctx.reveal(
        f"reveals {card_name(card)} ({CARDS[card].ops} OP) from the deck (solo b)", card=card
    )
    top = _discarded_event(state, seat, card)
    state["discard"].append([card, seat, state["round"]])
    used: int | None = None
    if CARDS[card].faction == seat and event_useful(state, seat, card):
        used = card
    elif top is not None:
        used = top
    points = 1 if used is not None else CARDS[card].ops
    TASKS.schedule(state, tasks.operations(seat, points))
    if used is not None:
        how = "its event" if used == card else f"the discarded event of {card_name(used)}"
        ctx.emit("solo", f"uses {how}, then 1 bonus OP (solo b-c)", card=used)
        events.start_event(state, seat, used)
    else:
        ctx.emit("solo", f"spends {points} OP for operations (solo c)", card=card)
    TASKS.schedule(state, *later)


def _discarded_event(state: State, seat: int, revealed: int) -> int | None:
    """The top discard, played this round by the player, of the bot's faction, worth no
    more OP than the revealed card, whose event would have an effect (solo b)."""
    if not state["discard"]:
        return None
    card, by, rnd = state["discard"][-1]
    if by == seat or rnd != state["round"] or CARDS[card].faction != seat:
        return None
    if CARDS[card].ops > CARDS[revealed].ops or not event_useful(state, seat, card):
        return None
    return int(card)


def _final_crisis_turn(state: State, seat: int, ctx: Context) -> None:
    """Final Crisis: reveal cards until one of the bot's faction would have an effect;
    the last play is the bot's Final Crisis card. No bonus OP."""
    state["solo_fc_plays"] -= 1
    fc_card = FINAL_CRISIS_CARD[seat]
    if state["solo_fc_plays"] == 0 and fc_card in state["hands"][seat]:
        state["hands"][seat].remove(fc_card)
        state["discard"].append([fc_card, seat, state["round"]])
        ctx.emit(
            "play",
            f"plays its Final Crisis card {card_name(fc_card)} (solo Final Crisis)",
            card=fc_card,
        )
        if events.playable(state, seat, fc_card):
            events.start_event(state, seat, fc_card)
        return
    seen = 0
    limit = len(state["deck"]) + len(state["discard"]) + len(state["removed"])
    while seen <= limit:
        card = _final_crisis_draw(state, ctx)
        if card is None:
            break
        seen += 1
        if CARDS[card].faction == seat and event_useful(state, seat, card):
            state["discard"].append([card, seat, state["round"]])
            ctx.reveal(
                f"reveals {card_name(card)} and plays its event (solo Final Crisis)", card=card
            )
            events.start_event(state, seat, card)
            return
        # Face up out of the game, where every view shows it, until a reshuffle.
        state["removed"].append(card)
        ctx.reveal(
            f"reveals {card_name(card)}: not a useful {SIDE_NAMES[seat]} event, "
            "set aside (solo Final Crisis)",
            card=card,
        )
    ctx.emit("solo", "no useful event left to reveal (solo Final Crisis)")


def _final_crisis_draw(state: State, ctx: Context) -> int | None:
    """The deck's top card; an empty deck takes the discarded and removed cards (never
    those taken out for solitaire play, nor the Final Crisis cards)."""
    if not state["deck"]:
        back = [
            c for c in state["removed"] if c not in REMOVED_CARDS and c not in FINAL_CRISIS_CARD
        ]
        if back:
            state["removed"] = [c for c in state["removed"] if c not in back]
            state["discard"].extend([c, -1, 0] for c in back)
    return deck.draw(state, ctx)
