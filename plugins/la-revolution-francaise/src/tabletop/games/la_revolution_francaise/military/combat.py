"""9.6-9.7: combat in each region (losses chosen by their owner), the Commune crushed, and
military control afterwards."""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, Choice, Context, Prompt, State

from ..core import (
    TASKS,
    adjust_fame,
    armies_in,
    civil_war,
    controller,
    end_war,
    gov_seat,
    paris_fallen,
    result,
    roll,
    seat_of,
    set_control,
)
from ..data import REGION_NAMES
from ..factions import ROYALIST
from ..plans import Objective
from ..tasks import (
    LossChoice,
    Step,
)
from ..verbs import LOSE
from ..words import army_name
from .reinforcements import ENEMY

# 9.6 Combat ------------------------------------------------------------------------------------

LOSS_ORDER = {
    "temporary": 0,
    "volunteer": 1,
    "commune": 2,
    "regular": 3,
    "catholic": 0,
    "allied": 1,
}


def combat(state: State, t: Step, ctx: Context) -> None:
    invaders = [a for a in armies_in(state, "Paris") if a["side"] in ENEMY and not a.get("hiding")]
    if invaders and not state["commune"]["raised"] and not paris_fallen(state):  # 9.7.1
        state["commune"] = {"raised": True, "controller": None}
        ctx.emit("commune", "the Commune rises against the invaders of Paris (9.9.2)", about=NOBODY)
    for region in REGION_NAMES:
        rev = [a for a in armies_in(state, region, "rev") if not a.get("crush")]
        enemy = [a for a in armies_in(state, region) if a["side"] in ENEMY and not a.get("hiding")]
        if region == "Paris" and state["commune"]["raised"] and enemy:
            rev = [*rev, {"id": "commune", "side": "rev", "kind": "commune", "where": "Paris"}]
        if rev and enemy:
            battle(state, region, rev, enemy, ctx)
        crushers = [a for a in armies_in(state, region, "rev") if a.get("crush")]
        if region == "Paris" and crushers and state["commune"]["raised"]:
            crush_commune(state, crushers, ctx)
        for a in crushers:
            a.pop("crush", None)


def battle(
    state: State, region: str, rev: list[dict[str, Any]], enemy: list[dict[str, Any]], ctx: Context
) -> None:
    """One roll: the larger side attacks (ties: the Revolution) and adds its excess;
    column 13-14: A the defender loses an army, C the attacker does (9.6)."""
    rev_attacks = len(rev) >= len(enemy)
    excess = abs(len(rev) - len(enemy))
    if region == "Lille" and rev_attacks and state["bonuses"].get("lille_holds"):
        ctx.emit("combat", "the army of Lille does not attack this turn (event)", about=NOBODY)
        return
    if region == "Metz" and rev_attacks:
        excess += int(state["bonuses"].get("metz_combat", 0))
    dice = roll(
        state,
        ctx,
        2,
        6,
        reason=f"combat at {region}, 9.6",
        about=gov_seat(state) if rev_attacks else seat_of(state, ROYALIST),
    )
    modifier = excess
    if carnot_commands(state, region):
        modifier += 1 if rev_attacks else -1  # R.3.9.3: the Government's extra +1 or -1
    letter = result(sum(dice) + modifier, 13)
    attacker, defender = (rev, enemy) if rev_attacks else (enemy, rev)
    ctx.emit(
        "combat",
        f"combat at {region}: {'Revolution' if rev_attacks else 'Counter-revolution'} "
        f"attacks, {sum(dice)}+{excess}: {letter}, "
        + {"A": "the defender loses an army", "B": "no loss", "C": "the attacker loses an army"}[
            letter
        ]
        + " (9.6)",
        about=NOBODY,
    )
    if letter == "A":
        lose(state, region, defender, ctx)
    elif letter == "C":
        lose(state, region, attacker, ctx)


def carnot_commands(state: State, region: str) -> bool:
    carnot = state["persons"].get("Carnot")
    return bool(
        carnot
        and carnot.get("general")
        and carnot["status"] == "free"
        and carnot["where"] == region
    )


def lose(state: State, region: str, side: list[dict[str, Any]], ctx: Context) -> None:
    """9.6: the owner picks which army is lost when the stack holds different kinds
    (the Government for the Revolution and the Commune, 9.9.2; the Royalist for the
    Allied and Catholic armies); otherwise any one of them goes."""
    side.sort(key=lambda a: (LOSS_ORDER.get(a["kind"], 5), a["id"]))
    kinds = {a["kind"] for a in side}
    owner = gov_seat(state) if side[0]["side"] == "rev" else seat_of(state, ROYALIST)
    if len(kinds) > 1 and owner is not None:
        TASKS.schedule(
            state,
            {
                "kind": "loss",
                "region": region,
                "army_ids": [a["id"] for a in side],
                "owner_seat": owner,
            },
        )
        return
    eliminate(state, region, side[0]["id"], ctx)


