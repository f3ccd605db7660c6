"""6.4: each Current declares an objective, sealed (its kind first, then the objective),
all revealed together; joint objectives of a pact."""

from __future__ import annotations

from tabletop.framework import NOBODY, PASS_KEY, Choice, Context, Prompt, State
from tabletop.framework.decisions import SecretChoices

from ..actions.modifiers import commune_actors
from ..core import (
    TASKS,
    actor_seat,
    answering,
    arrestable,
    controller,
    enter_phase,
    gov_controller,
    gov_seat,
    name,
    officially_present,
    regime,
    seat_of,
)
from ..data import LAWS, PERSONS, REGIMES, REGION_NAMES
from ..plans import Objective
from ..recap import changes
from ..tasks import (
    Step,
)
from ..verbs import KIND, OBJECTIVE
from ..words import (
    kind_detail,
    objective_words,
)

# 6.4 Declaration of objectives: sealed, revealed together -------------------------------


def joint_follower(state: State, current: str) -> str | None:
    """The ally whose objective ``current`` declares, if ``current`` leads a pact."""
    for a, b in state.get("pacts", []):
        if current in (a, b):
            first, second = sorted((a, b), key=state["order"].index)
            return second if current == first else None
    return None


def joint_leader(state: State, current: str) -> str | None:
    for a, b in state.get("pacts", []):
        if current in (a, b):
            first, second = sorted((a, b), key=state["order"].index)
            return first if current == second else None
    return None


def declarers(state: State) -> list[str]:
    out = ["gov"] if gov_seat(state) is not None else []
    return out + [
        c
        for c in state["order"]
        if seat_of(state, c) is not None and joint_leader(state, c) is None
    ]


def objectives_start(state: State, t: Step, ctx: Context) -> None:
    enter_phase(state, "objectives", ctx)
    state["gov"]["controller_at_objectives"] = gov_controller(state)
    state["objectives"] = {}
    state["objective_kind"] = {}
    for who in declarers(state):
        seat = actor_seat(state, who)
        assert seat is not None  # declarers() lists seated declarers only
        state["objectives"][who] = SecretChoices.new(f"objective of the {name(who)}", [seat])
    TASKS.schedule(state, Step(kind="objectives"))


def objective_kinds(state: State, who: str, joint: bool = True) -> dict[str, list[tuple[str, str]]]:
    """The objectives a declarer may choose, by kind: (value, label) pairs (6.4.1, 6.4.2)."""
    regions = list(REGION_NAMES)
    reg = regime(state)
    kinds: dict[str, list[tuple[str, str]]] = {}
    if who == "gov":
        # 7.3.1.1: only the regime's arrestable Personalities, free to be placed; the
        # arrests come first in the Action Phase (7.3), so neither can change before
        kinds["arrest"] = [
            (Objective("arrest", p).value, f"Arrest {p}")
            for p in state["persons"]
            if p != "Louis XVI" and state["persons"][p]["status"] == "free" and arrestable(state, p)
        ]
        kinds["suppress"] = [
            (Objective("suppress", r).value, f"Suppress the revolt in {r}") for r in regions
        ]
        kinds["destroy"] = [
            (Objective("destroy", r).value, f"Destroy an enemy army in {r}") for r in regions
        ]
        kinds["crush_commune"] = [(Objective("crush_commune").value, "Crush the Commune by force")]
        if "gov" in reg["laws_by"] and state["regime"] != "legislative":
            kinds["law"] = [
                (Objective("law", k).value, f"Pass {law['name']}") for k, law in LAWS.items()
            ]
        return kinds
    kinds["persuade"] = [
        (Objective("persuade", p).value, f"Win over {p}")
        for p, data in PERSONS.items()
        if p in state["persons"]
        and state["persons"][p]["current"] != who
        and who in [data["current"], *data["secondary"]]
        and state["persons"][p]["status"] != "dead"
    ]
    kinds["plot"] = [  # 7.4: no plot where the Coalition holds; 7.4.1: none in a revolt
        (Objective("plot", r).value, f"Take {r} by a plot")
        for r in regions
        if controller(state, r) != who
        and not state["regions"][r]["coalition"]
        and not state["regions"][r]["revolt"]
    ]
    kinds["revolt"] = [
        (Objective("revolt", r).value, f"Start a revolt in {r}") for r in regions if r != "Paris"
    ]
    kinds["suppress"] = [
        (Objective("suppress", r).value, f"Suppress the revolt in {r}")
        for r in regions
        if r != "Paris"
    ]
    kinds["commune"] = [
        (Objective("raise_commune").value, "Raise the Commune"),
        (Objective("suppress_commune").value, "Suppress the Commune"),
    ]
    if "currents" in reg["laws_by"] and officially_present(state, who):  # 6.4.2, 7.5.2.3
        kinds["law"] = [
            (Objective("law", k).value, f"Pass {law['name']}") for k, law in LAWS.items()
        ]
    regimes_ = (
        ("convention", "terror", "thermidor")
        if state["options"].get("scenario") != "open"
        else (
            "convention",
            "terror",
            "thermidor",
            "wrath",
            "mercy",
            "directorate",
            "prairial",
            "ffr",
            "froi",
        )
    )
    kinds["regime"] = [
        (Objective("regime", k).value, f"Install the {REGIMES[k]['name']}")
        for k in regimes_
        if k != state["regime"]
    ]
    follower = joint_follower(state, who) if joint else None
    if follower is not None:  # 6.4: each ally must be able to achieve it alone
        mine = able(state, who, kinds)
        theirs = able(state, follower, objective_kinds(state, follower, joint=False))
        allowed = {value for pairs in theirs.values() for value, _ in pairs}
        kinds = {k: [(v, label) for v, label in pairs if v in allowed] for k, pairs in mine.items()}
    return {k: v for k, v in kinds.items() if v}


