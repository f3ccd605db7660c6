"""§7.1 An event in play: its steps run one by one (automatic), a "choose one" step asks
which option, and in the Final Crisis (§12.3) the owner of an event the opponent played
decides whether it applies. The steps themselves are the effect functions of
``events.py``, named by the card data."""

from __future__ import annotations

from functools import lru_cache

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.stack import Decision, Rule, Step

from .. import events
from ..data import card_name
from ..verbs import APPLY, DECLINE, EVENT_OPTION
from ..viewing import card_detail
from .tasks import TASKS, EventConsent, EventOption, EventSteps
from .told import PUBLIC, restate
from .warnings import join


def event_steps(state: State, task: EventSteps, ctx: Context) -> None:
    """Step: carry out the event's next step. The task goes back on the stack, under
    whatever that step asks, until every step is done."""
    if task["next_step"] >= len(events.event_steps(task["card"], task["option_path"])):
        return
    TASKS.schedule(state, task)
    events.run_next_step(state, task, ctx)


def option_prompt(state: State, task: EventOption) -> Prompt:
    step = events.event_steps(task["card"], [])[task["step"]]
    detail = card_detail(task["card"])
    choices = tuple(
        Choice(
            EVENT_OPTION(k),
            option["text"],
            detail,
            join(events.forecast(state, task["seat"], option["steps"])),
        )
        for k, option in enumerate(step["options"])
    )
    text = f"{card_name(task['card'])}: choose one"
    return Prompt(task["seat"], text, choices, "§7.1", public=PUBLIC)


def option_apply(state: State, task: EventOption, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    option = EVENT_OPTION.number(action)
    events.start_event(state, task["seat"], task["card"], [task["step"], option])


def consent_prompt(state: State, task: EventConsent) -> Prompt:
    forecast = join(events.event_forecast(state, task["seat"], task["card"]))
    return _consent_prompt(task["seat"], task["card"], forecast)


@lru_cache(maxsize=1024)
def _consent_prompt(seat: int, card: int, forecast: str) -> Prompt:
    """Built once for each card, side and forecast."""
    name = card_name(card)
    return Prompt(
        seat,
        f"Your opponent played your event {name}: apply it?",
        (
            Choice(APPLY(), f"Apply {name}", card_detail(card), forecast),
            Choice(
                DECLINE(), "Do not apply it", f"{name} is discarded with no effect", key=PASS_KEY
            ),
        ),
        "§12.3",
        public=PUBLIC,
    )


def consent_apply(state: State, task: EventConsent, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    card, seat = task["card"], task["seat"]
    if APPLY.matches(action):
        restate(state, seat, ctx, "event", f"applies {card_name(card)} (§12.3)", card=card)
        events.start_event(state, seat, card)
    else:
        words = f"declines {card_name(card)}: no effect (§12.3)"
        restate(state, seat, ctx, "event", words, card=card)


#: This module's rules, for the game's table (``rules/table.py``).
RULES: tuple[Rule, ...] = (
    Step("event_steps", event_steps),
    Decision("event_option", option_prompt, option_apply),
    Decision("event_consent", consent_prompt, consent_apply),
)
