"""The Campaign Phase (rules §5): Actions one after another until the campaign ends
(a second Turn End marker, or the player ends it early, §5.8), and each Action carried
out: Suppress, Battle, Forced March, Siege, Raid, Marquis, Forced Conversion (§5.1-5.7),
with the cup adjustments and Hostile Reactions that follow each (§5.9). The menu of
Actions is ``campaign_menu.py``; battles are ``battle.py``."""

from __future__ import annotations

import math
from typing import Any

from tabletop.framework import Action, Choice, Context, Prompt, State
from tabletop.framework.stack import Decision, Step

from .. import board
from ..board import PIECE_CHARLEMAGNE, piece_box, piece_name, tell
from ..data import ACTIONS, BOXES, COSTS
from ..verbs import END, PIECE_MARQUIS, order_of
from .battle import start_battle
from .campaign_menu import legal_actions, suppress_modifier
from .common import PUBLIC, TASKS, CupTask, Task, cup_task, new_task, reactions, roll, special

CAMPAIGN_RULE = "§5 Campaign: Actions"
SIEGE_RULE = "§5.4 Campaign: Siege"


def campaign_continue(state: State, task_: Task, ctx: Context) -> None:
    """Another Action, unless a second Turn End marker has ended the campaign."""
    if state["campaign_ending"] or (
        state["siege"] is not None and board.leader_in_box(state, state["siege"]["box"]) is None
    ):
        state["siege"] = None
    if state["campaign_ending"]:
        state["campaign_ending"] = False
        state["siege"] = None
        tell(ctx, "phase", "the Campaign Phase ends")
        return
    TASKS.schedule(state, new_task("campaign_action"), new_task("campaign_continue"))


def campaign_prompt(state: State, task: Task) -> Prompt:
    """A Siege under way cites the Siege's own section: nothing else may be done."""
    rule = SIEGE_RULE if state["siege"] is not None else CAMPAIGN_RULE
    choices = tuple(campaign_choices(state, task))
    return Prompt(0, campaign_text(state, task), choices, rule=rule, public=PUBLIC)


def campaign_text(state: State, task: Task) -> str:
    if state["siege"] is not None:
        return f"The Siege of {BOXES[state['siege']['box']].name} goes on"
    return "Choose an Action (move one adjacent box first if you like)"


def campaign_choices(state: State, task: Task) -> list[Choice]:
    return legal_actions(state)


def campaign_explain(state: State, task: Task, prompt: Prompt) -> Prompt:
    """The same choices with what each does (odds, costs, forecasts): worked out
    only for a person, since bots and searches ask for this prompt very often."""
    explained = tuple(legal_actions(state, True))
    return Prompt(prompt.seat, prompt.text, explained, prompt.rule, public=prompt.public)


def campaign_apply(state: State, task_: Task, action: Action, ctx: Context) -> None:
    TASKS.finish(state)
    if END.matches(action):
        ctx.emit("campaign", "ends the campaign early")
        state["campaign_ending"] = True
        TASKS.schedule(
            state,
            *reactions(ACTIONS["end_campaign"]["hostile_reactions"]),
        )
        return
    piece, box, verb, extra = order_of(action)
    if piece_box(state, piece) != box:
        move_piece(state, piece, box)
        ctx.emit("move", f"{piece_name(piece)} moves to {BOXES[box].name}")
    ACTION_HANDLERS[verb](state, piece, box, extra, ctx)


CAMPAIGN_ACTION = Decision[Task](
    "campaign_action",
    campaign_prompt,
    campaign_apply,
    explain=campaign_explain,
)


def move_piece(state: State, piece: str, box: str) -> None:
    if piece == PIECE_CHARLEMAGNE:
        state["charlemagne"] = box
    else:
        state["marquis"][PIECE_MARQUIS.arg(piece)]["box"] = box


def after_action(state: State, cups: list[list[Any]], hostile: int) -> None:
    """What follows every Action: its cup adjustments, then its Hostile Reactions."""
    TASKS.schedule(
        state,
        *[cup_task(source, target, count) for source, target, count in cups],
        *reactions(hostile),
    )


def cup_adjustment(state: State, task_: CupTask, ctx: Context) -> None:
    board.cup_adjustment(state, task_["source"], task_["target"], task_["count"], ctx)


