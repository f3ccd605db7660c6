"""A whole game of Pig with the keyboard alone, from the home screen to game over.

Player 1 is a person, Player 2 the default random bot (a hot-seat game only doubles
the key presses; hot-seat is covered in test_tui_hotseat).
"""

from __future__ import annotations

from tui_support import (
    FrozenStore,
    app_on,
    engine_of,
    game_screen,
    human_turn,
    pilot_test,
    press,
    screen_text,
    wait_until,
)

from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.home import HomeScreen
from tabletop.adapters.tui.screens.new_game import NewGameScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.framework.testing import replay


@pilot_test
async def test_whole_pig_game_by_keyboard() -> None:
    store = FrozenStore()
    async with app_on(store=store, seed=227) as (app, pilot):  # a short game
        await pilot.pause()
        await pilot.press("down", "down", "enter")  # the Pig row of the games table
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        # Tab to the target score (game, then options) and pick 100 with the arrows.
        await pilot.press("tab")
        assert app.focused is not None and app.focused.id == "option-0"
        await press(pilot, "enter", "down", "enter")
        assert app.screen.options["target"] == "100"
        await pilot.press("enter", "up", "enter")  # ...and back to 50, a shorter game
        await pilot.pause()
        assert app.screen.options["target"] == "50"
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, SeatScreen))
        game = game_screen(app)
        presses = 0
        while not isinstance(app.screen, GameOverScreen) and presses < 200:
            if engine_of(game).state["turn_total"] >= 20:
                await pilot.press("down", "enter")  # hold, by arrow and Enter
            else:
                await pilot.press("1")  # roll, by number key
            presses += 1
            await human_turn(pilot)
        assert isinstance(app.screen, GameOverScreen)
        # every press was one decision of Player 1, and the game the keys played is
        # the one the save holds: replayed headless, it ends in the same state
        assert presses == sum(1 for entry in engine_of(game).log if entry.seat == 0)
        [record] = store.records.values()
        headless = replay(app.registry.get("pig").definition, record)
        assert headless.over and headless.digest() == engine_of(game).digest()
        assert "wins!" in screen_text(app)
        await press(pilot, "enter")
        assert isinstance(app.screen, HomeScreen)
        assert "finished" in screen_text(app)
