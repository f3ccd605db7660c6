"""§7 Playing a Strategy card, and §12.3 in the Final Crisis.

In a normal round a card is played for its event, for its operations, to advance the
player's momentum, to use the opponent's discarded event of this side's colour, or
with the Final Crisis card's 4 OP. In the Final Crisis every card is played for its
event, and the owner of an opponent's event decides whether it applies. The automatic
step ``end_of_card_play`` pays out breaches (§8.2) and passes the turn.
"""

from __future__ import annotations

from functools import cache, lru_cache

from tabletop.framework import Choice, Context, Prompt, State
from tabletop.framework.stack import Decision, Rule, Step

from .. import board, events
from ..board import other
from ..data import (
    CARDS,
    COMMUNE,
    COMMUNE_POOL,
    FINAL_CRISIS_CARD,
    MOMENTUM_MAX,
    MOMENTUM_NAMES,
    MOMENTUM_VP,
    PLAYS,
    SIDE_NOUNS,
    VERSAILLES,
    card_name,
)
from ..verbs import EVENT, FINAL_CRISIS_OPS, MOMENTUM, OPERATIONS, REUSE, VERBS
from ..viewing import card_detail, card_label
from . import tasks
from .choices import CARD_KEYS, card_slots
from .tasks import TASKS, CardPlay, EndOfCardPlay
from .told import PUBLIC, restate
from .warnings import join


def prompt(state: State, task: CardPlay) -> Prompt:
    seat = task["seat"]
    if state["fc"]:
        return _final_crisis_prompt(state, seat)
    top = reusable_top(state, seat)
    momentum = _momentum_notes(state, seat) if state["momentum"][seat] < MOMENTUM_MAX else None
    top_notes = "" if top is None else join(events.event_forecast(state, seat, top))
    gifts = _gifts_open(state, seat)
    fc_card = bool(state["fc_card"][seat])
    opp = 1 - seat
    top_ops = -1 if top is None else CARDS[top].ops
    choices: list[Choice] = []
    for c, slot in card_slots(state, seat):
        why_not = events.unplayable_reason(state, seat, c)
        forecast = None if why_not else events.event_forecast(state, seat, c)
        notes = join(forecast) if forecast else ""
        card = CARDS[c]
        gift = _gift_note(c, opp) if gifts and card.faction == opp else ""
        choices += _play_choices(c, seat, why_not, notes, gift, momentum, slot)
        if top is not None and card.ops >= top_ops:
            notes = join([top_notes, gift]) if gift else top_notes
            choices.append(_reuse_choice(c, top, notes, _key(slot, 3)))
        if fc_card:
            choices.append(_final_crisis_card_choice(c, seat, gift, _key(slot, 4)))
    return Prompt(seat, _title(state["round"]), tuple(choices), "§7", public=PUBLIC)


#: The uses of a card a card play offers, each with its key (``_key``).
USES_PER_CARD = 5


def _key(slot: int, use: int) -> str:
    """The key of a card's ``use`` (0 event, 1 operations, 2 momentum, 3 the discarded
    event, 4 the Final Crisis card): five a card, in its dealt ``slot``'s block."""
    index = slot * USES_PER_CARD + use
    return CARD_KEYS[index] if index < len(CARD_KEYS) else ""


# A card's choices depend on the card, the seat and a few words about the state: each
# distinct choice is built once (the card texts are long, and every card play asks for
# every card in hand). The bounds keep a long batch run's memory flat.


@lru_cache(maxsize=4096)
def _play_choices(
    c: int,
    seat: int,
    why_not: str,
    event_notes: str,
    gift: str,
    momentum: tuple[str, str] | None,
    slot: int = 0,
) -> tuple[Choice, ...]:
    """Card ``c`` for its event (when ``why_not`` is empty), for its operations and, with
    ``momentum``'s words, to advance the momentum; keyed by the card's ``slot``."""
    choices = [_operations_choice(c, seat, why_not, gift, _key(slot, 1))]
    if not why_not:
        choices.insert(0, _event_choice(c, event_notes, _key(slot, 0)))
    if momentum is not None:
        choices.append(_momentum_choice(c, seat, momentum, _key(slot, 2)))
    return tuple(choices)


@cache
def _title(round_number: int) -> str:
    return f"Round {round_number}: play a Strategy Card"


