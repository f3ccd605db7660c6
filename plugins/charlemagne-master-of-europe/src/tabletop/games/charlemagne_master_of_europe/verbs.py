"""Every action of the game, built and read through named verbs (the rules and the
steward bot share them).

The strings are those saves have always held: ``"buy:scara"``, ``"target:1"``,
``"act:marquis:blue:bavaria:suppress"``. A word means one thing within a decision, but
two decisions may use one word differently (the Levy buys a unit kind, the Vikings'
diplomacy buys off a Region's Viking), so ``DECISION_VERBS`` gives each decision its
own list, and an action is read against the decision that offered it.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from tabletop.framework import Action
from tabletop.framework.actions import SEP, Verb, Verbs

# Set-up (§2.2) and the Levy (§4) -------------------------------------------------------
MARQUIS = Verb("marquis", "box")
BUY_UNIT = Verb("buy", "kind")
PROMOTE_VETERAN = Verb("promote", "level")
DONE = Verb("done")

# The campaign (§5): an Action by one piece in one box -----------------------------------
ACT = Verb("act", "order", rest=True)
#: A Marquis as a piece (in an order, and in ``state["siege"]``); Charlemagne is
#: ``board.PIECE_CHARLEMAGNE``.
PIECE_MARQUIS = Verb("marquis", "region")
END = Verb("end")

# Build (§8), Diplomacy (§9), Emergency VP (§10.5) ---------------------------------------
BRIDGES = Verb("bridges", "region")
FINISH = Verb("finish", "region")
START = Verb("start", "region")
NEXT = Verb("next")
FREE = Verb("free", "region")
BUY_OFF = Verb("buy", "region")
NEGOTIATE = Verb("negotiate")
DECLINE = Verb("decline")
KEEP = Verb("keep")
SPEND = Verb("spend", "spaces")

# Battles (§7) ------------------------------------------------------------------------
UNIT = Verb("unit", "kind", "level")
TARGET = Verb("target", "space")
LINE = Verb("line", "wing", "space")
FLANK = Verb("flank", "wing", "space")
PLACE = Verb("place", "space", "kind", "level")
PLACE_MORE = Verb("place", "wing", "space", "kind", "level")
NONE = Verb("none")
PROMOTE_UNIT = Verb("promote", "kind", "level")

#: A maneuver moves a unit from one of your spaces to another: ``line:left:1>flank:left:3``.
MOVE_SEP = ">"
SLOTS = Verbs(LINE, FLANK)

DECISION_VERBS = {
    "marquis_start": Verbs(MARQUIS),
    "levy_buy": Verbs(BUY_UNIT, DONE),
    "levy_promote": Verbs(PROMOTE_VETERAN),
    "campaign_action": Verbs(ACT, END),
    "build_bridges": Verbs(BRIDGES, NEXT),
    "build_finish": Verbs(FINISH, NEXT),
    "build_start": Verbs(START, NEXT),
    "diplomacy_vikings": Verbs(FREE, BUY_OFF, DONE),
    "diplomacy_al_andalus": Verbs(NEGOTIATE, DECLINE),
    "evp_voluntary": Verbs(KEEP, SPEND),
    "battle_deploy": Verbs(UNIT),
    "battle_attack": Verbs(TARGET),
    "battle_counterattack": Verbs(TARGET),
    "battle_maneuver": Verbs(DONE, LINE, FLANK),
    "battle_reserve": Verbs(PLACE),
    "battle_reserve_optional": Verbs(PLACE_MORE, NONE),
    "battle_promote": Verbs(PROMOTE_UNIT),
}


class Order(NamedTuple):
    """A campaign Action: the piece (``charlemagne`` or ``marquis:<region>``), the box
    it acts in (after its move, if any), the Action, and its second box if it has one
    (a Forced March's destination, a Forced Conversion's adjacent box)."""

    piece: str
    box: str
    action: str
    extra: str | None = None


def act(piece: str, box: str, action: str, extra: str | None = None) -> Action:
    """``act:<piece>:<box>:<action>[:<extra>]``."""
    return ACT(SEP.join([piece, box, action, *([extra] if extra else [])]))


def order_of(action: Action) -> Order:
    """The campaign Action ``action`` orders (ValueError for another verb)."""
    words = ACT.arg(action).split(SEP)
    take = 2 if words[0] == PIECE_MARQUIS.name else 1
    piece = SEP.join(words[:take])
    box, verb, *extra = words[take:]
    return Order(piece, box, verb, extra[0] if extra else None)


def slot_action(slot: list[Any]) -> Action:
    """One of your battle spaces as words: ``line:left:1`` (a Slot is kind, wing, pos)."""
    kind, wing, pos = slot
    return SLOTS[str(kind)](wing, pos)


def slot_of(words: str) -> list[Any]:
    """``line:left:1`` back to ``["line", "left", 1]``."""
    verb, (wing, pos) = SLOTS.parse(words)
    return [verb.name, wing, int(pos)]


def maneuver(origin: list[Any], dest: list[Any]) -> Action:
    return slot_action(origin) + MOVE_SEP + slot_action(dest)


def maneuver_of(action: Action) -> tuple[list[Any], list[Any]]:
    """A maneuver's (origin, destination) spaces."""
    origin, dest = action.split(MOVE_SEP)
    return slot_of(origin), slot_of(dest)
