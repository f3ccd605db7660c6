"""Charlemagne played in the terminal UI from the set-up to the end, with the game's
board widget: the map by box, the cups' counts and the tracks are on screen; the first
choice is taken each time."""

from __future__ import annotations

from tui_support import engine_of, first_choices, game_on, pilot_test, screen_text

from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.framework.plugins import load_registry

GAME = "charlemagne-master-of-europe"
SIZE = (140, 70)


@pilot_test
async def test_a_whole_game_in_the_terminal_ui() -> None:
    registry = load_registry()
    assert GAME in registry.games
    opened = game_on(GAME, size=SIZE, registry=registry, seats=("human",), seed=3)
    async with opened as (app, pilot):
        # The turn-end recaps are read in test_tui_cme_new_player.py; here the first
        # choice is taken each time, without pausing on them.
        app.pause_on_summaries = False
        decisions = 0
        game: SeatScreen | None = None
        async for screen in first_choices(pilot, limit=600):
            assert isinstance(screen, SeatScreen)  # one person: no hand-off
            game = screen
            if decisions == 1:
                text = screen_text(app)
                assert "Cups:" in text and "Unfriendly" in text and "Hostile" in text
                assert "Lombardy" in text and "+4 Leader (Desiderius)" in text
                assert "VP 0 (threshold 3)" in text and "Treasury 5/20" in text
            decisions += 1
        assert game is not None and engine_of(game).over
        result = engine_of(game).result
        assert result is not None and result.winners == ()
        assert "Defeat" in screen_text(app)
