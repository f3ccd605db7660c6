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

Ray is optional (``tabletop install 'tabletop-app[ray]'``): ``--ray`` starts a local Ray
instance, ``--ray ADDRESS`` joins a running cluster. The cluster's workers must have
the same Tabletop and game plugins installed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import importlib.util
import multiprocessing
import multiprocessing.connection
import os
import pickle
import shutil
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Generic, TypeVar

from tabletop.framework.errors import TabletopError
from tabletop.framework.fuzz import INTERRUPTED, BatchReport, Watchdog, terminate_as_interrupt

R = TypeVar("R")
B = TypeVar("B", bound=BatchReport)

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
                "--ray needs Ray, which is not installed: tabletop install 'tabletop-app[ray]'"
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
    it runs elsewhere. ``progress(done, games)`` is called as chunks finish. Raises
    ``Stopped``, with the results of the first chunks, when the run is interrupted or
    a worker dies.
    """
    where.check()
    tally: _Tally[R] = _Tally(chunks(games, where.workers, most), games, progress)
    if where.ray is not None:
        return _on_ray(job, tally, where.ray)
    if where.workers == 1 or len(tally.pieces) <= 1:
        try:
            for index, (first, count) in enumerate(tally.pieces):
                tally.add(index, job(first, count))
        except KeyboardInterrupt:
            raise tally.stopped(INTERRUPTED) from None
        return tally.ordered()
    return _on_processes(job, tally, where.workers)


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


class Stopped(Exception):
    """A run that ended before its last chunk: Ctrl+C (SIGINT) or SIGTERM here, or a
    worker process that died. ``results`` are those of the first chunks, in order and
    without a gap (``games`` games): what a run of that many games would have given."""

    def __init__(self, reason: str, results: list[Any], games: int) -> None:
        super().__init__(reason)
        self.reason = reason
        self.results = results
        self.games = games


#: How long stopped workers get to end on their own before they are killed.
STOP_GRACE = 2.0
#: How often a worker checks that the process that started it is still there.
PARENT_CHECK = 0.25


@dataclass
class _Tally(Generic[R]):
    """The chunks of one run and what has come back of them, wherever they are played
    (here, on worker processes, on Ray): progress is told as each one arrives, and a
    stopped run keeps the first chunks with no gap."""

    pieces: Sequence[tuple[int, int]]
    games: int
    progress: Callable[[int, int], None] | None
    results: dict[int, R] = dataclasses.field(default_factory=dict)
    done: int = 0

    def add(self, index: int, value: R) -> None:
        self.results[index] = value
        self.done += self.pieces[index][1]
        if self.progress is not None:
            self.progress(self.done, self.games)

    def ordered(self) -> list[R]:
        return [self.results[index] for index in range(len(self.pieces))]

    def stopped(self, reason: str) -> Stopped:
        """The ``Stopped`` to raise: the results of the first chunks with no gap, and
        how many games they hold."""
        done: list[R] = []
        games = 0
        for index, (_, count) in enumerate(self.pieces):
            if index not in self.results:
                break
            done.append(self.results[index])
            games += count
        return Stopped(reason, done, games)


#: The signals a starting worker must not act on before it has set its own handling.
_STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


def _watch_parent(parent: int) -> None:
    """A worker's watchdog thread: when the process that started it is gone (killed
    with SIGKILL, say), the worker ends too."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(1)


