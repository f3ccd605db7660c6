"""The Sequence of Play (rules §3): a turn's phases pushed in order, and the step that
opens each phase with its heading."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.framework import Context, State
from tabletop.framework.stack import Step

from .common import TASKS, Task, new_task


def turn_start(state: State, task_: Task, ctx: Context) -> None:
    state["report"] = []
    ctx.heading(f"Game Turn {state['turn']}", turn=state["turn"])
    if state["turn"] > 1:
        ctx.heading(f"Turn {state['turn']}: Levy Phase", turn=state["turn"])
    levy = (
        [new_task("levy_buy"), new_task("levy_promote"), new_task("levy_end")]
        if state["turn"] > 1
        else []
    )
    TASKS.schedule(
        state,
        *levy,
        new_task("campaign_begin"),
        new_task("campaign_continue"),
        new_task("build_begin"),
        new_task("build_bridges"),
        new_task("build_finish"),
        new_task("build_start"),
        new_task("diplomacy_begin"),
        new_task("diplomacy_vikings"),
        new_task("diplomacy_al_andalus"),
        new_task("diplomacy_byzantine"),
        new_task("diplomacy_england"),
        new_task("diplomacy_vatican"),
        new_task("turn_end_begin"),
        new_task("turn_end_deescalation"),
        new_task("turn_end_dead_pool"),
        new_task("turn_end_taxes"),
        new_task("turn_end_upkeep"),
        new_task("turn_end_victory_points"),
        new_task("turn_end_threshold"),
        new_task("evp_voluntary"),
        new_task("turn_end_minimum_army"),
        new_task("turn_end_progress"),
    )
    state["phase"] = "levy" if state["turn"] > 1 else "campaign"


def _phase_begins(phase: str) -> Callable[[State, Task, Context], None]:
    def begin(state: State, task_: Task, ctx: Context) -> None:
        state["phase"] = phase
        ctx.heading(f"Turn {state['turn']}: {phase.title()} Phase", turn=state["turn"])

    return begin


TURN_START = Step[Task]("turn_start", turn_start)
PHASE_STEPS = (
    Step[Task]("campaign_begin", _phase_begins("campaign")),
    Step[Task]("build_begin", _phase_begins("build")),
    Step[Task]("diplomacy_begin", _phase_begins("diplomacy")),
    Step[Task]("turn_end_begin", _phase_begins("turn end")),
)
