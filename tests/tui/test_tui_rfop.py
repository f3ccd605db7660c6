"""Red Flag Over Paris played hot-seat in the UI, from the deal to the victory screen.

Uses the installed plugin (entry point), its own board widget, and the hand-off screen
between the two people at every change of seat; the first choice is taken each time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tui_support import SIZE, FrozenStore, make_app, press, run, screen_text, start_game, wait_until

from tabletop.adapters.tui.screens.game import GameScreen
from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.framework.plugins import load_registry
from tabletop.framework.testing import replay


def _moved_on(app: Any, game: GameScreen, before: int) -> Callable[[], bool]:
    """True once the decision was applied (or the screen changed to a hand-off/end)."""
    return lambda: (
        isinstance(app.screen, (GameOverScreen, HandoffScreen)) or (len(game.engine.log) > before)
    )


def test_red_flag_hot_seat_from_deal_to_victory() -> None:
    async def main() -> None:
        registry = load_registry()
        assert "red-flag-over-paris" in registry.games
        store = FrozenStore()
        app = make_app(registry, store, seed=1)
        async with app.run_test(size=SIZE) as pilot:
            await start_game(pilot, "red-flag-over-paris", seats=("human", "human"), seed=1)
            handoffs = decisions = 0
            game: GameScreen | None = None
            while not isinstance(app.screen, GameOverScreen) and decisions < 400:
                if isinstance(app.screen, HandoffScreen):
                    if handoffs < 3:  # nothing shows through (rendering costs: check a few)
                        assert "Your hand" not in screen_text(app)
                    handoffs += 1
                    await press(pilot, "enter")
                    continue
                assert isinstance(app.screen, GameScreen)
                game = app.screen
                seat = game.engine.prompt.seat if game.engine.prompt else None
                if decisions == 0:
                    text = screen_text(app)
                    assert "Your hand:" in text and "Crisis Track" in text
                    hand = game.engine.state["hands"][1 - (seat or 0)]
                    names = game.engine.view(1 - (seat or 0))["card_names"]
                    # the other seat's cards are not on this seat's screen
                    assert not any(
                        names[str(card)] in text
                        for card in hand
                        if card not in game.engine.state["hands"][seat or 0]
                    )
                moved_on = _moved_on(app, game, len(game.engine.log))
                await pilot.press("1")
                await wait_until(pilot, moved_on)
                decisions += 1
            assert isinstance(app.screen, GameOverScreen)
            assert game is not None and game.engine.over
            assert decisions == len(game.engine.log)
            assert handoffs >= 30
            result = game.engine.result()
            assert result is not None and result.summary.split(" (")[0] in screen_text(app)
            [record] = store.records.values()
            assert record.finished and len(record.actions) == decisions
            # the saved game, replayed headless, is the game the screen played
            headless = replay(registry.get("red-flag-over-paris").definition, record)
            assert headless.digest() == game.engine.digest() and headless.over

    run(main)
