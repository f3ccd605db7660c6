"""Ports: the abstract interfaces the core needs from the outside world.

The core only ever talks to these; adapters (``tabletop.adapters``) implement them and
the app's composition root wires one to the other. Tests pass fakes.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from tabletop.framework.errors import PluginFault
    from tabletop.framework.game import Action, Prompt, Result
    from tabletop.framework.record import GameRecord
    from tabletop.framework.session import BotTurn, GameSession, Move

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

    def weighted_choice(self, items: Sequence[T], weights: Sequence[int]) -> T:
        """One of ``items``, each as likely as its whole-number weight: bots' playout
        policies favour some moves without ruling the others out. One draw, so the
        stream stays the same whatever the weights are."""
        if len(items) != len(weights) or not items:
            raise ValueError("weighted_choice needs one weight per item, and some items")
        if any(w < 0 for w in weights) or sum(weights) <= 0:
            raise ValueError("weights must be whole numbers >= 0 with a positive sum")
        pick = self.randbelow(sum(weights))
        for item, weight in zip(items, weights, strict=True):
            pick -= weight
            if pick < 0:
                return item
        raise AssertionError("unreachable: pick < sum(weights)")

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


class SessionObserver:
    """Told every change of a game session (``GameSession``), in the order they happen.

    Every method does nothing by default, so an observer overrides only what it needs.
    The app's log is an observer; so is every ``UserInterface``. The session calls these
    on its own thread, after the change (a move is applied and autosaved before
    ``moved``). Events in a ``Move`` are all of them: an observer that shows or records
    them must keep each to the seats ``Event.visible_to`` allows.
    """

    def attached(self, session: GameSession) -> None:
        """This observer now follows ``session`` (a new game, or one just resumed)."""

    def moved(self, move: Move) -> None:
        """An action was applied (by a person or a bot) and the game autosaved."""

    def undone(self, steps: int) -> None:
        """Undo took back ``steps`` actions."""

    def saved(self, save_id: str) -> None:
        """The autosave succeeded (after a failure: saving works again)."""

    def save_failed(self, message: str) -> None:
        """The autosave failed; the game goes on in memory and the next save retries."""

    def fault(self, fault: PluginFault) -> None:
        """The game's own code raised on an action; the game was kept as it was before."""

    def bot_failed(self, seat: int, error: Exception) -> None:
        """The bot playing ``seat`` raised instead of choosing; no move was made."""

    def game_over(self, result: Result | None) -> None:
        """The game has ended (``result`` is None only if the game's result() gave none)."""

    def closed(self) -> None:
        """The session ended: the game is over or was left (it stays saved)."""


class Workers(ABC):
    """Where slow work runs, off the thread that asked for it: a bot's thinking, a
    hint's search, a person's move at a local table (the game's own code may be slow).

    Work goes to a named *lane* (``BOTS``, ``HINTS``, ``MOVES``): each lane has workers
    of its own, so no number of bots thinking can hold up a person's move or a hint,
    and the work of one lane is started in the order it was submitted. ``done`` is
    called with the result or the error, on the worker, once the work ends."""

    BOTS, HINTS, MOVES = "bots", "hints", "moves"

    @abstractmethod
    def submit(
        self,
        lane: str,
        work: Callable[[], Any],
        done: Callable[[Any, BaseException | None], None],
    ) -> None:
        """Run ``work`` on ``lane``; raise ``Busy`` when the lane's queue is full."""


class Busy(Exception):
    """A lane of ``Workers`` has more work waiting than it takes: ask again later."""


class UserInterface(SessionObserver, ABC):
    """The front end of a game session: told every change, asked for people's decisions.

    A synchronous adapter (headless play, a script, a console) answers ``ask`` by
    returning the action. An event-driven adapter (the Textual app) shows the decision
    and returns None; when the person has chosen it calls ``GameSession.act`` and then
    ``GameSession.run`` to play on. Bots follow the same rule through ``bot_thinking``:
    return ``turn.think()`` to let the bot decide on the spot, or None to think
    elsewhere (a worker thread) and hand the move back with ``turn.play``.
    """

    @abstractmethod
    def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action | None:
        """The action ``seat`` (a person) picks among ``prompt.choices``, or None when
        the answer will come later through ``GameSession.act``.

        ``view`` is that seat's view: show the person nothing more.
        """

    def bot_thinking(self, turn: BotTurn) -> Action | None:
        """A bot is due to decide: return its move (``turn.think()``, the default), or
        None after arranging for ``turn.think()`` to run elsewhere and its result to
        come back through ``turn.play`` (or ``turn.failed``)."""
        return turn.think()
