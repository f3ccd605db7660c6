"""Benchmarks of the hot paths (run with `pytest tests/benchmarks --benchmark-enable`).

In the normal suite they run once each as plain tests (benchmarking is disabled in
pytest's addopts), so they stay correct without slowing CI; speed is read from the
benchmark table, never asserted in a timed unit test.
"""

from __future__ import annotations

from typing import Any

from sessions import start_session

from tabletop.framework import clone
from tabletop.framework.chance import Pcg32, dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.record import GameRecord
from tabletop.games.pig import Pig


def _full_game(seed: int) -> Engine:
    session = start_session(Pig(), ["random"] * 4, seed=seed)
    session.run()  # bots play as in `tabletop simulate`
    return session.engine


def test_bench_random_pig_game(benchmark: Any) -> None:
    engine = benchmark(_full_game, 3)
    assert engine.over


def test_bench_replay_a_record(benchmark: Any) -> None:
    record = _full_game(5).record()
    data = record.to_json()

    def replay() -> Engine:
        return Engine.from_record(
            Pig(), GameRecord.from_json(data), rng_factory=rng_factory, dice_factory=dice_factory
        )

    assert benchmark(replay).digest() == record.digest


def test_bench_rng_draws(benchmark: Any) -> None:
    rng = Pcg32(1)
    values = benchmark(lambda: [rng.randint(1, 6) for _ in range(1000)])
    assert len(values) == 1000 and set(values) <= set(range(1, 7))


def test_bench_state_clone(benchmark: Any) -> None:
    state = {
        "spaces": [{"cubes": [i, i + 1], "name": f"s{i}"} for i in range(40)],
        "hands": [[1, 2, 3, 4, 5], [6, 7, 8]],
        "track": list(range(20)),
    }
    copy = benchmark(clone, state)
    assert copy == state and copy is not state
