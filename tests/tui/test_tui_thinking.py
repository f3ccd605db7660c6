"""A thinking indicator (issue 25): while a bot's decision takes longer than 0.3 s, the
status line says who is thinking and for how many seconds, updated as they pass, and
says nothing of it once the bot has moved."""

from __future__ import annotations

import re
import threading
from typing import Any, cast

from textual.widgets import Static
from toygames import Recaps
from tui_support import game_on, game_screen, pilot_test, wait_until

from tabletop.framework import Action, Bot, GameDefinition, Prompt, RandomSource, hookimpl
from tabletop.framework.plugins import GameRegistry, load_registry


class Slow(Bot):
    """Thinks until the test lets it go (at most a few seconds), then plays the first
    choice."""

    name = "slow"
    reads_view = False

    def __init__(self, go: threading.Event) -> None:
        self.go = go

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        self.go.wait(5.0)
        return prompt.choices[0].action


def registry(go: threading.Event) -> GameRegistry:
    class Plugin:
        @hookimpl
        def tabletop_register_games(self, register: Any) -> None:
            register(Recaps())

        @hookimpl
        def tabletop_register_bots(self, register: Any) -> None:
            register("slow", lambda game: Slow(go), "recaps")

    return load_registry(plugins=[("slow", Plugin())], use_entry_points=False)


def seconds(status: str) -> float | None:
    """The seconds the status line says the bot has been thinking, if it says so."""
    found = re.search(r"East \(slow\) is thinking… (\d+\.\d) s", status)
    return float(found.group(1)) if found else None


@pilot_test
async def test_a_slow_bot_shows_the_seconds_it_thinks_and_they_go_when_it_moves() -> None:
    go = threading.Event()
    async with game_on("recaps", registry=registry(go), seats=("human", "slow")) as (app, pilot):
        app.pause_on_summaries = False
        game = game_screen(app)
        status = game.query_one("#status", Static)
        await pilot.press("1")
        await pilot.pause()
        assert "East (slow) is thinking…" in str(status.content)  # at once
        await wait_until(pilot, lambda: (seconds(str(status.content)) or 0) >= 0.3)
        first = seconds(str(status.content))
        await wait_until(pilot, lambda: (seconds(str(status.content)) or 0) >= (first or 0) + 0.4)
        assert status.display and status.region.height  # on screen
        go.set()
        await wait_until(pilot, lambda: len(game.engine.log) == 2)
        await pilot.pause()
        assert "thinking" not in str(status.content)
        await wait_until(pilot, lambda: game._thinking_timer is None)  # no tick left running


class _Turn:
    """A bot's turn whose thinking notes that it happened and, if told, stops the wait
    that follows (as an undo does)."""

    def __init__(self, wake: threading.Event | None = None) -> None:
        self.wake = wake
        self.thought = False

    def think(self) -> Action:
        self.thought = True
        if self.wake is not None:
            self.wake.set()
        return "roll"


def test_a_bot_thinks_during_its_speed_delay_not_after_it() -> None:
    """The bot speed's delay is the least a move takes, not time added to its thinking:
    the bot thinks at once and waits out only what is left; a stop during that wait
    drops the move."""
    from tabletop.adapters.tui.screens.game import GameScreen
    from tabletop.framework.session import BotTurn

    def think(turn: _Turn, delay: float, wake: threading.Event) -> tuple[object, object]:
        return GameScreen._think(cast(BotTurn, turn), delay, wake)

    wake = threading.Event()
    stopped = _Turn(wake)  # thinks at once, then is stopped during a 2 s delay
    assert think(stopped, 2.0, wake) == (stopped, None)
    assert stopped.thought
    quick = _Turn()
    assert think(quick, 0.01, threading.Event()) == (quick, "roll")
    idle = _Turn()
    already = threading.Event()
    already.set()  # stopped before it began: no thinking at all
    assert think(idle, 2.0, already) == (idle, None)
    assert not idle.thought
