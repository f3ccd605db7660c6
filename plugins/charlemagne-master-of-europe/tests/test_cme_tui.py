"""Charlemagne played in the terminal UI from the set-up to the end, with the game's
board widget: the map by box, the cups' counts and the tracks are on screen; the first
choice is taken each time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_support import FrozenStore, make_app, run, screen_text, start_game, wait_until

from tabletop.adapters.tui.screens.game import GameScreen
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.framework.plugins import load_registry

SIZE = (140, 70)


def _moved_on(app: Any, game: GameScreen, before: int) -> Callable[[], bool]:
    """True once the decision was applied (or the game is over)."""
    return lambda: isinstance(app.screen, GameOverScreen) or len(game.engine.log) > before


def test_a_whole_game_in_the_terminal_ui() -> None:
    async def main() -> None:
        registry = load_registry()
        assert "charlemagne-master-of-europe" in registry.games
        app = make_app(registry, FrozenStore(), seed=3)
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot, "charlemagne-master-of-europe", seats=("human",), seed=3)
            decisions = 0
            game: GameScreen | None = None
            while not isinstance(app.screen, GameOverScreen) and decisions < 600:
                assert isinstance(app.screen, GameScreen)
                game = app.screen
                if decisions == 1:
                    text = screen_text(app)
                    assert "Cups:" in text and "Unfriendly" in text and "Hostile" in text
                    assert "Lombardy" in text and "+4 Leader (Desiderius)" in text
                    assert "VP 0 (threshold 3)" in text and "Treasury 5/20" in text
                moved_on = _moved_on(app, game, len(game.engine.log))
                await pilot.press("1")
                await wait_until(pilot, moved_on)
                decisions += 1
            assert isinstance(app.screen, GameOverScreen)
            assert game is not None and game.engine.over
            result = game.engine.result()
            assert result is not None and result.winners == ()
            assert "Defeat" in screen_text(app)

    run(main)
