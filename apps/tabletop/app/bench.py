"""``tabletop bench``: the numbers a player and a game author feel, measured one way.

Why a command and not only pytest-benchmark: the figures in docs/performance.md must be
reproducible by anyone with one line, on their machine, in one run (ratios between the
rows of one run are what stays meaningful on a shared, noisy machine).

Per game it measures, with random bots in every seat and the seeds ``simulate`` uses:

* random playouts through ``Simulation.run`` (what ``tabletop simulate`` does): games
  per second and microseconds per applied action;
* the game's own rules code alone on the same games (``setup``, ``prompt`` and
  ``apply`` called directly on the definition), so the framework's share of an action
  (engine, session, bots, events) is the difference;
* the save of a finished game: its size, the time to write it and to load it (read,
  parse and replay with the digest verified, as opening a save does).

Every figure is the median of ``rounds`` runs, the runs of all games interleaved so
that a burst of load from a neighbour does not land on one game only.
"""

from __future__ import annotations

import math
import statistics
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from tabletop.adapters.headless import HeadlessUI
from tabletop.adapters.saves import JsonSaveStore
from tabletop.app.simulate import Simulation
from tabletop.framework.context import Context
from tabletop.framework.engine import Engine, LogEntry
from tabletop.framework.game import GameDefinition
from tabletop.framework.record import GameRecord
from tabletop.framework.session import SessionStarter


@dataclass
class GameBench:
    """The figures of one game (medians over the rounds)."""

    game: str
    players: int
    games: int
    actions: int = 0
    games_per_second: float = 0.0
    us_per_action: float = 0.0
    rules_us_per_action: float = 0.0
    framework_us_per_action: float = 0.0
    save_bytes: int = 0
    save_ms: float = 0.0
    load_ms: float = 0.0
    error: str | None = None
    samples: dict[str, list[float]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "players": self.players,
            "games": self.games,
            "actions": self.actions,
            "games_per_second": round(self.games_per_second, 1),
            "us_per_action": round(self.us_per_action, 2),
            "rules_us_per_action": round(self.rules_us_per_action, 2),
            "framework_us_per_action": round(self.framework_us_per_action, 2),
            "save_bytes": self.save_bytes,
            "save_ms": round(self.save_ms, 3),
            "load_ms": round(self.load_ms, 3),
        }
        if self.error is not None:
            data["error"] = self.error
        return data


class _Played(NamedTuple):
    """What the rules replay needs of one game just timed."""

    seed: int
    players: int
    options: dict[str, str]
    log: list[LogEntry]


class _Keeper:
    """A UI factory for ``Simulation`` that keeps each game's seed, options and log as
    it ends, so the games just timed can be replayed through the bare rules afterwards.
    Not the sessions: holding every finished game of the round would make the
    collector walk them all while the round is being timed (a cost ``simulate`` does
    not pay)."""

    def __init__(self) -> None:
        self.games: list[_Played] = []

    def __call__(self) -> HeadlessUI:
        return _KeepingUI(self.games)


class _KeepingUI(HeadlessUI):
    def __init__(self, games: list[_Played]) -> None:
        super().__init__()
        self.games = games

    def closed(self) -> None:
        super().closed()
        if self.session is not None:
            engine = self.session.engine
            self.games.append(_Played(engine.seed, engine.players, engine.options, engine.log))
        self.session = None


def _rules_seconds(
    game: GameDefinition, games: Sequence[_Played], sessions: SessionStarter
) -> float:
    """Time the game's own code alone on the same games: setup, then prompt and apply
    for each logged action, with no engine, session, bot or legality check around it."""
    total = 0.0
    for played in games:
        actions = [(entry.seat, entry.action) for entry in played.log]
        rng = sessions.rng_factory(played.seed)
        dice = sessions.dice_factory(rng)
        started = time.perf_counter()
        state = game.setup(played.players, played.options, Context(rng, dice))
        for seat, action in actions:
            game.prompt(state)
            game.apply(state, seat, action, Context(rng, dice, actor=seat))
        game.prompt(state)
        total += time.perf_counter() - started
    return total


