"""9.5-9.5.2: pinning, the King following an army, and the Allied armies' moves."""

from __future__ import annotations

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State

from ..core import (
    TASKS,
    armies_in,
    controller,
    seat_of,
    track_level,
)
from ..data import ALLIED, REGION_NAMES
from ..factions import ROYALIST
from ..tasks import (
    RegionQuestion,
    Step,
)
from ..verbs import FOLLOW, PIN
from .reinforcements import ENEMY

# 9.5 Movement -------------------------------------------------------------------------------


def pinning_start(state: State, t: Step, ctx: Context) -> None:
    """9.5.1: where his armies share a region with revolutionary armies, the Royalist
    says at the start of movement whether he holds them there for combat."""
    state["pinned"] = []
    regions = [
        r
        for r in REGION_NAMES
        if armies_in(state, r, "rev") and any(a["side"] in ENEMY for a in armies_in(state, r))
    ]
    if regions and seat_of(state, ROYALIST) is not None:
        TASKS.schedule(state, *(RegionQuestion(kind="pin", region=r) for r in regions))


def pin_prompt(state: State, t: RegionQuestion) -> Prompt:
    seat = seat_of(state, ROYALIST)
    assert seat is not None
    return Prompt(
        seat,
        f"Pin the revolutionary armies at {t['region']}?",
        (
            Choice(PIN("yes"), "Pin them", detail="They cannot leave; combat follows (9.5.1)."),
            Choice(
                PIN("no"),
                "Let them move",
                detail="The Government may move them away this turn (9.5.1).",
                key=PASS_KEY,
            ),
        ),
        rule="9.5.1",
    )


def pin_handle(state: State, t: RegionQuestion, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    if PIN.arg(action) == "yes":
        state["pinned"].append(t["region"])
        ctx.emit("army", f"the Royalist pins the revolutionary armies at {t['region']} (9.5.1)")


def king_follow_needed(state: State, t: Step) -> bool:
    """A seated Royalist, and an Allied army the kidnapped King may leave with (11.3)."""
    return seat_of(state, ROYALIST) is not None and bool(state.get("king_escorts", []))


def king_follow_prompt(state: State, t: Step) -> Prompt:
    """11.3: the kidnapped King may leave with an Allied army that marches off."""
    seat = seat_of(state, ROYALIST)
    assert seat is not None  # king_follow_needed
    places = state.get("king_escorts", [])
    choices = [
        Choice(
            FOLLOW("stay"),
            f"Louis XVI stays at {state['king']['where']}",
            detail="The King stays where he is.",
            key=PASS_KEY,
        )
    ]
    choices += [
        Choice(
            FOLLOW(r),
            f"Louis XVI goes with the Allied army to {r}",
            detail="The kidnapped King moves with his escort (11.3).",
        )
        for r in places
    ]
    return Prompt(seat, "Does the King leave with the Allies?", tuple(choices), rule="11.3")


def king_follow_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    state["king_escorts"] = []
    region = FOLLOW.arg(action)
    if region != "stay":
        state["king"]["where"] = region
        state["persons"]["Louis XVI"]["where"] = region
        ctx.emit("king", f"Louis XVI goes with the Allies to {region} (11.3)")


def king_follow_empty(state: State, t: Step, ctx: Context) -> None:
    state["king_escorts"] = []
    TASKS.finish(state)


def allied_move(state: State, t: Step, ctx: Context) -> None:
    """9.5.2: along the printed path, out of a region only once it is theirs, on
    through Royalist or Coalition ground free of revolutionary armies and revolts."""
    if track_level(state, "coalition") < 2:  # 9.2: they stop at level I, resume above it
        for a in state["armies"]:
            a.pop("fresh", None)
        return
    for army in [a for a in state["armies"] if a["side"] == "allied"]:
        if army.pop("fresh", False):
            continue
        path = [ALLIED[army["id"]]["enters"][-1], *ALLIED[army["id"]]["route"]]
        if army["id"] == "quiberon" and not state["regions"]["Paris"]["coalition"]:
            continue
        here = army["where"]
        if not state["regions"][here]["coalition"] or armies_in(state, here, "rev"):
            continue
        step = army.get("step", 0)
        while step + 1 < len(path):
            nxt = path[step + 1]
            step += 1
            army["where"] = nxt
            reg = state["regions"][nxt]
            friendly = (
                (reg["coalition"] or controller(state, nxt) == ROYALIST)
                and not armies_in(state, nxt, "rev")
                and not (reg["revolt"] and controller(state, nxt) != ROYALIST)
            )
            if not friendly:
                break
        army["step"] = step
        king = state["king"]
        if (
            army["where"] != here
            and king["kidnapped"]
            and not king["dead"]
            and king.get("where") == here
        ):
            state.setdefault("king_escorts", []).append(army["where"])
        if army["where"] != here:
            ctx.emit(
                "army",
                f"{ALLIED[army['id']]['name']} marches to {army['where']} (9.5.2)",
                about=NOBODY,
            )