# --- Suppress Action (rules: Suppress Action; A16 highest Leader, A17 top unit) ----------


def suppress(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    units = board.stack(state, box)
    top = board.top_unit(state, box)
    assert top is not None
    region = board.region_of(box)
    need = board.resistance(top) + board.best_region_bonus(state, region)
    face = roll(state, ctx, "Suppress")
    total = face + suppress_modifier(state, piece, box)
    if total > need:
        victims = list(units) if piece == PIECE_CHARLEMAGNE else [units[-1]]
        ctx.emit("suppress", f"suppresses {BOXES[box].name} ({total} beats {need})")
        for victim in reversed(victims):
            board.eliminate(state, victim, ctx)
    else:
        ctx.emit("suppress", f"fails to suppress {BOXES[box].name} ({total} against {need})")
    spec = ACTIONS["suppress"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


# --- Battle Action (rules: Battle Action; battles in battle.py) -----------------------


def battle_action(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    start_battle(state, box, ambush=False, moors_chit=None, ctx=ctx)


# --- Forced March Action (rules: Forced March Action) ---------------------------------


def forced_march(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    assert extra is not None
    move_piece(state, piece, extra)
    ctx.emit("forced_march", f"{piece_name(piece)} force-marches to {BOXES[extra].name}")
    spec = ACTIONS["forced_march"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


# --- Siege Action (rules: Siege Action; A18 a natural top face adds to a success) -----


def siege(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    leader = board.leader_in_box(state, box)
    assert leader is not None
    bonus = board.leader_bonus(leader)
    need = (2 if piece == PIECE_CHARLEMAGNE else 3) * bonus
    face = roll(state, ctx, "Siege")
    spec = ACTIONS["siege"]
    if face > need:
        ctx.emit("siege", f"the Siege of {BOXES[box].name} succeeds ({face} beats {need})")
        state["siege"] = None
        units = board.stack(state, box)
        victims = list(units) if special(face) else [c for c in units[-2:]]
        for victim in reversed(victims):
            board.eliminate(state, victim, ctx)
        board.gain_coins(state, bonus)
        after_action(state, spec["cup_adjustments_success"], spec["hostile_reactions"])
    else:
        ctx.emit(
            "siege", f"the Siege of {BOXES[box].name} fails ({face} against {need}): it must go on"
        )
        state["siege"] = {"piece": piece, "box": box}
        after_action(state, spec["cup_adjustments_failure"], spec["hostile_reactions"])


# --- Raid Action (rules: Raid Action) --------------------------------------------------


def raid(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    top = board.top_unit(state, box)
    assert top is not None
    cost = math.ceil(board.resistance(top) / 2)
    state["treasury"] -= cost
    ctx.emit("raid", f"pays {cost} coins to buy off {board.name(state, top)}")
    board.eliminate(state, top, ctx)
    spec = ACTIONS["raid"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


# --- Marquis Action (rules: Marquis Action; A4 Marquis <= Finished Churches + 2) ------


def marquis_action(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    state["treasury"] -= COSTS["marquis"]
    state["marquis"][board.region_of(box)] = {"box": box, "crowned": False}
    state["taxes"] += 2
    ctx.emit("marquis", f"places a Marquis in {BOXES[box].name}: Taxes +2")
    spec = ACTIONS["marquis"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


# --- Forced Conversion Action (rules: Forced Conversion Action; A29) --------------------


def forced_conversion(state: State, piece: str, box: str, extra: str | None, ctx: Context) -> None:
    victims = list(board.stack(state, box))
    if extra is not None:
        victims += list(board.stack(state, extra))
    ctx.emit("forced_conversion", f"forces conversion: {len(victims)} VP lost")
    for victim in victims:
        board.eliminate(state, victim, ctx)
    board.lose_vp(state, len(victims))
    spec = ACTIONS["forced_conversion"]
    after_action(state, spec["cup_adjustments"], spec["hostile_reactions"])


ACTION_HANDLERS = {
    "suppress": suppress,
    "battle": battle_action,
    "forced_march": forced_march,
    "siege": siege,
    "raid": raid,
    "marquis": marquis_action,
    "forced_conversion": forced_conversion,
}


CAMPAIGN_CONTINUE = Step[Task]("campaign_continue", campaign_continue)
CUP_ADJUSTMENT = Step[CupTask]("cup_adjustment", cup_adjustment)
