"""A battle's automatic course (rules §7): the Enemy Formation and deployment (§7.1),
then round after round the attack, the defence, the maneuvers, the Reserve, Isolation
and Rout (§7.2-7.7), and the post-battle procedure (§7.8).

``state["battle"]`` holds the display (``battle_display.py``); the ``battle_continue``
step runs its stages and pushes a decision (``battle_decisions.py``) where the player
chooses, with another ``battle_continue`` under it to go on afterwards.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import Context, State
from tabletop.framework.stack import Step

from .. import board
from ..board import tell
from ..data import BOXES, formation
from .battle_display import (
    ENEMY_SPACES,
    LINE_SPACES,
    ROUND_LIMIT,
    WING_NAMES,
    WINGS,
    Slot,
    enemies_touching,
    enemies_touching_line,
    enemy_factors,
    enemy_words,
    factors,
    mine_touching,
    occupant,
    reserve,
    slot_order,
    unit,
    unit_words,
    wing_units,
)
from .common import (
    DEFEAT_ROUTED,
    DEFEAT_STALLED,
    TASKS,
    Task,
    cup_task,
    lose,
    new_task,
    reactions,
    roll,
    special,
)

# Starting a battle (rules: Enemy Deployment; Ambush) ------------------------------


def start_battle(
    state: State, box: str, *, ambush: bool, moors_chit: str | None, ctx: Context
) -> None:
    moors = ambush or board.moors_in(state, box) > 0
    region = board.region_of(box)
    face = roll(state, ctx, "Enemy Formation")
    leader = board.leader_in_box(state, box)
    if moors:
        column, total = "moors", face
    else:
        top = board.top_unit(state, box)
        assert top is not None
        bonus = board.leader_bonus(leader) if leader else board.best_region_bonus(state, region)
        column, total = region, face + board.resistance(top) + bonus
    right, left, adjustments = formation(column, total)
    state["battle"] = {
        "box": box,
        "ambush": ambush,
        "moors_chit": moors_chit,
        "column": column,
        "adjustments": adjustments,
        "ransom": board.leader_bonus(leader) if leader else 0,
        "counts": {"left": right, "right": left},
        "enemy": {w: [None] * ENEMY_SPACES for w in WINGS},
        "mine": {w: [None] * LINE_SPACES for w in WINGS},
        "flank": {w: [None] * ENEMY_SPACES for w in WINGS},
        "enemy_drawn": False,
        "stage": "deploy",
        "cursor": 0,
        "round": 1,
        "attack_rounds": 0,
    }
    ctx.emit(
        "battle",
        f"battle in {BOXES[box].name}: formation roll {total} gives "
        f"{right}/{left}/{adjustments}" + (" (ambush: you deploy first)" if ambush else ""),
    )
    if not ambush:
        draw_enemy(state, ctx)
    TASKS.schedule(state, new_task("battle_continue"))


def draw_enemy(state: State, ctx: Context) -> None:
    b = state["battle"]
    for wing in WINGS:
        for k in range(min(b["counts"][wing], ENEMY_SPACES)):
            bag: list[str] = state["battle_cup"]
            if not bag:
                break
            chit = bag.pop(ctx.rng.randbelow(len(bag)))
            b["enemy"][wing][k] = {"id": chit, "reduced": False}
    b["enemy_drawn"] = True
    ctx.reveal(
        "the enemy deploys: "
        + "; ".join(
            f"{WING_NAMES[w]} " + ", ".join(enemy_words(s) for s in b["enemy"][w] if s)
            for w in WINGS
        )
    )


def enemy_will_touch(b: dict[str, Any], wing: str, j: int) -> bool:
    if b["enemy_drawn"]:
        return bool(enemies_touching_line(b, wing, j))
    return bool(j < b["counts"][wing])


def next_deploy_space(state: State, b: dict[str, Any]) -> tuple[str, int] | None:
    if not reserve(state, b):
        return None
    for wing in WINGS:
        for j in range(LINE_SPACES):
            if b["mine"][wing][j] is None and enemy_will_touch(b, wing, j):
                return wing, j
    return None


# The driver ------------------------------------------------------------------------


def battle_continue(state: State, task_: Task, ctx: Context) -> None:
    """Run the battle's stages in order until one needs the player (it has pushed its
    decision, with another ``battle_continue`` under it) or the battle is over."""
    while state["outcome"] is None and state["battle"] is not None:
        b = state["battle"]
        if STAGES[b["stage"]](state, b, ctx):
            return


def ask(state: State, kind: str, **arguments: Any) -> bool:
    """Push the decision ``kind`` and the battle's continuation under it; True tells
    ``battle_continue`` to stop here."""
    TASKS.schedule(state, new_task(kind, **arguments), new_task("battle_continue"))
    return True


def stage_deploy(state: State, b: dict[str, Any], ctx: Context) -> bool:
    space = next_deploy_space(state, b)
    if space is not None:
        return ask(state, "battle_deploy", wing=space[0], slot=["line", space[0], space[1]])
    if b["ambush"]:
        draw_enemy(state, ctx)
        b["stage"] = "defense"
    else:
        b["stage"] = "attack"
    b["cursor"] = 0
    return False


def stage_attack(state: State, b: dict[str, Any], ctx: Context) -> bool:
    order = slot_order()
    while b["cursor"] < len(order):
        slot = order[b["cursor"]]
        targets = enemies_touching(b, slot) if occupant(b, slot) is not None else []
        if len(targets) == 2:
            return ask(state, "battle_attack", slot=slot)
        if targets:
            resolve_attack(state, b, slot, targets[0], ctx)
        b["cursor"] += 1
    b["attack_rounds"] += 1
    b["stage"], b["cursor"] = "defense", 0
    return False


def resolve_attack(state: State, b: dict[str, Any], slot: Slot, k: int, ctx: Context) -> None:
    """Attack Round: roll + Attack above the target's Defense hits it (rules: Attack
    Round; the Scara's first-round bonus; the natural top face)."""
    unit_id = occupant(b, slot)
    assert unit_id is not None
    wing = slot[1]
    target = b["enemy"][wing][k]
    attack, _ = factors(state, unit_id)
    _, defense = enemy_factors(target)
    face = roll(state, ctx, f"attack by {unit_words(state, unit_id)}")
    if face + attack <= defense:
        ctx.emit("attack", f"{unit_words(state, unit_id)} misses the {enemy_words(target)}")
        return
    scara_bonus = (
        b["attack_rounds"] == 0
        and not b["ambush"]
        and unit(state, unit_id)["kind"] == "scara"
        and not target["reduced"]
    )
    if target["reduced"] or special(face) or scara_bonus:
        b["enemy"][wing][k] = None
        board_put_back(state, target["id"])
        ctx.emit("attack", f"{unit_words(state, unit_id)} eliminates the {enemy_words(target)}")
    else:
        target["reduced"] = True
        ctx.emit(
            "attack", f"{unit_words(state, unit_id)} reduces an enemy to {enemy_words(target)}"
        )


