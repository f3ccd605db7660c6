"""The context handed to a game's ``setup`` and ``apply``: its only way to the outside.

Through it a game draws randomness, rolls dice and reports events. The context notes
whether the action used chance or revealed something hidden, which is what decides
whether the action may be undone.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tabletop.framework.game import Event
from tabletop.framework.ports import Dice, RandomSource


class Context:
    """Per-action access to chance and the event log."""

    def __init__(self, rng: RandomSource, dice: Dice, actor: int | None = None) -> None:
        self._rng = rng
        self._dice = dice
        self.actor = actor
        self.events: list[Event] = []
        self.barrier = False
        """True once the action drew randomness or revealed hidden information."""

    @property
    def rng(self) -> RandomSource:
        """The game's random source. Touching it makes the action impossible to undo."""
        self.barrier = True
        return self._rng

    def roll(
        self, count: int = 1, sides: int = 6, *, reason: str = "", seat: int | None = None
    ) -> tuple[int, ...]:
        """Roll dice and log the roll as a public ``dice`` event."""
        self.barrier = True
        faces = self._dice.roll(count, sides)
        who = self.actor if seat is None else seat
        words = ", ".join(str(face) for face in faces)
        text = f"rolled {words}" + (f" ({reason})" if reason else "")
        self.events.append(
            Event(
                "dice",
                text,
                {"faces": list(faces), "sides": sides, "reason": reason, "seat": who},
            )
        )
        return faces

    def emit(
        self, kind: str, text: str, *, seats: Iterable[int] | None = None, **data: Any
    ) -> None:
        """Log an event; ``seats`` restricts it to those seats (a private draw)."""
        self.events.append(Event(kind, text, data, None if seats is None else frozenset(seats)))

    def reveal(self, text: str = "", **data: Any) -> None:
        """Mark that hidden information became known: undo may not cross this action."""
        self.barrier = True
        if text:
            self.emit("reveal", text, **data)
