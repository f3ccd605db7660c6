"""The Turn End Phase (rules §10): De-Escalation, the Dead Pool, taxes and upkeep,
victory points, the VP threshold and Emergency VP (a decision, §10.5), the Minimum
Army Strength, and the cups' progress into the next turn."""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Action, Choice, Context, State
from tabletop.framework.stack import Decision, Step

from .. import board
from ..board import tell
from ..data import (
    BOXES,
    DESIDERIUS,
    EVP_VALUES,
    LAST_TURN,
    REGION_ORDER,
    REGIONS,
    TURN_END_ADDED_AFTER,
    minimum_army_strength,
    vp_threshold,
    wealth_threshold,
)
from ..verbs import KEEP, SPEND
from .army import army_strength
from .common import DEFEAT_THRESHOLD, TASKS, Ask, Task, lose, new_task, note, plural


def turn_end_deescalation(state: State, task_: Task, ctx: Context) -> None:
    """De-Escalation (A22: 'topmost unit' under a Leader is the unit beneath him)."""
    before = sum(len(board.stack(state, box)) for box in BOXES)
    _deescalate(state, ctx)
    gone = before - sum(len(board.stack(state, box)) for box in BOXES)
    note(state, f"De-escalation: {plural(gone, 'enemy counter')} removed")


def _deescalate(state: State, ctx: Context) -> None:
    limit = 2 if state["hre"] else 1
    for region in REGION_ORDER:
        pagan = REGIONS[region].pagan
        for box in REGIONS[region].boxes:
            leader = board.leader_in_box(state, box)
            if (
                leader is not None
                and not pagan
                and leader != DESIDERIUS
                and board.leader_bonus(leader) <= limit
            ):
                board.eliminate(state, leader, ctx)
        if pagan and board.region_leaders(state, region):
            continue
        calm = (
            state["churches"].get(region) == "finished"
            and not board.vikings_in(state, region)
            and not any(board.moors_in(state, b) for b in REGIONS[region].boxes)
        )
        for box in REGIONS[region].boxes:
            units = board.stack(state, box)
            leader = board.leader_in_box(state, box)
            if calm and leader is None and units:
                board.eliminate(state, units[-1], ctx)
            elif not calm and leader is not None:
                below = [c for c in units if c != leader]
                if below:
                    board.eliminate(state, below[-1], ctx)
    for box in BOXES:
        units = board.stack(state, box)
        if board.pieces_in(state, box) and units and board.leader_in_box(state, box) is None:
            board.eliminate(state, units[-1], ctx)


def turn_end_dead_pool(state: State, task_: Task, ctx: Context) -> None:
    board.resolve_dead_pool(state, ctx)


def turn_end_taxes(state: State, task_: Task, ctx: Context) -> None:
    income = (
        state["taxes"]
        - board.moors_boxes(state)
        - board.vikings_on_map(state)
        - board.leaders_on_map(state)
    )
    less = state["taxes"] - income
    why = f" ({state['taxes']} less {less} for Moors, Vikings, Leaders)" if less else ""
    if income < 0:
        board.lose_vp(state, -income)
        ctx.emit("taxes", f"taxes fall short by {-income}: -{-income} VP")
        note(state, f"Taxes: short by {-income}, -{-income} VP{why}")
    else:
        before = state["treasury"]
        board.gain_coins(state, income)
        ctx.emit("taxes", f"collects {income} coins")
        note(state, f"Taxes: +{plural(income, 'coin')}{why}")
        if before + income > state["treasury"]:
            note(state, f"  the Treasury holds at most 20: {before + income - 20} lost")


def turn_end_upkeep(state: State, task_: Task, ctx: Context) -> None:
    scara4 = sum(1 for u in state["army"] if u["kind"] == "scara" and u["level"] == 4)
    due = len(state["marquis"]) + board.finished_churches(state) + scara4
    paid = min(due, state["treasury"])
    state["treasury"] -= paid
    ctx.emit("upkeep", f"pays {paid} of {due} coins of upkeep")
    if due:
        note(state, f"Upkeep: -{paid} of {due} coins; Treasury {state['treasury']}")


