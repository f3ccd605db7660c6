"""The Build Phase (rules §8, in the listed order, A26): Bridges & Roads (§8.1),
finishing Churches (§8.2), starting a Church (§8.3); each step is offered until the
player builds nothing more, and skipped when nothing can be built (a Region with
Vikings builds nothing)."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from tabletop.framework import PASS_KEY, Action, Choice, Context, State
from tabletop.framework.actions import Verb
from tabletop.framework.stack import Decision

from .. import board
from ..data import COSTS, REGIONS
from ..verbs import BRIDGES, FINISH, NEXT, START
from .common import TASKS, Ask, Task


class Site(NamedTuple):
    """A Region where a Build step can build now, in words; the step adds its verb and
    its price. ``upkeep``: what the building costs afterwards, said after the price."""

    region: str
    label: str
    detail: str
    upkeep: str = ""


Options = Callable[[State], list[Site]]


def build_step(
    kind: str,
    rule: str,
    verb: Verb,
    cost: str,
    question: str,
    options: Options,
    build: Callable[[State, str, Context], None],
    *,
    after: str,
    again: bool = True,
) -> Decision[Task]:
    """A Build step: what can be built now and the pass choice (``after`` says what
    comes next); not asked when nothing can be built. ``cost`` names the price in
    ``COSTS``, the same for every build of the step: the question and each choice show
    it, nothing is offered while the Treasury cannot pay it, and it is paid before
    ``build(state, region, ctx)`` builds in the Region of the chosen ``options`` site.
    ``again``: the step is offered again after it, until the player builds nothing more."""
    price = COSTS[cost]

    def text(state: State, task: Task) -> str:
        return f"{question} (costs {price} coins; Treasury {state['treasury']})"

    def affordable(state: State) -> list[Choice]:
        if state["treasury"] < price:
            return []
        return [
            Choice(
                verb(site.region),
                site.label,
                detail=site.detail,
                consequence=f"-{price} coins" + (f", {site.upkeep}" if site.upkeep else ""),
            )
            for site in options(state)
        ]

    def choices(state: State, task: Task) -> list[Choice]:
        done = Choice(
            NEXT(),
            "Build nothing more here",
            detail=f"Keep the {state['treasury']} coins; {after}.",
            key=PASS_KEY,
        )
        return [*affordable(state), done]

    def needed(state: State, task: Task) -> bool:
        return bool(affordable(state))

    def apply(state: State, task: Task, action: Action, ctx: Context) -> None:
        if NEXT.matches(action) or not again:
            TASKS.finish(state)
        if not NEXT.matches(action):
            state["treasury"] -= price
            build(state, verb.arg(action), ctx)

    return Decision[Task](kind, Ask(rule, text, choices), apply, needed=needed)


def bridges_options(state: State) -> list[Site]:
    out: list[Site] = []
    for region, marquis in sorted(state["marquis"].items()):
        if (
            not marquis["crowned"]
            and state["churches"].get(region) == "finished"
            and not board.region_has_enemies(state, region)
        ):
            score = len(board.roads_regions(state)) + 1
            out.append(
                Site(
                    region,
                    f"Bridges & Roads in {REGIONS[region].name}",
                    f"Taxes +1, +{score} VP now; all its boxes become adjacent, and its "
                    "eliminated enemies go to the Friendly Cup.",
                )
            )
    return out


def build_bridges(state: State, region: str, ctx: Context) -> None:
    state["marquis"][region]["crowned"] = True
    state["taxes"] += 1
    score = len(board.roads_regions(state))
    state["vp"] += score
    ctx.emit("build", f"builds Bridges & Roads in {REGIONS[region].name}: +{score} VP")


BUILD_BRIDGES = build_step(
    "build_bridges",
    "§8.1 Build: Bridges & Roads",
    BRIDGES,
    "bridges_and_roads",
    "Build Bridges & Roads",
    bridges_options,
    build_bridges,
    after="finishing Churches comes next",
)


def church_finish_options(state: State) -> list[Site]:
    out: list[Site] = []
    if board.finished_churches(state) + 1 > len(state["marquis"]) + 2:
        return out
    for region, status in sorted(state["churches"].items()):
        if status == "started" and not board.vikings_in(state, region):
            gain = board.finished_churches(state, viking_free=True) + 1
            out.append(
                Site(
                    region,
                    f"Finish the Church in {REGIONS[region].name}",
                    f"Taxes +{gain} (to {state['taxes'] + gain}); 1 VP each Turn End while "
                    "no Vikings are in the Region.",
                    upkeep="1 coin of upkeep a turn",
                )
            )
    return out


def finish_church(state: State, region: str, ctx: Context) -> None:
    state["churches"][region] = "finished"
    gain = board.finished_churches(state, viking_free=True)
    state["taxes"] += gain
    ctx.emit("build", f"finishes the Church in {REGIONS[region].name}: Taxes +{gain}")
    if board.finished_churches(state) >= 3 and not state["pam_church_bonus_used"]:
        state["pam_church_bonus_used"] = True
        board.raise_pam(state, ctx, "three Finished Churches")


BUILD_FINISH = build_step(
    "build_finish",
    "§8.2 Build: finishing a Church",
    FINISH,
    "church_finish",
    "Finish a Church",
    church_finish_options,
    finish_church,
    after="starting a Church comes next",
)


def church_start_options(state: State) -> list[Site]:
    region = board.region_of(state["charlemagne"])
    if (
        region in state["churches"]
        or len(state["churches"]) >= 4
        or board.vikings_in(state, region)
    ):
        return []
    if REGIONS[region].pagan and board.finished_churches(state) < 3:
        return []
    return [
        Site(
            region,
            f"Start a Church in {REGIONS[region].name}",
            "A Church started now can be finished (4 coins) in a later Build Phase; a "
            "Finished Church raises Taxes and scores 1 VP a turn.",
        )
    ]


def start_church(state: State, region: str, ctx: Context) -> None:
    state["churches"][region] = "started"
    ctx.emit("build", f"starts a Church in {REGIONS[region].name}")


BUILD_START = build_step(
    "build_start",
    "§8.3 Build: starting a Church",
    START,
    "church_start",
    "Start a Church where Charlemagne stands",
    church_start_options,
    start_church,
    after="the Diplomacy Phase comes next, then the Turn End",
    again=False,  # one Church started a turn
)
