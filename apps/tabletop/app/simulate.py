"""Headless simulation: many bot games, counted, timed and digested.

An exception inside a game is a result, not a crash: it is counted in ``errors`` with
the seed that reproduces it, and the run goes on.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabletop.adapters.headless import BotUI, play
from tabletop.framework.engine import DiceFactory, Engine, RngFactory, resolve_options
from tabletop.framework.game import GameDefinition
from tabletop.framework.plugins import GameRegistry
from tabletop.framework.ports import SaveStore
from tabletop.framework.session import make_bots

#: Longest game a simulation lets run before calling it stuck.
MAX_ACTIONS = 20_000


def game_seed(seed: int, index: int) -> int:
    """Seed of the index-th game of a run: distinct, stable, printable."""
    return seed * 100_003 + index


@dataclass
class SimulationReport:
    game: str
    games: int
    seed: int
    seats: list[str]
    completed: int = 0
    errors: int = 0
    actions: int = 0
    seconds: float = 0.0
    outcomes: dict[str, int] = field(default_factory=dict)
    digest: str = ""
    failures: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "games": self.games,
            "seed": self.seed,
            "seats": self.seats,
            "completed": self.completed,
            "errors": self.errors,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "actions_per_second": round(self.actions / self.seconds) if self.seconds else 0,
            "outcomes": self.outcomes,
            "digest": self.digest,
            "failures": self.failures,
        }


def simulate(
    registry: GameRegistry,
    game_id: str,
    *,
    games: int,
    seed: int,
    seats: list[str],
    options: dict[str, str],
    rng_factory: RngFactory,
    dice_factory: DiceFactory,
    store: SaveStore | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> SimulationReport:
    game: GameDefinition = registry.get(game_id).definition
    options = resolve_options(game, options)  # a bad option is the caller's error, not 500 games'
    factories = {name: factory for name, (factory, _) in registry.bots.items()}
    report = SimulationReport(game_id, games, seed, list(seats))
    outcomes: Counter[str] = Counter()
    digests = hashlib.sha256()
    started = time.perf_counter()
    for index in range(games):
        this_seed = game_seed(seed, index)
        engine: Engine | None = None
        try:
            engine = Engine(
                game,
                seed=this_seed,
                players=len(seats),
                options=options,
                rng_factory=rng_factory,
                dice_factory=dice_factory,
            )
            bots = make_bots(game, seats, factories)
            ui = BotUI(game, [bots[seat] for seat in range(len(seats))], this_seed, rng_factory)
            report.actions += play(engine, ui, max_actions=MAX_ACTIONS)
            if not engine.over:
                raise RuntimeError(f"no result after {MAX_ACTIONS} actions")
            result = engine.result()
            assert result is not None
            names = [engine.seat_name(seat) for seat in result.winners]
            outcomes[" & ".join(names) if names else "nobody"] += 1
            digests.update(engine.digest().encode("ascii"))
            report.completed += 1
        except Exception as exc:
            report.errors += 1
            report.failures.append(
                {
                    "seed": this_seed,
                    "error": f"{type(exc).__name__}: {exc}",
                    "actions": len(engine.log) if engine is not None else 0,
                }
            )
            digests.update(f"error:{this_seed}".encode())
        if store is not None and engine is not None:
            store.save(engine.record(seats=list(seats)), f"{game_id}-seed{this_seed}")
        if progress is not None:
            progress(index + 1, games)
    report.seconds = time.perf_counter() - started
    report.outcomes = dict(sorted(outcomes.items()))
    report.digest = digests.hexdigest()
    return report