@cache
def _event_choice(c: int, consequence: str, key: str = "") -> Choice:
    return Choice(EVENT(c), f"Event: {card_label(c)}", card_detail(c), consequence, key)


@cache
def _operations_choice(c: int, seat: int, why_not: str, gift: str, key: str = "") -> Choice:
    card = CARDS[c]
    label = f"Operations ({card.ops}): {card.title}"
    if why_not and card.faction in (seat, None):
        label += " (event not playable now)"
    return Choice(
        OPERATIONS(c),
        label,
        (f"Event not playable now: {why_not} (§7.1). " if why_not else "")
        + f"Spend {card.ops} OP in Political or Military spaces (§7.2). "
        + card_detail(c),
        gift,
        key,
    )


@lru_cache(maxsize=4096)
def _momentum_choice(c: int, seat: int, words: tuple[str, str], key: str = "") -> Choice:
    """``words``: what advancing the momentum does (``_momentum_notes``)."""
    detail, warning = words
    title = CARDS[c].title
    return Choice(
        MOMENTUM(c),
        f"Advance {MOMENTUM_NAMES[seat]}: remove {title}",
        f"{title} leaves the game (§7.7); {detail}. {card_detail(c)}",
        warning,
        key,
    )


@lru_cache(maxsize=4096)
def _reuse_choice(c: int, top: int, consequence: str, key: str = "") -> Choice:
    title = CARDS[c].title
    return Choice(
        REUSE(c),
        f"Use discarded {card_name(top)}: discard {title}",
        card_detail(top) + f" (§7.6). Discards {title}.",
        consequence,
        key,
    )


@cache
def _final_crisis_card_choice(c: int, seat: int, gift: str, key: str = "") -> Choice:
    fc = FINAL_CRISIS_CARD[seat]
    title = CARDS[c].title
    return Choice(
        FINAL_CRISIS_OPS(c),
        f"Final Crisis card {card_name(fc)} for 4 OP: discard {title}",
        f"Spend {card_name(fc)}'s {CARDS[fc].ops} OP as operations and "
        f"discard {title} (§7.8). " + card_detail(c),
        join(
            [
                f"{card_name(fc)} then leaves the game: it will not join "
                "your Final Crisis hand (§12.2)",
                gift,
            ]
        ),
        key,
    )


def _final_crisis_prompt(state: State, seat: int) -> Prompt:
    choices: list[Choice] = []
    for c, slot in card_slots(state, seat):
        notes = _final_crisis_event_notes(state, seat, c)
        choices.append(_event_choice(c, notes, CARD_KEYS[slot] if slot < len(CARD_KEYS) else ""))
    text = "Final Crisis: play a card for its event"
    return Prompt(seat, text, tuple(choices), "§12.3", public=PUBLIC)


def _final_crisis_event_notes(state: State, seat: int, card: int) -> str:
    """§12.3: who decides, and whether the event can do anything at all."""
    owner = CARDS[card].faction
    actor = seat if owner is None else owner
    if not events.playable(state, actor, card):
        return "its condition does not hold now: it will have no effect (§7.1)"
    forecast = events.event_forecast(state, actor, card)
    if owner is None or owner == seat:
        return join(forecast) if forecast else ""
    return join([_OWNER_DECIDES[owner], *forecast])


#: §12.3: the owner of an event played by its opponent decides whether it applies.
_OWNER_DECIDES = tuple(
    f"{SIDE_NOUNS[owner]} decides whether it applies (§12.3)" for owner in (0, 1)
)


def _momentum_notes(state: State, seat: int) -> tuple[str, str]:
    """What advancing ``seat``'s momentum by one does (§7.7, §9): detail, consequence."""
    level = state["momentum"][seat]
    gained = state["prussian"][level] if seat == VERSAILLES and level < MOMENTUM_MAX else 0
    return _momentum_words(seat, tuple(state["momentum"]), gained, state["pool"][COMMUNE])


