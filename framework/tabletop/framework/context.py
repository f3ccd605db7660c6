"""The context handed to a game's ``setup`` and ``apply``: its only way to the outside.

Through it a game draws randomness, rolls dice, draws from hidden bags and reports
events. The context notes whether the action used chance or revealed something hidden,
which is what decides whether the action may be undone.

Chance comes in two kinds. *Public* chance (``roll()``, ``draw()`` without ``seats``)
is logged with its result for everyone. *Private* chance (``seats=[...]``) shows its
result only to those seats; everyone else is told that something was rolled or drawn,
never what. Both make the action an undo barrier: a person who saw a result must not
be able to take the action back and try again.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, MutableSequence
from typing import Any, TypeVar

from tabletop.framework.game import HEADING, NOBODY, SUMMARY, Event
from tabletop.framework.ports import Dice, RandomSource

T = TypeVar("T")


class Context:
    """Per-action access to chance and the event log."""

    __slots__ = ("_dice", "_rng", "actor", "barrier", "events", "revealed")  # one per action

    def __init__(self, rng: RandomSource, dice: Dice, actor: int | None = None) -> None:
        self._rng = rng
        self._dice = dice
        self.actor = actor
        """The seat whose action this is (None during setup)."""
        self.events: list[Event] = []
        self.barrier = False
        """True once the action drew randomness or revealed hidden information."""
        self.revealed = False
        """True once the action revealed hidden information (``reveal``)."""

    @property
    def rng(self) -> RandomSource:
        """The game's random source. Touching it makes the action impossible to undo.

        Use it for shuffles and draws whose result goes into hidden state (a deck); say
        who learns what with ``emit(..., seats=...)``.
        """
        self.barrier = True
        return self._rng

    def roll(
        self,
        count: int = 1,
        sides: int = 6,
        *,
        reason: str = "",
        about: int | None = None,
        seats: Iterable[int] | None = None,
    ) -> tuple[int, ...]:
        """Roll dice and log the roll.

        Without ``seats`` the faces are public. With ``seats`` (secret dice: a hand in
        Liar's Dice, a hidden battle roll) only those seats see the faces; the others
        see that ``count`` dice were rolled. ``about`` is the seat that rolls (default:
        the acting seat).
        """
        self.barrier = True
        faces = self._dice.roll(count, sides)
        because = f" ({reason})" if reason else ""
        data = {"count": count, "sides": sides, "reason": reason}
        if seats is None:
            words = ", ".join(str(face) for face in faces)
            self._add(
                "dice", f"rolled {words}{because}", None, about, {"faces": list(faces), **data}
            )
        else:
            secret = frozenset(seats)
            self._add("dice", f"rolled {count}d{sides} in secret{because}", None, about, data)
            words = ", ".join(str(face) for face in faces)
            self._add(
                "dice",
                f"secret roll: {words}{because}",
                secret,
                about,
                {"faces": list(faces), **data},
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
        name: Callable[[T], str] = str,
    ) -> list[T]:
        """Draw ``count`` items at random from ``bag`` (a list in the state), removing
        them; return them in the order drawn.

        A bag is a cup of counters or an unordered pile: which item comes out is decided
        at the moment of the draw. Without ``seats`` the items drawn are public; with
        ``seats`` only those seats learn them and everyone else sees how many were drawn.
        The game's ``determinize`` must resample what a seat has not seen of a bag.
        """
        if count < 0 or count > len(bag):
            raise ValueError(f"cannot draw {count} from a bag of {len(bag)}")
        self.barrier = True
        drawn = [bag.pop(self._rng.randbelow(len(bag))) for _ in range(count)]
        because = f" ({reason})" if reason else ""
        words = ", ".join(name(item) for item in drawn)
        if seats is None:
            self._add(
                "draw", f"drew {words}{because}", None, about, {"items": drawn, "count": count}
            )
        else:
            secret = frozenset(seats)
            self._add("draw", f"drew {count} in secret{because}", None, about, {"count": count})
            self._add("draw", f"secret draw: {words}{because}", secret, about, {"items": drawn})
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
        ``data`` is copied: later changes to the state do not reach the event."""
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

    def reveal(self, text: str = "", *, about: int | None = None, **data: Any) -> None:
        """Mark that hidden information became known: undo may not cross this action."""
        self.barrier = True
        self.revealed = True
        if text:
            self._add("reveal", text, None, about, data)

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
