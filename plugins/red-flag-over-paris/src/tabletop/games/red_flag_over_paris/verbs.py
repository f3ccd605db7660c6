"""Every action of the game as a typed verb (``tabletop.framework.actions``), shared by
the rules (``rules/``), the solo opponent (``solo.py``, ``solo_turn.py``) and the bots
(``bot.py``), so that no module spells or splits an action string by hand.

The strings are those saves have always held ("ev:12", "put:press", "stop"): the
verbs only build and read them. One word serves two decisions: the initiative's "first"
(no argument, §6.2) and the scoring order's "first:<side>" (§10.2, §11). A verb list
holds one verb a word, so ``VERBS`` has the scoring order's; ``PLAY_FIRST`` is built
and compared directly, and the stack never confuses them, since it hands an answer to
the decision that asked.
"""

from __future__ import annotations

from tabletop.framework.actions import Verb, Verbs

# §5.2 keep an objective; §12.2 discard down in the Final Crisis.
KEEP = Verb("keep", "card")
DROP = Verb("drop", "card")

# §6.2 the initiative: play first or second.
PLAY_FIRST = Verb("first")
PLAY_SECOND = Verb("second")

# §7 a card play: for its event, its operations, momentum, a discarded event, or the
# Final Crisis card's OP.
EVENT = Verb("ev", "card")
OPERATIONS = Verb("ops", "card")
MOMENTUM = Verb("mom", "card")
REUSE = Verb("reuse", "card")
FINAL_CRISIS_OPS = Verb("fc", "card")

# §7.1 an event's option, §12.3 consent to the opponent's play of one's event.
EVENT_OPTION = Verb("opt", "option")
APPLY = Verb("apply")
DECLINE = Verb("decline")

# Pieces one at a time: an event's or a §9.3 cube, an event's removal, a disc (§1.2).
PUT = Verb("put", "space")
TAKE = Verb("take", "space")
DISC = Verb("disc", "space")
MOVE_DISC = Verb("move", "source", "target")
STOP = Verb("stop")

# §7.2-§7.5 operations: the space type, removals (``rmx`` with the extra OP), placements.
KIND = Verb("kind", "space_kind")
REMOVE = Verb("rm", "space")
REMOVE_EXTRA = Verb("rmx", "space")
TO_PLACE = Verb("toplace")
PLACE = Verb("pl", "space")
DONE = Verb("done")

# §10.1 bonus actions: their order, the action, De-escalate's and Spread's cubes.
PIVOT = Verb("pivot", "space")
DE_ESCALATE = Verb("deesc")
SPREAD = Verb("spread")
TURNCOAT = Verb("turn", "space")
PASS = Verb("pass")
OWN = Verb("own", "space")
ENEMY = Verb("opp", "space")
FROM = Verb("from", "space")
TO = Verb("to", "space")

# §10.2, §11 who scores first; §11 an objective's event.
SCORE_FIRST = Verb("first", "side")
PERFORM = Verb("perform")
SKIP = Verb("skip")

VERBS = Verbs(
    KEEP,
    DROP,
    PLAY_SECOND,
    EVENT,
    OPERATIONS,
    MOMENTUM,
    REUSE,
    FINAL_CRISIS_OPS,
    EVENT_OPTION,
    APPLY,
    DECLINE,
    PUT,
    TAKE,
    DISC,
    MOVE_DISC,
    STOP,
    KIND,
    REMOVE,
    REMOVE_EXTRA,
    TO_PLACE,
    PLACE,
    DONE,
    PIVOT,
    DE_ESCALATE,
    SPREAD,
    TURNCOAT,
    PASS,
    OWN,
    ENEMY,
    FROM,
    TO,
    SCORE_FIRST,
    PERFORM,
    SKIP,
)