def _save_and_load(
    game: GameDefinition, record: GameRecord, sessions: SessionStarter, repeat: int
) -> tuple[int, float, float]:
    """(bytes, seconds to save, seconds to load and verify) of one finished game."""
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-") as folder:
        store = JsonSaveStore(Path(folder))
        saves: list[float] = []
        loads: list[float] = []
        for _ in range(repeat):
            started = time.perf_counter()
            store.save(record, "bench")
            saves.append(time.perf_counter() - started)
            started = time.perf_counter()
            loaded = store.load("bench")
            Engine.from_record(
                game,
                loaded,
                rng_factory=sessions.rng_factory,
                dice_factory=sessions.dice_factory,
                verify=True,
            )
            loads.append(time.perf_counter() - started)
        size = store.path_of("bench").stat().st_size
    return size, statistics.median(saves), statistics.median(loads)


def _one_round(
    sessions: SessionStarter, game_id: str, players: int, games: int, seed: int
) -> tuple[int, float, float, list[_Played]]:
    """(actions, seconds through simulate, seconds of rules alone, the games played)."""
    game = sessions.registry.get(game_id).definition
    keeper = _Keeper()
    simulation = Simulation(sessions, ui=keeper)
    report = simulation.run(game_id, games=games, seed=seed, seats=["random"] * players, options={})
    if report.errors:
        failure = report.failures[0]
        raise RuntimeError(f"seed {failure['seed']}: {failure['error']}")
    rules = _rules_seconds(game, keeper.games, sessions)
    return report.actions, report.seconds, rules, keeper.games


def bench_games(
    sessions: SessionStarter,
    game_ids: Sequence[str],
    *,
    games: int = 100,
    rounds: int = 3,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[GameBench]:
    """Bench ``game_ids`` (each at its minimum player count), rounds interleaved."""
    benches = {
        game_id: GameBench(game_id, sessions.registry.get(game_id).info.min_players, games)
        for game_id in game_ids
    }
    last: dict[str, list[_Played]] = {}
    steps = rounds * len(game_ids)
    done = 0
    for _ in range(rounds):
        for game_id in game_ids:
            bench = benches[game_id]
            if bench.error is None:
                try:
                    actions, seconds, rules, played = _one_round(
                        sessions, game_id, bench.players, games, seed
                    )
                except Exception as exc:  # one broken game must not stop the others
                    bench.error = f"{type(exc).__name__}: {exc}"
                else:
                    bench.actions = actions
                    bench.samples.setdefault("seconds", []).append(seconds)
                    bench.samples.setdefault("rules", []).append(rules)
                    last[game_id] = played
            done += 1
            if progress is not None:
                progress(done, steps)
    for game_id, bench in benches.items():
        if bench.error is not None or not bench.actions:
            continue
        seconds = statistics.median(bench.samples["seconds"])
        rules = statistics.median(bench.samples["rules"])
        bench.games_per_second = games / seconds if seconds else 0.0
        bench.us_per_action = 1e6 * seconds / bench.actions
        bench.rules_us_per_action = 1e6 * rules / bench.actions
        bench.framework_us_per_action = bench.us_per_action - bench.rules_us_per_action
        longest = max(last[game_id], key=lambda played: len(played.log))
        definition = sessions.registry.get(game_id).definition
        engine = Engine.from_record(
            definition,
            GameRecord(
                game_id,
                longest.seed,
                longest.players,
                longest.options,
                [(entry.seat, entry.action) for entry in longest.log],
            ),
            rng_factory=sessions.rng_factory,
            dice_factory=sessions.dice_factory,
            verify=False,
        )
        size, save, load = _save_and_load(definition, engine.record(), sessions, rounds)
        bench.save_bytes, bench.save_ms, bench.load_ms = size, 1e3 * save, 1e3 * load
    return [benches[game_id] for game_id in game_ids]


def format_table(benches: Sequence[GameBench]) -> list[str]:
    """The figures as aligned lines of words, one game per line."""
    lines = [
        f"{'game':<28} {'games/s':>9} {'µs/action':>10} {'rules':>8} {'framework':>10} "
        f"{'save KiB':>9} {'save ms':>8} {'load ms':>8}"
    ]
    for bench in benches:
        if bench.error is not None:
            lines.append(f"{bench.game:<28} failed: {bench.error}")
            continue
        lines.append(
            f"{bench.game:<28} {bench.games_per_second:>9.1f} {bench.us_per_action:>10.1f} "
            f"{bench.rules_us_per_action:>8.1f} {bench.framework_us_per_action:>10.1f} "
            f"{bench.save_bytes / 1024:>9.1f} {bench.save_ms:>8.2f} {bench.load_ms:>8.1f}"
        )
    return lines


@dataclass
class StartupBench:
    """Wall and CPU time of ``tabletop games --json`` against a bare interpreter."""

    runs: int
    bare_ms: float = 0.0
    games_ms: float = 0.0
    bare_cpu_ms: float = 0.0
    games_cpu_ms: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "bare_ms": round(self.bare_ms, 1),
            "games_ms": round(self.games_ms, 1),
            "above_bare_ms": round(self.games_ms - self.bare_ms, 1),
            "bare_cpu_ms": round(self.bare_cpu_ms, 1),
            "games_cpu_ms": round(self.games_cpu_ms, 1),
            "above_bare_cpu_ms": round(self.games_cpu_ms - self.bare_cpu_ms, 1),
        }


