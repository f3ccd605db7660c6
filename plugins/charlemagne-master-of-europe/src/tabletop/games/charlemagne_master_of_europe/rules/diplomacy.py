"""The Diplomacy Phase (rules §9): the Vikings (§9.1, a decision offered until the
player leaves them be), Al-Andalus (§9.2), then Byzantium, England and the Vatican
(§9.3-9.5), which need no decision."""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Action, Choice, Context, State
from tabletop.framework.stack import Decision, Step

from .. import board
from ..board import tell
from ..data import (
    BOXES,
    CORONATION_PAM,
    EVP_MAX,
    MOORS_PATH,
    REGION_ORDER,
    REGIONS,
    marker_kind,
    vp_threshold,
    wealth_threshold,
)
from ..verbs import BUY_OFF, DECLINE, DONE, FREE, NEGOTIATE
from .campaign_menu import chances, odds
from .common import TASKS, Ask, Task, VikingsTask, note, roll, special


def vikings_needed(state: State, task: VikingsTask) -> bool:
    return bool(vikings_options(state, task))


def vikings_text(state: State, task: VikingsTask) -> str:
    return f"Deal with the Vikings ({state['treasury']} coins)"


def vikings_options(state: State, task: VikingsTask) -> list[Choice]:
    out = []
    for region in REGION_ORDER:
        count = board.vikings_in(state, region)
        if not count:
            continue
        if region in state["marquis"] and region not in task.get("used", []):
            out.append(
                Choice(
                    FREE(region),
                    f"Your Marquis drives off a Viking in {REGIONS[region].name}",
                    detail="Free, once a turn for each Marquis: one Viking leaves for "
                    f"the Dead Pool ({count - 1} left in the Region).",
                )
            )
        if state["treasury"] >= count:
            out.append(
                Choice(
                    BUY_OFF(region),
                    f"Buy off a Viking in {REGIONS[region].name} ({count} coins)",
                    detail="A Viking costs a coin of taxes each turn, keeps its Region "
                    "from scoring as free and its Church from scoring.",
                    consequence=f"-{count} coins",
                )
            )
    return out


def vikings_choices(state: State, task: VikingsTask) -> list[Choice]:
    left = board.vikings_on_map(state)
    done = Choice(
        DONE(),
        "Leave the Vikings be",
        detail=f"{left} Viking{'s' if left != 1 else ''} stay on the map: each costs 1 "
        "coin of taxes a turn; a Region with Vikings neither scores as free nor builds.",
        key=PASS_KEY,
    )
    return [*vikings_options(state, task), done]


def vikings_apply(state: State, task_: VikingsTask, action: Action, ctx: Context) -> None:
    if DONE.matches(action):
        TASKS.finish(state)
        return
    used = list(task_.get("used", []))
    if FREE.matches(action):
        region = FREE.arg(action)
        used.append(region)
    else:
        region = BUY_OFF.arg(action)
        state["treasury"] -= board.vikings_in(state, region)
    chit = state["vikings"][region].pop()
    state["dead_pool"].append(chit)
    tell(ctx, "vikings", f"a Viking leaves the {REGIONS[region].name} Region")
    task_["used"] = used  # stays on top, asked again until the player leaves them be


#: The Vikings: a Marquis removes one free; coins buy off the rest (A7).
DIPLOMACY_VIKINGS = Decision[VikingsTask](
    "diplomacy_vikings",
    Ask("§9.1 Diplomacy: the Vikings", vikings_text, vikings_choices),
    vikings_apply,
    needed=vikings_needed,
)


def al_andalus_needed(state: State, task: Task) -> bool:
    return board.moors_on_map(state) > 0


def al_andalus_text(state: State, task: Task) -> str:
    return f"Negotiate with Al-Andalus? ({board.moors_on_map(state)} Moors on the map)"


def al_andalus_choices(state: State, task: Task) -> list[Choice]:
    need = board.moors_on_map(state) - state["pam"]
    return [
        Choice(
            NEGOTIATE(),
            "Negotiate",
            detail=f"Removes the northernmost Moors and makes Peace on {odds(need)} "
            f"(the die + PAM {state['pam']:+d} above {board.moors_on_map(state)} Moors).",
            consequence="" if chances(need) else f"cannot succeed: it needs above {need}",
        ),
        Choice(
            DECLINE(),
            "Do not negotiate",
            detail="The Moors stay where they are and Al-Andalus keeps its stance; each "
            "Moors box costs 1 coin of taxes a turn.",
            key=PASS_KEY,
        ),
    ]


