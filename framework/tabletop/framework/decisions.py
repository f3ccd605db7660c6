"""Decisions that several seats make: in secret and revealed together, in a fixed seat
order, or by two seats that must agree.

The engine asks one seat at a time (one prompt, one seat), which keeps bots, undo,
saves and the hand-off screen simple. A decision several seats make is therefore a
run of prompts, one per seat, whose answers are kept in the state until the decision
is complete. These helpers hold that bookkeeping as plain data inside the state (so
it saves, replays and digests like everything else) and emit the right events:

``SecretChoices``
    Secret objectives, sealed bids, simultaneous orders, mission cards. Each seat
    answers in turn, but nobody learns an answer before all are in: the others see
    only "has chosen". The game then opens them all at once (a reveal: undo cannot
    cross it) and says what that tells whom: ``reveal_by_seat`` (who chose what) or
    ``reveal_anonymously`` (only the answers, shuffled). ``resample`` is what
    ``determinize`` calls so that search bots and the leak checks treat a sealed
    answer (or, after an anonymous reveal, its owner) as unknown.
``OrderedVote``
    Votes and modifiers cast publicly in a fixed seat order; each seat sees the
    earlier votes before casting its own.
``Agreement``
    Two (or more) seats choose in secret; if they agree, that is the decision; if
    not, a die-off decides: each rolls a die in public, rolling again on a tie for the
    highest, and the highest roller's choice stands.
``ResponseWindow``
    A chance to respond, offered to seats one after another ("does anyone challenge?",
    "does anyone block?"): the first seat that does anything but pass closes the
    window and the seats after it are never asked; if every seat passes, the window
    runs out.

Each wraps a dict that lives in the state; make one with ``new`` and store the dict,
then wrap it again in later calls (``SecretChoices(state["orders"])``). Bots take part
through the ordinary prompt path: a helper only tells the game whose turn it is
(``next_seat``) and records what was chosen.
"""

from __future__ import annotations

import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tabletop.framework.context import Context
from tabletop.framework.game import NOBODY
from tabletop.framework.ports import RandomSource

Data = dict[str, Any]


class _Asking(ABC):
    """A decision that asks seats one at a time, over its plain data in the state."""

    def __init__(self, data: Data) -> None:
        self.data = data

    @property
    def topic(self) -> str:
        return str(self.data["topic"])

    @property
    def seats(self) -> list[int]:
        """Every seat the decision may ask, in order (whether asked yet or not)."""
        return [int(seat) for seat in self.data["seats"]]

    @property
    @abstractmethod
    def next_seat(self) -> int | None:
        """The seat to ask now, or None once nobody is left to ask."""

    @property
    def seat_to_ask(self) -> int:
        """``next_seat`` for a prompt, which needs one: ValueError once nobody is left."""
        seat = self.next_seat
        if seat is None:
            raise ValueError(f"nobody is left to ask ({self.topic or 'a finished decision'})")
        return seat

    @property
    def complete(self) -> bool:
        """True once nobody is left to ask."""
        return self.next_seat is None


class _SeatRun(_Asking):
    """Seats answering one after another; the answers kept in ``data[slot]``."""

    kind = ""
    slot = ""

    @classmethod
    def new(cls, topic: str, seats: Iterable[int]) -> Data:
        """The plain data to keep in the state; ``seats`` answer in this order."""
        order = list(seats)
        return {"kind": cls.kind, "topic": topic, "seats": order, cls.slot: [None] * len(order)}

    @property
    def next_seat(self) -> int | None:
        """The seat that must answer now, or None when every seat has answered."""
        for seat, answer in zip(self.data["seats"], self.data[self.slot], strict=True):
            if answer is None:
                return int(seat)
        return None

    def _record(self, seat: int, value: str) -> None:
        if seat != self.next_seat:
            raise ValueError(f"seat {seat} is not the one to answer now ({self.topic})")
        self.data[self.slot][self.data["seats"].index(seat)] = value

    def answers(self) -> dict[int, str]:
        """Every answer so far by seat."""
        return {
            int(seat): str(value)
            for seat, value in zip(self.data["seats"], self.data[self.slot], strict=True)
            if value is not None
        }


#: How ``SecretChoices`` opens its sealed answers: with the seat that gave each one
#: (``reveal_by_seat``), or as a shuffled multiset that names nobody
#: (``reveal_anonymously``). Kept in the data (``"revealed"``) only for the anonymous
#: kind, which ``resample`` must honour.
BY_SEAT = "by seat"
ANONYMOUS = "anonymous"


