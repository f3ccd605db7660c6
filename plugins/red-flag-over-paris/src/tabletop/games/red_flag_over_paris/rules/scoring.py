"""§10.2 and §11 End-of-round scoring: fully controlled Crisis Dimensions, then the
revealed objectives (VP to whoever controls their spaces, and the owner's optional
event). When both sides score, the Initiative Player orders it (``scoring_order``)."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Any

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.stack import Decision, Rule

from .. import board, events, solo
from ..board import other
from ..data import CARDS, COMMUNE, DIMENSIONS, SPACES, VERSAILLES, card_name, space_name
from ..verbs import PERFORM, SCORE_FIRST, SKIP
from ..viewing import card_detail, objective_name
from . import tasks
from .tasks import TASKS, ObjectiveEvent, Scoring, ScoringOrder
from .told import PUBLIC, has_choice_line
from .warnings import join

_WHAT: dict[str, tuple[str, str]] = {
    "dimensions": ("Crisis Dimension scoring", "§10.2"),
    "objective_vp": ("objective VP scoring", "§11"),
    "objective_events": ("objective events", "§11"),
}


# Who scores first ---------------------------------------------------------------------------


def order_prompt(state: State, task: ScoringOrder) -> Prompt:
    return _order_prompt(task["seat"], task["scoring"])


@cache
def _order_prompt(seat: int, scoring: Scoring) -> Prompt:
    what, rule = _WHAT[scoring]
    # The labels name what is ordered: the other side reads them in its log.
    return Prompt(
        seat,
        f"Order of {what}: who goes first?",
        (
            Choice(SCORE_FIRST(VERSAILLES), f"Versailles first in {what}"),
            Choice(SCORE_FIRST(COMMUNE), f"Commune first in {what}"),
        ),
        rule,
        public=PUBLIC,
    )


def order_apply(state: State, task: ScoringOrder, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    first = SCORE_FIRST.number(action)
    order = (first, other(first))
    if task["scoring"] == "dimensions":
        score_dimensions(state, order, ctx)
    elif task["scoring"] == "objective_vp":
        score_objectives(state, order, ctx)
    else:
        objectives = task.get("objectives") or [None, None]
        for seat in reversed(order):
            card = objectives[seat]
            if card is not None:
                TASKS.schedule(state, tasks.objective_event(seat, card))


def _ordered(state: State, scoring: Scoring, gains: Sequence[Sequence[Any]], ctx: Context) -> None:
    """Score now, or let the Initiative Player order it when both sides score."""
    if gains[VERSAILLES] and gains[COMMUNE]:
        TASKS.schedule(state, tasks.scoring_order(state["initiative"], scoring))
        return
    order = (VERSAILLES, COMMUNE)
    if scoring == "dimensions":
        score_dimensions(state, order, ctx, gains)
    else:
        score_objectives(state, order, ctx, gains)


# Crisis Dimensions (§10.2) ------------------------------------------------------------------


def dimensions_step(state: State, ctx: Context) -> None:
    """The round's dimension scoring, ordered when both sides score."""
    _ordered(state, "dimensions", dimension_gains(state), ctx)


def dimension_gains(state: State) -> list[list[str]]:
    """Each side's fully controlled dimensions, in the data's order (§10.2)."""
    gains: list[list[str]] = [[], []]
    for d in DIMENSIONS:
        owner = board.dimension_controller(state, d)
        if owner is not None:
            gains[owner].append(d)
    return gains


def score_dimensions(
    state: State, order: Sequence[int], ctx: Context, gains: Sequence[Sequence[str]] | None = None
) -> None:
    """§10.2: 1 VP of the dimension's type for each fully controlled dimension.

    ``gains``: ``dimension_gains`` when the caller has just worked them out (VP do not
    change control, so scoring one side leaves the other's gains as they were)."""
    if gains is None:
        gains = dimension_gains(state)
    for seat in order:
        for dim in gains[seat]:
            meta = DIMENSIONS[dim]
            board.add_vp(state, seat, meta["kind"], 1, f"controls all of {meta['name']} (§10.2)")
            ctx.emit(
                "score",
                f"controls {meta['name']}: +1 {meta['kind']} VP (§10.2)",
                about=seat,
            )


# Objectives (§11) ---------------------------------------------------------------------------


