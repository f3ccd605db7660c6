"""pytest-benchmark of whole random games of the bundled games through the session (what
``simulate`` plays), of a tic-tac-toe decision through the engine (what the OpenSpiel
comparison times) and of one decision of the search bot. Run with
``pytest tests/benchmarks --benchmark-enable``; in the normal suite each runs once as a
plain test."""

from __future__ import annotations

from typing import Any

import pytest
from sessions import start_session

from tabletop.adapters.bots import Budget, IsmctsBot
from tabletop.framework.bots import RandomBot, bot_move
from tabletop.framework.chance import rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.plugins import load_registry
from tabletop.framework.testing import new_engine

REGISTRY = load_registry(allow={"pig", "council", "red-flag-over-paris", "tic-tac-toe"})


def _random_game(game_id: str, seed: int) -> Engine:
    players = REGISTRY.get(game_id).info.min_players
    session = start_session(REGISTRY.get(game_id).definition, ["random"] * players, seed=seed)
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
            engine = new_engine(game, seed=seed, undo=False)
            while (prompt := engine.prompt) is not None:
                engine.act(prompt.seat, bot_move(engine, bot, rng_factory))
            decisions += len(engine.log)
        return decisions

    assert benchmark(nine_games) >= 9 * 5  # a game needs at least five marks


@pytest.mark.parametrize("game_id", ["tic-tac-toe", "red-flag-over-paris"])
def test_bench_a_search_decision(benchmark: Any, game_id: str) -> None:
    """The search bot at its default budget, at a game's first decision with a choice
    (with the game's hints, as the app makes it): 100 iterations, or fewer when its
    action cap stops it first."""
    game = REGISTRY.get(game_id).definition
    engine = new_engine(game, seed=2, undo=False)
    while (prompt := engine.prompt) is not None and len(prompt.choices) < 2:
        engine.act(prompt.seat, prompt.choices[0].action)
    bot = IsmctsBot(REGISTRY.hints_for(game_id), Budget())
    action = benchmark(bot_move, engine, bot, rng_factory)
    assert engine.prompt is not None and action in engine.prompt.actions()
    assert 0 < bot.last.iterations <= 100 and sum((bot.last.root_visits or {}).values()) > 0
