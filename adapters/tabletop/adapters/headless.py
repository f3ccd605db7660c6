"""Headless play: the UI port with no screen, for ``tabletop simulate``, scripts and tests.

Bots think on the spot (the port's default ``bot_thinking``); a person's decision is
taken from a script when there is one, else it stays pending and ``GameSession.run``
returns. Everything the session tells is recorded, so a caller can report on it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from tabletop.framework.errors import PluginFault
from tabletop.framework.game import Action, Prompt, Result
from tabletop.framework.ports import UserInterface

if TYPE_CHECKING:
    from tabletop.framework.session import BotTurn, GameSession, Move


class HeadlessUI(UserInterface):
    """Records what the session tells it; nobody answers people's decisions."""

    def __init__(self) -> None:
        self.session: GameSession | None = None
        self.moves: list[Move] = []
        self.undone_steps: list[int] = []
        self.save_failures: list[str] = []
        self.faults: list[PluginFault] = []
        self.bot_errors: list[tuple[int, Exception]] = []
        #: Seats whose bot was asked to think, in order (one entry per bot decision).
        self.thinking: list[int] = []
        self.over = False
        self.result: Result | None = None
        #: Whether the session was closed (the game ended or was left).
        self.ended = False

    def attached(self, session: GameSession) -> None:
        self.session = session

    def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action | None:
        return None

    def bot_thinking(self, turn: BotTurn) -> Action | None:
        self.thinking.append(turn.seat)
        return turn.think()

    def moved(self, move: Move) -> None:
        self.moves.append(move)

    def undone(self, steps: int) -> None:
        self.undone_steps.append(steps)

    def save_failed(self, message: str) -> None:
        self.save_failures.append(message)

    def fault(self, fault: PluginFault) -> None:
        self.faults.append(fault)

    def bot_failed(self, seat: int, error: Exception) -> None:
        self.bot_errors.append((seat, error))

    def game_over(self, result: Result | None) -> None:
        self.over = True
        self.result = result

    def closed(self) -> None:
        self.ended = True


class ScriptedUI(HeadlessUI):
    """Answers people's decisions from a fixed list of actions, in order: for tests and
    replays. When the list runs out the decision stays pending (``run`` returns)."""

    def __init__(self, actions: Iterable[Action]) -> None:
        super().__init__()
        self.script: deque[Action] = deque(actions)
        #: (seat, prompt text) of each decision the script was asked for.
        self.asked: list[tuple[int, str]] = []

    def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action | None:
        self.asked.append((seat, prompt.text))
        return self.script.popleft() if self.script else None
