"""Headless play: the UI port answered by bots or by a script, for simulation and tests."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from tabletop.framework.bots import Bot, bot_seed
from tabletop.framework.engine import Engine, RngFactory
from tabletop.framework.game import Action, Event, GameDefinition, Prompt
from tabletop.framework.ports import UserInterface


class BotUI(UserInterface):
    """Every seat is played by a bot; events are collected, not shown."""

    def __init__(
        self, game: GameDefinition, bots: Sequence[Bot], seed: int, rng_factory: RngFactory
    ) -> None:
        self._game = game
        self._bots = list(bots)
        self._rngs = [rng_factory(bot_seed(seed, seat)) for seat in range(len(bots))]
        self.shown: list[Event] = []

    def choose(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action:
        return self._bots[seat].choose(self._game, view, prompt, self._rngs[seat])

    def show(self, events: Sequence[Event]) -> None:
        self.shown.extend(events)


class ScriptedUI(UserInterface):
    """Answers prompts from a fixed list of actions: for tests and replays."""

    def __init__(self, actions: Iterable[Action]) -> None:
        self._actions = list(actions)
        self.shown: list[Event] = []

    def choose(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action:
        if not self._actions:
            raise LookupError("the script has no more actions")
        return self._actions.pop(0)

    def show(self, events: Sequence[Event]) -> None:
        self.shown.extend(events)


def play(
    engine: Engine,
    ui: UserInterface,
    *,
    max_actions: int = 100_000,
    on_action: Callable[[int, Action], None] | None = None,
) -> int:
    """Drive ``engine`` with ``ui`` until the game ends or ``max_actions``; return count."""
    count = 0
    while count < max_actions:
        prompt = engine.prompt
        if prompt is None:
            break
        action = ui.choose(prompt.seat, engine.view(prompt.seat), prompt)
        events = engine.act(prompt.seat, action)
        ui.show(events)
        count += 1
        if on_action is not None:
            on_action(prompt.seat, action)
    return count
