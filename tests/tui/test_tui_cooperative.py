"""A cooperative game's end speaks of the team (issue 27): its win or loss and its one
score, not a list of winners."""

from __future__ import annotations

from typing import Any

from hanabi import MiniHanabi
from textual.widgets import DataTable, Static
from tui_support import current, game_on, pilot_test, wait_until

from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.framework.hookspecs import hookimpl
from tabletop.framework.plugins import load_registry


class _Plugin:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(MiniHanabi())


@pilot_test
async def test_the_game_over_screen_tells_the_teams_result() -> None:
    registry = load_registry(plugins=[("hanabi", _Plugin())], use_entry_points=False)
    seats = ("random", "random")
    async with game_on("mini-hanabi", registry=registry, seats=seats, bot_delay=0.01) as (
        app,
        pilot,
    ):
        await wait_until(pilot, lambda: isinstance(current(app), GameOverScreen), timeout=10)
        await pilot.pause()
        over = current(app)
        assert isinstance(over, GameOverScreen)
        result = over.result
        assert result is not None
        headline = str(over.query_one("#winner", Static).content)
        won = "The team wins!" if result.winners else "The team loses."
        assert headline == f"{won} Team score: {result.scores[0]:g}."
        table = over.query_one("#scores", DataTable)
        marks = {str(table.get_row_at(row)[3]) for row in range(table.row_count)}
        assert marks == ({"team win"} if result.winners else {""})