def _worker(job: Callable[[int, int], Any], conn: Any, parent: int, stuck: str = "") -> None:
    """A worker process: play the chunks the parent sends, send back each result (or
    the exception the job raised) until told to stop (None) or terminated.

    Ctrl+C in a terminal reaches every process of the foreground group: the workers
    ignore it and leave it to the parent, which stops them with SIGTERM. SIGTERM ends
    a worker at once, as the system does it, with nothing printed: raising in a
    handler instead could surface anywhere (a finalizer, the interpreter's start-up)
    as a traceback. A save it was writing is whole all the same (written atomically;
    an orphaned temporary file is swept later). The signals start blocked (``_start``)
    and are let through once this handling is set."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # a fork inherits the parent's handler
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOP_SIGNALS)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    _fresh_worker()
    if stuck:  # where the time limit's hard stop says where this worker was stuck
        Watchdog.stuck_file = os.open(
            os.path.join(stuck, f"{os.getpid()}.txt"), os.O_WRONLY | os.O_CREAT, 0o600
        )
    try:
        while True:
            task = conn.recv()
            if task is None:
                return
            index, first, count = task
            try:
                outcome: tuple[str, Any] = ("ok", job(first, count))
            except Exception as exc:  # the job's own error: the parent raises it
                outcome = ("error", _portable(exc))
            conn.send((index, *outcome))
    except (EOFError, OSError):  # the parent is gone
        return


def _portable(exc: Exception) -> Exception:
    """``exc`` when it survives pickling, else a RuntimeError that says what it was."""
    try:
        pickle.loads(pickle.dumps(exc))
    except Exception:
        return RuntimeError(f"{type(exc).__name__}: {exc}")
    return exc


def _exit_text(code: int | None) -> str:
    """How a process ended, in words."""
    if code is not None and code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"was killed by {name}"
    return f"ended with status {code}"


@dataclass
class _Worker:
    process: Any
    conn: Any
    chunks: list[int] = dataclasses.field(default_factory=list)
    """Chunks sent and not yet answered, oldest (the one being played) first."""


def _start(job: Callable[[int, int], Any], count: int, stuck: str = "") -> list[_Worker]:
    """``count`` worker processes, each with its own pipe. SIGINT and SIGTERM are
    blocked while they start, so each begins life with them blocked (a fork and an
    exec keep the mask) until it has set its own handling (``_worker``); here they
    wait, pending, until the workers are started."""
    context = _context()
    started: list[_Worker] = []
    masked = hasattr(signal, "pthread_sigmask")
    if masked:
        previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOP_SIGNALS)
    try:
        for _ in range(count):
            mine, theirs = context.Pipe()
            process = context.Process(
                target=_worker, args=(job, theirs, os.getpid(), stuck), daemon=True
            )
            process.start()
            theirs.close()
            started.append(_Worker(process, mine))
    finally:
        if masked:
            signal.pthread_sigmask(signal.SIG_SETMASK, previous)
    return started


def _stop(workers: Sequence[_Worker]) -> None:
    """End every worker and wait for it: SIGTERM, then SIGKILL for any still there
    after ``STOP_GRACE`` seconds. A second Ctrl+C meanwhile is ignored: it must not
    leave workers behind."""
    if threading.current_thread() is not threading.main_thread():
        _end(workers)
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        _end(workers)
    finally:
        signal.signal(signal.SIGINT, previous)


def _end(workers: Sequence[_Worker]) -> None:
    for worker in workers:
        if worker.process.is_alive():
            worker.process.terminate()
    deadline = time.monotonic() + STOP_GRACE
    for worker in workers:
        worker.process.join(max(0.0, deadline - time.monotonic()))
    for worker in workers:
        if worker.process.is_alive():
            worker.process.kill()
            worker.process.join()
        worker.conn.close()


def _on_processes(job: Callable[[int, int], R], tally: _Tally[R], workers: int) -> list[R]:
    """Play the run's chunks on local worker processes, two chunks queued per worker
    (so no worker waits, and stopping drops at most two chunks a worker).

    The parent stops the run at once, keeping the results of the first chunks (see
    ``Stopped``), on Ctrl+C or SIGTERM, or when a worker dies; no worker outlives it.
    """
    pieces = tally.pieces
    waiting = list(range(len(pieces)))[::-1]  # popped from the end: chunk 0 first
    pool: list[_Worker] = []
    stuck = tempfile.mkdtemp(prefix="tabletop-stuck-")
    try:
        with terminate_as_interrupt():
            pool = _start(job, min(workers, len(pieces)), stuck)
            for _ in range(2):
                for worker in pool:
                    _send(worker, waiting, pieces)
            while len(tally.results) < len(pieces):
                busy = {worker.conn: worker for worker in pool if worker.chunks}
                ready = multiprocessing.connection.wait(
                    [*busy, *(worker.process.sentinel for worker in busy.values())]
                )
                for worker in busy.values():
                    if worker.conn not in ready and worker.process.sentinel not in ready:
                        continue
                    try:
                        index, status, value = worker.conn.recv()
                    except (EOFError, OSError):
                        worker.process.join()
                        first, count = pieces[worker.chunks[0]]
                        how = _stuck_text(stuck, worker.process.pid) or _exit_text(
                            worker.process.exitcode
                        )
                        raise tally.stopped(
                            f"a worker process {how} while playing games "
                            f"{first}-{first + count - 1}"
                        ) from None
                    worker.chunks.remove(index)
                    if status == "error":
                        raise value
                    tally.add(index, value)
                    _send(worker, waiting, pieces)
    except KeyboardInterrupt:
        raise tally.stopped(INTERRUPTED) from None
    finally:
        _stop(pool)
        shutil.rmtree(stuck, ignore_errors=True)
    return tally.ordered()


def _stuck_text(folder: str, pid: int) -> str:
    """How a worker that the time limit's hard stop ended was stuck, in words ("" when
    it was not: it died otherwise). faulthandler's dump begins "Timeout (0:00:30)!"."""
    try:
        with open(os.path.join(folder, f"{pid}.txt"), encoding="utf-8", errors="replace") as dump:
            first = dump.readline().strip()
    except OSError:
        return ""
    if not first.startswith("Timeout"):
        return ""
    took = first.removeprefix("Timeout").strip(" ()!")
    return (
        f"was stopped after {took} without a game action ending (game code that "
        "swallows the time limit, catching BaseException, or loops inside C)"
    )


