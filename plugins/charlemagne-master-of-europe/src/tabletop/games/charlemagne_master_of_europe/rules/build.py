"""The Build Phase (rules §8, in the listed order, A26): Bridges & Roads (§8.1),
finishing Churches (§8.2), starting a Church (§8.3); each step is offered until the
player builds nothing more, and skipped when nothing can be built (a Region with
Vikings builds nothing)."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.framework import PASS_KEY, Action, Choice, Context, State
from tabletop.framework.actions import Verb
from tabletop.framework.stack import Decision

from .. import board
from ..data import COSTS, REGIONS
from ..verbs import BRIDGES, FINISH, NEXT, START
from .common import Ask, Task, finish

Options = Callable[[State], list[Choice]]


def build_step(
    kind: str,
    rule: str,
    verb: Verb,
    text: Callable[[State, Task], str],
    options: Options,
    build: Callable[[State, str, Context], None],
    *,
    after: str,
    again: bool = True,
) -> Decision[Task]:
    """A Build step: what can be built now and the pass choice (``after`` says what
    comes next); not asked when nothing can be built. ``build(state, region, ctx)``
    builds in the Region the chosen ``verb`` names; ``again``: the step is offered
    again after it, until the player builds nothing more."""

    def choices(state: State, task: Task) -> list[Choice]:
        done = Choice(
            NEXT(),
            "Build nothing more here",
            detail=f"Keep the {state['treasury']} coins; {after}.",
            key=PASS_KEY,
        )
        return [*options(state), done]

    def needed(state: State, task: Task) -> bool:
        return bool(options(state))

    def apply(state: State, task: Task, action: Action, ctx: Context) -> None:
        if NEXT.matches(action) or not again:
            finish(state)
        if not NEXT.matches(action):
            build(state, verb.arg(action), ctx)

    return Decision[Task](kind, Ask(rule, text, choices), apply, needed=needed)


def bridges_text(state: State, task: Task) -> str:
    return f"Build Bridges & Roads (costs 4 coins; Treasury {state['treasury']})"


def bridges_options(state: State) -> list[Choice]:
    out: list[Choice] = []
    if state["treasury"] < COSTS["bridges_and_roads"]:
        return out
    for region, marquis in sorted(state["marquis"].items()):
        if (
            not marquis["crowned"]
            and state["churches"].get(region) == "finished"
            and not board.region_has_enemies(state, region)
        ):
            score = len(board.roads_regions(state)) + 1
            out.append(
                Choice(
                    BRIDGES(region),
                    f"Bridges & Roads in {REGIONS[region].name}",
                    detail=f"Taxes +1, +{score} VP now; all its boxes become "
                    "adjacent, and its eliminated enemies go to the Friendly Cup.",
                    consequence=f"-{COSTS['bridges_and_roads']} coins",
                )
            )
    return out


def build_bridges(state: State, region: str, ctx: Context) -> None:
    state["treasury"] -= COSTS["bridges_and_roads"]
    state["marquis"][region]["crowned"] = True
    state["taxes"] += 1
    score = len(board.roads_regions(state))
    state["vp"] += score
    ctx.emit("build", f"builds Bridges & Roads in {REGIONS[region].name}: +{score} VP")


BUILD_BRIDGES = build_step(
    "build_bridges",
    "§8.1 Build: Bridges & Roads",
    BRIDGES,
    bridges_text,
    bridges_options,
    build_bridges,
    after="finishing Churches comes next",
)


def church_finish_text(state: State, task: Task) -> str:
    return f"Finish a Church (costs 4 coins; Treasury {state['treasury']})"


def church_finish_options(state: State) -> list[Choice]:
    out: list[Choice] = []
    if state["treasury"] < COSTS["church_finish"]:
        return out
    if board.finished_churches(state) + 1 > len(state["marquis"]) + 2:
        return out
    for region, status in sorted(state["churches"].items()):
        if status == "started" and not board.vikings_in(state, region):
            gain = board.finished_churches(state, viking_free=True) + 1
            out.append(
                Choice(
                    FINISH(region),
                    f"Finish the Church in {REGIONS[region].name}",
                    detail=f"Taxes +{gain} (to {state['taxes'] + gain}); 1 VP each "
                    "Turn End while no Vikings are in the Region.",
                    consequence=f"-{COSTS['church_finish']} coins, 1 coin of upkeep a turn",
                )
            )
    return out


def finish_church(state: State, region: str, ctx: Context) -> None:
    state["treasury"] -= COSTS["church_finish"]
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
    church_finish_text,
    church_finish_options,
    finish_church,
    after="starting a Church comes next",
)


def church_start_text(state: State, task: Task) -> str:
    return f"Start a Church where Charlemagne stands (costs 2 coins; Treasury {state['treasury']})"


def church_start_options(state: State) -> list[Choice]:
    region = board.region_of(state["charlemagne"])
    if (
        state["treasury"] < COSTS["church_start"]
        or region in state["churches"]
        or len(state["churches"]) >= 4
        or board.vikings_in(state, region)
    ):
        return []
    if REGIONS[region].pagan and board.finished_churches(state) < 3:
        return []
    return [
        Choice(
            START(region),
            f"Start a Church in {REGIONS[region].name}",
            detail="A Church started now can be finished (4 coins) in a later Build "
            "Phase; a Finished Church raises Taxes and scores 1 VP a turn.",
            consequence=f"-{COSTS['church_start']} coins",
        )
    ]


def start_church(state: State, region: str, ctx: Context) -> None:
    state["treasury"] -= COSTS["church_start"]
    state["churches"][region] = "started"
    ctx.emit("build", f"starts a Church in {REGIONS[region].name}")


BUILD_START = build_step(
    "build_start",
    "§8.3 Build: starting a Church",
    START,
    church_start_text,
    church_start_options,
    start_church,
    after="the Diplomacy Phase comes next, then the Turn End",
    again=False,  # one Church started a turn
)