def bench_startup(runs: int = 7) -> StartupBench:
    """Medians of interleaved runs of ``python -c pass`` and ``python -m tabletop games
    --json`` (the same interpreter, the environment as it is)."""
    import os
    import resource
    import subprocess
    import sys

    commands = {
        "bare": [sys.executable, "-c", "pass"],
        "games": [sys.executable, "-m", "tabletop", "games", "--json"],
    }
    wall: dict[str, list[float]] = {"bare": [], "games": []}
    cpu: dict[str, list[float]] = {"bare": [], "games": []}
    for _ in range(runs):
        for name, command in commands.items():
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            started = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=dict(os.environ))
            wall[name].append(time.perf_counter() - started)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[name].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return StartupBench(
        runs,
        1e3 * statistics.median(wall["bare"]),
        1e3 * statistics.median(wall["games"]),
        1e3 * statistics.median(cpu["bare"]),
        1e3 * statistics.median(cpu["games"]),
    )


def format_startup(bench: StartupBench) -> list[str]:
    data = bench.to_json()
    return [
        f"start-up, tabletop games --json (median of {bench.runs}): "
        f"{data['games_ms']} ms wall, {data['games_cpu_ms']} ms CPU; a bare interpreter "
        f"{data['bare_ms']} ms wall, {data['bare_cpu_ms']} ms CPU; "
        f"above it: {data['above_bare_ms']} ms wall, {data['above_bare_cpu_ms']} ms CPU"
    ]


def _new_engine(
    game: GameDefinition, sessions: SessionStarter, seed: int, players: int | None = None
) -> Engine:
    """A game at ``players`` seats (default: its smallest player count) and default
    options, as batch play has it."""
    return Engine(
        game,
        seed=seed,
        players=players or game.info.min_players,
        options={},
        rng_factory=sessions.rng_factory,
        dice_factory=sessions.dice_factory,
        undo=False,
    )