def _send(worker: _Worker, waiting: list[int], pieces: Sequence[tuple[int, int]]) -> None:
    """Give ``worker`` the next chunk, if any is left."""
    if waiting:
        index = waiting.pop()
        worker.chunks.append(index)
        with contextlib.suppress(OSError):  # a worker that just died: its sentinel says so
            worker.conn.send((index, *pieces[index]))


def _on_ray(job: Callable[[int, int], R], tally: _Tally[R], address: str) -> list[R]:
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
        refs = [task.remote(job, first, count) for first, count in tally.pieces]
        index_of = {ref: index for index, ref in enumerate(refs)}
        waiting = list(refs)
        try:
            while waiting:
                ready, waiting = ray.wait(waiting, num_returns=1)
                for ref in ready:
                    tally.add(index_of[ref], ray.get(ref))
        except KeyboardInterrupt:
            for ref in waiting:
                with contextlib.suppress(Exception):
                    ray.cancel(ref, force=True)
            raise tally.stopped(INTERRUPTED) from None
        return tally.ordered()
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
    action_seconds: float | None,
    first: int,
    count: int,
) -> Any:
    """Games first..first+count-1 of a simulation, as a ``SimulationReport``."""
    container = _container()
    store = None if save_dir is None else container.store_in(directory=Path(save_dir))
    return container.simulation().run(
        game_id,
        games=count,
        seed=seed,
        seats=seats,
        options=options,
        store=store,
        first=first,
        action_seconds=action_seconds,
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
    action_seconds: float | None = None,
) -> Any:
    """``tabletop simulate`` on ``where``: one report, identical to a one-process run's
    except for the time. A run stopped early (``Stopped``) reports its first games, as
    a run of that many games would, with ``stopped`` saying why."""
    from tabletop.app.simulate import SimulationReport

    job = partial(
        simulate_chunk, game_id, seed, list(seats), dict(options), save_dir, action_seconds
    )
    started = time.perf_counter()
    parts, stopped, done = _played(job, games, where, progress, 50)
    report = _merged(
        SimulationReport(game_id, games, seed, seats=list(seats)), parts, stopped, done, started
    )
    report.seal()  # once, over every game (no games: the digest one process gives too)
    return report