@cache
def _momentum_words(
    seat: int, levels: tuple[int, ...], gained: int, commune_pool: int
) -> tuple[str, str]:
    """``_momentum_notes`` from the few numbers it reads (built once for each)."""
    level = levels[seat]
    parts = [f"{MOMENTUM_NAMES[seat]} {level} -> {level + 1}"]
    if gained:
        parts.append(f"{gained} Prussian cube(s) join your pool for good (§9.1)")
    if seat == COMMUNE and level < MOMENTUM_MAX:
        parts.append(f"pool spaces {COMMUNE_POOL[level]} -> {COMMUNE_POOL[level + 1]} (§9.2)")
    if level + 1 == MOMENTUM_MAX:
        parts.append(f"at {MOMENTUM_MAX} it is worth 1 {MOMENTUM_VP[seat]} VP at the end (§9.4)")
    notes = board.momentum_forecast(list(levels), seat, 1, commune_pool)
    return "; ".join(parts), join(notes)


def _gifts_open(state: State, seat: int) -> bool:
    """§7.6: whether the opponent could still use an event of its colour discarded now."""
    opp = 1 - seat
    return not state["fc"] and state["plays"][opp] < PLAYS and bool(state["hands"][opp])


@cache
def _gift_note(card: int, opp: int) -> str:
    """§7.6: discarding the opponent's colour may hand it that event this round."""
    return (
        f"{SIDE_NOUNS[opp]} may then use {card_name(card)}'s event from the discard "
        "pile this round (§7.6)"
    )


def reusable_top(state: State, seat: int) -> int | None:
    """§7.6: the top discard, placed this round by the opponent, of this seat's colour."""
    if not state["discard"]:
        return None
    card, by, played_in = state["discard"][-1]
    if by != 1 - seat or played_in != state["round"] or CARDS[card].faction != seat:
        return None
    return int(card) if events.playable(state, seat, card) else None


def apply(state: State, task: CardPlay, action: str, ctx: Context) -> None:
    seat = task["seat"]
    use, (number,) = VERBS.parse(action)
    card = int(number)
    state["hands"][seat].remove(card)
    TASKS.finish(state)
    played_in = state["round"]
    if use is EVENT:
        state["discard"].append([card, seat, played_in])
        owner = CARDS[card].faction
        restate(state, seat, ctx, "play", f"plays {card_name(card)} for its event", card=card)
        actor = seat if owner is None else owner
        if state["fc"] and not events.playable(state, actor, card):
            ctx.emit(
                "event",
                f"{card_name(card)}: its condition does not hold, no effect (§7.1)",
                card=card,
            )
        elif state["fc"] and owner == other(seat):
            TASKS.schedule(state, tasks.event_consent(owner, card))
        else:
            events.start_event(state, seat, card)
    elif use is OPERATIONS:
        state["discard"].append([card, seat, played_in])
        words = f"plays {card_name(card)} for {CARDS[card].ops} OP (§7.2)"
        restate(state, seat, ctx, "play", words, card=card)
        TASKS.schedule(state, tasks.operations(seat, CARDS[card].ops))
    elif use is MOMENTUM:
        state["removed"].append(card)
        words = f"removes {card_name(card)} from the game to advance {MOMENTUM_NAMES[seat]}"
        restate(state, seat, ctx, "play", words + " (§7.7)", card=card)
        TASKS.schedule(state, *board.shift_momentum(state, seat, 1, ctx))
    elif use is REUSE:
        top = reusable_top(state, seat)
        assert top is not None
        state["discard"].append([card, seat, played_in])
        words = f"discards {card_name(card)} to use the event of {card_name(top)}"
        restate(
            state, seat, ctx, "play", words + " from the discard pile (§7.6)", card=card, used=top
        )
        events.start_event(state, seat, top)
    elif use is FINAL_CRISIS_OPS:
        fc = FINAL_CRISIS_CARD[seat]
        state["discard"].append([card, seat, played_in])
        state["fc_card"][seat] = False
        state["removed"].append(fc)
        words = f"discards {card_name(card)} and spends {card_name(fc)}'s {CARDS[fc].ops} OP"
        restate(state, seat, ctx, "play", words + " (§7.8)", card=card, used=fc)
        TASKS.schedule(state, tasks.operations(seat, CARDS[fc].ops))


def end_of_card_play(state: State, task: EndOfCardPlay, ctx: Context) -> None:
    """Step: breaches pay out (§8.2), the play counts, the other side is next."""
    if state["breach_queue"]:
        board.resolve_breaches(state, ctx)
    seat = task["seat"]
    state["plays"][seat] += 1
    state["active"] = 1 - seat


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (
    Decision("card_play", prompt, apply),
    Step("end_of_card_play", end_of_card_play),
)