def bench_mcts(
    sessions: SessionStarter,
    game_ids: Sequence[str],
    *,
    kind: str = "mcts",
    decisions: int = 6,
    seed: int = 0,
) -> dict[str, Any]:
    """Search speed per game: the ``kind`` bot (registered by the app) thinks at the
    first ``decisions`` decisions of a game (random moves in between), and its own
    statistics give iterations and simulated actions per second."""
    from tabletop.framework.bots import RandomBot, bot_move

    results: dict[str, Any] = {}
    if kind not in sessions.registry.bots:
        return {"error": f"no {kind!r} bot kind is registered"}
    for game_id in game_ids:
        game = sessions.registry.get(game_id).definition
        bot = sessions.registry.bots[kind][0](game)
        engine = _new_engine(game, sessions, seed)
        iterations = actions = 0
        seconds = 0.0
        thought = 0
        try:
            while thought < decisions and engine.prompt is not None:
                prompt = engine.prompt
                if len(prompt.choices) > 1:
                    action = bot_move(engine, bot)
                    stats = getattr(bot, "last", None)
                    iterations += getattr(stats, "iterations", 0)
                    actions += getattr(stats, "actions", 0)
                    seconds += getattr(stats, "seconds", 0.0)
                    thought += 1
                else:
                    action = bot_move(engine, RandomBot())
                engine.act(prompt.seat, action)
        except Exception as exc:  # one game's failure is a figure, not a crash
            results[game_id] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        results[game_id] = {
            "decisions": thought,
            "iterations": iterations,
            "iterations_per_second": round(iterations / seconds, 1) if seconds else 0.0,
            "simulated_actions_per_second": round(actions / seconds) if seconds else 0,
        }
    return results


def format_mcts(results: dict[str, Any], kind: str = "mcts") -> list[str]:
    lines = [f"search ({kind} bot), at a game's first decisions:"]
    if "error" in results:
        return [*lines, f"  {results['error']}"]
    for game_id, row in results.items():
        if "error" in row:
            lines.append(f"  {game_id:<28} failed: {row['error']}")
        else:
            lines.append(
                f"  {game_id:<28} {row['iterations_per_second']:>8.1f} iterations/s, "
                f"{row['simulated_actions_per_second']:>7} simulated actions/s"
            )
    return lines


#: What a player should wait for a bot at the default strength (issue 25): on average
#: under half a second a decision, and never over 2 seconds.
TARGET_MEAN_SECONDS = 0.5
TARGET_MAX_SECONDS = 2.0


@dataclass
class BotTiming:
    """How long one bot kind takes per decision in one game at one seat count, the kind
    playing every seat (decisions with more than one legal choice only: the others are
    answered without a search)."""

    game: str
    kind: str
    players: int
    games: int = 0
    wall: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    actions: list[int] = field(default_factory=list)
    """Simulated actions of each decision, when the bot is a search bot."""
    error: str | None = None

    @property
    def decisions(self) -> int:
        return len(self.wall)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "kind": self.kind,
            "players": self.players,
            "games": self.games,
            "decisions": self.decisions,
        }
        if self.wall:
            data.update(
                mean_seconds=round(statistics.fmean(self.wall), 4),
                p95_seconds=round(_percentile(self.wall, 0.95), 4),
                max_seconds=round(max(self.wall), 4),
                mean_cpu_seconds=round(statistics.fmean(self.cpu), 4),
                p95_cpu_seconds=round(_percentile(self.cpu, 0.95), 4),
                max_cpu_seconds=round(max(self.cpu), 4),
                over_target=sum(1 for wall in self.wall if wall > TARGET_MAX_SECONDS),
            )
        if self.actions:
            data.update(
                mean_actions=round(statistics.fmean(self.actions), 1),
                max_actions=max(self.actions),
            )
            if sum(self.actions):
                data["cpu_us_per_action"] = round(1e6 * sum(self.cpu) / sum(self.actions), 1)
        if self.error is not None:
            data["error"] = self.error
        return data


