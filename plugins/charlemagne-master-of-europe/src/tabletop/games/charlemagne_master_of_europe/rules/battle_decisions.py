"""The battle's decisions (rules §7): deployment (§7.2), a unit's choice of target
(§7.3), the counterattack's target (§7.4), the maneuvers as one decision (§7.5), the
Reserve's required and optional responses (§7.6) and the promotions after a win
(§7.8). Each is pushed by the ``battle_continue`` step of ``battle.py``."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

from tabletop.framework import PASS_KEY, Action, Choice, Context, State
from tabletop.framework.actions import Verb
from tabletop.framework.stack import Decision

from ..data import DIE_SIDES, FRIENDLY_FACTORS
from ..verbs import DONE, NONE, PLACE, PLACE_MORE, PROMOTE_UNIT, TARGET, UNIT, maneuver, maneuver_of
from .army import counter_free
from .battle import counterattack, maneuvers, optional_spaces, resolve_attack
from .battle_display import (
    LINE_SPACES,
    WING_NAMES,
    Slot,
    enemies_touching,
    enemy_factors,
    enemy_words,
    factors,
    occupant,
    reserve,
    reserve_types,
    slot_words,
    take_from_reserve,
    unit,
    unit_words,
    wing_units,
)
from .common import TASKS, Ask, DeployTask, ReserveTask, SlotTask, Task, WingTask

# Decisions -------------------------------------------------------------------------


def type_choices(
    state: State, b: dict[str, Any], action: Callable[[str, int], Action], where: str = ""
) -> list[Choice]:
    """A choice per kind of unit in the Reserve; ``action(kind, level)`` words it and
    ``where`` ends its label with the space it goes to (the Reserve's responses)."""
    out = []
    for kind, level in reserve_types(state, b):
        attack, defense = FRIENDLY_FACTORS[(kind, level)]
        count = sum(
            1
            for u in reserve(state, b)
            if unit(state, u)["kind"] == kind and unit(state, u)["level"] == level
        )
        out.append(
            Choice(
                action(kind, level),
                f"{kind.title()} L{level} ({attack}-{defense}){where}",
                detail=f"Attack {attack}, Defense {defense}; {count} in the Reserve.",
            )
        )
    return out


def to_line(state: State, wing: str, j: int, kind: str, level: str) -> str:
    """A Reserve unit of ``kind`` and ``level`` into your line space ``j``: its words."""
    b = state["battle"]
    b["mine"][wing][j] = take_from_reserve(state, b, kind, int(level))
    return unit_words(state, b["mine"][wing][j])


def reserve_sends(state: State, wing: str, j: int, kind: str, level: str, ctx: Context) -> None:
    words = to_line(state, wing, j, kind, level)
    ctx.emit("reserve", f"the Reserve sends {words} to {slot_words(['line', wing, j])}")


def deploy_text(state: State, task: DeployTask) -> str:
    return f"Deploy a unit to your {slot_words(task['slot'])}"


def deploy_choices(state: State, task: DeployTask) -> list[Choice]:
    return type_choices(state, state["battle"], UNIT)


def deploy_apply(state: State, task_: DeployTask, action: Action, ctx: Context) -> None:
    TASKS.finish(state)
    kind, level = UNIT.args(action)
    _, wing, j = task_["slot"]
    words = to_line(state, wing, j, kind, level)
    ctx.emit("deploy", f"deploys {words} to {slot_words(task_['slot'])}")


BATTLE_DEPLOY = Decision[DeployTask](
    "battle_deploy",
    Ask("§7.2 Battle: deployment", deploy_text, deploy_choices),
    deploy_apply,
)


def attack_text(state: State, task: SlotTask) -> str:
    b = state["battle"]
    return (
        f"{unit_words(state, occupant(b, task['slot']))} in your {slot_words(task['slot'])} "
        "attacks which enemy?"
    )


def attack_choices(state: State, task: SlotTask) -> list[Choice]:
    b = state["battle"]
    wing = task["slot"][1]
    unit_id = occupant(b, task["slot"])
    attack = factors(state, unit_id)[0] if unit_id is not None else 0
    out = []
    for k in enemies_touching(b, task["slot"]):
        enemy = b["enemy"][wing][k]
        need = enemy_factors(enemy)[1] - attack
        bonus = (
            b["attack_rounds"] == 0
            and not b["ambush"]
            and unit_id is not None
            and unit(state, unit_id)["kind"] == "scara"
        )
        effect = (
            "eliminates it"
            if enemy["reduced"]
            else "eliminates it, by the Scara's first-round bonus"
            if bonus
            else "flips it to its reduced side"
        )
        faces = max(0, min(DIE_SIDES, DIE_SIDES - need))
        roll_words = (
            "Any roll (8 in 8)"
            if faces == DIE_SIDES
            else (f"A roll above {need} on the d8 ({faces} in 8)")
        )
        out.append(
            Choice(
                TARGET(k),
                f"The {enemy_words(enemy)} in enemy space {k + 1}",
                detail=f"{roll_words} {effect}; a hit with the top face eliminates it outright.",
            )
        )
    return out


def on_target(
    strike: Callable[[State, dict[str, Any], Slot, int, Context], None],
) -> Callable[[State, SlotTask, Action, Context], None]:
    """The answer to a choice of target: ``strike`` the chosen enemy space, and the
    round goes on with the next of your spaces."""

    def apply(state: State, task_: SlotTask, action: Action, ctx: Context) -> None:
        TASKS.finish(state)
        b = state["battle"]
        strike(state, b, task_["slot"], TARGET.number(action), ctx)
        b["cursor"] += 1

    return apply


BATTLE_ATTACK = Decision[SlotTask](
    "battle_attack",
    Ask("§7.3 Battle: attack round", attack_text, attack_choices),
    on_target(resolve_attack),
)


def counterattack_choices(state: State, task: SlotTask) -> list[Choice]:
    b = state["battle"]
    wing = task["slot"][1]
    return [
        Choice(
            TARGET(k),
            f"The {enemy_words(b['enemy'][wing][k])} in enemy space {k + 1}",
            detail=f"Eliminates it (Attack {enemy_factors(b['enemy'][wing][k])[0]}) "
            "whatever its strength.",
        )
        for k in enemies_touching(b, task["slot"])
    ]


def counterattack_slot(state: State, b: dict[str, Any], slot: Slot, k: int, ctx: Context) -> None:
    counterattack(state, b, slot[1], k, ctx)


BATTLE_COUNTERATTACK = Decision[SlotTask](
    "battle_counterattack",
    Ask(
        "§7.4 Battle: defense round (counterattack)",
        "Counterattack: eliminate which enemy?",
        counterattack_choices,
    ),
    on_target(counterattack_slot),
)


def maneuver_choices(state: State, task: Task) -> list[Choice]:
    b = state["battle"]
    out = [
        Choice(
            DONE(),
            "End the maneuvers",
            detail="Units not moved stay where they are; then the Reserve Response, the "
            "check for Isolation and Rout, and the next Attack Round.",
            key=PASS_KEY,
        )
    ]
    for slot, dest in maneuvers(state, b):
        flank = dest[0] == "flank"
        unit_id = occupant(b, slot)
        words = unit_words(state, unit_id)
        facing = " and ".join(
            enemy_words(b["enemy"][dest[1]][k]) for k in enemies_touching(b, dest)
        )
        out.append(
            Choice(
                maneuver(slot, dest),
                f"{words}: {slot_words(slot)} to {slot_words(dest)}",
                detail=f"{words} will face the {facing}."
                + (" A Flanking unit attacks but need not defend." if flank else ""),
            )
        )
    return out


def until_stopped(
    stop: Verb, flag: str, step: Callable[[State, dict[str, Any], Action, Context], None]
) -> Callable[[State, Task, Action, Context], None]:
    """The answer to a decision offered again until the player stops: ``stop`` sets the
    battle's ``flag`` (the battle then moves on), any other answer is one ``step``."""

    def apply(state: State, task_: Task, action: Action, ctx: Context) -> None:
        TASKS.finish(state)
        b = state["battle"]
        if stop.matches(action):
            b[flag] = True
        else:
            step(state, b, action, ctx)

    return apply


def maneuver_step(state: State, b: dict[str, Any], action: Action, ctx: Context) -> None:
    origin, dest = maneuver_of(action)
    kind, wing, pos = origin
    unit_id = b["mine" if kind == "line" else "flank"][wing][pos]
    b["mine" if kind == "line" else "flank"][wing][pos] = None
    to_kind, to_wing, to_pos = dest
    b["mine" if to_kind == "line" else "flank"][to_wing][to_pos] = unit_id
    ctx.emit(
        "maneuver",
        f"{unit_words(state, unit_id)} moves to {slot_words([to_kind, to_wing, int(to_pos)])}",
    )


#: Maneuvers, as one decision: each move is a choice, offered again until done.
BATTLE_MANEUVER = Decision[Task](
    "battle_maneuver",
    Ask(
        "§7.5 Battle: maneuvers",
        "Maneuvers: move units that face no enemy, then end the maneuvers",
        maneuver_choices,
    ),
    until_stopped(DONE, "maneuvers_done", maneuver_step),
)


def reserve_text(state: State, task: ReserveTask) -> str:
    b = state["battle"]
    enemy = b["enemy"][task["wing"]][task["count"]]
    return (
        f"The {enemy_words(enemy)} in the enemy's space {task['count'] + 1} "
        f"({WING_NAMES[task['wing']]} wing) is unengaged: send a Reserve unit"
    )


def reserve_choices(state: State, task: ReserveTask) -> list[Choice]:
    b = state["battle"]
    wing, k = task["wing"], task["count"]
    spaces = [j for j in (k - 1, k) if 0 <= j < LINE_SPACES and b["mine"][wing][j] is None]
    out = []
    for j in spaces:
        out.extend(type_choices(state, b, partial(PLACE, j), f" to space {j + 1}"))
    return out


def reserve_apply(state: State, task_: ReserveTask, action: Action, ctx: Context) -> None:
    TASKS.finish(state)
    j, kind, level = PLACE.args(action)
    reserve_sends(state, task_["wing"], int(j), kind, level, ctx)


BATTLE_RESERVE = Decision[ReserveTask](
    "battle_reserve",
    Ask("§7.6 Battle: reserve response", reserve_text, reserve_choices),
    reserve_apply,
)


def reserve_optional_choices(state: State, task: Task) -> list[Choice]:
    b = state["battle"]
    kept = len(reserve(state, b))
    out = [
        Choice(
            NONE(),
            "Keep the Reserve back",
            detail=f"The {kept} Reserve unit{'s' if kept != 1 else ''} stay out of the "
            "line, safe from the enemy's attacks, ready to fill a later gap; the gaps "
            "stay open (their enemies are already faced).",
            key=PASS_KEY,
        )
    ]
    for _, wing, j in optional_spaces(state, b):
        where = f" to your {slot_words(['line', wing, j])}"
        out.extend(type_choices(state, b, partial(PLACE_MORE, wing, j), where))
    return out


def reserve_optional_step(state: State, b: dict[str, Any], action: Action, ctx: Context) -> None:
    wing, j, kind, level = PLACE_MORE.args(action)
    reserve_sends(state, wing, int(j), kind, level, ctx)


BATTLE_RESERVE_OPTIONAL = Decision[Task](
    "battle_reserve_optional",
    Ask(
        "§7.6 Battle: reserve response",
        "Send more Reserve units into the line?",
        reserve_optional_choices,
    ),
    until_stopped(NONE, "reserve_declined", reserve_optional_step),
)


def promotable(state: State, b: dict[str, Any], wing: str) -> list[tuple[str, int]]:
    out = set()
    for unit_id in wing_units(b, wing):
        u = unit(state, unit_id)
        if u["level"] < 4 and (
            (u["level"] in (1, 3) and u["kind"] == "infantry")
            or u["level"] == 3
            or counter_free(state, u["kind"], u["level"] + 1)
        ):
            out.add((u["kind"], u["level"]))
    return sorted(out)


def _level_words(kind: str, level: int) -> str:
    attack, defense = FRIENDLY_FACTORS[(kind, level)]
    return f"{kind.title()} Level {level}: Attack {attack}, Defense {defense}."


def promote_needed(state: State, task: WingTask) -> bool:
    return bool(promotable(state, state["battle"], task["wing"]))


def promote_text(state: State, task: WingTask) -> str:
    return f"Promote one unit of your {WING_NAMES[task['wing']]} wing"


def promote_choices(state: State, task: WingTask) -> list[Choice]:
    b = state["battle"]
    wing = task["wing"]
    out = []
    for kind, level in promotable(state, b, wing):
        here = sum(
            1
            for u in wing_units(b, wing)
            if (unit(state, u)["kind"], unit(state, u)["level"]) == (kind, level)
        )
        out.append(
            Choice(
                PROMOTE_UNIT(kind, level),
                f"{kind.title()} L{level} to L{level + 1}",
                detail=(
                    "A Level 4 unit retires at the end of the turn for 1 VP (it leaves the army). "
                    if level == 3
                    else ""
                )
                + _level_words(kind, level + 1)
                + f" {here} such unit{'s' if here != 1 else ''} in this wing.",
            )
        )
    return out


def promote_apply(state: State, task_: WingTask, action: Action, ctx: Context) -> None:
    TASKS.finish(state)
    kind, level = PROMOTE_UNIT.args(action)
    b = state["battle"]
    unit_id = next(
        u
        for u in wing_units(b, task_["wing"])
        if unit(state, u)["kind"] == kind and unit(state, u)["level"] == int(level)
    )
    unit(state, unit_id)["level"] += 1
    b.setdefault("promoted", []).append(f"{kind.title()} L{level} to L{int(level) + 1}")
    article = "an" if kind == "infantry" else "a"
    ctx.emit(
        "promote",
        f"promotes {article} {kind.title()} from Level {level} to Level {int(level) + 1}",
    )


#: Promotions: one surviving unit per wing gains a Level (forgone only when none can).
BATTLE_PROMOTE = Decision[WingTask](
    "battle_promote",
    Ask("§7.8 Battle: after a win (promotions)", promote_text, promote_choices),
    promote_apply,
    needed=promote_needed,
)
