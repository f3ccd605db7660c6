"""6.5: the Currents in turn order place their Personalities on the map."""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State

from ..actions.modifiers import action_modifiers
from ..core import (
    TASKS,
    actor_seat,
    arrestable,
    controller,
    enter_phase,
    fame,
    gov_controller,
    income_of,
    influential,
    name,
    odds,
    officially_present,
    person_outlaw,
    regime,
    seat_of,
)
from ..data import REGION_NAMES
from ..factions import MARAIS, MONTAGNE
from ..tasks import (
    Placement,
    Step,
)
from ..verbs import GENERAL, MORE, PLACE, PLACEMENT_BACK, VERBS

# 6.5 Personality placement ----------------------------------------------------------


def placement_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "placement", ctx)
    TASKS.schedule(
        state,
        {
            "kind": "placement",
            "order": [c for c in state["order"] if seat_of(state, c) is not None],
            "index": 0,
        },
    )


def unplaced(state: State, current: str) -> list[str]:
    return [
        n
        for n, p in state["persons"].items()
        if p["current"] == current
        and p["status"] == "free"
        and p["where"] is None
        and n != "Louis XVI"
    ]


def placement_needed(state: State, t: Placement) -> bool:
    """The Current whose turn it is has a Personality left to place (6.5)."""
    return t["index"] < len(t["order"]) and bool(unplaced(state, t["order"][t["index"]]))


def placement_prompt(state: State, t: Placement) -> Prompt:
    current = t["order"][t["index"]]
    todo = unplaced(state, current)  # placement_needed: not empty
    person = todo[0]
    seat = seat_of(state, current)
    assert seat is not None
    must_paris = (
        gov_controller(state) == current
        and len(todo) == 1
        and not any(
            p["where"] == "Paris" and p["current"] == current and p["status"] == "free"
            for n, p in state["persons"].items()
            if n != "Louis XVI"  # he cannot act for the Government (11.0)
        )
    )
    if must_paris:
        regions = ["Paris"]
    elif t.get("showing_all"):
        regions = list(REGION_NAMES)
    else:
        regions = likely_places(state, current, person)
    choices = [
        Choice(
            PLACE(r),
            r,
        )
        for r in regions
    ]
    if person == "Carnot" and carnot_may_command(state):
        for r in REGION_NAMES:
            if any(a["where"] == r and a["side"] == "rev" for a in state["armies"]):
                choices.append(
                    Choice(
                        GENERAL(r),
                        f"Send Carnot to command the armies at {r}",
                        detail="+1 or -1 to their combat rolls; he moves with them and takes "
                        "no action this turn (R.3.9.3).",
                    )
                )
    if not must_paris:
        if t.get("showing_all"):
            choices.append(
                Choice(
                    PLACEMENT_BACK,
                    "Back to the usual places",
                    detail="Back to the short list of regions where he usually goes.",
                    key=PASS_KEY,
                )
            )
        else:
            choices.append(Choice(MORE(), "Another region...", detail="Choose among all 26."))
    return Prompt(seat, f"Place {person} ({name(current)})", tuple(choices), rule="6.5")


def carnot_may_command(state: State) -> bool:
    """R.3.9.3, R.5.9.3, R.6.9.3 (and Prairial under the Montagne, R.8.9.2): Carnot, not
    an outlaw, may command the armies when the Marais (his holder) sends him."""

    reg = state["regime"]
    allowed = reg in ("terror", "wrath", "mercy") or (
        reg == "prairial" and gov_controller(state) == MONTAGNE
    )
    carnot = state["persons"].get("Carnot")
    return bool(
        allowed and carnot and carnot["current"] == MARAIS and not person_outlaw(state, "Carnot")
    )


def likely_places(state: State, current: str, person: str) -> list[str]:
    """The short list first shown (6.5): Paris, where he is influential, where his
    Current holds, and the regions in revolt; every region is one choice further."""
    return [
        r
        for r in REGION_NAMES
        if r == "Paris"
        or influential(person, r)
        or controller(state, r) == current
        or state["regions"][r]["revolt"]
    ]


