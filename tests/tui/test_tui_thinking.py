"""A thinking indicator (issue 25): while a bot's decision takes longer than 0.3 s, the
status line says who is thinking and for how many seconds, updated as they pass, and
says nothing of it once the bot has moved."""

from __future__ import annotations

import re
import threading
from typing import Any

from textual.widgets import Static
from toygames import Recaps
from tui_support import engine_of, game_on, game_screen, pilot_test, wait_until

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
        await wait_until(pilot, lambda: len(engine_of(game).log) == 2)
        await pilot.pause()
        assert "thinking" not in str(status.content)
        await wait_until(pilot, lambda: game._tick is None)  # no tick left running


@pilot_test
async def test_a_bots_move_is_made_at_once_and_the_pause_is_for_reading_it() -> None:
    """The bot speed is a pause after a bot's move, for reading it, not time added to
    its thinking: the table has the bots' moves as soon as they decided, the screen
    holds each for the pause, and Space shows the next at once."""
    async with game_on("pig", seats=("human", "random", "random"), bot_delay=5.0) as (
        app,
        pilot,
    ):
        game = game_screen(app)
        status = game.query_one("#status", Static)
        for _ in range(50):  # roll, then hold: the bots' turns come
            if game.viewer.waiting:
                break
            prompt = game._my_prompt()
            await pilot.press("2" if prompt and len(prompt.choices) > 1 else "1")
            await pilot.pause(0.1)
        assert "Space: next move" in str(status.content)
        shown = game.viewer.state.seq
        assert shown < len(engine_of(game).log)  # the table is ahead of the screen
        await pilot.press("space")
        await pilot.pause()
        assert game.viewer.state.seq > shown
