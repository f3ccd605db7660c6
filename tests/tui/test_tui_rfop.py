"""Red Flag Over Paris played hot-seat in the UI, from the deal to the victory screen.

Uses the installed plugin (entry point), its own board widget, and the hand-off screen
between the two people at every change of seat; the first choice is taken each time.
"""

from __future__ import annotations

from tui_support import FrozenStore, engine_of, first_choices, game_on, pilot_test, screen_text

from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.framework.plugins import load_registry
from tabletop.framework.testing import replay

GAME = "red-flag-over-paris"


@pilot_test
async def test_red_flag_hot_seat_from_deal_to_victory() -> None:
    registry = load_registry()
    assert GAME in registry.games
    store = FrozenStore()
    hot_seat = ("human", "human")
    opened = game_on(GAME, registry=registry, store=store, seats=hot_seat, seed=1)
    async with opened as (app, pilot):
        handoffs = decisions = 0
        game: SeatScreen | None = None
        async for screen in first_choices(pilot, limit=400):
            if isinstance(screen, HandoffScreen):
                if handoffs < 3:  # nothing shows through (rendering costs: check a few)
                    assert "Your hand" not in screen_text(app)
                handoffs += 1
                continue
            game = screen
            due = engine_of(game).prompt
            seat = due.seat if due else None
            if decisions == 0:
                text = screen_text(app)
                assert "Your hand:" in text and "Crisis Track" in text
                hand = engine_of(game).state["hands"][1 - (seat or 0)]
                names = engine_of(game).view(1 - (seat or 0))["card_names"]
                # the other seat's cards are not on this seat's screen
                assert not any(
                    names[str(card)] in text
                    for card in hand
                    if card not in engine_of(game).state["hands"][seat or 0]
                )
            decisions += 1
        assert game is not None and engine_of(game).over
        assert decisions == len(engine_of(game).log)
        assert handoffs >= 30
        result = engine_of(game).result
        assert result is not None and result.summary.split(" (")[0] in screen_text(app)
        [record] = store.records.values()
        assert record.finished and len(record.actions) == decisions
        # the saved game, replayed headless, is the game the screen played
        headless = replay(registry.get(GAME).definition, record)
        assert headless.digest() == engine_of(game).digest() and headless.over