def board_put_back(state: State, enemy_id: str) -> None:
    state["battle_cup"].append(enemy_id)
    state["battle_cup"].sort()


def stage_defense(state: State, b: dict[str, Any], ctx: Context) -> bool:
    order = [s for s in slot_order() if s[0] == "line"]
    while b["cursor"] < len(order):
        slot = order[b["cursor"]]
        unit_id = occupant(b, slot)
        b["cursor"] += 1
        if unit_id is None:
            continue
        targets = enemies_touching(b, slot)
        if not targets:
            continue
        wing = slot[1]
        strength = sum(enemy_factors(b["enemy"][wing][k])[0] for k in targets)
        _, defense = factors(state, unit_id)
        words = unit_words(state, unit_id)
        face = roll(state, ctx, f"defence of {words}")
        if (
            state["easy"]
            and not special(face)
            and face + defense <= strength
            and last_stand(state, b, wing)
        ):
            ctx.emit(
                "easy",
                "Easy Mode: a roll that would lose the battle, and the game, is rolled again",
            )
            face = roll(state, ctx, f"defence of {words} (Easy Mode re-roll)")
        if special(face):
            ctx.emit("defense", f"{words} holds and counterattacks")
            if len(targets) == 2:
                b["cursor"] -= 1
                return ask(state, "battle_counterattack", slot=slot)
            counterattack(state, b, wing, targets[0], ctx)
        elif face + defense > strength:
            ctx.emit("defense", f"{words} holds ({face + defense} against {strength})")
        else:
            b["mine"][wing][slot[2]] = None
            state["army"] = [u for u in state["army"] if u["id"] != unit_id]
            b.setdefault("lost", []).append(words)
            ctx.emit(
                "defense",
                f"{words} falls ({face + defense} against "
                f"{strength}) and returns to the Force Pool",
            )
    b["stage"], b["cursor"] = "maneuver", 0
    return False


