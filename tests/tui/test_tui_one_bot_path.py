"""The bots of the terminal UI play the game ``tabletop simulate`` plays with the same
seed and seats: both go through ``GameSession.run`` and ``bot_move`` (the app's bots
only think in a worker thread)."""

from __future__ import annotations

from tui_support import SIZE, FrozenStore, make_app, make_registry, run, start_game, wait_until

from tabletop.adapters.tui.screens.game_over import GameOverScreen
from tabletop.app.simulate import Simulation
from tabletop.framework.bots import batch_seed
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.session import SessionStarter

OPTIONS = {"target": "50", "dice": "one", "banks": "open"}


def test_the_apps_bots_play_simulates_game() -> None:
    registry = make_registry()
    report = Simulation(SessionStarter(registry, rng_factory, dice_factory)).run(
        "pig", games=2, seed=1234, seats=["random", "random"], options=OPTIONS
    )

    async def main() -> None:
        store = FrozenStore()
        app = make_app(registry, store)
        async with app.run_test(size=SIZE) as pilot:
            seed = batch_seed(1234, 1)
            await start_game(pilot, "pig", seats=("random", "random"), options=OPTIONS, seed=seed)
            await wait_until(pilot, lambda: isinstance(app.screen, GameOverScreen), timeout=20)
            over = app.screen
            assert isinstance(over, GameOverScreen)
            [record] = store.records.values()
            assert record.digest == report.game_digests[1] and record.finished
            assert over.info.table in store.records  # the game the screen showed

    run(main)