def al_andalus_apply(state: State, task_: Task, action: Action, ctx: Context) -> None:
    TASKS.finish(state)
    if DECLINE.matches(action):
        return
    moors = board.moors_on_map(state)
    face = roll(state, ctx, "Al-Andalus")
    total = face + state["pam"]
    rolled = f"{face} {state['pam']:+d} = {total} against {moors} Moors"
    if total > moors:
        north = next(b for b in reversed(MOORS_PATH) if board.moors_in(state, b))
        board.eliminate_moors(state, north, ctx)
        state["al_andalus"] = "peace"
        ctx.emit("al_andalus", "peace with Al-Andalus")
        note(
            state,
            f"Al-Andalus: negotiated ({rolled}): Peace, the Moors of {BOXES[north].name} "
            "leave (§9.2)",
        )
    else:
        ctx.emit("al_andalus", "the Moors refuse")
        note(state, f"Al-Andalus: negotiated ({rolled}): the Moors refuse (§9.2)")


DIPLOMACY_AL_ANDALUS = Decision[Task](
    "diplomacy_al_andalus",
    Ask("§9.2 Diplomacy: Al-Andalus", al_andalus_text, al_andalus_choices),
    al_andalus_apply,
    needed=al_andalus_needed,
)


def diplomacy_byzantine(state: State, task_: Task, ctx: Context) -> None:
    if state["byzantine"] != "tension":
        return
    face = roll(state, ctx, "Byzantium")
    if face + state["pam"] >= state["turn"] or special(face):
        back = [c for c in state["dead_pool"] if marker_kind(c) == "byzantium"]
        for chit in back:
            state["dead_pool"].remove(chit)
            board.put_in_cup(state, "friendly", chit)
        state["byzantine"] = "peace"
        tell(ctx, "byzantium", "peace with Byzantium")
        note(state, "Byzantium: peace is made")
    else:
        tell(ctx, "byzantium", "Byzantium stays cold")
        note(state, "Byzantium: still at Tension")


def diplomacy_england(state: State, task_: Task, ctx: Context) -> None:
    """England (rules §9.4): Taxes at the Wealth threshold advance the EVP marker; on a
    full track that advance is paid as 1 VP instead. Below the threshold nothing
    happens, full track or not: the VP replaces a gain, it is not a gain of its own."""
    wealth = wealth_threshold(state["turn"])
    if state["taxes"] < wealth:
        note(state, f"England: Taxes {state['taxes']} below Wealth {wealth}, no EVP")
        return
    if state["evp"] >= EVP_MAX:
        state["vp"] += 1
        ctx.emit("england", "England's support is at its height: +1 VP")
        note(state, "England: the EVP track is full, +1 VP instead")
    else:
        state["evp"] += 1
        ctx.emit("england", f"England supports you: the EVP marker moves to {state['evp']}")
        note(state, f"England: Taxes met Wealth {wealth}, EVP marker to {state['evp']}")


def diplomacy_vatican(state: State, task_: Task, ctx: Context) -> None:
    """Coronation first (A2: at the PAM's reachable top), then the once-only VP step."""
    if not state["hre"] and state["pam"] >= CORONATION_PAM and state["charlemagne"] == "rome":
        state["hre"] = True
        state["taxes"] += 3
        ctx.emit("coronation", "is crowned Holy Roman Emperor: Taxes +3")
        note(state, "Vatican: crowned Holy Roman Emperor, Taxes +3")
    if not state["pam_vp_bonus_used"] and state["vp"] >= vp_threshold(state["turn"]):
        state["pam_vp_bonus_used"] = True
        board.raise_pam(state, ctx, "the Vatican approves your standing")
        note(state, f"Vatican: PAM to {state['pam']:+d}, +1 VP")


DIPLOMACY_STEPS = (
    Step[Task]("diplomacy_byzantine", diplomacy_byzantine),
    Step[Task]("diplomacy_england", diplomacy_england),
    Step[Task]("diplomacy_vatican", diplomacy_vatican),
)
