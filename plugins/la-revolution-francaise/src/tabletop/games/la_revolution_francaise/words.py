"""The game's facts in a player's words: what a law does, what a result letter does,
what an objective asks. Prompts, log lines and the board read them from here so that
a new player decides from the screen alone (issue 25), never from a letter or a code."""

from __future__ import annotations

from functools import cache
from typing import Any

from tabletop.framework import State

from .actions.modifiers import commune_actors
from .actions.outcomes import letter_effect
from .core import (
    armies_in,
    commune_may_rise,
    economy_factor,
    enemy_present,
    money,
    name,
    officially_present,
)
from .data import ALLIED, CATHOLIC, KING, LAWS, REGIMES, REGION_NAMES
from .factions import ROYALIST
from .plans import Objective

REGION_BY_KEY = {r.lower(): r for r in REGION_NAMES}

TRACK_NAMES = {
    "economy": "Economy",
    "clergy": "Clergy",
    "coalition": "Coalition",
    "commune": "Commune",
}

FACTION_NAMES = {
    "hebertiste": "Hébertist",
    "indulgent": "Merciful",
    "terroriste": "Terrorist",
}

_SPECIAL = {
    "civic": "no track moves",
    "war": "France declares war: the Coalition marker goes to 20 and the Allied armies "
    "may enter (13.5.1, 9)",
    "conscription": "the Government may place volunteer armies from now on (13.5.2, 9.3)",
    "levee": "the Government places 3 more volunteer armies this turn (13.5.3)",
    "patrie": "until the war ends, Currents may give the Government money and opposing "
    "its laws costs present Currents 1 fame (13.6)",
    "trial": "the King is tried: guilty sends him to the guillotine (Coalition and Clergy "
    "+5, Sans-Culotte and Montagne fame +3, Gironde and Feuillant -2); innocent is the "
    "reverse (11.4)",
}


@cache
def law_effect(key: str) -> str:
    """What passing the law ``key`` does, from the laws' data (chapter 13)."""
    law = LAWS[key]
    parts = []
    if law["cost"]:
        parts.append(f"the Government pays {law['cost']} x the Economy level")
    if law["fame"]:
        parts.append(f"the proposer's fame {law['fame']:+d}")
    moves = ", ".join(f"{TRACK_NAMES[t]} {v:+d}" for t, v in law["tracks"].items())
    if moves:
        parts.append(moves)
    if key in _SPECIAL:
        parts.append(_SPECIAL[key])
    if law["family"] == "outlaw":
        faction = FACTION_NAMES.get(law["faction"], law["faction"])
        parts.append(
            f"the {faction} faction is outlawed: its Personalities in Paris go to prison "
            "and it may be arrested anywhere (13.8)"
        )
    if law["family"] in ("anti_privilege", "anti_clergy"):
        parts.append("under the Legislative the King may veto it (11.1)")
    return f"{law['name']} ({law['section']}): " + "; ".join(parts) + "."


def law_price(state: State, key: str) -> int:
    return int(LAWS[key]["cost"]) * economy_factor(state)


def bankrupting(state: State, key: str) -> str:
    """A warning when the Government could not pay for the law: it would fail and the
    Government go bankrupt (10.2.2.1)."""
    price = law_price(state, key)
    if money(state, "gov") >= price:
        return ""
    return (
        f"the Government has {money(state, 'gov')}, short of {price}: if passed the law "
        "fails and the Government goes bankrupt (its Current's fame -5, Government -2)"
    )


def kind_detail(kind: str) -> str:
    """What an objective of this kind asks (6.4), for the kind prompt."""
    return KIND_DETAILS[kind]


KIND_DETAILS = {
    "arrest": "Met if the named Personality goes to prison this turn (7.3.1).",
    "suppress": "Met if the revolt in the named region ends this turn, by anyone (7.4.3).",
    "destroy": "Met if an enemy army is destroyed in the named region this turn (9.6).",
    "crush_commune": "Met if the Commune is crushed by force this turn (9.9).",
    "law": "Met if the named law passes this turn (13).",
    "persuade": "Met if you win over the named Personality this turn (7.3.2).",
    "plot": "Met if you take the named region by a plot (an A) this turn (7.4.1).",
    "revolt": "Met if the named region revolts this turn, by anyone (7.4.2).",
    "commune": "Met if the Commune is raised, or suppressed, as you name it (7.4.4).",
    "regime": "Met if the named regime is installed this turn (7.5.1).",
}


#: A declared objective in words, by its kind; ``{target}`` is what it names.
OBJECTIVE_WORDS = {
    "arrest": "Arrest {target}",
    "suppress": "Suppress the revolt in {target}",
    "destroy": "Destroy an enemy army in {target}",
    "crush_commune": "Crush the Commune by force",
    "persuade": "Win over {target}",
    "plot": "Take {target} by a plot",
    "revolt": "Start a revolt in {target}",
    "raise_commune": "Raise the Commune",
    "suppress_commune": "Suppress the Commune",
}


