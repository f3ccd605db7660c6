"""Batch runs on several processes or a Ray cluster, with the same results as one.

Why results cannot drift: game i of a run always plays with ``batch_seed(seed, i)``, on
its own engine, whoever plays it. So a run is cut into chunks of consecutive games,
each chunk played anywhere (a local worker process, a Ray task), and the chunks' games
put back in index order before anything is added up: the digest, the outcomes, the
failures and their order are those of a one-process run, for any number of workers.

A worker builds its own composition root from the environment (``build_container``)
once per process, so it finds the same plugins, random source and settings as the
command that started it; nothing but game indices and settings crosses a process
boundary, and results come back as plain data.

Ray is optional (``pip install 'tabletop-app[ray]'``): ``--ray`` starts a local Ray
instance, ``--ray ADDRESS`` joins a running cluster. The cluster's workers must have
the same Tabletop and game plugins installed.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import importlib
import importlib.util
import multiprocessing
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from tabletop.framework.errors import TabletopError

R = TypeVar("R")

#: ``--ray`` with no address: start a Ray instance on this machine.
LOCAL_RAY = "local"
#: Most games in one chunk of a tournament (bots that think make long games).
TOURNAMENT_CHUNK = 4


@dataclass(frozen=True)
class Where:
    """Where a batch runs: ``workers`` local processes (1: this process), or Ray."""

    workers: int = 1
    ray: str | None = None
    """None: no Ray; ``LOCAL_RAY``: a Ray instance started here; else a cluster address."""

    def check(self) -> None:
        """Refuse a bad worker count, or Ray when it is not installed, before any work."""
        if self.workers < 1:
            raise TabletopError("--workers must be 1 or more")
        if self.ray is not None and importlib.util.find_spec("ray") is None:
            raise TabletopError(
                "--ray needs Ray, which is not installed: pip install 'tabletop-app[ray]'"
            )


def chunks(games: int, parts: int, most: int = 50) -> list[tuple[int, int]]:
    """(first, count) pieces covering games 0..games-1 in order: several per part, so a
    part that finishes early takes another and progress moves smoothly, and at most
    ``most`` games each (a Ray cluster's size is not known here: many small pieces let
    it use all its workers)."""
    if games <= 0:
        return []
    size = max(1, min(most, games // max(1, parts * 4)))
    return [(first, min(size, games - first)) for first in range(0, games, size)]


def run_chunks(
    job: Callable[[int, int], R],
    games: int,
    where: Where,
    *,
    progress: Callable[[int, int], None] | None = None,
    most: int = 50,
) -> list[R]:
    """Run ``job(first, count)`` over every chunk of ``games`` (``most`` games a chunk
    at the most); results in chunk order.

    ``job`` must be picklable (a module-level function or a ``partial`` of one) when
    it runs elsewhere. ``progress(done, games)`` is called as chunks finish.
    """
    where.check()
    pieces = chunks(games, where.workers, most)
    if where.ray is not None:
        return _on_ray(job, pieces, games, where.ray, progress)
    if where.workers == 1 or len(pieces) <= 1:
        results: list[R] = []
        done = 0
        for first, count in pieces:
            results.append(job(first, count))
            done += count
            if progress is not None:
                progress(done, games)
        return results
    return _on_processes(job, pieces, games, where.workers, progress)


def _context() -> Any:
    """Forked workers where forking is safe (Linux), fresh interpreters (spawn) elsewhere.

    A spawned worker imports the app and every game plugin again before its first game:
    a third of a second on this machine, which with Red Flag at 550 games a second kept
    two workers at 1.4 times one on 2,000 games. A forked one starts with them imported,
    and still builds its own composition root from the environment (``_fresh_worker``),
    so it depends on its arguments and the installed packages as a Ray worker does."""
    return multiprocessing.get_context("fork" if sys.platform == "linux" else "spawn")


def _fresh_worker() -> None:
    """Each worker process's first step: forget a composition root inherited from the
    process that forked it (built for other settings, perhaps), so ``_container`` builds
    the worker's own from the environment."""
    global _CONTAINER
    _CONTAINER = None