def earned_vp(state: State) -> dict[str, int]:
    """The Earn Victory Points items, each counted (rules: Earn Victory Points)."""
    return {
        "Level 4 units retiring": sum(1 for u in state["army"] if u["level"] == 4),
        "Regions free of enemies": sum(
            1 for r in REGION_ORDER if not board.region_has_enemies(state, r)
        ),
        "Intrigue markers in the Dead Pool": board.count_in_dead_pool(state, "intrigue"),
        "Holy Roman Emperor": int(state["hre"]),
        "King of the Lombards": int(state["iron_crown"]),
        "Marquis in play": len(state["marquis"]),
        "Finished Churches (no Vikings)": board.finished_churches(state, viking_free=True),
        "Treasury (per 5 coins)": state["treasury"] // 5,
    }


def turn_end_victory_points(state: State, task_: Task, ctx: Context) -> None:
    items = earned_vp(state)
    state["army"] = [u for u in state["army"] if u["level"] != 4]
    total = sum(items.values())
    state["vp"] += total
    ctx.emit(
        "victory_points",
        f"earns {total} VP (" + ", ".join(f"{k} {v}" for k, v in items.items() if v) + ")",
    )
    note(state, f"VP earned: +{total}, now {state['vp']}")
    for item, value in items.items():
        if value:
            note(state, f"  {item}: +{value}")
    if state["turn"] == LAST_TURN:
        # §11: the last turn's victory points lead to the endgame scoring, in place of
        # the rest of the Turn End (the threshold, Emergency VP, the army, the cups)
        while TASKS.top(state) is not None:
            TASKS.finish(state)
        TASKS.schedule(state, new_task("endgame_scoring"))


def spend_evp_spaces(state: State, needed: int) -> int:
    """Move the EVP marker back whole spaces until ``needed`` is covered (no change)."""
    gained = 0
    while gained < needed and state["evp"] > 0:
        gained += EVP_VALUES[state["evp"]]
        state["evp"] -= 1
    return gained


def turn_end_threshold(state: State, task_: Task, ctx: Context) -> None:
    threshold = vp_threshold(state["turn"])
    if state["vp"] >= threshold:
        note(state, f"VP threshold {threshold}: met with {state['vp']} VP")
        return
    gained = spend_evp_spaces(state, threshold - state["vp"])
    state["vp"] += gained
    if gained:
        ctx.emit("evp", f"spends Emergency VP: +{gained} VP")
        note(state, f"VP threshold {threshold}: reached with +{gained} Emergency VP")
    if state["vp"] < threshold:
        note(state, f"VP threshold {threshold}: missed with {state['vp']} VP, the game is lost")
        ctx.summary(f"Turn {state['turn']} ends in defeat", state["report"])
        lose(
            state,
            ctx,
            f"{state['vp']} VP is short of turn {state['turn']}'s threshold of {threshold}",
            DEFEAT_THRESHOLD,
        )


def evp_needed(state: State, task: Task) -> bool:
    """Only when a spend is worth something: a space worth 1 gives nothing at half."""
    return bool(state["evp"] > 0) and voluntary_worth(state, state["evp"]) > 0


def evp_text(state: State, task: Task) -> str:
    return f"Spend Emergency VP? (marker on {state['evp']})"


def evp_choices(state: State, task: Task) -> list[Choice]:
    out = [
        Choice(
            KEEP(),
            "Keep them",
            detail="Kept EVP cover a later shortfall at full value and count in full "
            "at the end of the game.",
            key=PASS_KEY,
        )
    ]
    for spaces in range(1, state["evp"] + 1):
        worth = voluntary_worth(state, spaces)
        if worth == 0:
            continue  # a pointless spend: the marker would move back for nothing
        full = sum(EVP_VALUES[state["evp"] - i] for i in range(spaces))
        plural = "space" if spaces == 1 else "spaces"
        out.append(
            Choice(
                SPEND(spaces),
                f"Spend {spaces} EVP {plural} for {worth} VP",
                detail=f"VP {state['vp']} -> {state['vp'] + worth}; the EVP marker moves "
                f"back to {state['evp'] - spaces}.",
                consequence=f"Spent now they are worth half: {worth} VP instead of {full}",
            )
        )
    return out


