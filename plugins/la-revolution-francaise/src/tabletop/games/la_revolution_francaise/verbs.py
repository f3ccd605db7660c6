"""Every action of La Révolution française, as typed verbs (``tabletop.framework.actions``)
shared by the rules, the bots and the explanations: ``VOTE("yes")`` builds ``"vote:yes"``
and ``VOTE.arg(action)`` reads it back. The strings are the ones saves have always held.

Three verbs carry a phrase that holds ``:`` itself, so their argument takes the rest of
the action (``rest``) and is a ``Phrase``, checked against the data it names (``plans``):
``objective:arrest:Barnave`` (an ``Objective``), ``try:raise:Paris`` (a Commune action
on Paris), ``coup:convention:Amiens:1`` (a ``CoupPlan``: regime, region, armies).
"""

from __future__ import annotations

from collections.abc import Callable

from tabletop.framework.actions import Text, Verb, Verbs

from .plans import CoupPlan, Objective, is_target


class Phrase(Text):
    """A ``rest`` argument (a phrase that may hold ``:``) that must fit what the game
    declares (``fits``): building or reading an action with any other phrase is an
    ``ActionError`` that says what the argument must be. The framework's ``rest`` takes
    only a ``Text``; the typed value is read from the phrase in ``plans``."""

    __slots__ = ("_fits", "_what")

    def __init__(self, name: str, what: str, fits: Callable[[str], bool]) -> None:
        super().__init__(name)
        self._what = what
        self._fits = fits

    def describe(self) -> str:
        return self._what

    def word(self, value: str) -> str:
        if not isinstance(value, str) or not self._fits(value):
            raise self._refuse(value)
        return value

    def parse(self, word: str) -> str:
        if not self._fits(word):
            raise self._refuse(word)
        return word


# Words that stand alone ---------------------------------------------------------------
DONE = Verb("done")  # stop acting in a segment, proposing laws, placing
PASS = Verb("pass")  # 6.1: no offer
ACCEPT = Verb("accept")  # 6.1: an offer or a pact
REFUSE = Verb("refuse")
MORE = Verb("more")  # 6.5: every region, not the short list
BACK = Verb("back", "side")  # R.7.2.2: back a partner's seat in the die-off, or "none"
#: 6.5: back from every region to the short list. The one action that is a verb's word
#: alone while the verb also takes an argument (R.7.2.2's ``back``); saves hold both.
PLACEMENT_BACK = "back"
STAY = Verb("stay")  # 9.5.3: a Catholic & Royal army stays

# Chapter 6 ------------------------------------------------------------------------------
OFFER = Verb("offer", "giver", "taker")  # 6.1
PACT = Verb("pact", "leader", "partner")  # 6.4 joint objective
AMOUNT = Verb("amount", "money")
DECIDE = Verb("decide", "answer")  # 6.2: a Government decision (yes/no)
DESERT = Verb("desert", "army")  # 6.2
KIND = Verb("kind", "kind")  # 6.4: the kind of objective (or "back")
OBJECTIVE = Verb(  # 6.4: "arrest:Barnave", "raise_commune"
    "objective",
    Phrase("value", "an objective: <kind>:<target>, or a Commune objective", Objective.fits),
    rest=True,
)
PLACE = Verb("place", "region")  # 6.5 a Personality; 9.3.3 a volunteer
GENERAL = Verb("general", "region")  # 6.5: a general with an army

# Chapter 7.1-7.4 ------------------------------------------------------------------------
TRY = Verb(  # a target; "raise:Paris" for the Commune
    "try",
    Phrase("target", "a Personality, a region, raise:Paris or suppress:Paris", is_target),
    rest=True,
)
WITH = Verb("with", "person")  # a Personality taking part, or "all"
ROLLS = Verb("rolls", "count")  # 7.1: rolls paid for
KEEP = Verb("keep", "roll")  # 7.1: the roll kept

# Chapter 7.5, 11, 13 --------------------------------------------------------------------
INSTALL = Verb("install", "regime")  # 7.5.1 (or "none")
REFERENDUM = Verb("referendum", "regime")  # 7.5.1
PARTNER = Verb("partner", "current")  # R.7.2
ELECT = Verb("elect", "current")  # R.7.5
SWAY = Verb("sway", "current")  # 7.5.2.1
KING_ACTION = Verb("king", "what")  # 7.5.2.2: act, both, none; 9.5.3: where the King goes
LAW = Verb("law", "law")  # 7.5.2.3
VOTE = Verb("vote", "ballot")  # every vote: yes/no/abstain, guilty, confidence...
MOD = Verb("mod", "modifier")  # 7.5.2.3.2: a fame-vote modifier
VETO = Verb("veto", "answer")  # 11.1
THERMIDOR = Verb("thermidor", "answer")
HOLD = Verb("hold", "answer")  # R.6.8.3: the Mercy's referendum

# Chapter 8 ------------------------------------------------------------------------------
PARDON = Verb("pardon", "answer")  # 8.1

# Chapter 9, 11.3 ------------------------------------------------------------------------
LAND = Verb("land", "region")  # 9.3.1
RAISE = Verb("raise", "region")  # 9.3.2: a Catholic & Royal army
PIN = Verb("pin", "answer")  # 9.5.1
FOLLOW = Verb("follow", "region")  # 9.5.2: the King follows an army (or "stay")
MOVE = Verb("move", "region")  # 9.5.3-9.5.4
CRUSH = Verb("crush", "region")  # 9.5.4: crush the Commune in Paris
HIDE = Verb("hide", "answer")  # 9.8
LOSE = Verb("lose", "army")  # 9.6
CAPITAL = Verb("capital", "region")  # 9.7.1
KIDNAP = Verb("kidnap", "answer")  # 11.3: try or no

# Chapter 12 -----------------------------------------------------------------------------
COUP = Verb(  # "none", "<regime>:<n>", "<regime>:<region>:<n>"
    "coup",
    Phrase("plan", "none, <aim>:<n> or <aim>:<region>:<n>", CoupPlan.fits),
    rest=True,
)
PERMIT = Verb("permit", "answer")  # 12.2: the Commune's leave
REACT = Verb("react", "modifier")  # 12.1
INTERCEPT = Verb("intercept", "answer")  # 12.3

VERBS = Verbs(
    DONE, PASS, ACCEPT, REFUSE, MORE, BACK, STAY,
    OFFER, PACT, AMOUNT, DECIDE, DESERT, KIND, OBJECTIVE, PLACE, GENERAL,
    TRY, WITH, ROLLS, KEEP,
    INSTALL, REFERENDUM, PARTNER, ELECT, SWAY, KING_ACTION, LAW, VOTE, MOD, VETO, THERMIDOR, HOLD,
    PARDON,
    LAND, RAISE, PIN, FOLLOW, MOVE, CRUSH, HIDE, LOSE, CAPITAL, KIDNAP,
    COUP, PERMIT, REACT, INTERCEPT,
)  # fmt: skip
