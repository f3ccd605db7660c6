"""The hint key (issue 27): `?` asks the tree search, from the person's own information,
what it would choose; it thinks in a worker with the thinking indicator while the
screen stays usable, then shows the suggestion with its estimate and the two best
alternatives and highlights it in the decision panel, without playing it."""

from __future__ import annotations

import threading
from typing import Any

from hanabi import HanabiHints, MiniHanabi
from textual.pilot import Pilot
from textual.widgets import Static
from tui_support import (
    current,
    engine_of,
    game_on,
    game_screen,
    pilot_test,
    roll_until_points_at_risk,
    snapshot_of,
    start_game,
    wait_until,
)

from tabletop.adapters.tui.screens.hint import HintScreen
from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.framework.game import Action, GameDefinition, Prompt, State
from tabletop.framework.hookspecs import BotHintsRegistrar, hookimpl
from tabletop.framework.plugins import GameRegistry, load_registry
from tabletop.framework.ports import RandomSource


class _HeldHints(HanabiHints):
    """Hanabi's hints, whose first playout waits until the test lets it go."""

    def __init__(self, go: threading.Event) -> None:
        self.go = go

    def rollout(
        self, game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource
    ) -> Action:
        self.go.wait(5.0)
        return super().rollout(game, state, prompt, rng)


def _registry(hints: HanabiHints) -> GameRegistry:
    class Plugin:
        @hookimpl
        def tabletop_register_games(self, register: Any) -> None:
            register(MiniHanabi())

        @hookimpl
        def tabletop_register_bot_hints(self, register: BotHintsRegistrar) -> None:
            register("mini-hanabi", hints)

    return load_registry(plugins=[("hanabi", Plugin())], use_entry_points=False)


def _text(screen: HintScreen) -> str:
    return str(screen.query_one("#hint-text", Static).content)


@pilot_test
async def test_the_hint_key_thinks_aside_then_shows_and_highlights_without_playing() -> None:
    go = threading.Event()
    registry = _registry(_HeldHints(go))
    async with game_on("mini-hanabi", registry=registry, seats=("human", "random")) as (
        app,
        pilot,
    ):
        game = game_screen(app)
        choices = game.query_one("#choices", ChoiceList)
        status = game.query_one("#status", Static)
        assert choices.highlighted == 0
        await pilot.press("question_mark")
        await pilot.pause()
        assert "Thinking about a hint…" in str(status.content)
        # the screen still answers while the search thinks: the highlight moves
        await pilot.press("down")
        await pilot.pause()
        assert choices.highlighted == 1
        go.set()
        await wait_until(pilot, lambda: isinstance(current(app), HintScreen))
        await pilot.pause()
        hint = current(app)
        assert isinstance(hint, HintScreen)
        text = _text(hint)
        lines = text.splitlines()
        assert lines[0].startswith("Suggested: ")
        assert lines[1].startswith("  team score about ") and "team win chance" in lines[1]
        assert lines[2] == "Next best:" and len(lines) == 8
        suggested = lines[0].removeprefix("Suggested: ")
        await pilot.press("escape")
        await pilot.pause()
        assert current(app) is game
        assert engine_of(game).log == []  # shown, not played
        assert "hint" not in str(status.content)
        prompt = choices.prompt
        assert prompt is not None and choices.highlighted is not None
        assert prompt.choices[choices.highlighted].label == suggested
        assert game._hint_for is None


@pilot_test
async def test_no_hint_when_no_decision_of_yours_is_due() -> None:
    registry = _registry(HanabiHints())
    seats = ("human", "random", "random")
    async with game_on("mini-hanabi", registry=registry, seats=seats, bot_delay=5.0) as (
        app,
        pilot,
    ):
        game = game_screen(app)
        await pilot.press("1")  # play a card: the bots' turns, each shown for 5 s
        await wait_until(pilot, lambda: bool(game.viewer.waiting))
        notes: list[str] = []
        game.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
        await pilot.press("question_mark")
        await pilot.pause()
        assert notes == ["A hint is for your own decision: none is due now."]
        assert game._hint_for is None and not isinstance(current(app), HintScreen)


def test_hint_snapshot_80x24(snap_compare: Any) -> None:
    async def ask(pilot: Pilot[None]) -> None:
        await start_game(pilot, "mini-hanabi", seats=("human", "random"))
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, HintScreen))
        await pilot.pause()

    assert snapshot_of(snap_compare, (80, 24), ask, registry=_registry(HanabiHints()))


@pilot_test
async def test_a_hint_in_a_competitive_game_gives_win_chances() -> None:
    async with game_on("pig", seats=("human", "random")) as (app, pilot):
        game = game_screen(app)
        await roll_until_points_at_risk(pilot, game)  # roll or hold: something to weigh
        moves = len(engine_of(game).log)
        await pilot.press("question_mark")
        await wait_until(pilot, lambda: isinstance(current(app), HintScreen))
        await pilot.pause()
        hint = current(app)
        assert isinstance(hint, HintScreen)
        lines = _text(hint).splitlines()
        assert lines[0].startswith("Suggested: ")
        assert lines[1].startswith("  win chance about ") and "score about" in lines[1]
        assert "team" not in "\n".join(lines)
        await pilot.press("enter")
        await pilot.pause()
        assert current(app) is game and len(engine_of(game).log) == moves