def _percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: the value that ``fraction`` of ``values`` do not
    exceed."""
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def bench_bots(
    sessions: SessionStarter,
    game_ids: Sequence[str],
    *,
    kind: str = "mcts",
    players: Sequence[int] | None = None,
    games: int = 1,
    decisions: int = 60,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> list[BotTiming]:
    """What a player waits for: the ``kind`` bot plays every seat of ``games`` games of
    each game (seeds as ``simulate`` draws them), at each seat count in ``players`` that
    the game allows (default: its least and its most), and every decision is timed,
    wall-clock and CPU, up to ``decisions`` a game (a game stops there: the bench stays
    bounded). A search bot's simulated actions are counted too, the machine-independent
    measure of its work."""
    from tabletop.framework.bots import batch_seed, bot_move

    jobs: list[tuple[str, int]] = []  # (game, seats)
    for game_id in game_ids:
        info = sessions.registry.get(game_id).info
        counts = players or sorted({info.min_players, info.max_players})
        allowed = [n for n in counts if info.min_players <= n <= info.max_players]
        jobs.extend((game_id, n) for n in (allowed or [info.min_players]))
    total = len(jobs) * games * decisions
    timings: list[BotTiming] = []
    for number, (game_id, seats) in enumerate(jobs):
        timing = BotTiming(game_id, kind, seats)
        timings.append(timing)
        try:
            game = sessions.registry.get(game_id).definition
            if kind not in sessions.registry.bot_kinds(game_id):
                raise ValueError(f"no bot kind {kind!r} for {game_id}")
            bot = sessions.registry.bots[kind][0](game)
            for index in range(games):
                engine = _new_engine(game, sessions, batch_seed(seed, index), seats)
                before = (number * games + index) * decisions  # for the progress counter
                timed = moves = 0
                # A move cap too: a game of forced moves must end the bench all the same.
                while engine.prompt is not None and timed < decisions and moves < 20 * decisions:
                    prompt = engine.prompt
                    wall, cpu = time.perf_counter(), time.process_time()
                    action = bot_move(engine, bot)
                    if len(prompt.choices) > 1:
                        timing.wall.append(time.perf_counter() - wall)
                        timing.cpu.append(time.process_time() - cpu)
                        stats = getattr(bot, "last", None)
                        if stats is not None:
                            timing.actions.append(int(getattr(stats, "actions", 0)))
                        timed += 1
                        if progress is not None:
                            progress(before + timed, total)
                    engine.act(prompt.seat, action)
                    moves += 1
                timing.games += 1
        except Exception as exc:  # one game's failure is a figure, not a crash
            timing.error = f"{type(exc).__name__}: {exc}"
        if progress is not None:
            progress((number + 1) * games * decisions, total)
    return timings


def format_bots(timings: Sequence[BotTiming]) -> list[str]:
    kinds = sorted({timing.kind for timing in timings})
    lines = [
        f"bots ({', '.join(kinds)} in every seat), seconds per decision, wall-clock "
        "(CPU in brackets):",
        f"  {'game':<28} {'seats':>5} {'decisions':>9} {'mean':>14} {'p95':>14} "
        f"{'max':>14} {'actions':>8} {'µs/action':>9}",
    ]
    met = True
    for timing in timings:
        data = timing.to_json()
        head = f"  {timing.game:<28} {timing.players:>5}"
        if timing.error is not None:
            lines.append(f"{head} failed: {timing.error}")
            continue
        if not timing.wall:
            lines.append(f"{head} no decision to time")
            continue
        met = met and (
            data["mean_seconds"] < TARGET_MEAN_SECONDS and data["max_seconds"] <= TARGET_MAX_SECONDS
        )
        lines.append(
            f"{head} {timing.decisions:>9} "
            + " ".join(
                f"{_seconds(data[f'{name}_seconds']):>6} ({_seconds(data[f'{name}_cpu_seconds'])})"
                for name in ("mean", "p95", "max")
            )
            + f" {data.get('mean_actions', 0):>8.0f} {data.get('cpu_us_per_action', 0):>9.1f}"
        )
    lines.append(
        f"  target (mean under {TARGET_MEAN_SECONDS} s, none over {TARGET_MAX_SECONDS:.0f} s, "
        f"wall-clock): {'met' if met else 'NOT met'}"
    )
    return lines


def _seconds(value: float) -> str:
    return f"{value:.3f}"


def _duration(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.2f} s"
    return f"{1e3 * seconds:.1f} ms" if seconds >= 1e-3 else f"{1e6 * seconds:.0f} µs"


def load_average() -> list[float] | None:
    """The 1, 5 and 15 minute load averages (None where the system has none): what
    else the machine was doing, to read the figures by."""
    import os

    try:
        return [round(value, 2) for value in os.getloadavg()]
    except (AttributeError, OSError):
        return None
