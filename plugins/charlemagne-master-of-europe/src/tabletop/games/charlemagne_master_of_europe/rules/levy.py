"""The Levy Phase (rules §4): recruiting (§4.1, a decision offered again after each
purchase) and the mandatory promotion of a veteran (§4.2, A24)."""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Action, Choice, Context, State
from tabletop.framework.stack import Decision, Step

from ..data import COSTS, minimum_army_strength
from ..verbs import BUY_UNIT, DONE, PROMOTE_VETERAN
from .army import add_unit, army_strength, counter_free, unit_detail
from .common import TASKS, Ask, Task


def levy_limit(state: State) -> int:
    return 1 + len(state["marquis"]) + int(state["iron_crown"]) + int(state["hre"])


def buy_text(state: State, task: Task) -> str:
    left = levy_limit(state) - state["levy_bought"]
    units = "1 more unit" if left == 1 else f"{left} more units"
    return f"Recruit: {units} this turn (Treasury {state['treasury']})"


def buy_choices(state: State, task: Task) -> list[Choice]:
    out = []
    if state["levy_bought"] < levy_limit(state):
        for kind, level, cost in (
            ("infantry", 1, COSTS["infantry_1"]),
            ("scara", 2, COSTS["scara_2"]),
        ):
            if state["treasury"] >= cost and counter_free(state, kind, level):
                out.append(
                    Choice(
                        BUY_UNIT(kind),
                        f"Buy a Level {level} {kind.title()} ({cost} coins)",
                        detail=unit_detail(kind, level)
                        + f" Army Strength {army_strength(state)} -> "
                        f"{army_strength(state) + level}.",
                        consequence=f"-{cost} coins (Treasury {state['treasury']} -> "
                        f"{state['treasury'] - cost})"
                        + ("; 1 coin of upkeep a turn once at Level 4" if kind == "scara" else ""),
                    )
                )
    need = minimum_army_strength(max(state["turn"], 4))
    coins = "1 coin" if state["treasury"] == 1 else f"{state['treasury']} coins"
    why = "" if out else f"{nothing_to_buy(state)} "
    out.append(
        Choice(
            DONE(),
            "Recruit no more",
            detail=f"{why}Keep the {coins}; the promotion of a veteran "
            f"follows. Army Strength {army_strength(state)} (the minimum is {need} "
            f"from turn {max(state['turn'], 4)}).",
            key=PASS_KEY,
        )
    )
    return out


def nothing_to_buy(state: State) -> str:
    """Why the Levy offers no unit (§4.1): the turn's limit is reached, or each unit
    costs more than the Treasury holds or has no counter left in the Force Pool."""
    if state["levy_bought"] >= levy_limit(state):
        return (
            f"Nothing more to recruit: the limit is {levy_limit(state)} this turn (1, plus 1 "
            "for each Marquis, the Iron Crown and the Emperor's title, §4.1)."
        )
    reasons = []
    for kind, level, cost in (
        ("infantry", 1, COSTS["infantry_1"]),
        ("scara", 2, COSTS["scara_2"]),
    ):
        unit = f"a Level {level} {kind.title()}"
        if not counter_free(state, kind, level):
            reasons.append(f"{unit} has no counter left in the Force Pool")
        else:
            reasons.append(f"{unit} costs {cost} coins")
    return f"Nothing to buy: {' and '.join(reasons)}, and the Treasury holds {state['treasury']}."


def buy_apply(state: State, task: Task, action: Action, ctx: Context) -> None:
    if DONE.matches(action):
        TASKS.finish(state)
        return
    kind = BUY_UNIT.arg(action)
    level, cost = (1, COSTS["infantry_1"]) if kind == "infantry" else (2, COSTS["scara_2"])
    state["treasury"] -= cost
    state["levy_bought"] += 1
    add_unit(state, kind, level, new=True)
    ctx.emit("levy", f"recruits a Level {level} {kind.title()} for {cost} coins")
    # the decision stays on top: the Levy asks again until the player stops


LEVY_BUY = Decision[Task](
    "levy_buy",
    Ask("§4.1 Levy: recruiting", buy_text, buy_choices),
    buy_apply,
)


def promotable_levels(state: State) -> list[int]:
    return sorted(
        {
            u["level"]
            for u in state["army"]
            if u["kind"] == "infantry"
            and u["level"] in (1, 2)
            and not u["new"]
            and (u["level"] == 1 or counter_free(state, "infantry", 3))
        }
    )


def promote_needed(state: State, task: Task) -> bool:
    return bool(promotable_levels(state))


def promote_text(state: State, task: Task) -> str:
    return "Promote one Infantry unit (not one just bought)"


def promote_choices(state: State, task: Task) -> list[Choice]:
    return [
        Choice(
            PROMOTE_VETERAN(level),
            f"Promote a Level {level} Infantry to Level {level + 1}",
            detail=unit_detail("infantry", level + 1)
            + f" You have {veterans(state, level)} Level {level} Infantry that may be "
            f"promoted; Army Strength {army_strength(state)} -> {army_strength(state) + 1}.",
        )
        for level in promotable_levels(state)
    ]


def promote_apply(state: State, task: Task, action: Action, ctx: Context) -> None:
    TASKS.finish(state)
    level = PROMOTE_VETERAN.number(action)
    unit = next(
        u for u in state["army"] if u["kind"] == "infantry" and u["level"] == level and not u["new"]
    )
    unit["level"] += 1
    ctx.emit("levy", f"promotes a Level {level} Infantry to Level {level + 1}")


LEVY_PROMOTE = Decision[Task](
    "levy_promote",
    Ask("§4.2 Levy: promoting a veteran", promote_text, promote_choices),
    promote_apply,
    needed=promote_needed,
)


def veterans(state: State, level: int) -> int:
    """Infantry of ``level`` not bought this turn: those the Levy may promote."""
    return sum(
        1 for u in state["army"] if u["kind"] == "infantry" and u["level"] == level and not u["new"]
    )


def levy_end(state: State, task_: Task, ctx: Context) -> None:
    """The Levy is over: this turn's recruits are veterans from now on."""
    state["levy_bought"] = 0
    for unit in state["army"]:
        unit["new"] = False


LEVY_END = Step[Task]("levy_end", levy_end)