def eliminate(state: State, region: str, army_id: str, ctx: Context) -> None:
    if army_id == "commune":
        state["commune"] = {"raised": False, "controller": None}
        ctx.emit("commune", "the Commune is destroyed in battle (9.9.2)", about=NOBODY)
        return
    lost = next(a for a in state["armies"] if a["id"] == army_id)
    state["armies"].remove(lost)
    ctx.emit(
        "army",
        f"{army_name(lost['id'])} is destroyed at {region}",
        about=NOBODY,
        army={lost["id"]: "gone"},
    )
    if lost["side"] == "allied":
        state["allied_gone"].append(lost["id"])
        state["achieved"].append(Objective("destroy", region).value)
    elif lost["side"] == "catholic":
        state["catholic_gone"].append(lost["id"])
        state["achieved"].append(Objective("destroy", region).value)
    elif not armies_in(state, region, "rev"):
        if any(a["side"] == "catholic" for a in armies_in(state, region)) and not armies_in(
            state, region, "allied"
        ):
            adjust_fame(state, ROYALIST, 1, ctx, " (Royalist spoils, 9.6.1)")
        if carnot_commands(state, region):
            (face,) = roll(state, ctx, 1, 6, reason="Carnot's fate, R.3.9.3", about=gov_seat(state))
            if face <= 3:
                carnot = state["persons"]["Carnot"]
                carnot["status"], carnot["where"] = "captured", None
                ctx.emit("person", "Carnot is taken prisoner by the enemy (R.3.9.3)", about=NOBODY)


def loss_prompt(state: State, t: LossChoice) -> Prompt:
    names = {a["id"]: a for a in state["armies"]}
    choices = tuple(
        Choice(
            LOSE(army_id),
            "the Commune"
            if army_id == "commune"
            else f"{army_id.replace('_', ' ')} ({names[army_id]['kind']})",
            consequence="a regular army can never be rebuilt (9.3.3)"
            if army_id in names and names[army_id]["kind"] == "regular"
            else "",
        )
        for army_id in t["army_ids"]
    )
    return Prompt(
        t["owner_seat"], f"Combat at {t['region']}: which army is lost?", choices, rule="9.6"
    )


def loss_handle(state: State, t: LossChoice, action: str, ctx: Context) -> None:
    TASKS.finish(state)
    eliminate(state, t["region"], LOSE.arg(action), ctx)


def crush_commune(state: State, crushers: list[dict[str, Any]], ctx: Context) -> None:
    """9.9.1 (engine reading): 2d6 + armies beyond the first, column 13-14."""
    dice = roll(
        state, ctx, 2, 6, reason="Government against the Commune, 9.9.1", about=gov_seat(state)
    )
    letter = result(sum(dice) + len(crushers) - 1, 13)
    if letter == "A":
        state["commune"] = {"raised": False, "controller": None}
        state["achieved"].append(Objective("crush_commune").value)
        ctx.emit("commune", "the Government crushes the Commune (9.9.1)", about=NOBODY)
    elif letter == "C":
        state["armies"].remove(crushers[0])
        ctx.emit(
            "army",
            f"{army_name(crushers[0]['id'])} is destroyed by the Commune",
            about=NOBODY,
            army={crushers[0]["id"]: "gone"},
        )
    else:
        ctx.emit("commune", "the Commune holds out (9.9.1)", about=NOBODY)


# 9.7 Military control ---------------------------------------------------------------------------


def military_control(state: State, t: Step, ctx: Context) -> None:
    for region in REGION_NAMES:
        sides = {a["side"] for a in armies_in(state, region) if not a.get("hiding")}
        reg = state["regions"][region]
        if sides == {"rev"}:
            if reg["coalition"]:
                reg["coalition"] = False
                ctx.emit(
                    "control",
                    f"{region} is freed from the Coalition (9.7.2)",
                    about=NOBODY,
                    coalition={region: False},
                )
            if reg["revolt"]:
                reg["revolt"] = False
                ctx.emit(
                    "revolt", f"the army puts down the revolt in {region} (9.7.2)", about=NOBODY
                )
        elif sides and "rev" not in sides:
            if "allied" in sides and not reg["coalition"]:
                reg["coalition"] = True
                ctx.emit(
                    "control",
                    f"{region} falls to the Coalition (9.7.1)",
                    about=NOBODY,
                    coalition={region: True},
                )
                if controller(state, region) not in (ROYALIST, None):
                    set_control(state, region, None, ctx, " (Coalition)", about=NOBODY)
            if "catholic" in sides and controller(state, region) != ROYALIST:
                set_control(
                    state, region, ROYALIST, ctx, " (Catholic & Royal army, 9.7.1)", about=NOBODY
                )
    prompted = state.get("patrie_by") or ["foreign", "civil"]
    over = ("foreign" not in prompted or not state["war"]) and (
        "civil" not in prompted or not civil_war(state)
    )
    if state["patrie"] and over:
        state["patrie"] = False
        state["laws_once"] = [k for k in state["laws_once"] if k != "patrie"]
        ctx.emit("law", "the Fatherland is no longer in danger (13.6)", about=NOBODY)
    if (
        state["war"]
        and state.get("allied_placed")
        and not any(a["side"] == "allied" for a in state["armies"])
    ):
        end_war(state, ctx, "no Allied army is left in France (9.2)")