class SecretChoices(_SeatRun):
    """A decision each of ``seats`` makes in secret, then opened together.

    Opening says what the rules make public, and the game must choose which of two it
    is, because they tell the table different things:

    - ``reveal_by_seat``: every answer *with the seat that gave it* ("North: advance;
      East: hold"), as when hands are raised or bids are turned face up in front of
      their owners;
    - ``reveal_anonymously``: the answers *without their owners*, shuffled through the
      game's random source ("2 Success, 1 Fail"), as when mission cards are mixed
      before they are turned over or ballots come out of an urn. Who gave what stays
      hidden, in the state as in every later world ``resample`` builds.

    The old ``reveal`` still works (it reveals by seat) with a warning asking for one
    of the two: a default that names owners turned "only the number of Fail cards is
    public" into a leak the checks trusted (issue 38).

    ``view_for(seat)`` is the shape a view may embed: ``{"topic": str, "answered":
    [seats that have answered, in order], "waiting_for": the seat to answer next or
    None, "yours": this seat's own answer or None (None for a spectator)}``.
    """

    kind = "secret"
    slot = "chosen"

    def choose(self, seat: int, value: str, ctx: Context, *, label: str = "") -> bool:
        """Record ``seat``'s sealed answer; return True once every seat has answered.

        Everyone is told that the seat has chosen; only the seat sees what."""
        self._record(seat, value)
        ctx.emit("sealed", f"has chosen ({self.topic})", about=seat)
        ctx.emit(
            "sealed",
            f"you chose {label or value} ({self.topic})",
            seats=[seat],
            about=seat,
            value=value,
        )
        ctx.note_sealed(self.data, seat)
        return self.complete

    def reveal_by_seat(
        self,
        ctx: Context,
        *,
        label: Callable[[str], str] = str,
        names: Sequence[str] = (),
    ) -> dict[int, str]:
        """Open every answer *with the seat that gave it* and return them by seat: the
        rules make who chose what public. A reveal (an undo barrier) told to everyone
        and credited to nobody (the last seat to answer revealed nothing of the
        others'). ``names`` are the seat names for the event's words (default "seat
        1", ...), ``label`` words an answer."""
        answers = self._all_answers()
        words = "; ".join(
            f"{_name(names, seat)}: {label(value)}" for seat, value in answers.items()
        )
        ctx.reveal(
            f"{self.topic} revealed: {words}",
            about=NOBODY,
            topic=self.topic,
            answers={str(seat): value for seat, value in answers.items()},
        )
        ctx.note_opened(self.data, BY_SEAT)
        return answers

    def reveal_anonymously(self, ctx: Context, *, label: Callable[[str], str] = str) -> list[str]:
        """Open the answers *without their owners* and return them in a shuffled order
        (drawn from ``ctx.rng``, so the order says nothing of the seats): the rules make
        public what was chosen, never who chose it. A reveal told to everyone and
        credited to nobody, whose words and data hold only the answers and their
        counts.

        Who gave which answer is still in the state (``chosen``), and is still hidden:
        the view must not show it, and ``resample`` (``determinize``) moves the answers
        among the other seats (keeping how many of each) rather than keeping them where
        they are. Anything else the game keeps about who chose what must be resampled
        too (docs/writing-a-game.md, "Hidden information")."""
        # sorted first: the order then depends on the answers and the draw, never on
        # which seat gave which (a world with the owners dealt otherwise reads the same)
        answers = sorted(self._all_answers().values())
        ctx.rng.shuffle(answers)
        counts = {value: answers.count(value) for value in sorted(set(answers))}
        words = ", ".join(f"{count} {label(value)}" for value, count in counts.items())
        ctx.reveal(
            f"{self.topic} revealed without their owners: {words}",
            about=NOBODY,
            topic=self.topic,
            answers=list(answers),
            counts=counts,
        )
        self.data["revealed"] = ANONYMOUS
        ctx.note_opened(self.data, ANONYMOUS)
        return answers

    def reveal(
        self,
        ctx: Context,
        *,
        label: Callable[[str], str] = str,
        names: Sequence[str] = (),
    ) -> dict[int, str]:
        """Deprecated: say what the rules make public with ``reveal_by_seat`` (who chose
        what) or ``reveal_anonymously`` (only what was chosen). This reveals by seat,
        with a ``DeprecationWarning``."""
        warnings.warn(
            "SecretChoices.reveal() names the seat of every answer: call reveal_by_seat() "
            "when the rules make who chose what public, reveal_anonymously() when only "
            "the answers are (docs/writing-a-game.md, 'Hidden information')",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.reveal_by_seat(ctx, label=label, names=names)

    @property
    def revealed_anonymously(self) -> bool:
        """True once ``reveal_anonymously`` opened the answers."""
        return self.data.get("revealed") == ANONYMOUS

    def view_for(self, seat: int | None) -> Data:
        """What ``seat`` may see: who has answered, and its own answer only. The shape
        is the class's (``{"topic", "answered", "waiting_for", "yours"}``); it never
        changes with a reveal: what a reveal makes public, the game shows from the
        reveal's return value."""
        mine = None
        if seat is not None and seat in self.data["seats"]:
            mine = self.data["chosen"][self.data["seats"].index(seat)]
        return {
            "topic": self.topic,
            "answered": [
                int(s)
                for s, chosen in zip(self.data["seats"], self.data["chosen"], strict=True)
                if chosen is not None
            ],
            "waiting_for": self.next_seat,
            "yours": mine,
        }

    def resample(
        self, seat: int, options: Callable[[int], Sequence[str]], rng: RandomSource
    ) -> bool:
        """For ``determinize``: what ``seat`` does not know of the other seats' answers,
        drawn again. Return False (and change nothing) when no answers fit.

        Before a reveal, every answer but ``seat``'s own becomes a random one of those
        its seat could have given (``options(other)``). After ``reveal_anonymously``
        the answers are public but their owners are not: they are dealt again among the
        other seats, each to a seat that could have given it, keeping how many of each
        there are (False when no such deal exists, as when ``options`` reflects roles
        drawn again that no longer fit the answers seen). After ``reveal_by_seat``
        nothing is hidden: do not resample then."""
        if not self.revealed_anonymously:
            for index, other in enumerate(self.data["seats"]):
                if other != seat and self.data["chosen"][index] is not None:
                    self.data["chosen"][index] = rng.choice(list(options(int(other))))
            return True
        others = [i for i, other in enumerate(self.data["seats"]) if other != seat]
        pool = [self.data["chosen"][i] for i in others]
        allowed = [set(options(int(self.data["seats"][i]))) for i in others]
        deal = _deal(pool, allowed, rng)
        if deal is None:
            return False
        for index, value in zip(others, deal, strict=True):
            self.data["chosen"][index] = value
        return True

    def _all_answers(self) -> dict[int, str]:
        if not self.complete:
            raise ValueError(f"not every seat has chosen yet ({self.topic})")
        return self.answers()


def _deal(pool: list[str], allowed: list[set[str]], rng: RandomSource) -> list[str] | None:
    """The answers of ``pool`` dealt one to each place, each to a place that allows it,
    at random (places in a random order, each taking a random answer that still lets
    the rest be dealt); None when no deal exists. Sealed answers are few (a table's
    seats), so a search with backtracking is cheap."""
    order = list(range(len(pool)))
    rng.shuffle(order)
    dealt: dict[int, str] = {}

    def place(step: int, left: list[str]) -> bool:
        if step == len(order):
            return True
        where = order[step]
        candidates = sorted({value for value in left if value in allowed[where]})
        rng.shuffle(candidates)
        for value in candidates:
            rest = list(left)
            rest.remove(value)
            dealt[where] = value
            if place(step + 1, rest):
                return True
        return False

    if not place(0, list(pool)):
        return None
    return [dealt[index] for index in range(len(pool))]


class OrderedVote(_SeatRun):
    """Votes (or any public answers) cast one seat after another, in a fixed order."""

    kind = "vote"
    slot = "votes"

    def vote(self, seat: int, value: str, ctx: Context, *, label: str = "") -> bool:
        """Record ``seat``'s public vote; return True once every seat has voted."""
        self._record(seat, value)
        ctx.emit("vote", f"votes {label or value} ({self.topic})", about=seat, value=value)
        return self.complete

    def tally(self) -> dict[str, int]:
        """How many votes each answer got, most first (ties in order of first vote)."""
        counts: dict[str, int] = {}
        for value in self.answers().values():
            counts[value] = counts.get(value, 0) + 1
        return dict(sorted(counts.items(), key=lambda item: -item[1]))

    def view_for(self, seat: int | None) -> Data:
        """Votes are public: everyone sees every vote cast so far."""
        return {
            "topic": self.topic,
            "votes": {str(s): v for s, v in self.answers().items()},
            "waiting_for": self.next_seat,
        }


class Agreement(SecretChoices):
    """Seats that must agree: sealed answers, then a die-off if they differ. Settling
    opens the answers by seat (``reveal_by_seat``): the die-off shows who chose what
    anyway."""

    kind = "agreement"

    def settle(
        self,
        ctx: Context,
        *,
        label: Callable[[str], str] = str,
        names: Sequence[str] = (),
        sides: int = 6,
    ) -> tuple[str, int | None]:
        """Reveal the answers; return the decision and the seat that won a die-off
        (None when all agreed). The die-off rolls in public until one seat is highest."""
        answers = self.reveal_by_seat(ctx, label=label, names=names)
        values = set(answers.values())
        if len(values) == 1:
            decided = values.pop()
            ctx.emit("agreement", f"agreed: {label(decided)} ({self.topic})", value=decided)
            return decided, None
        rolling = list(answers)
        while True:
            rolls = {seat: ctx.roll(1, sides, reason="die-off", about=seat)[0] for seat in rolling}
            best = max(rolls.values())
            rolling = [seat for seat, face in rolls.items() if face == best]
            if len(rolling) == 1:
                break
        winner = rolling[0]
        decided = answers[winner]
        ctx.emit(
            "agreement",
            f"wins the die-off: {label(decided)} ({self.topic})",
            about=winner,
            value=decided,
        )
        return decided, winner


class ResponseWindow(_Asking):
    """Seats asked in turn whether they respond; the first that does not pass closes it.

    Unlike ``OrderedVote`` it stops early: once a seat responds, the seats after it are
    not asked. The window is public (everyone sees who passed and who responded), which
    is how an out-of-turn challenge or block is played at a table. The plain data lives
    in the state; wrap it again in later calls (``ResponseWindow(state["window"])``).

    Some games ask *parties* rather than seats: a seat that plays two factions is asked
    once for each, in each faction's place in the order. Give ``parties`` to ``new``
    (``seats[i]`` answers for ``parties[i]``); a seat may then appear more than once, and
    ``next_party`` says which of its parties is being asked.
    """

    kind = "response"

    @classmethod
    def new(
        cls,
        seats: Iterable[int],
        topic: str = "",
        *,
        passes: Iterable[str] = ("pass",),
        parties: Iterable[str] | None = None,
    ) -> Data:
        """The plain data to keep in the state. ``seats`` are asked in this order (say,
        clockwise from the acting player's left); an answer in ``passes`` lets the
        window go on to the next seat, any other answer closes it. With ``parties``,
        ``seats[i]`` answers for ``parties[i]`` and each party (not seat) is asked once;
        without, the data has no ``parties`` key, so windows of seats keep their shape."""
        order = [int(seat) for seat in seats]
        pass_values = [str(value) for value in passes]
        if not pass_values:
            raise ValueError("a response window needs at least one answer that passes")
        data: Data = {"kind": cls.kind, "topic": topic, "seats": order}
        if parties is None:
            if len(set(order)) != len(order):
                raise ValueError(f"a seat is asked twice in one response window: {order}")
        else:
            names = [str(party) for party in parties]
            if len(names) != len(order):
                raise ValueError(
                    f"a response window needs one seat per party: {len(order)} seats "
                    f"for {len(names)} parties"
                )
            if len(set(names)) != len(names):
                raise ValueError(f"a party is asked twice in one response window: {names}")
            data["parties"] = names
        data.update({"passes": pass_values, "passed": [], "closed_by": None, "response": None})
        if parties is not None:
            data["closed_party"] = None
        return data

    @property
    def parties(self) -> list[str]:
        """Every party the window may ask, in order ([] for a window of seats)."""
        return [str(party) for party in self.data.get("parties", [])]

    @property
    def passed(self) -> list[int]:
        """The seats that passed so far, in the order they were asked (a seat with two
        parties appears once for each party that passed)."""
        if "parties" not in self.data:
            return [int(seat) for seat in self.data["passed"]]
        seat_of = dict(zip(self.data["parties"], self.data["seats"], strict=True))
        return [int(seat_of[party]) for party in self.data["passed"]]

    @property
    def passed_parties(self) -> list[str]:
        """The parties that passed so far, in order ([] for a window of seats)."""
        return [str(party) for party in self.data["passed"]] if "parties" in self.data else []

    @property
    def closed_by(self) -> int | None:
        """The seat whose response closed the window, or None (open, or run out)."""
        seat = self.data["closed_by"]
        return None if seat is None else int(seat)

    @property
    def closed_party(self) -> str | None:
        """The party whose response closed the window, or None (also for seats)."""
        party = self.data.get("closed_party")
        return None if party is None else str(party)

    @property
    def response(self) -> str | None:
        """The answer that closed the window, or None."""
        answer = self.data["response"]
        return None if answer is None else str(answer)

    @property
    def next_seat(self) -> int | None:
        """The seat to ask now, or None once the window is closed or every seat passed."""
        index = self._next_index()
        return None if index is None else int(self.data["seats"][index])

    @property
    def next_party(self) -> str | None:
        """The party to ask now (its seat is ``next_seat``), or None once the window is
        closed, run out, or asks seats rather than parties."""
        index = self._next_index()
        if index is None or "parties" not in self.data:
            return None
        return str(self.data["parties"][index])

    @property
    def all_passed(self) -> bool:
        """True when every seat was asked and passed (nobody responded)."""
        return self.data["closed_by"] is None and not self._waiting()

    def is_pass(self, answer: str) -> bool:
        """Whether ``answer`` lets the window go on (one of the ``passes`` of ``new``)."""
        return answer in self.data["passes"]

    def answer(
        self,
        seat: int,
        action: str,
        ctx: Context | None = None,
        *,
        label: str = "",
        party: str | None = None,
    ) -> int | None:
        """Record ``seat``'s answer; return ``seat`` if it closed the window, else None.

        With ``ctx`` a public event says what the seat did (``label`` words it; the
        default is the answer itself, or "passes"). In a window of parties the answer is
        for ``next_party``; ``party``, if given, must be that one. A seat (or party) that
        is not the one to ask now is refused with ValueError and nothing changes.
        """
        if seat != self.next_seat:
            raise ValueError(
                f"seat {seat} is not the one to answer now ({self.topic or 'response window'}"
                f": waiting for {self.next_seat})"
            )
        asked = self.next_party
        if party is not None and party != asked:
            raise ValueError(
                f"{party} is not the party to answer now ({self.topic or 'response window'}"
                f": waiting for {asked})"
            )
        passing = self.is_pass(action)
        if ctx is not None:
            words = label or ("passes" if passing else action)
            suffix = f" ({self.topic})" if self.topic else ""
            ctx.emit("response", f"{words}{suffix}", about=seat, value=action)
        if passing:
            self.data["passed"].append(seat if asked is None else asked)
            return None
        self.data["closed_by"] = seat
        self.data["response"] = action
        if asked is not None:
            self.data["closed_party"] = asked
        return seat

    def drop(self, seat: int | None = None, *, party: str | None = None) -> None:
        """Stop asking ``seat`` (it left the game before its turn to answer: all its
        parties go) or one ``party`` (found unable to answer when it is reached); one
        already asked, or not in the window, is left as it is."""
        parties = self.data.get("parties")
        closer = self.data.get("closed_party", self.data["closed_by"])
        keys = parties if parties is not None else self.data["seats"]
        gone = [
            index
            for index in self._waiting()
            if keys[index] != closer
            and (
                (seat is not None and self.data["seats"][index] == seat)
                or (party is not None and parties is not None and parties[index] == party)
            )
        ]
        if not gone:
            return
        self.data["seats"] = [s for i, s in enumerate(self.data["seats"]) if i not in gone]
        if parties is not None:
            self.data["parties"] = [p for i, p in enumerate(parties) if i not in gone]

    def view_for(self, seat: int | None) -> Data:
        """The window is public: everyone sees who passed, who is asked and who closed it."""
        view: Data = {
            "topic": self.topic,
            "passed": self.passed,
            "waiting_for": self.next_seat,
            "closed_by": self.closed_by,
            "response": self.response,
        }
        if "parties" in self.data:
            view.update(
                {
                    "passed_parties": self.passed_parties,
                    "waiting_party": self.next_party,
                    "closed_party": self.closed_party,
                }
            )
        return view

    def _next_index(self) -> int | None:
        if self.data["closed_by"] is not None:
            return None
        waiting = self._waiting()
        return waiting[0] if waiting else None

    def _waiting(self) -> list[int]:
        """Indices (into ``seats`` and ``parties``) of those not yet asked."""
        asked = set(self.data["passed"])
        keys: list[Any] = self.data.get("parties") or self.data["seats"]
        return [index for index, key in enumerate(keys) if key not in asked]


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"
