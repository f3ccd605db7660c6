"""The tasks on the state's decision stack, one typed dictionary per kind.

A task is plain JSON data (saves, undo and replays copy the state as it is), so each
kind is a ``TypedDict`` whose ``name`` says which rules module handles it. A task
that needs a decision names its ``seat``; the automatic ones (an event's steps, the
end of a card play or bonus action) are resolved without a prompt. The functions
below build each kind, so that no module spells a task's fields by hand.

``TASKS`` is where the tasks live (``state["stack"]``, a task's rule in ``"name"``) and
the one way the rules change the list: ``TASKS.schedule`` puts tasks on top, the first
given done first, and ``TASKS.finish`` takes the decided task off. The table
(``rules/table.py``) is built on it; the rules modules cannot import the table, which
imports them.
"""

from __future__ import annotations

from typing import Literal, NotRequired, TypedDict

from tabletop.framework.stack import Tasks

#: The state's task list and the calls that change it (issue 38: one stack dialect).
TASKS = Tasks(key="stack", field="name")


class KeepObjective(TypedDict):
    """§5.2: keep one of the two objectives dealt."""

    name: Literal["keep_objective"]
    seat: int


class InitiativeOrder(TypedDict):
    """§6.2: the side with the higher initiative level plays first or second."""

    name: Literal["initiative_order"]
    seat: int


class CardPlay(TypedDict):
    """§7 / §12.3: play a Strategy card from hand."""

    name: Literal["card_play"]
    seat: int


class EndOfCardPlay(TypedDict):
    """Automatic: breaches pay out (§8.2), the play is counted, the turn passes."""

    name: Literal["end_of_card_play"]
    seat: int


class EventSteps(TypedDict):
    """Automatic: carry out a card's event step by step (§7.1)."""

    name: Literal["event_steps"]
    seat: int
    card: int
    option_path: list[int]
    """[] for the event's own steps, [step, option] inside a chosen option."""
    next_step: int


class EventOption(TypedDict):
    """Choose one of an event's options (a "choose one" step)."""

    name: Literal["event_option"]
    seat: int
    card: int
    step: int


class EventConsent(TypedDict):
    """§12.3: the owner of an event played by the opponent decides whether it applies."""

    name: Literal["event_consent"]
    seat: int
    card: int


class EventPlacement(TypedDict):
    """An event's "place up to N cubes" step."""

    name: Literal["event_placement"]
    seat: int
    card: int
    cubes_left: int
    spaces: list[str]
    per_space_limit: int | None
    placed_in: dict[str, int]


class EventRemoval(TypedDict):
    """An event's "remove up to N opposing cubes" step."""

    name: Literal["event_removal"]
    seat: int
    card: int
    cubes_left: int
    spaces: list[str]


class DiscPlacement(TypedDict):
    """§1.2: place (or move) a Fortification or Barricade."""

    name: Literal["disc_placement"]
    seat: int
    spaces: list[str]


class Assessment(TypedDict):
    """§3.3: presence and control frozen before removing and again before placing."""

    controlled: list[str]
    present: list[str]
    eligible: NotRequired[list[str]]


OperationsStage = Literal["space_kind", "remove", "place"]


class Operations(TypedDict):
    """§7.2-§7.5: spend Operations Points, removing first, then placing."""

    name: Literal["operations"]
    seat: int
    points: int
    space_kind: str | None
    """"political" or "military" once chosen."""
    stage: OperationsStage
    assessment: Assessment | None


class MomentumPlacement(TypedDict):
    """§9.3: the opponent's momentum reached 2 or 3: place 1 cube in a dimension."""

    name: Literal["momentum_placement"]
    seat: int
    dimension: str


class BonusOrder(TypedDict):
    """§10.1: the Initiative Player orders the Pivotal Space bonus actions."""

    name: Literal["bonus_order"]
    seat: int
    spaces_left: list[str]


class BonusAction(TypedDict):
    """§10.1: the controller of a Pivotal Space takes a bonus action in its dimension."""

    name: Literal["bonus_action"]
    seat: int
    dimension: str


class EndOfBonusAction(TypedDict):
    """Automatic: breaches caused by a bonus action or objective event pay out (§8.2)."""

    name: Literal["end_of_bonus_action"]


class DeEscalate(TypedDict):
    """§10.1 De-escalate: remove up to 2 own cubes, or 1 own and 1 enemy cube."""

    name: Literal["de_escalate"]
    seat: int
    dimension: str
    removed: int


class SpreadInfluence(TypedDict):
    """§10.1 Spread Influence: move up to 2 own cubes within the dimension."""

    name: Literal["spread_influence"]
    seat: int
    dimension: str
    moved: int
    moving_from: str | None


Scoring = Literal["dimensions", "objective_vp", "objective_events"]


