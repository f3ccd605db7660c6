"""The turn's tasks, typed.

A task is one step of the turn on the stack in ``state["tasks"]``: an automatic step,
or a question to a seat. Each is a plain JSON dict (the state stays data that saves,
loads and hashes as it is) with a ``kind`` naming it and the fields that kind needs,
spelled out in full; the TypedDicts below say which. Chapter modules build them with
these constructors and type their handlers with them, so a misspelt field is a type
error, not a key missing in the middle of a game.
"""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

#: The record of a multi-seat decision (``tabletop.framework.decisions``).
DecisionRecord = dict[str, Any]


class Step(TypedDict):
    """A task that is only its kind: a phase that starts, an automatic step."""

    kind: str


# Chapter 6: the initial phases ------------------------------------------------------------


class Negotiation(TypedDict):
    """6.1: the seats in turn order make offers or pass; ``index`` is whose turn it is."""

    kind: str
    seats: list[int]
    index: int


class OfferAmount(TypedDict):
    """6.1: how much ``giver`` offers ``taker``."""

    kind: str
    giver: str
    taker: str


class OfferAnswer(TypedDict):
    """6.1, 6.4: ``taker`` accepts or refuses money, or a joint objective (``pact``)."""

    kind: str
    giver: str
    taker: str
    amount: int
    pact: NotRequired[bool]


class EventTable(TypedDict):
    """6.2: roll on one of the regime's event tables."""

    kind: str
    table: str


class GovernmentDecision(TypedDict):
    """6.2: an event that asks the Government (the entry's ``decision``)."""

    kind: str
    decision: dict[str, Any]


class AssemblyDecision(TypedDict):
    """6.2: an event that the Assembly votes on, seat by seat."""

    kind: str
    decision: dict[str, Any]
    vote: DecisionRecord


class Placement(TypedDict):
    """6.5: the Currents in ``order`` place their Personalities; ``index`` is whose turn,
    ``showing_all`` whether every region is offered rather than the short list."""

    kind: str
    order: list[str]
    index: int
    showing_all: NotRequired[bool]


# Chapter 7.1-7.4: actions -----------------------------------------------------------------


class ActionTurn(TypedDict):
    """7.3-7.4: ``actor`` (a Current or ``gov``) may act in this ``segment``."""

    kind: str
    segment: str
    actor: str


class RollRecord(TypedDict):
    dice: list[int]
    letter: str


class Attempt(TypedDict):
    """7.1: an action on ``target``: who takes part, how many rolls are paid for (both
    None until asked), and the roll kept."""

    kind: str
    actor: str
    segment: str
    target: str
    persons: list[str] | None
    roll_count: int | None
    kept_roll: NotRequired[RollRecord]


class PickResult(TypedDict):
    """7.1: with several rolls, the actor keeps one."""

    kind: str
    actor: str
    segment: str
    target: str
    persons: list[str]
    rolls: list[RollRecord]


# Chapter 7.5, 11, 13: the Political Phase -------------------------------------------------


class ActorTurn(TypedDict):
    """A Current's (or the Government's) turn to propose a law or to sway deputies."""

    kind: str
    actor: str


class LawVote(TypedDict):
    """7.5.2.3.1: the deputies' vote on ``law`` (also the King's trial)."""

    kind: str
    law: str
    proposer: str
    vote: DecisionRecord


class FameVote(TypedDict):
    """7.5.2.3.2: the modifiers each seat adds, up to its ``modifier_ranges`` entry."""

    kind: str
    law: str
    proposer: str
    modifier_ranges: dict[str, int]
    vote: DecisionRecord


class Veto(TypedDict):
    """11.1: the King's holder may veto a passed law."""

    kind: str
    law: str
    proposer: str


class Referendum(TypedDict):
    """R.x.8.3: a referendum on regime ``target``, installed at once or at the next
    Political Phase (``installs_next_turn``)."""

    kind: str
    target: str
    proposer: str
    installs_next_turn: bool
    vote: DecisionRecord