def objective_words(value: str) -> str:
    """A declared objective in words ("Take Brest by a plot"), from its stored code."""
    objective = Objective.read(value)
    kind, target = objective.kind, objective.target
    if kind == "law":
        return f"Pass {LAWS[target]['name']}" if target in LAWS else f"Pass {target}"
    if kind == "regime":
        return f"Install the {REGIMES[target]['name']}" if target in REGIMES else value
    words = OBJECTIVE_WORDS.get(kind)
    return value.replace("_", " ") if words is None else words.format(target=target)


def objective_detail(value: str) -> str:
    """What must happen for ``value`` to be met, and what it is worth (6.4, 10.3)."""
    kind = Objective.read(value).kind
    if kind in ("raise_commune", "suppress_commune"):
        kind = "commune"
    met = KIND_DETAILS.get(kind, "")
    return (
        f"{objective_words(value)}. {met} Sealed now, shown with the others when all "
        "are in; in the Interphase met gives fame +1, missed -1."
    )


def objective_warning(state: State, value: str, who: str | None = None) -> str:
    """A consequence for an objective of ``who`` that the table as it stands makes
    unlikely or that nobody could meet by the rules' usual means: a revolt where one
    already is or an army stands, a suppression where there is no revolt or nobody may
    act, a Commune action it cannot take, a target out of reach. The menu leaves out
    what the rules forbid outright (``initial.objectives.objective_kinds``)."""
    objective = Objective.read(value)
    kind, target = objective.kind, objective.target
    regions = state["regions"]
    place = regions.get(target)
    if kind == "revolt" and place is not None:
        if place["revolt"]:
            return f"{target} is already in revolt: a new revolt cannot start there (7.4.2)"
        if place["coalition"] and who != ROYALIST:
            return f"the Coalition holds {target}: only a Royalist revolt may start there (7.4)"
        if armies_in(state, target) and not (who == ROYALIST and place["coalition"]):
            return f"an army stands in {target}: no revolt can start there (7.4.2)"
        if who is not None and officially_present(state, who):
            return (
                f"the {name(who)} sits in the Assembly and cannot start revolts (7.4.2): "
                "met only if another Current starts it"
            )
    if kind == "suppress" and place is not None:
        if not place["revolt"]:
            return (
                f"{target} is not in revolt: met only if a revolt starts and ends there this turn"
            )
        if place["coalition"]:
            return f"the Coalition holds {target}: no suppression there (7.4)"
        if who == "gov" and enemy_present(state, target):
            return (
                f"an enemy army stands in {target}: the Government cannot suppress there "
                "(7.4.3); met only if a Current does"
            )
    if kind == "persuade" and state["persons"].get(target, {}).get("status") not in (
        "free",
        "prison",
    ):
        return f"{target} is off the map this turn: he cannot be won over (7.3.2)"
    if kind == "destroy" and place is not None and not enemy_present(state, target):
        return (
            f"no enemy army stands in {target} now: met only if one comes and is destroyed "
            "there (9.6)"
        )
    if kind == "crush_commune" and not state["commune"]["raised"]:
        return "the Commune is not raised: met only if it rises and an army crushes it (9.9.1)"
    if kind in ("raise_commune", "suppress_commune"):
        return commune_warning(state, kind, who)
    return ""


def commune_warning(state: State, kind: str, who: str | None) -> str:
    """Why raising or suppressing the Commune (7.4.4) is out of the declarer's hands or
    needs the other first."""
    raised = state["commune"]["raised"]
    if kind == "raise_commune" and not raised and not commune_may_rise(state):
        return "the Commune cannot rise this turn: an enemy army is in Paris, or it fell (7.4.4.1)"
    if kind == "raise_commune" and raised:
        return "the Commune is already raised: it must be suppressed first (7.4.4.1)"
    if kind == "suppress_commune" and not raised:
        return "the Commune is not raised: it must rise first (7.4.4.2)"
    if who is not None and who not in commune_actors(state):
        return (
            f"the {name(who)} cannot act on the Commune (7.4.4): met only if another "
            "Current does it"
        )
    return ""


def letters_detail(state: State, actor: str, segment: str, target: str) -> str:
    """Every letter's effect, for the prompt that chooses the target."""
    return "; ".join(
        f"{letter}: {letter_effect(state, actor, segment, target, letter)}" for letter in "ABC"
    )


def army_name(army_id: str) -> str:
    """An army in words: its own name for the Allies and the Catholics, "the regular
    army of Lille", "volunteer army 3" for the Revolution's."""
    if army_id in ALLIED:
        return str(ALLIED[army_id]["name"])
    if army_id in CATHOLIC:
        return str(CATHOLIC[army_id]["name"])
    kind, _, rest = army_id.partition("_")
    if kind == "regular":
        return f"the regular army of {REGION_BY_KEY.get(rest, rest.capitalize())}"
    if kind == "volunteer":
        return f"volunteer army {rest}"
    if kind == "temporary":
        return "the temporary army"
    return army_id.replace("_", " ")


def king_free(state: State) -> bool:
    return bool(state["persons"][KING]["status"] == "free")


def regime_detail(key: str) -> str:
    """A regime's name and section, for prompts that change it."""
    reg: dict[str, Any] = REGIMES[key]
    return f"{reg['name']} ({reg['section']})"
