"""pytest-benchmark of whole random games of the bundled games through the session (what
``simulate`` plays) and of a tic-tac-toe decision through the engine (what the
OpenSpiel comparison times). Run with ``pytest tests/benchmarks --benchmark-enable``;
in the normal suite each runs once as a plain test."""

from __future__ import annotations

from typing import Any

import pytest

from tabletop.framework import Engine, RandomBot, bot_move
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.plugins import load_registry
from tabletop.framework.session import GameSession

REGISTRY = load_registry(allow={"pig", "council", "red-flag-over-paris", "tic-tac-toe"})


def _random_game(game_id: str, seed: int) -> Engine:
    installed = REGISTRY.get(game_id)
    players = installed.info.min_players
    session = GameSession.start(
        installed.definition,
        seed=seed,
        players=players,
        options={},
        controllers=["random"] * players,
        bot_factories={"random": lambda game: RandomBot()},
        rng_factory=rng_factory,
        dice_factory=dice_factory,
    )
    session.run()
    return session.engine


@pytest.mark.parametrize("game_id", sorted(REGISTRY.games))
def test_bench_a_random_game(benchmark: Any, game_id: str) -> None:
    engine = benchmark(_random_game, game_id, 11)
    assert engine.over and not engine.keeps_undo  # batch play keeps no undo snapshots


def test_bench_tic_tac_toe_decisions(benchmark: Any) -> None:
    game = REGISTRY.get("tic-tac-toe").definition
    bot = RandomBot()

    def nine_games() -> int:
        decisions = 0
        for seed in range(9):
            engine = Engine(
                game,
                seed=seed,
                players=2,
                options={},
                rng_factory=rng_factory,
                dice_factory=dice_factory,
                undo=False,
            )
            while (prompt := engine.prompt) is not None:
                engine.act(prompt.seat, bot_move(engine, bot, rng_factory))
            decisions += len(engine.log)
        return decisions

    assert benchmark(nine_games) >= 9 * 5  # a game needs at least five marks