def _played(
    job: Callable[[int, int], R],
    games: int,
    where: Where,
    progress: Callable[[int, int], None] | None,
    most: int,
) -> tuple[list[R], str, int]:
    """``run_chunks``'s results, why the run stopped early ("" when it did not) and the
    games those results hold."""
    try:
        return run_chunks(job, games, where, progress=progress, most=most), "", games
    except Stopped as stop:
        return stop.results, stop.reason, stop.games


# tournament ----------------------------------------------------------------------------


def tournament_chunk(
    game_id: str,
    seed: int,
    seats: list[str],
    options: dict[str, str],
    rotate: bool,
    action_seconds: float | None,
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
            action_seconds=action_seconds,
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
    action_seconds: float | None = None,
) -> Any:
    """``tabletop tournament`` on ``where``: the wins, games, lengths and failures of a
    one-process run (game i is seeded and rotated by its number wherever it plays); only
    the times differ."""
    if games < 1:
        raise TabletopError("a tournament needs 1 game or more")
    from tabletop.app.tournament import TournamentReport

    job = partial(
        tournament_chunk, game_id, seed, list(seats), dict(options), rotate, action_seconds
    )
    started = time.perf_counter()
    # a tournament's game takes seconds: small chunks keep every worker busy to the end
    parts, stopped, done = _played(job, games, where, progress, TOURNAMENT_CHUNK)
    if parts:
        first, *rest = parts
        merged = dataclasses.replace(first, games=games)  # its seat names, options, kinds
    else:  # stopped before its first chunk
        rest = []
        merged = TournamentReport(
            game_id, games, seed, seats=list(seats), options=dict(options), rotate=rotate
        )
    return _merged(merged, rest, stopped, done, started)


def _merged(report: B, parts: Iterable[Any], stopped: str, done: int, started: float) -> B:
    """``report`` with the ``parts`` of the run added in game order, marked as stopped
    when the run was (``BatchReport.stop``), and the time since ``started``."""
    for part in parts:
        report.add(part)
    report.stop(stopped, done)
    report.seconds = time.perf_counter() - started
    return report


# fuzz -----------------------------------------------------------------------------------


def fuzz_chunk(
    game_id: str,
    seed: int,
    players: int | None,
    options: Mapping[str, str],
    max_actions: int,
    roundtrip_every: int | None,
    action_seconds: float | None,
    first: int,
    count: int,
    seats: Sequence[str] = (),
) -> Any:
    """Games first..first+count-1 of a fuzz run, as a ``FuzzReport`` (failures not yet
    saved: the command saves them, in game order); ``seats`` as ``fuzz``'s."""
    from tabletop.adapters.collector import collector
    from tabletop.framework.fuzz import fuzz as fuzz_games

    container = _container()
    registry = container.registry()
    with collector.tuned():  # many short-lived objects a game
        return fuzz_games(
            registry.get(game_id).definition,
            games=count,
            first=first,
            seed=seed,
            players=players,
            options=options,
            rng_factory=container.rng_factory(),
            dice_factory=container.dice_factory(),
            max_actions=max_actions,
            roundtrip_every=roundtrip_every,
            action_seconds=action_seconds,
            seats=seats,
            bots={kind: registry.bots[kind][0] for kind in seats if kind in registry.bots},
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
    action_seconds: float | None = None,
    seats: Sequence[str] = (),
) -> Any:
    """``tabletop fuzz`` on ``where``: one report with the failures in game order, each
    saved here by ``on_failure``, identical to a one-process run's except for the time."""
    from tabletop.framework.fuzz import FuzzReport

    job = partial(
        fuzz_chunk,
        game_id,
        seed,
        players,
        dict(options),
        max_actions,
        roundtrip_every,
        action_seconds,
        seats=tuple(seats),
    )
    started = time.perf_counter()
    parts, stopped, done = _played(job, games, where, progress, 50)
    report = FuzzReport(game_id, games, seed, seats=list(seats))
    if on_failure is not None:
        for failure in (failure for part in parts for failure in part.failures):
            if failure.record is not None:
                failure.save = on_failure(failure)
    return _merged(report, parts, stopped, done, started)


def default_workers() -> int:
    """The cores this process may use (for help texts and the benchmark)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