def evp_apply(state: State, task_: Task, action: Action, ctx: Context) -> None:
    TASKS.finish(state)
    if KEEP.matches(action):
        return
    spaces = SPEND.number(action)
    worth = voluntary_worth(state, spaces)
    state["evp"] -= spaces
    state["vp"] += worth
    ctx.emit("evp", f"spends {plural(spaces, 'EVP space')}: +{worth} VP")
    note(state, f"Emergency VP: {plural(spaces, 'space')} spent for +{worth} VP")


#: Voluntary EVP spending: each space spent is worth half, rounded down (A8).
EVP_VOLUNTARY = Decision[Task](
    "evp_voluntary",
    Ask("§10.5 Turn End: Emergency VP", evp_text, evp_choices),
    evp_apply,
    needed=evp_needed,
)


def voluntary_worth(state: State, spaces: int) -> int:
    """VP from spending the top ``spaces`` EVP spaces now: half, rounded down (A8)."""
    return int(sum(EVP_VALUES[state["evp"] - i] for i in range(spaces)) // 2)


def turn_end_minimum_army(state: State, task_: Task, ctx: Context) -> None:
    """Minimum Army Strength (A14: not below the VP Threshold; off in Easy Mode)."""
    need = minimum_army_strength(state["turn"])
    short = need - army_strength(state)
    if state["easy"] or state["turn"] == 1 or short <= 0:
        if need and not state["easy"]:
            note(state, f"Army strength {army_strength(state)}: meets the minimum {need}")
        return
    floor = min(state["vp"], vp_threshold(state["turn"]))
    state["vp"] = max(floor, state["vp"] - short)
    ctx.emit(
        "minimum_army", f"the army is {short} short of strength {need}: VP fall to {state['vp']}"
    )
    note(state, f"Army strength {army_strength(state)} below {need}: VP fall to {state['vp']}")


def turn_end_progress(state: State, task_: Task, ctx: Context) -> None:
    board.cup_adjustment(state, "friendly", "unfriendly", 4, ctx, edge_case=False)
    board.cup_adjustment(state, "unfriendly", "hostile", 4, ctx, edge_case=False)
    cups = state["cups"]
    note(state, "Cups: 4 Friendly>Unfriendly, then 4 Unfriendly>Hostile")
    note(
        state,
        f"Cups now: Friendly {len(cups['friendly'])}, Unfriendly {len(cups['unfriendly'])}, "
        f"Hostile {len(cups['hostile'])}",
    )
    if state["turn"] in TURN_END_ADDED_AFTER and state["turn_end_track"]:
        board.put_in_cup(state, "hostile", state["turn_end_track"].pop(0))
        tell(ctx, "turn_end", "another Turn End marker goes into the Hostile Cup")
        note(state, "A Turn End marker joins the Hostile cup: campaigns get longer")
    ended = state["turn"]
    state["turn"] += 1
    turn = state["turn"]
    note(
        state,
        f"Now {state['vp']} VP, Treasury {state['treasury']}, Taxes {state['taxes']}, "
        f"EVP {state['evp']}",
    )
    note(
        state,
        f"Turn {turn} needs {vp_threshold(turn)} VP, Wealth {wealth_threshold(turn)}, "
        f"Army {minimum_army_strength(turn)}",
    )
    ctx.summary(f"Turn {ended} ends", state["report"])
    state["report"] = []
    TASKS.schedule(state, new_task("turn_start"))


TURN_END_STEPS = (
    Step[Task]("turn_end_deescalation", turn_end_deescalation),
    Step[Task]("turn_end_dead_pool", turn_end_dead_pool),
    Step[Task]("turn_end_taxes", turn_end_taxes),
    Step[Task]("turn_end_upkeep", turn_end_upkeep),
    Step[Task]("turn_end_victory_points", turn_end_victory_points),
    Step[Task]("turn_end_threshold", turn_end_threshold),
    Step[Task]("turn_end_minimum_army", turn_end_minimum_army),
    Step[Task]("turn_end_progress", turn_end_progress),
)