def _on_processes(
    job: Callable[[int, int], R],
    pieces: Sequence[tuple[int, int]],
    games: int,
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> list[R]:
    results: dict[int, R] = {}
    done = 0
    with concurrent.futures.ProcessPoolExecutor(
        max_workers=min(workers, len(pieces)), mp_context=_context(), initializer=_fresh_worker
    ) as pool:
        futures = {
            pool.submit(job, first, count): index for index, (first, count) in enumerate(pieces)
        }
        for future in concurrent.futures.as_completed(futures):
            index = futures[future]
            results[index] = future.result()
            done += pieces[index][1]
            if progress is not None:
                progress(done, games)
    return [results[index] for index in range(len(pieces))]


def _on_ray(
    job: Callable[[int, int], R],
    pieces: Sequence[tuple[int, int]],
    games: int,
    address: str,
    progress: Callable[[int, int], None] | None,
) -> list[R]:
    ray: Any = importlib.import_module("ray")
    started_here = not ray.is_initialized()
    if started_here:
        ray.init(
            address=None if address == LOCAL_RAY else address,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
    try:
        task = ray.remote(_call)
        refs = [task.remote(job, first, count) for first, count in pieces]
        index_of = {ref: index for index, ref in enumerate(refs)}
        results: dict[int, R] = {}
        waiting = list(refs)
        done = 0
        while waiting:
            ready, waiting = ray.wait(waiting, num_returns=1)
            for ref in ready:
                index = index_of[ref]
                results[index] = ray.get(ref)
                done += pieces[index][1]
                if progress is not None:
                    progress(done, games)
        return [results[index] for index in range(len(pieces))]
    finally:
        if started_here:
            ray.shutdown()


def _call(job: Callable[[int, int], R], first: int, count: int) -> R:
    """What a Ray task runs (a plain function, so Ray can ship it)."""
    return job(first, count)


# Per-process composition root ---------------------------------------------------------

_CONTAINER: Any = None


def _container() -> Any:
    """This process's container, built once from the environment (as the CLI does)."""
    global _CONTAINER
    if _CONTAINER is None:
        from tabletop.app.container import build_container

        _CONTAINER = build_container(console=False)
    return _CONTAINER


# simulate ------------------------------------------------------------------------------


def simulate_chunk(
    game_id: str,
    seed: int,
    seats: list[str],
    options: dict[str, str],
    save_dir: str | None,
    first: int,
    count: int,
) -> Any:
    """Games first..first+count-1 of a simulation, as a ``SimulationReport``."""
    container = _container()
    store = None if save_dir is None else container.store_in(directory=Path(save_dir))
    return container.simulation().run(
        game_id, games=count, seed=seed, seats=seats, options=options, store=store, first=first
    )


def simulate(
    game_id: str,
    *,
    games: int,
    seed: int,
    seats: list[str],
    options: dict[str, str],
    save_dir: str | None,
    where: Where,
    progress: Callable[[int, int], None] | None = None,
) -> Any:
    """``tabletop simulate`` on ``where``: one report, identical to a one-process run's
    except for the time."""
    from tabletop.app.simulate import SimulationReport, games_digest

    job = partial(simulate_chunk, game_id, seed, list(seats), dict(options), save_dir)
    started = time.perf_counter()
    parts = run_chunks(job, games, where, progress=progress)
    merged = SimulationReport(game_id, games, seed, seats=list(seats))
    merged.digest = games_digest([], seed)  # the digest of no games, as one process has it
    for part in parts:
        merged.add(part)
    merged.seconds = time.perf_counter() - started
    return merged


# tournament ----------------------------------------------------------------------------


def tournament_chunk(
    game_id: str,
    seed: int,
    seats: list[str],
    options: dict[str, str],
    rotate: bool,
    first: int,
    count: int,
) -> Any:
    """Games first..first+count-1 of a tournament, as a ``TournamentReport``."""
    return (
        _container()
        .tournament()
        .run(
            game_id,
            games=count,
            seed=seed,
            seats=seats,
            options=options,
            rotate=rotate,
            first=first,
        )
    )


def tournament(
    game_id: str,
    *,
    games: int,
    seed: int,
    seats: list[str],
    options: dict[str, str],
    rotate: bool,
    where: Where,
    progress: Callable[[int, int], None] | None = None,
) -> Any:
    """``tabletop tournament`` on ``where``: the wins, games, lengths and failures of a
    one-process run (game i is seeded and rotated by its number wherever it plays); only
    the times differ."""
    if games < 1:
        raise TabletopError("a tournament needs 1 game or more")
    job = partial(tournament_chunk, game_id, seed, list(seats), dict(options), rotate)
    started = time.perf_counter()
    # a tournament's game takes seconds: small chunks keep every worker busy to the end
    first, *rest = run_chunks(job, games, where, progress=progress, most=TOURNAMENT_CHUNK)
    merged = dataclasses.replace(first, games=games)  # its seat names, options, kinds
    for part in rest:
        merged.add(part)
    merged.seconds = time.perf_counter() - started
    return merged


# fuzz -----------------------------------------------------------------------------------


def fuzz_chunk(
    game_id: str,
    seed: int,
    players: int | None,
    options: Mapping[str, str],
    max_actions: int,
    roundtrip_every: int | None,
    first: int,
    count: int,
) -> Any:
    """Games first..first+count-1 of a fuzz run, as a ``FuzzReport`` (failures not yet
    saved: the command saves them, in game order)."""
    from tabletop.adapters.collector import collector
    from tabletop.framework.fuzz import fuzz as fuzz_games

    container = _container()
    with collector.tuned():  # many short-lived objects a game
        return fuzz_games(
            container.registry().get(game_id).definition,
            games=count,
            first=first,
            seed=seed,
            players=players,
            options=options,
            rng_factory=container.rng_factory(),
            dice_factory=container.dice_factory(),
            max_actions=max_actions,
            roundtrip_every=roundtrip_every,
        )


def fuzz(
    game_id: str,
    *,
    games: int,
    seed: int,
    players: int | None,
    options: Mapping[str, str],
    max_actions: int,
    roundtrip_every: int | None,
    where: Where,
    on_failure: Callable[[Any], str] | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Any:
    """``tabletop fuzz`` on ``where``: one report with the failures in game order, each
    saved here by ``on_failure``, identical to a one-process run's except for the time."""
    from tabletop.framework.fuzz import FuzzReport

    job = partial(fuzz_chunk, game_id, seed, players, dict(options), max_actions, roundtrip_every)
    started = time.perf_counter()
    report = FuzzReport(game_id, games, seed)
    for part in run_chunks(job, games, where, progress=progress):
        report.add(part)
    if on_failure is not None:
        for failure in report.failures:
            if failure.record is not None:
                failure.save = on_failure(failure)
    report.seconds = time.perf_counter() - started
    return report


def default_workers() -> int:
    """The cores this process may use (for help texts and the benchmark)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