def objective_gains(state: State) -> list[list[int]]:
    gains: list[list[int]] = [[], []]
    bot = solo.seat_of(state)
    for card in state["revealed"]:
        owner = board.controller(state, CARDS[card].space or "")
        if owner is None:
            continue
        if bot is not None and owner != bot and card != state["objective"][owner]:
            continue  # solitaire: the player scores only its own objective
        gains[owner].append(card)
    return gains


def score_objectives(
    state: State, order: Sequence[int], ctx: Context, gains: Sequence[Sequence[int]] | None = None
) -> None:
    """§11: whoever controls either objective's space gains 1 VP of its type (``gains``:
    ``objective_gains`` when the caller has just worked them out)."""
    if gains is None:
        gains = objective_gains(state)
    for seat in order:
        for card in gains[seat]:
            space = CARDS[card].space or ""
            kind = SPACES[space].kind or "political"
            board.add_vp(
                state,
                seat,
                kind,
                1,
                f"controls {space_name(space)}, the space of objective {card_name(card)} (§11)",
            )
            ctx.emit(
                "score",
                f"controls {space_name(space)} ({card_name(card)}): +1 {kind} VP (§11)",
                about=seat,
            )


def reveal_objectives_step(state: State, ctx: Context) -> None:
    """§11: both kept objectives are revealed and score, ordered when both sides score.
    Whether each owner holds its objective's space is noted now, before any scoring
    event can change the board (``objectives_held``)."""
    kept = state["objective"]
    state["revealed"] = [c for c in kept if c is not None]
    held: list[bool] = []
    for s in (VERSAILLES, COMMUNE):
        card = kept[s]
        held.append(card is not None and board.controls(state, CARDS[card].space or "", s))
    state["objectives_held"] = held
    for seat, card in enumerate(kept):
        if card is not None:
            ctx.reveal(f"reveals its objective {objective_name(card)} (§11)", about=seat, card=card)
    _ordered(state, "objective_vp", objective_gains(state), ctx)


def objective_events_step(state: State, ctx: Context) -> None:
    """§11: an objective whose owner does not hold its space leaves the game; fulfilled
    ones may fire their event, in the Initiative Player's order when both do."""
    kept = state["objective"]
    held = state.pop("objectives_held")
    cards = list(kept)
    for seat in (VERSAILLES, COMMUNE):
        if kept[seat] is not None and not held[seat]:
            state["obj_removed"].append(kept[seat])
            kept[seat] = None
            where = space_name(CARDS[cards[seat]].space or "")
            ctx.emit(
                "objective",
                f"does not control {where}: {card_name(cards[seat])} leaves the game (§11)",
                about=seat,
                card=cards[seat],
            )
    if held[VERSAILLES] and held[COMMUNE]:
        TASKS.schedule(state, tasks.scoring_order(state["initiative"], "objective_events", cards))
        return
    for seat in (VERSAILLES, COMMUNE):
        if held[seat]:
            TASKS.schedule(state, tasks.objective_event(seat, cards[seat]))


def objective_event_prompt(state: State, task: ObjectiveEvent) -> Prompt:
    notes = join(events.event_forecast(state, task["seat"], task["card"]))
    return _objective_event_prompt(task["seat"], task["card"], notes)


@lru_cache(maxsize=1024)
def _objective_event_prompt(seat: int, card: int, notes: str) -> Prompt:
    """Built once for each objective, side and forecast."""
    name = card_name(card)
    return Prompt(
        seat,
        f"You fulfilled {name}: perform its event?",
        (
            Choice(PERFORM(), f"Perform {name}", card_detail(card), notes),
            Choice(SKIP(), "Skip the event", "The objective is fulfilled either way", key=PASS_KEY),
        ),
        "§11",
        public=PUBLIC,
    )


def objective_event_apply(state: State, task: ObjectiveEvent, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    seat, card = task["seat"], task["card"]
    state["fulfilled"][seat].append(card)
    state["objective"][seat] = None
    performed = PERFORM.matches(action)
    told = performed or has_choice_line(state, seat)  # else the solo opponent skipped it
    skipped = "" if told else " and skips its event"
    ctx.emit("objective", f"fulfils {card_name(card)}{skipped} (§11)", card=card)
    if performed:
        TASKS.schedule(state, tasks.end_of_bonus_action())
        events.start_event(state, seat, card)


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (
    Decision("scoring_order", order_prompt, order_apply),
    Decision("objective_event", objective_event_prompt, objective_event_apply),
)
