"""7.5.2.3: the Currents and the Government in turn propose laws (chapter 13): which laws
may be proposed, by whom, and the proposal itself."""

from __future__ import annotations

from tabletop.framework import PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import OrderedVote

from ..core import (
    TASKS,
    Task,
    actor_seat,
    civil_war,
    economy_factor,
    gov_controller,
    money,
    name,
    officially_present,
    paris_threatened,
    pay,
    regime,
    seat_of,
)
from ..data import COSTS, KING, LAWS
from ..factions import FEUILLANT, MARAIS
from ..tasks import (
    ActorTurn,
    Step,
)
from ..verbs import DONE, LAW
from ..words import bankrupting, law_effect
from .voters import deputy_voters
from .votes import fame_voters

# 7.5.2.3 Laws: proposals ------------------------------------------------------------------------


def laws_start(state: State, t: Step, ctx: Context) -> None:
    reg = regime(state)
    tasks: list[Task] = []
    if (
        state["king"].get("retrial") == state["turn"]
        and state["persons"][KING]["status"] == "prison"
    ):
        # 11.3.1: after a recapture the trial is held whatever the regime, +4 for death
        state["bonuses"]["trial"] = state["bonuses"].get("trial", 0) + 4
        state["proposed"].append("trial")
        voters = deputy_voters(state)
        tasks.append(
            {
                "kind": "law_vote",
                "law": "trial",
                "proposer": "gov",
                "vote": OrderedVote.new("the King's trial", [s for s, _ in voters]),
            }
        )
    if "gov" in reg["laws_by"] and reg["gov_laws"]:
        tasks.append(ActorTurn(kind="propose", actor="gov"))
    if "currents" in reg["laws_by"]:
        tasks += [
            ActorTurn(kind="propose", actor=c)
            for c in state["order"]
            if officially_present(state, c) and seat_of(state, c) is not None
        ]
        if state["regime"] in ("convention", "ffr", "froi") and seat_of(state, MARAIS) is None:
            # 15.2.1.3: with the Marais automated, the Government's Current proposes two
            tasks.append(ActorTurn(kind="propose", actor=gov_controller(state)))
    TASKS.schedule(state, *tasks)


def law_allowed(state: State, actor: str, key: str) -> bool:
    law = LAWS[key]
    fam = law["family"]
    if key in state["proposed"]:
        return False  # B4: once per turn
    if fam in ("anti_privilege", "anti_clergy") and (
        actor == FEUILLANT or state["regime"] in ("thermidor", "directorate")
    ):
        return False
    if key in ("war", "conscription", "patrie") and key in state["laws_once"]:
        return False
    if key == "war" and state["war"]:
        return False
    if key == "conscription" and not (state["war"] or civil_war(state)):
        return False
    if key == "conscription" and state.get("conscription"):
        return False  # 13.5.2: still in force until both wars have ended
    if key == "levee" and (state["regime"] == "legislative" or state["levee_this_turn"]):
        return False
    if key == "patrie" and not paris_threatened(state):
        return False
    if key == "trial":
        return trial_allowed(state)
    if fam == "outlaw":
        return (
            actor == "gov"
            and state["regime"] in law["regimes"]
            and law["faction"] not in state["factions_outlawed"]
        )
    return True


def trial_allowed(state: State) -> bool:
    """11.4: only with the King in prison, in a provisional regime, by its own limits."""
    king = state["persons"][KING]
    if king["status"] != "prison" or not regime(state)["trial"]:
        return False
    tried = int(state["king"]["tried"])
    if state["regime"] == "convention":
        return tried == 0
    if state["regime"] in ("terror", "wrath", "prairial"):
        return True
    return tried == 0 or (tried == 1 and bool(state["king"].get("gov_voted_guilty", False)))


def propose_needed(state: State, t: ActorTurn) -> bool:
    """The proposer has a seat, may still propose (the Government's quota, a Current's
    money: 7.5.2.3) and has a law it may propose."""
    actor = t["actor"]
    if actor_seat(state, actor) is None:
        return False
    if actor == "gov":
        if state["gov_laws_proposed"] >= regime(state)["gov_laws"]:
            return False
    elif money(state, actor) < COSTS["law"] * economy_factor(state):
        return False
    return any(law_allowed(state, actor, k) for k in LAWS)


def propose_prompt(state: State, t: ActorTurn) -> Prompt:
    actor = t["actor"]
    seat = actor_seat(state, actor)
    assert seat is not None  # propose_needed
    price = 0 if actor == "gov" else COSTS["law"] * economy_factor(state)
    keys = [k for k in LAWS if law_allowed(state, actor, k)]
    vote = (
        "deputies' vote"
        if regime(state)["vote"] == "deputies" or keys == ["trial"]
        else "fame vote"
    )
    choices = [
        Choice(
            DONE(),
            "Propose no law" if actor != "gov" else "No more laws",
            detail="Propose nothing more this turn; the next proposer goes on.",
            key=PASS_KEY,
        )
    ]
    for k in keys:
        law = LAWS[k]
        warn = bankrupting(state, k)
        cost = f"costs {price} to propose" if price else ""
        choices.append(
            Choice(
                LAW(k),
                f"Propose {law['name']} ({law['section']})",
                detail=f"If passed: {law_effect(k)} Decided by {vote}.",
                consequence="; ".join(w for w in (cost, warn) if w),
            )
        )
    return Prompt(seat, f"{name(actor)}: propose a law?", tuple(choices), rule="7.5.2.3")


def propose_handle(state: State, t: ActorTurn, action: str, ctx: Context) -> None:
    actor = t["actor"]
    if DONE.matches(action):
        TASKS.finish(state)
        return
    key = LAW.arg(action)
    if actor == "gov":
        state["gov_laws_proposed"] += 1
    else:
        pay(state, actor, COSTS["law"] * economy_factor(state), ctx, " (proposing a law)")
        TASKS.finish(state)
    state["proposed"].append(key)
    if key == "levee":
        state["levee_this_turn"] = True
    ctx.emit("law", f"the {name(actor)} proposes {LAWS[key]['name']}")
    if key == "trial" or regime(state)["vote"] == "deputies":
        voters = deputy_voters(state)
        TASKS.schedule(
            state,
            {
                "kind": "law_vote",
                "law": key,
                "proposer": actor,
                "vote": OrderedVote.new(f"{LAWS[key]['name']}", [s for s, _ in voters]),
            },
        )
    else:
        givers = fame_voters(state)
        TASKS.schedule(
            state,
            {
                "kind": "fame_vote",
                "law": key,
                "proposer": actor,
                "modifier_ranges": {str(s): r for s, r in givers},
                "vote": OrderedVote.new(
                    f"modifiers on {LAWS[key]['name']}", [s for s, _ in givers]
                ),
            },
        )