def place_detail(state: State, current: str, person: str, region: str) -> str:
    """Where a Personality would stand, and what he could do from there this turn."""
    holder = controller(state, region)
    revolt = state["regions"][region]["revolt"]
    notes = [
        f"{region} (income {income_of(region)}): "
        + (f"held by the {name(holder)}" if holder else "neutral")
        + (", in revolt" if revolt else "")
    ]
    notes.append(
        "influential here: +2 to regional actions"
        if influential(person, region)
        else "not influential here"
    )
    if state["regions"][region]["coalition"]:
        notes.append("the Coalition holds it: only a Royalist revolt may be tried there (7.4)")
    elif revolt:
        notes.append("he could take part in suppressing the revolt (7.4.3)")
    elif holder != current:
        notes.append("he could plot to take it (7.4.1)")
    if region == "Paris" and regime(state)["deputy_switch"]:
        notes.append("in Paris he may sway deputies (7.5.2.1)")
    return "; ".join(notes) + "."


def place_warning(state: State, current: str, person: str, region: str) -> str:
    """What placing ``person`` in ``region`` exposes him to: the Government's arrest
    when the regime makes him arrestable (7.3.1.1, R.x.4.1; +5 for an outlaw in Paris),
    a removal by a Current outside the Assembly that holds the region (7.3.1.2); each
    with its chance on one roll."""
    warnings = []
    probe = {**state, "persons": {**state["persons"], person: {**state["persons"][person]}}}
    probe["persons"][person]["where"] = region
    hunted = gov_controller(state) != current and actor_seat(state, "gov") is not None
    if hunted and arrestable(state, person):
        mods = action_modifiers(probe, "gov", "arrest", person, [])
        chances = odds(fame(state, "gov") + sum(m for m, _ in mods))
        why = "an outlaw" if person_outlaw(state, person) else "arrestable"
        section = f"{regime(state)['section']}.4.1"
        b = "prison" if regime(state)["b_prison"] else "flees"
        warnings.append(
            f"{why} under the {regime(state)['name']} ({section}): each Government arrest "
            f"roll here: A {round(100 * chances['A'])}% prison, "
            f"B {round(100 * chances['B'])}% {b} (7.3.1)"
        )
    holder = controller(state, region)
    if (
        holder not in (None, current)
        and not officially_present(state, holder)
        and seat_of(state, holder) is not None
    ):
        mods = action_modifiers(probe, holder, "arrest", person, [])
        chances = odds(fame(state, holder) + sum(m for m, _ in mods))
        warnings.append(
            f"the {name(holder)} holds {region} and, outside the Assembly, may remove him: "
            f"{round(100 * (chances['A'] + chances['B']))}% a roll (7.3.1.2)"
        )
    return "; ".join(warnings)


def placement_handle(state: State, t: Placement, action: str, ctx: Context) -> None:
    if action in (MORE(), PLACEMENT_BACK):
        t["showing_all"] = MORE.matches(action)
        return
    t["showing_all"] = False
    current = t["order"][t["index"]]
    person = unplaced(state, current)[0]
    verb, (region,) = VERBS.parse(action)
    state["persons"][person]["where"] = region
    if verb is GENERAL:
        state["persons"][person]["general"] = True
        state["persons"][person]["acted"] = True
        ctx.emit("place", f"{person} takes command of the armies at {region} (R.3.9.3)")
        return
    ctx.emit("place", f"{person} goes to {region}")


def placement_empty(state: State, t: Placement, ctx: Context) -> None:
    if t["index"] < len(t["order"]) and not unplaced(state, t["order"][t["index"]]):
        t["index"] += 1
        if t["index"] < len(t["order"]):
            return
    TASKS.finish(state)
