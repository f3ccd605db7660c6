"""The new-game dialog offers the bots per seat, each described in one line, with one
strength setting for the tree-search seats; Red Flag's solitaire option starts a game
whose solo opponent plays itself in the UI."""

from __future__ import annotations

from textual.widgets import Select, Static
from tui_support import SIZE, FrozenStore, engine_of, human_turn, make_app, run, wait_until

from tabletop.adapters.bots import STRENGTHS, describe, register_search_bots
from tabletop.adapters.tui.screens.new_game import NewGameScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets import ChoiceList
from tabletop.framework.plugins import GameRegistry, load_registry
from tabletop.games import pig
from tabletop.games import red_flag_over_paris as rfop


def _registry() -> GameRegistry:
    return register_search_bots(
        load_registry(plugins=[("pig", pig), ("rfop", rfop)], use_entry_points=False)
    )


def test_seats_offer_described_bots_and_a_strength() -> None:
    async def main() -> None:
        app = make_app(_registry(), FrozenStore())
        async with app.run_test(size=SIZE) as pilot:
            await app.push_screen(NewGameScreen("pig"))
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, NewGameScreen)
            kinds = dialog.seat_kinds()
            assert kinds[:3] == ["human", "random", "mcts"]
            assert "mcts-quick" not in kinds and "mcts-strong" not in kinds
            assert dialog.controllers[:2] == ["human", "mcts"]  # the default opponent
            help_line = dialog.query_one("#seat-help-1", Static)
            assert str(help_line.render()) == describe("mcts")
            dialog.query_one("#seat-1", Select).value = "random"
            await pilot.pause()
            assert str(dialog.query_one("#seat-help-1", Static).render()) == describe("random")
            dialog.query_one("#seat-1", Select).value = "mcts"
            await pilot.pause()
            strong = STRENGTHS[-1].kind
            dialog.query_one("#strength", Select).value = strong
            await pilot.pause()
            await pilot.pause()
            assert dialog.spec().controllers == ["human", strong]
            assert strong in dialog.seat_kinds() and "mcts" not in dialog.seat_kinds()

    run(main)


def test_red_flag_solitaire_plays_in_the_ui() -> None:
    """The solo opponent's seat never asks anything: the person plays on alone."""

    async def main() -> None:
        app = make_app(_registry(), FrozenStore(), seed=5)
        async with app.run_test(size=SIZE) as pilot:
            await app.push_screen(NewGameScreen("red-flag-over-paris"))
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, NewGameScreen)
            dialog.query_one("#option-0", Select).value = "commune"
            await pilot.pause()
            label = dialog.query_one("#seat-label-1")
            assert "solo opponent" in str(label.render())
            await pilot.press("ctrl+s")
            await wait_until(pilot, lambda: isinstance(app.screen, SeatScreen))
            game = app.screen
            assert isinstance(game, SeatScreen)
            for _ in range(12):  # a dozen of the person's decisions
                await human_turn(pilot)
                prompt = game._my_prompt()
                assert prompt is not None and prompt.seat == 0
                keys = game.query_one("#choices", ChoiceList).keys
                await pilot.press(keys[0] or "1")
            engine = engine_of(game)
            assert any(entry.seat == 0 for entry in engine.log)
            assert all(entry.seat == 0 for entry in engine.log)
            assert engine.state["plays"][1] > 0  # the solo opponent played

    run(main)