def able(
    state: State, who: str, kinds: dict[str, list[tuple[str, str]]]
) -> dict[str, list[tuple[str, str]]]:
    """The objectives ``who`` could achieve by its own actions (6.4 on joint ones): only
    Currents outside the Assembly start revolts, only those present propose laws, only
    the Commune's Currents act on it."""

    out = dict(kinds)
    if officially_present(state, who):
        out.pop("revolt", None)
    else:
        out.pop("law", None)
    if who not in commune_actors(state):
        out.pop("commune", None)
    return out


KIND_LABELS = {
    "arrest": "Arrest a Personality",
    "suppress": "Suppress a revolt",
    "destroy": "Destroy an enemy army",
    "crush_commune": "Crush the Commune",
    "law": "Have a law passed",
    "persuade": "Win over a Personality",
    "plot": "Take a region by plot",
    "revolt": "Start a revolt",
    "commune": "Raise or suppress the Commune",
    "regime": "Change the regime",
}


def next_declarer(state: State) -> str | None:
    for who in declarers(state):
        if (
            who in state["objectives"]
            and SecretChoices(state["objectives"][who]).next_seat is not None
        ):
            return who
    return None


def objectives_needed(state: State, t: Step) -> bool:
    """A declarer has not sealed its objective yet (6.4)."""
    return next_declarer(state) is not None


def objectives_prompt(state: State, t: Step) -> Prompt:
    who = next_declarer(state)
    assert who is not None  # objectives_needed
    seat = actor_seat(state, who)
    assert seat is not None
    kinds = objective_kinds(state, who)
    kind = state["objective_kind"].get(who)
    if kind is None:
        choices = tuple(
            Choice(
                KIND(k),
                KIND_LABELS[k],
                detail=f"{kind_detail(k)} Next you name the target ({len(kinds[k])} possible).",
            )
            for k in kinds
        )
        return Prompt(seat, f"Declare the {name(who)}'s objective: what kind?", choices, rule="6.4")
    options = kinds[kind]
    choices = tuple(
        Choice(
            OBJECTIVE(value),
            label,
        )
        for value, label in options
    )
    choices += (
        Choice(
            KIND("back"),
            "Choose another kind",
            detail="Back to the kinds of objective; nothing is declared yet.",
            key=PASS_KEY,
        ),
    )
    return Prompt(seat, f"Declare the {name(who)}'s objective", choices, rule="6.4")


def objectives_handle(state: State, t: Step, action: str, ctx: Context) -> None:
    seat = answering(ctx)
    who = next_declarer(state)
    assert who is not None
    if KIND.matches(action):
        kind = KIND.arg(action)
        state["objective_kind"][who] = None if kind == "back" else kind
        return
    state["objective_kind"][who] = None
    value = OBJECTIVE.value(action)  # checked: an objective of a known kind (plans)
    SecretChoices(state["objectives"][who]).choose(seat, value, ctx, label=objective_words(value))


def objectives_done(state: State, t: Step, ctx: Context) -> None:
    TASKS.finish(state)
    TASKS.schedule(state, Step(kind="objectives_reveal"))


def objectives_reveal(state: State, t: Step, ctx: Context) -> None:
    """Every sealed objective is shown at once (6.4), in words and credited to no seat
    (the last seat to seal one did not reveal the others)."""
    state["declared"] = {}
    lines = []
    for who, data in state["objectives"].items():
        sealed = SecretChoices(data)
        if not sealed.complete:
            raise ValueError(f"not every seat has chosen yet ({sealed.topic})")
        value = next(iter(sealed.answers().values()))
        state["declared"][who] = value
        owner = (
            f"the Government ({name(gov_controller(state))})"
            if who == "gov"
            else f"the {name(who)}"
        )
        line = f"{owner}: {objective_words(value)}"
        follower = joint_follower(state, who) if who != "gov" else None
        if follower is not None:
            state["declared"][follower] = value
            line += f", shared with the {name(follower)} (6.4)"
        lines.append(line)
    ctx.reveal("objectives revealed (6.4): " + "; ".join(lines), about=NOBODY)
    ctx.summary(
        f"Turn {state['turn']}: the objectives (6.4)",
        [
            *(line[0].upper() + line[1:] for line in lines),
            "Met: fame +1 in the Interphase; missed: -1.",
            *changes(state),
        ],
    )
