"""The context handed to a game's ``setup`` and ``apply``: its only way to the outside.

Through it a game draws randomness, rolls dice, draws from hidden bags and reports
events. The context notes whether the action used chance or revealed something hidden,
which is what decides whether the action may be undone, and *what* it revealed to
*whom*, which is what the leak checks exempt (``tabletop.framework.leaks``).

Chance comes in three kinds. *Public* chance (``roll()``, ``draw()`` without ``seats``)
is logged with its result for everyone. *Private* chance (``seats=[...]``) shows its
result only to those seats; everyone else is told that something was rolled or drawn,
never what. Chance *hidden from* some seats (``hidden_from=[...]``: a Hanabi draw that
every player sees but the drawer) shows its result to every other seat and tells the
hidden seats only that something was drawn. All of them make the action an undo
barrier: a person who saw a result must not be able to take the action back and try
again. So do ``shuffle`` and touching ``rng`` (chance whose result goes into hidden
state), and ``reveal``.

What a seat learns is said, not guessed: a draw's result is known to whoever sees its
event, ``reveal(text, seats=...)`` says that something hidden becomes known to those
seats, and the leak checks hold every other event to the rule that it may not depend
on anything the seat could not know (see ``reveals`` and ``revealed_to``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableSequence
from typing import Any, TypeVar

from tabletop.framework.game import HEADING, NOBODY, SUMMARY, Event
from tabletop.framework.ports import Dice, RandomSource

T = TypeVar("T")

#: Event kind of ``Context.reveal``'s event and of ``Context.shuffle``'s.
REVEAL = "reveal"
SHUFFLE = "shuffle"

#: Whom a reveal makes something known to: those seats, or None for everyone.
Audience = frozenset[int] | None


class Context:
    """Per-action access to chance and the event log."""

    __slots__ = (  # one per action
        "_dice",
        "_rng",
        "actor",
        "barrier",
        "events",
        "players",
        "revealed",
        "reveals",
        "sealing",
    )

    def __init__(
        self,
        rng: RandomSource,
        dice: Dice,
        actor: int | None = None,
        *,
        players: int | None = None,
    ) -> None:
        self._rng = rng
        self._dice = dice
        self.actor = actor
        """The seat whose action this is (None during setup)."""
        self.players = players
        """The number of seats, when the caller knows it (the engine and the leak
        checks do): ``hidden_from`` needs it to name the seats that do see."""
        self.events: list[Event] = []
        self.barrier = False
        """True once the action drew randomness or revealed hidden information."""
        self.revealed = False
        """True once the action called ``reveal`` (with or without words)."""
        self.reveals: list[tuple[int | None, Audience]] = []
        """What the action made known, and to whom: ``(index, audience)`` where
        ``index`` is the position in ``events`` of the event that tells it (None for a
        ``reveal()`` without words) and ``audience`` the seats that learn it (None:
        everyone). Private and public draws, private rolls and ``reveal`` add to it;
        the leak checks read it. Kept here, never in the event: an event's JSON (what
        exports and tests compare) is the same as before scoped reveals."""
        self.sealing: list[tuple[str, Any, int | None]] | None = None
        """What the action did with sealed answers (``decisions.SecretChoices``), for
        the worlds the framework builds by replay (``tabletop.framework.worlds``):
        ``("sealed", data, seat)`` when ``seat`` sealed an answer into ``data``, and
        ``(how, data, None)`` when its answers were opened (``how`` is
        ``decisions.BY_SEAT`` or ``decisions.ANONYMOUS``). None (most actions) when
        there were none."""

    @property
    def rng(self) -> RandomSource:
        """The game's random source. Touching it makes the action an undo barrier, like
        every use of chance (a visible one: the undo refusal says chance was drawn).

        Use it for what goes into hidden state without an event of its own (resampling
        in ``determinize``, a deal whose cards the views show); prefer ``shuffle``,
        ``draw`` and ``roll``, which log what the table sees. Say who learns what with
        ``emit(..., seats=...)`` or ``reveal(..., seats=...)``.
        """
        self.barrier = True
        return self._rng

    def shuffle(
        self, items: MutableSequence[Any], *, reason: str = "", about: int | None = None
    ) -> None:
        """Shuffle ``items`` (a deck in the state) in place, and log a public "shuffled"
        event without the order: everyone sees a shuffle, nobody the result.

        An undo barrier, like all chance. ``about`` is the seat the shuffle concerns
        (default: the acting seat; ``NOBODY`` for none)."""
        self.barrier = True
        self._rng.shuffle(items)
        because = f" ({reason})" if reason else ""
        self._add(
            SHUFFLE, f"shuffled{because}", None, about, {"count": len(items), "reason": reason}
        )

    def roll(
        self,
        count: int = 1,
        sides: int = 6,
        *,
        reason: str = "",
        about: int | None = None,
        seats: Iterable[int] | None = None,
        hidden_from: Iterable[int] | None = None,
    ) -> tuple[int, ...]:
        """Roll dice and log the roll.

        Without ``seats`` the faces are public. With ``seats`` (secret dice: a hand in
        Liar's Dice, a hidden battle roll) only those seats see the faces, which they
        learn without a ``reveal``; the others see that ``count`` dice were rolled.
        ``hidden_from`` is the other way round: every seat but those sees the faces,
        and the hidden seats read "rolled 2d6 (hidden from you)". ``about`` is the
        seat that rolls (default: the acting seat).
        """
        public = seats is None and hidden_from is None
        secret, hidden = (frozenset(), None) if public else self._audience(seats, hidden_from)
        self.barrier = True
        faces = self._dice.roll(count, sides)
        because = f" ({reason})" if reason else ""
        data = {"count": count, "sides": sides, "reason": reason}
        words = ", ".join(str(face) for face in faces)
        if public:
            self._add(
                "dice", f"rolled {words}{because}", None, about, {"faces": list(faces), **data}
            )
            return faces
        if hidden is None:
            self._add("dice", f"rolled {count}d{sides} in secret{because}", None, about, data)
            self._add(
                "dice",
                f"secret roll: {words}{because}",
                secret,
                about,
                {"faces": list(faces), **data},
            )
            self._known()
        else:
            self._add(
                "dice", f"rolled {words}{because}", secret, about, {"faces": list(faces), **data}
            )
            self._known()
            self._add(
                "dice", f"rolled {count}d{sides} (hidden from you){because}", hidden, about, data
            )
        return faces

    def draw(
        self,
        bag: MutableSequence[T],
        count: int = 1,
        *,
        reason: str = "",
        about: int | None = None,
        seats: Iterable[int] | None = None,
        hidden_from: Iterable[int] | None = None,
        name: Callable[[T], str] = str,
    ) -> list[T]:
        """Draw ``count`` items at random from ``bag`` (a list in the state), removing
        them; return them in the order drawn.

        A bag is a cup of counters or an unordered pile: which item comes out is decided
        at the moment of the draw. Without ``seats`` the items drawn are public (known
        to everyone from then on); with ``seats`` only those seats learn them, without
        a ``reveal``, and everyone else sees how many were drawn. ``hidden_from`` is
        the other way round (Hanabi: everyone sees the card but the drawer): every seat
        but those reads "drew X", the hidden seats read "drew a card (hidden from you)"
        (a spectator reads neither: it sees public events only, so give the draw a
        public line of your own if the export should tell it).
        The game's ``determinize`` must resample what a seat has not seen of a bag.
        """
        if count < 0 or count > len(bag):
            raise ValueError(f"cannot draw {count} from a bag of {len(bag)}")
        public = seats is None and hidden_from is None
        secret, hidden = (frozenset(), None) if public else self._audience(seats, hidden_from)
        self.barrier = True
        drawn = [bag.pop(self._rng.randbelow(len(bag))) for _ in range(count)]
        because = f" ({reason})" if reason else ""
        words = ", ".join(name(item) for item in drawn)
        if public:
            self._add(
                "draw", f"drew {words}{because}", None, about, {"items": drawn, "count": count}
            )
            self._known()
            return drawn
        if hidden is None:
            self._add("draw", f"drew {count} in secret{because}", None, about, {"count": count})
            self._add("draw", f"secret draw: {words}{because}", secret, about, {"items": drawn})
            self._known()
        else:
            self._add(
                "draw", f"drew {words}{because}", secret, about, {"items": drawn, "count": count}
            )
            self._known()
            what = "a card" if count == 1 else f"{count} cards"
            self._add(
                "draw", f"drew {what} (hidden from you){because}", hidden, about, {"count": count}
            )
        return drawn

    def emit(
        self,
        kind: str,
        text: str,
        *,
        seats: Iterable[int] | None = None,
        about: int | None = None,
        **data: Any,
    ) -> None:
        """Log an event. ``seats`` restricts it to those seats (a private draw);
        ``about`` names the seat it concerns when that is not the acting seat
        (``NOBODY`` for an event about no seat, such as "Round 2 begins").
        ``data`` is copied: later changes to the state do not reach the event.

        An emitted event reveals nothing: the leak checks require that it read the
        same in every world its seats cannot tell apart. Say what becomes known with
        ``reveal``."""
        self.events.append(  # _add written out: games emit an event or two per action
            Event.logged(
                kind, text, data, None if seats is None else frozenset(seats), self.actor, about
            )
        )

    def heading(self, text: str, **data: Any) -> None:
        """Mark a phase boundary in the log ("Round 2", "Final Crisis", "Scoring"):
        a public event of kind ``HEADING`` about no seat, which front ends show as a
        heading so a long log stays easy to scan."""
        self._add(HEADING, text, None, NOBODY, data)

    def summary(
        self, title: str, lines: Iterable[str], *, seats: Iterable[int] | None = None
    ) -> None:
        """Recap what the end of a turn, round or phase did ("Turn 3 ends": what scored,
        what changed and why), one line each. A public event of kind ``SUMMARY`` about
        no seat (``seats`` limits it, like ``emit``), which front ends show as a pause
        the player dismisses; the log and the export show its title. The leak checks
        read it like any event, so it may name only what its seats may know."""
        self._add(
            SUMMARY,
            title,
            None if seats is None else frozenset(seats),
            NOBODY,
            {"lines": [str(line) for line in lines]},
        )

    def reveal(
        self,
        text: str = "",
        *,
        seats: Iterable[int] | None = None,
        about: int | None = None,
        **data: Any,
    ) -> None:
        """Say that something hidden becomes known to ``seats`` (None: everyone): a card
        turned face up, cups lifted, the seat that lost a challenge. An undo barrier.

        With ``text`` it logs an event of kind ``"reveal"`` for those seats; the leak
        checks take its words and data as what the seats now know, and hold every
        other event of the action to the usual rule (a public event that names a
        still-hidden card fails). Without ``text`` nothing is logged: the action is a
        barrier, the seats' views after it are not compared with a world they could
        not tell apart before (the view may now show what was hidden), and its
        *private* events count as reveals to those of the seats that see them (the
        older idiom: ``emit(..., seats=[s])`` then ``reveal()``); its public events
        are still checked. Prefer words: they say exactly what is exempt."""
        self.barrier = True
        self.revealed = True
        audience = None if seats is None else frozenset(seats)
        if text:
            self._add(REVEAL, text, audience, about, data)
            self._known()
        else:
            self.reveals.append((None, audience))

    def note_sealed(self, data: Any, seat: int) -> None:
        """``seat`` sealed an answer into ``data`` (called by ``SecretChoices.choose``)."""
        if self.sealing is None:
            self.sealing = []
        self.sealing.append(("sealed", data, seat))

    def note_opened(self, data: Any, how: str) -> None:
        """The sealed answers in ``data`` were opened, ``how`` (``decisions.BY_SEAT`` or
        ``ANONYMOUS``; called by ``SecretChoices``'s reveals)."""
        if self.sealing is None:
            self.sealing = []
        self.sealing.append((how, data, None))

    def revealed_to(self, seat: int | None) -> bool:
        """Whether the action made something known to ``seat`` (None: a spectator)."""
        return any(
            audience is None or (seat is not None and seat in audience)
            for _, audience in self.reveals
        )

    def _audience(
        self, seats: Iterable[int] | None, hidden_from: Iterable[int] | None
    ) -> tuple[frozenset[int], frozenset[int] | None]:
        """(the seats that see a result, the seats it is hidden from or None)."""
        if hidden_from is None:
            return frozenset(seats or ()), None
        if seats is not None:
            raise ValueError("give seats (who sees) or hidden_from (who does not), not both")
        hidden = frozenset(hidden_from)
        # Without a player count (a context made by hand, or a bot's playout, whose log
        # nobody reads) the seats that see cannot be named: nobody sees, never too many.
        others = frozenset(range(self.players or 0)) - hidden
        return others, hidden

    def _add(
        self,
        kind: str,
        text: str,
        seats: frozenset[int] | None,
        about: int | None,
        data: dict[str, Any],
    ) -> None:
        """Log an event whose ``data`` is a dict made for it (it may keep it)."""
        self.events.append(Event.logged(kind, text, data, seats, self.actor, about))

    def _known(self) -> None:
        """The event just logged makes its content known to the seats that see it (the
        leak checks exempt it for them, and only it)."""
        self.reveals.append((len(self.events) - 1, self.events[-1].seats))