def last_stand(state: State, b: dict[str, Any], wing: str) -> bool:
    """The wing's only unit, with nobody left in the Reserve: losing it routs the army
    (and so loses the game), which Easy Mode lets the player re-roll."""
    return len(wing_units(b, wing)) == 1 and not reserve(state, b)


def counterattack(state: State, b: dict[str, Any], wing: str, k: int, ctx: Context) -> None:
    target = b["enemy"][wing][k]
    b["enemy"][wing][k] = None
    board_put_back(state, target["id"])
    ctx.emit("defense", f"the counterattack eliminates the {enemy_words(target)}")


def maneuver_destinations(state: State, b: dict[str, Any], slot: Slot) -> list[Slot]:
    """Maneuvers: an empty enemy-touching line space of the wing; a Flanking space when
    the wing's enemy-touching line spaces are full; for Scara, the other wing's line."""
    unit_id = occupant(b, slot)
    assert unit_id is not None
    wing = slot[1]
    out: list[Slot] = []
    wings = WINGS if unit(state, unit_id)["kind"] == "scara" else (wing,)
    for w in wings:
        for j in range(LINE_SPACES):
            if (
                b["mine"][w][j] is None
                and enemies_touching_line(b, w, j)
                and ["line", w, j] != slot
            ):
                out.append(["line", w, j])
    line_full = all(
        b["mine"][wing][j] is not None or not enemies_touching_line(b, wing, j)
        for j in range(LINE_SPACES)
    )
    if line_full:
        for k in range(ENEMY_SPACES):
            if b["enemy"][wing][k] is not None or b["flank"][wing][k] is not None:
                continue
            sides = [
                0 <= x < ENEMY_SPACES and b["enemy"][wing][x] is not None for x in (k - 1, k + 1)
            ]
            if sides.count(True) == 1:
                out.append(["flank", wing, k])
    return out


def maneuvers(state: State, b: dict[str, Any]) -> list[tuple[Slot, Slot]]:
    """Every (unit's space, destination) open now: a unit touching no enemy may move.

    The rules make the Maneuvers simultaneous; they are one decision, in which the
    player makes the moves in any order and then ends them. A destination always
    touches an enemy and a unit that may move touches none, so no move can use a space
    another move empties: in any order the moves give the same display, except that a
    line space filled first can open a Flanking space (the rule's condition)."""
    out: list[tuple[Slot, Slot]] = []
    for slot in slot_order():
        if occupant(b, slot) is None or enemies_touching(b, slot):
            continue
        out += [(slot, dest) for dest in maneuver_destinations(state, b, slot)]
    return out


def stage_maneuver(state: State, b: dict[str, Any], ctx: Context) -> bool:
    if maneuvers(state, b) and not b.get("maneuvers_done"):
        return ask(state, "battle_maneuver")
    b.pop("maneuvers_done", None)
    b["stage"] = "reserve"
    return False


