"""A whole game of Pig with the keyboard alone, from the home screen to game over."""

from __future__ import annotations

from conftest import SIZE, FrozenStore, make_app, make_registry, run, screen_text, wait_until

from tabletop.adapters.tui.screens.game import GameScreen
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.home import HomeScreen
from tabletop.adapters.tui.screens.new_game import NewGameScreen


def test_whole_pig_game_by_keyboard() -> None:
    async def main() -> None:
        app = make_app(make_registry(), FrozenStore())
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("down", "enter")  # the Pig row of the games table
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            # Tab to Player 2's seat (game, 3 options, players, seat 1, seat 2) and make it
            # a person: open the list, move down to "human"... it is first, so go up.
            await pilot.press("tab", "tab", "tab", "tab", "tab", "tab")
            assert app.focused is not None and app.focused.id == "seat-1"
            await pilot.press("enter", "up", "enter")
            await pilot.pause()
            assert app.screen.controllers[:2] == ["human", "human"]  # type: ignore[attr-defined]
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
            game = app.screen
            assert isinstance(game, GameScreen)
            for _ in range(2000):
                if isinstance(app.screen, GameOverScreen):
                    break
                if game.engine.state["turn_total"] >= 15:
                    await pilot.press("down", "enter")  # hold, by arrow and Enter
                else:
                    await pilot.press("1")  # roll, by number key
                await pilot.pause()
            assert isinstance(app.screen, GameOverScreen)
            assert "wins!" in screen_text(app)
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, HomeScreen)
            assert "finished" in screen_text(app)

    run(main)
