"""Ports: the abstract interfaces the core needs from the outside world.

The core only ever talks to these; adapters (``tabletop.adapters``) implement them and
the app's composition root wires one to the other. Tests pass fakes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import MutableSequence, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from tabletop.framework.game import Action, Event, Prompt
    from tabletop.framework.record import GameRecord

T = TypeVar("T")


class RandomSource(ABC):
    """Seeded randomness whose whole state is a short list of ints.

    Adapters supply only the bit generator (``next_u32``); every derived draw is
    defined here, once, so that all adapters agree on how bits become dice, shuffles
    and choices and a game replays the same on any machine and Python version.
    """

    algorithm: str = "abstract"

    @abstractmethod
    def next_u32(self) -> int:
        """The next 32 random bits as an int in [0, 2**32)."""

    @abstractmethod
    def getstate(self) -> list[int]:
        """The generator's complete state as JSON-friendly ints."""

    @abstractmethod
    def setstate(self, state: Sequence[int]) -> None:
        """Restore a state returned by ``getstate``."""

    def randbelow(self, n: int) -> int:
        """Uniform int in [0, n), by rejection sampling (no modulo bias)."""
        if n <= 0:
            raise ValueError("randbelow needs a positive bound")
        if n == 1:
            return 0
        if n > 2**32:
            bits = n.bit_length()
            words = (bits + 31) // 32
            while True:
                value = 0
                for _ in range(words):
                    value = (value << 32) | self.next_u32()
                value >>= words * 32 - bits
                if value < n:
                    return value
        limit = (2**32 // n) * n
        while True:
            value = self.next_u32()
            if value < limit:
                return value % n

    def randint(self, low: int, high: int) -> int:
        """Uniform int in [low, high], both ends included."""
        return low + self.randbelow(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        if not items:
            raise IndexError("cannot choose from an empty sequence")
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher-Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def sample(self, items: Sequence[T], k: int) -> list[T]:
        pool = list(items)
        self.shuffle(pool)
        return pool[:k]

    def random(self) -> float:
        """A float in [0, 1) with 53 random bits."""
        return ((self.next_u32() >> 5) * 67108864 + (self.next_u32() >> 6)) / 9007199254740992.0


class Dice(ABC):
    """Dice rolling. Built on a RandomSource; the engine logs every roll as an event."""

    @abstractmethod
    def roll(self, count: int, sides: int) -> tuple[int, ...]:
        """Roll ``count`` dice of ``sides`` faces."""


@dataclass(frozen=True)
class SaveInfo:
    """One entry of a save listing, cheap enough to show on a home screen."""

    save_id: str
    game: str
    saved_at: str
    players: int
    seats: tuple[str, ...]
    progress: str
    actions: int
    finished: bool
    error: str | None = None
    """Set when the file is unreadable; the save is listed (and kept) all the same."""


class SaveStore(ABC):
    """Persistence of game records (seed + options + action log + digest)."""

    @abstractmethod
    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        """Write ``record`` (atomically) and return its id; a new id when None."""

    @abstractmethod
    def load(self, save_id: str) -> GameRecord:
        """Read a record; raise SaveError with a one-line reason if it cannot."""

    @abstractmethod
    def list(self) -> list[SaveInfo]:
        """Every save, newest first, unreadable ones included with ``error`` set."""

    @abstractmethod
    def delete(self, save_id: str) -> None:
        """Remove a save."""


class UserInterface(ABC):
    """How a seat is asked to decide and shown what happened."""

    @abstractmethod
    def choose(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action:
        """Return the action ``seat`` picks among ``prompt.choices``."""

    @abstractmethod
    def show(self, events: Sequence[Event]) -> None:
        """Show events that have just happened (already filtered for the audience)."""