class PartnerChoice(TypedDict):
    """R.7.2: the Marais chooses its Directorate partner among the tied Currents."""

    kind: str
    tied_currents: list[str]


class PartnerElection(TypedDict):
    """R.7.5: the Assembly elects the Directorate's new partner among ``candidates``;
    the toppled ``old_partner``'s deputies have no vote."""

    kind: str
    candidates: list[str]
    old_partner: str
    vote: DecisionRecord


class InstallRegime(TypedDict):
    kind: str
    regime: str


# Chapter 8: the Patriot's Phase -----------------------------------------------------------


class PrisonerTask(TypedDict):
    """8.1: the King's pardon or dice justice for one prisoner."""

    kind: str
    person: str


class JusticeVote(TypedDict):
    kind: str
    person: str
    vote: DecisionRecord


class ConfidenceVote(TypedDict):
    kind: str
    vote: DecisionRecord


# Chapter 9: the Military Phase ------------------------------------------------------------


class Landing(TypedDict):
    """9.3.1: the Royalist chooses where ``army`` lands."""

    kind: str
    army: str


class PlaceVolunteers(TypedDict):
    kind: str
    volunteers_left: int


class RegionQuestion(TypedDict):
    """A question about one region: pinning (9.5.1), hiding (9.8), the automatic
    capital (9.7.1)."""

    kind: str
    region: str


class ArmyMoves(TypedDict):
    """9.5.3, 9.5.4: the armies ``army_ids`` move one by one; ``index`` is the next."""

    kind: str
    army_ids: list[str]
    index: int


class LossChoice(TypedDict):
    """9.6: the owner (``owner_seat``) chooses which of ``army_ids`` is lost."""

    kind: str
    region: str
    army_ids: list[str]
    owner_seat: int


class Kidnap(TypedDict):
    """11.3: the Royalist may try to kidnap the King ``where`` his armies hold him."""

    kind: str
    where: str


class CapitalChoice(TypedDict):
    """9.7.1: ``fallen`` (Paris or the provisional capital) has fallen."""

    kind: str
    fallen: str


# Chapter 12: coups ------------------------------------------------------------------------


class CoupOffer(TypedDict):
    """12.0: the Currents that may attempt a ``coup``, asked in turn. ``window`` is a
    framework ``ResponseWindow`` of parties (opened by ``coup_offer_start``): a seat
    with two Currents (4 or 5 players) is asked once for each, and a Current that cannot
    pay or has nobody to plot when it is reached is dropped from it."""

    kind: str
    coup: str
    window: NotRequired[dict[str, Any]]


class MilitaryOffer(TypedDict):
    """12.3: the Currents that may rally an army to march on Paris, asked in turn in a
    ``ResponseWindow`` of parties, as ``CoupOffer``."""

    kind: str
    window: dict[str, Any]


class AskedInTurn(TypedDict):
    """A regime change (7.5.1) put to each Current in turn order: ``window`` is a
    framework ``ResponseWindow`` of parties (see ``in_turn``); the first Current that
    says yes closes it."""

    kind: str
    window: dict[str, Any]


class CoupAttempt(TypedDict):
    """12.1-12.3: ``current`` attempts a ``coup`` towards regime ``target`` with
    ``persons``; then the Commune's leave, the reactions, the rebels' march."""

    kind: str
    coup: str
    current: str
    target: str
    persons: list[str]
    leader: NotRequired[str]
    vote: NotRequired[DecisionRecord]
    rebels: NotRequired[list[str]]
    army_ids: NotRequired[list[str]]
    index: NotRequired[int]


# R.7.2.2: the Directorate's die-off -------------------------------------------------------


class DieoffBacking(TypedDict):
    """The partners' sealed ``answers`` by seat; the other seats may back one."""

    kind: str
    answers: dict[str, str]
    vote: DecisionRecord


class Dieoff(TypedDict):
    kind: str
    answers: dict[str, str]
    bonus: dict[str, int]
