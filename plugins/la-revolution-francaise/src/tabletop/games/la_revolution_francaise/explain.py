"""The words a person reads before choosing that cost too much to work out for the bots:
each result letter's outcome for an action's target, what an objective asks and whether
the table makes it unlikely, what a Personality could do where it would stand. The
prompts leave them out; the decisions of ``table`` name these as their ``explain``, which
the framework calls only for a person (searches build prompts thousands of times a
decision)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from tabletop.framework import Choice, Prompt, State

from .actions.act import all_persons
from .actions.modifiers import action_modifiers
from .actions.outcomes import success_letters
from .actions.segments import SEGMENT_RULES
from .core import fame, odds
from .initial.objectives import next_declarer
from .initial.placement import place_detail, place_warning, unplaced
from .verbs import OBJECTIVE, PLACE, TRY
from .words import letters_detail, objective_detail, objective_warning

Explainer = Callable[[State, Any, Choice], Choice]


#: Below this chance of getting what it is for on one roll, an action is warned of.
UNLIKELY = 0.15


def _act(state: State, t: Any, choice: Choice) -> Choice:
    """An action's target: what A, B and C would each do there (7.3, 7.4), and a
    warning when one roll is unlikely to get what the action is for."""
    if not TRY.matches(choice.action):
        return choice
    actor, segment = t["actor"], t["segment"]
    target = TRY.arg(choice.action)
    letters = letters_detail(state, actor, segment, target)
    mods = action_modifiers(
        state, actor, segment, target, all_persons(state, actor, segment, target)
    )
    chances = odds(fame(state, actor) + sum(m for m, _ in mods))
    wanted = success_letters(state, segment, target)
    chance = sum(chances[letter] for letter in wanted)
    consequence = choice.consequence
    if chance < UNLIKELY:
        consequence += (
            f"; unlikely: {' or '.join(wanted)} on {round(100 * chance)}% of rolls "
            f"({SEGMENT_RULES[segment]})"
        )
    return replace(choice, detail=f"{choice.detail} {letters}.", consequence=consequence)


def _objective(state: State, t: Any, choice: Choice) -> Choice:
    """A named objective: what meets it, what it is worth, and a warning when the
    table makes it unlikely (6.4)."""
    if not OBJECTIVE.matches(choice.action):
        return choice
    value = OBJECTIVE.arg(choice.action)
    who = next_declarer(state)  # a joint objective's leader declares for both (6.4)
    return replace(
        choice, detail=objective_detail(value), consequence=objective_warning(state, value, who)
    )


def _place(state: State, t: Any, choice: Choice) -> Choice:
    """A region offered to the Personality being placed (6.5)."""
    if not PLACE.matches(choice.action) or t["index"] >= len(t["order"]):
        return choice
    region = PLACE.arg(choice.action)
    current = t["order"][t["index"]]
    todo = unplaced(state, current)
    if not todo:
        return choice
    return replace(
        choice,
        detail=place_detail(state, current, todo[0], region),
        consequence=place_warning(state, current, todo[0], region),
    )


def each_choice(explainer: Explainer) -> Callable[[State, Any, Prompt], Prompt]:
    """A decision's ``explain``: ``explainer`` applied to each of the prompt's choices."""

    def explain(state: State, task: Any, prompt: Prompt) -> Prompt:
        return replace(prompt, choices=tuple(explainer(state, task, c) for c in prompt.choices))

    return explain


explain_act = each_choice(_act)
explain_objective = each_choice(_objective)
explain_place = each_choice(_place)