class ScoringOrder(TypedDict):
    """§10.2, §11: when both sides score, the Initiative Player says who goes first."""

    name: Literal["scoring_order"]
    seat: int
    scoring: Scoring
    objectives: NotRequired[list[int | None]]
    """For objective events: each side's fulfilled objective (None: none)."""


class ObjectiveEvent(TypedDict):
    """§11: perform the event of the objective just fulfilled, or skip it."""

    name: Literal["objective_event"]
    seat: int
    card: int


class FinalCrisisDiscard(TypedDict):
    """§12.2: discard down to as many cards as rounds were played."""

    name: Literal["final_crisis_discard"]
    seat: int


Task = (
    KeepObjective
    | InitiativeOrder
    | CardPlay
    | EndOfCardPlay
    | EventSteps
    | EventOption
    | EventConsent
    | EventPlacement
    | EventRemoval
    | DiscPlacement
    | Operations
    | MomentumPlacement
    | BonusOrder
    | BonusAction
    | EndOfBonusAction
    | DeEscalate
    | SpreadInfluence
    | ScoringOrder
    | ObjectiveEvent
    | FinalCrisisDiscard
)


# Builders ------------------------------------------------------------------------------


def keep_objective(seat: int) -> KeepObjective:
    return {"name": "keep_objective", "seat": seat}


def initiative_order(seat: int) -> InitiativeOrder:
    return {"name": "initiative_order", "seat": seat}


def card_play(seat: int) -> CardPlay:
    return {"name": "card_play", "seat": seat}


def end_of_card_play(seat: int) -> EndOfCardPlay:
    return {"name": "end_of_card_play", "seat": seat}


def event_steps(seat: int, card: int, option_path: list[int] | None = None) -> EventSteps:
    return {
        "name": "event_steps",
        "seat": seat,
        "card": card,
        "option_path": list(option_path or []),
        "next_step": 0,
    }


def event_option(seat: int, card: int, step: int) -> EventOption:
    return {"name": "event_option", "seat": seat, "card": card, "step": step}


def event_consent(seat: int, card: int) -> EventConsent:
    return {"name": "event_consent", "seat": seat, "card": card}


def event_placement(
    seat: int, card: int, cubes: int, spaces: list[str], per_space_limit: int | None
) -> EventPlacement:
    return {
        "name": "event_placement",
        "seat": seat,
        "card": card,
        "cubes_left": cubes,
        "spaces": list(spaces),
        "per_space_limit": per_space_limit,
        "placed_in": {},
    }


def event_removal(seat: int, card: int, cubes: int, spaces: list[str]) -> EventRemoval:
    return {
        "name": "event_removal",
        "seat": seat,
        "card": card,
        "cubes_left": cubes,
        "spaces": list(spaces),
    }


def disc_placement(seat: int, spaces: list[str]) -> DiscPlacement:
    return {"name": "disc_placement", "seat": seat, "spaces": list(spaces)}


def operations(seat: int, points: int, space_kind: str | None = None) -> Operations:
    """Operations with ``points``; ``space_kind`` fixed by an event, or chosen first."""
    return {
        "name": "operations",
        "seat": seat,
        "points": points,
        "space_kind": space_kind,
        "stage": "space_kind" if space_kind is None else "remove",
        "assessment": None,
    }


def momentum_placement(seat: int, dimension: str) -> MomentumPlacement:
    return {"name": "momentum_placement", "seat": seat, "dimension": dimension}


def bonus_order(seat: int, spaces: list[str]) -> BonusOrder:
    return {"name": "bonus_order", "seat": seat, "spaces_left": list(spaces)}


def bonus_action(seat: int, dimension: str) -> BonusAction:
    return {"name": "bonus_action", "seat": seat, "dimension": dimension}


def end_of_bonus_action() -> EndOfBonusAction:
    return {"name": "end_of_bonus_action"}


def de_escalate(seat: int, dimension: str) -> DeEscalate:
    return {"name": "de_escalate", "seat": seat, "dimension": dimension, "removed": 0}


def spread_influence(seat: int, dimension: str) -> SpreadInfluence:
    return {
        "name": "spread_influence",
        "seat": seat,
        "dimension": dimension,
        "moved": 0,
        "moving_from": None,
    }


def scoring_order(
    seat: int, scoring: Scoring, objectives: list[int | None] | None = None
) -> ScoringOrder:
    task: ScoringOrder = {"name": "scoring_order", "seat": seat, "scoring": scoring}
    if objectives is not None:
        task["objectives"] = list(objectives)
    return task


def objective_event(seat: int, card: int) -> ObjectiveEvent:
    return {"name": "objective_event", "seat": seat, "card": card}


def final_crisis_discard(seat: int) -> FinalCrisisDiscard:
    return {"name": "final_crisis_discard", "seat": seat}