def unengaged_enemy(state: State, b: dict[str, Any]) -> tuple[str, int, list[int]] | None:
    """An enemy unit no unit of yours touches, with the empty line spaces that would."""
    if not reserve(state, b):
        return None
    for wing in WINGS:
        for k in range(ENEMY_SPACES):
            if b["enemy"][wing][k] is None or mine_touching(b, wing, k):
                continue
            spaces = [j for j in (k - 1, k) if 0 <= j < LINE_SPACES and b["mine"][wing][j] is None]
            if spaces:
                return wing, k, spaces
    return None


def optional_spaces(state: State, b: dict[str, Any]) -> list[Slot]:
    """Empty line spaces touching an enemy that another unit already faces."""
    if not reserve(state, b) or b.get("reserve_declined"):
        return []
    return [
        ["line", w, j]
        for w in WINGS
        for j in range(LINE_SPACES)
        if b["mine"][w][j] is None and enemies_touching_line(b, w, j)
    ]


def stage_reserve(state: State, b: dict[str, Any], ctx: Context) -> bool:
    """Reserve Response: first the required units (facing unengaged enemies), then, if
    the player wishes, more units into gaps facing engaged enemies."""
    found = unengaged_enemy(state, b)
    if found is not None:
        wing, k, _ = found
        return ask(state, "battle_reserve", wing=wing, count=k)
    if optional_spaces(state, b):
        return ask(state, "battle_reserve_optional")
    b.pop("reserve_declined", None)
    b["stage"] = "isolation"
    return False


def isolated(state: State, b: dict[str, Any], wing: str, k: int) -> bool:
    """Isolation (rules §7.7): the enemy in space ``k`` is the only enemy each of your
    units touching it touches, and its Attack is at most the Defense of every one of
    them, or of one Scara among them. Flanking units count like line units, both ways:
    a flanking unit alone can isolate an enemy, and a weak one among the units touching
    it keeps "every one of them" from holding."""
    enemy = b["enemy"][wing][k]
    touching = mine_touching(b, wing, k)
    if not touching or any(enemies_touching(b, slot) != [k] for slot in touching):
        return False
    attack, _ = enemy_factors(enemy)
    ids = [u for u in (occupant(b, slot) for slot in touching) if u is not None]
    every = all(attack <= factors(state, u)[1] for u in ids)
    scara = any(unit(state, u)["kind"] == "scara" and attack <= factors(state, u)[1] for u in ids)
    return every or scara


def stage_isolation(state: State, b: dict[str, Any], ctx: Context) -> bool:
    """Check for Isolation: each isolated enemy withdraws to the Battle cup, in order
    (one leaving can isolate its neighbour)."""
    for wing in WINGS:
        for k in range(ENEMY_SPACES):
            enemy = b["enemy"][wing][k]
            if enemy is not None and isolated(state, b, wing, k):
                b["enemy"][wing][k] = None
                board_put_back(state, enemy["id"])
                tell(ctx, "isolation", f"the isolated {enemy_words(enemy)} withdraws")
    b["stage"] = "rout"
    return False


def stage_rout(state: State, b: dict[str, Any], ctx: Context) -> bool:
    mine_routed = any(not wing_units(b, w) for w in WINGS)
    enemy_routed = any(all(s is None for s in b["enemy"][w]) for w in WINGS)
    if mine_routed:
        empty = " and ".join(WING_NAMES[w] for w in WINGS if not wing_units(b, w))
        lost = _tally(b.get("lost", []))
        ctx.summary(
            f"The battle in {BOXES[b['box']].name} is lost",
            [
                f"Round {b['round']}: your {empty} wing is empty, so your army routs",
                "Losses: " + (lost if lost else "none"),
                "Losing a battle loses the game",
            ],
        )
        lose(state, ctx, f"the army routs in {BOXES[b['box']].name}", DEFEAT_ROUTED)
        return True
    if enemy_routed:
        b["stage"] = "won"
        return False
    b["round"] += 1
    if b["round"] > ROUND_LIMIT:
        lose(state, ctx, f"the battle in {BOXES[b['box']].name} stalls and is lost", DEFEAT_STALLED)
        return True
    b["stage"], b["cursor"] = "attack", 0
    return False


def stage_won(state: State, b: dict[str, Any], ctx: Context) -> bool:
    """Post-Battle Procedure: clear the box, resolve the Dead Pool, then promotions."""
    ctx.emit("battle", f"wins the battle in {BOXES[b['box']].name}")
    for wing in WINGS:
        for k, enemy in enumerate(b["enemy"][wing]):
            if enemy is not None:
                board_put_back(state, enemy["id"])
                b["enemy"][wing][k] = None
    box = b["box"]
    crowned = state["iron_crown"]
    for victim in list(reversed(board.stack(state, box))):
        board.eliminate(state, victim, ctx)
    if state["iron_crown"] and not crowned:
        b["crown"] = True  # the recap tells it (rules: The Iron Crown)
    if box in state["moors"]:
        board.eliminate_moors(state, box, ctx)
    if b["moors_chit"] is not None:
        state["dead_pool"].append(b["moors_chit"])
        b["moors_chit"] = None
    board.resolve_dead_pool(state, ctx)
    b["stage"] = "done"
    TASKS.schedule(
        state,
        new_task("battle_promote", wing="left"),
        new_task("battle_promote", wing="right"),
        new_task("battle_finish"),
    )
    return True


STAGES = {
    "deploy": stage_deploy,
    "attack": stage_attack,
    "defense": stage_defense,
    "maneuver": stage_maneuver,
    "reserve": stage_reserve,
    "isolation": stage_isolation,
    "rout": stage_rout,
    "won": stage_won,
}


def battle_finish(state: State, task_: Task, ctx: Context) -> None:
    """Ransom, the battle's Cup Adjustments and its two Hostile Reactions."""
    b = state["battle"]
    if b["ransom"]:
        board.gain_coins(state, b["ransom"])
        ctx.emit("ransom", f"ransom: +{b['ransom']} coins")
    lost = _tally(b.get("lost", []))
    promoted = b.get("promoted", [])
    ctx.summary(
        f"The battle in {BOXES[b['box']].name} is won",
        [
            f"Won in round {b['round']}; the box's enemy counters are eliminated",
            "Losses: " + (lost + " (back to the Force Pool)" if lost else "none"),
            "Promoted: " + (", ".join(promoted) if promoted else "nobody"),
            f"Ransom: +{b['ransom']} coins" if b["ransom"] else "No Leader: no ransom",
            *(
                [
                    "The Iron Crown of Lombardy: you are King of the Lombards: 1 VP each "
                    "turn from now, Taxes +3 and Treasury +3, Papal Approval +1 (+1 VP), one "
                    "more unit at each Levy, +1 to Charlemagne's Suppress in the Green Regions"
                ]
                if b.get("crown")
                else []
            ),
            f"Army now {len(state['army'])} units, strength "
            f"{sum(int(u['level']) for u in state['army'])}",
            f"Next: 1 Friendly>Unfriendly, {b['adjustments']} Unfriendly>Hostile, "
            "2 Hostile Reactions",
        ],
    )
    state["battle"] = None
    TASKS.schedule(
        state,
        cup_task("friendly", "unfriendly", 1),
        cup_task("unfriendly", "hostile", b["adjustments"]),
        *reactions(2),
    )


def _tally(units: list[str]) -> str:
    """'2 Scara L3, 1 Infantry L1' from the words of each unit lost."""
    counts: dict[str, int] = {}
    for words in units:
        name = words.split(" (", 1)[0]
        counts[name] = counts.get(name, 0) + 1
    return ", ".join(f"{n} {name}" for name, n in counts.items())


BATTLE_CONTINUE = Step[Task]("battle_continue", battle_continue)
BATTLE_FINISH = Step[Task]("battle_finish", battle_finish)
