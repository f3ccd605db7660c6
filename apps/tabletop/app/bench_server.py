"""``tabletop bench --server``: networked play measured over loopback.

``tabletop serve`` processes with a fresh database in a temporary folder (or, with
``--server-db``, a PostgreSQL database shared by ``--server-processes`` of them); this
process hosts N games at once (50 by default) and plays every seat of every game with a
random bot through ``play_seat``, the client ``tabletop join --bot`` uses, all on one
asyncio loop (with several servers, a game's seats are spread over them, so each move
reaches the other seats through the database's notifications). Reported: moves per
second over all games, the latency of a move (from sending it to its acknowledgement,
which the server sends after checking, applying and committing it) at p50 and p95, and
the servers' memory per open game (their resident sets after the games were hosted, less
before, divided by N). Why separate processes for the servers: their memory is then
their own, and the clients do not share their interpreter lock. The servers run with
their limits per client raised to fit the load (``serve --connections`` and the like):
every connection comes from this one address.

``--server-mixed`` measures what issue 35 asks of a loaded server instead: while 100
La Révolution française games of four ``random`` seats and 6 Red Flag Over Paris games
of ``mcts,mcts`` play on the server (all their seats bots on the server, within limits
raised for the bench), a person's seat in another game (Pig against a random bot on the
server, played from here at a person's pace) sends its moves; reported are that seat's
latency per move (to the acknowledgement) at p50, p95 and max, the time until its next
decision came back (the bot's whole turn, when it passed the turn), and how many moves
the bot games made meanwhile (counted in the server's database).

The limits of issue 36 (idle connections, many connections on one seat, finished games
in the store) are measured by ``bench_server_limits``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

#: Files this process may need beyond its connections (the interpreter, its modules).
SPARE_FILES = 256


def enough_files(wanted: int) -> int:
    """Let this process open ``wanted`` files: the soft limit on open files raised up
    to the hard one where it is lower (1,024 by default on Linux, where every socket is
    a file); returns the soft limit now (0 where the system has none to tell)."""
    try:
        import resource
    except ImportError:  # not on Windows
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    return -1 if soft == resource.RLIM_INFINITY else int(soft)


def rss_kib(pid: int, field: str = "VmRSS") -> int:
    """A process's resident set in KiB (``VmHWM``: its peak), from Linux's /proc; 0
    where it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(f"{field}:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def open_files(pid: int) -> int:
    """How many files (sockets included) a process holds open (Linux /proc; 0 else)."""
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return 0


def percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def ms(values: list[float], fraction: float) -> float:
    """A percentile of seconds, in milliseconds."""
    return round(percentile(values, fraction) * 1000, 2)


def bench_env(folder: Path) -> dict[str, str]:
    """The servers' environment: their saves and log in the bench's folder."""
    env = dict(os.environ, TABLETOP_SAVE_DIR=str(folder / "saves"))
    env["TABLETOP_LOG_FILE"] = str(folder / "log.jsonl")
    return env


def start_server(db: str, folder: Path, *options: str) -> tuple[subprocess.Popen[str], str]:
    """A ``tabletop serve`` process on ``db`` (a port of its own) and its URL once it
    listens; RuntimeError with what it said when it did not start."""
    server = subprocess.Popen(
        [sys.executable, "-m", "tabletop", "serve", "--port", "0", "--db", db, *options],
        env=bench_env(folder),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert server.stdout is not None
    line = server.stdout.readline()
    if not line.startswith("tabletop: serving on "):
        stop_server(server)
        said = (line + (server.stdout.read() or "")).strip()[-2000:]
        raise RuntimeError(f"the server did not start: {said}")
    return server, line.split()[3]


def stop_server(server: subprocess.Popen[str]) -> None:
    """Stop a server as Ctrl+C does; killed when it does not stop within 30 s."""
    if server.poll() is None:
        server.terminate()
        try:
            server.wait(30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(10)


@contextlib.contextmanager
def servers(
    db: str | None, folder: Path, count: int, *options: str
) -> Iterator[list[tuple[subprocess.Popen[str], str]]]:
    """``count`` server processes on ``db`` (a SQLite file in ``folder`` when None),
    stopped on the way out."""
    started: list[tuple[subprocess.Popen[str], str]] = []
    try:
        for _ in range(count):
            started.append(start_server(db or str(folder / "db"), folder, *options))
        yield started
    finally:
        for server, _ in started:
            stop_server(server)


@dataclass
class ServerBench:
    game: str
    games: int
    players: int
    processes: int
    """Server processes (on one PostgreSQL database when more than one)."""
    store: str
    """``sqlite`` or ``postgresql``."""
    moves: int
    seconds: float
    moves_per_second: float
    p50_ms: float
    p95_ms: float
    max_ms: float
    rss_before_kib: int
    """The servers' resident sets before the games were hosted, added up."""
    rss_hosted_kib: int
    rss_end_kib: int
    kib_per_game: float
    reconnects: int
    refusals: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def bench_server(
    registry: Any,
    game_id: str,
    *,
    games: int = 50,
    players: int | None = None,
    processes: int = 1,
    db: str | None = None,
) -> ServerBench:
    """Play ``games`` games of ``game_id`` at once on ``processes`` servers (on ``db``,
    a PostgreSQL URL when there are several; a fresh SQLite file otherwise)."""
    from tabletop.adapters.server.client import bot_decider, play_seat, request
    from tabletop.framework.bots import RandomBot

    definition = registry.get(game_id).definition
    count = players if players is not None else definition.info.min_players
    definition.info.check_players(count)
    connections = str(games * count + 64)
    enough_files(games * count + SPARE_FILES)  # every seat's connection is a file here
    limits = [
        *("--connections", connections, "--connections-per-client", connections),
        *("--games-per-client-hour", str(games + 1)),
    ]
    with (
        tempfile.TemporaryDirectory(prefix="tabletop-bench-server-") as folder,
        servers(db, Path(folder), processes, *limits) as started,
    ):
        urls = [url for _, url in started]
        pids = [server.pid for server, _ in started]

        def rss() -> int:
            return sum(rss_kib(pid) for pid in pids)

        rss_before = rss()

        async def main() -> tuple[list[Any], float, int]:
            hosted = []
            for g in range(games):  # each server hosts its share
                message = {"type": "host", "game": game_id, "players": count}
                hosted.append(await request(urls[g % len(urls)], message))
            rss_hosted = rss()
            started_at = time.perf_counter()
            seats = await asyncio.gather(
                *(
                    play_seat(
                        urls[(g + int(s)) % len(urls)],  # a game's seats on every server
                        token,
                        bot_decider(definition, RandomBot(), 7919 * g + int(s)),
                    )
                    for g, game in enumerate(hosted)
                    for s, token in game["invites"].items()
                )
            )
            return seats, time.perf_counter() - started_at, rss_hosted

        seats, seconds, rss_hosted = asyncio.run(main())
        rss_end = rss()
    latencies = [value for seat in seats for value in seat.latencies]
    return ServerBench(
        game=game_id,
        games=games,
        players=count,
        processes=processes,
        store="postgresql" if db and db.startswith(("postgres://", "postgresql://")) else "sqlite",
        moves=len(latencies),
        seconds=round(seconds, 3),
        moves_per_second=round(len(latencies) / seconds, 1) if seconds else 0.0,
        p50_ms=round(statistics.median(latencies) * 1000, 2) if latencies else 0.0,
        p95_ms=ms(latencies, 0.95),
        max_ms=round(max(latencies, default=0.0) * 1000, 2),
        rss_before_kib=rss_before,
        rss_hosted_kib=rss_hosted,
        rss_end_kib=rss_end,
        kib_per_game=round((rss_hosted - rss_before) / games, 1) if games else 0.0,
        reconnects=sum(seat.reconnects for seat in seats),
        refusals=sum(len(seat.refusals) for seat in seats),
    )


def format_server(bench: ServerBench) -> list[str]:
    where = (
        f"{bench.processes} server processes on one {bench.store} database"
        if bench.processes > 1
        else f"one server process ({bench.store})"
    )
    return [
        f"server over loopback: {bench.games} concurrent games of {bench.game}, "
        f"{bench.players} random-bot clients each; {where}",
        f"  {bench.moves} moves in {bench.seconds} s: {bench.moves_per_second} moves/s",
        f"  latency per move (send to acknowledgement, committed): p50 {bench.p50_ms} ms, "
        f"p95 {bench.p95_ms} ms, max {bench.max_ms} ms",
        f"  server memory: {bench.rss_before_kib} KiB idle, {bench.rss_hosted_kib} KiB with "
        f"the games open ({bench.kib_per_game} KiB per game), {bench.rss_end_kib} KiB at the end",
    ]


def format_mixed(bench: MixedBench) -> list[str]:
    games = ", ".join(f"{count} {game}" for game, count in bench.load.items())
    return [
        f"server under a mixed load: {games} (every seat a bot on the server), and a "
        f"person's seat in a {PROBE_GAME} game against a random bot",
        f"  the person's {bench.moves} moves in {bench.seconds} s (one every "
        f"{THINK_SECONDS:g} s of thought): p50 {bench.p50_ms} ms, p95 {bench.p95_ms} ms, "
        f"max {bench.max_ms} ms to the acknowledgement",
        f"  to the person's next decision (over the bot's turn): p50 {bench.next_p50_ms} ms, "
        f"p95 {bench.next_p95_ms} ms, max {bench.next_max_ms} ms",
        f"  meanwhile the bot games made {bench.bot_moves} moves "
        f"({bench.bot_moves_per_second} a second: "
        + ", ".join(f"{count} in {game}" for game, count in bench.bot_moves_by_game.items())
        + f"); server memory {bench.rss_end_kib} KiB",
    ]


def run_bench_server(args: Any, registry: Any) -> int:
    """``tabletop bench --server [GAME]``: the first game id given, else pig;
    ``--server-mixed``: the mixed load instead."""
    if getattr(args, "server_mixed", False):
        if args.server_seconds <= 0:
            from tabletop.framework.errors import TabletopError

            raise TabletopError("--server-seconds must be more than 0")
        mixed = bench_mixed(registry, seconds=args.server_seconds)
        if args.json:
            print(json.dumps({"server_mixed": mixed.to_json()}, indent=2))
        else:
            print("\n".join(format_mixed(mixed)))
        return 0 if mixed.moves and not mixed.refusals else 1
    from tabletop.framework.errors import TabletopError

    game_id = args.game[0] if args.game else "pig"
    registry.get(game_id)  # an unknown game is refused before the server starts
    if args.server_games < 1:
        raise TabletopError("--server-games must be 1 or more")
    processes, db = args.server_processes, args.server_db
    if processes < 1:
        raise TabletopError("--server-processes must be 1 or more")
    if processes > 1 and not (db or "").startswith(("postgresql://", "postgres://")):
        raise TabletopError(
            "--server-processes above 1 share one PostgreSQL database: give it with "
            "--server-db postgresql://USER@HOST/DB"
        )
    bench = bench_server(
        registry,
        game_id,
        games=args.server_games,
        players=args.server_players,
        processes=processes,
        db=db,
    )
    if args.json:
        print(json.dumps({"server": bench.to_json()}, indent=2))
    else:
        print("\n".join(format_server(bench)))
    return 0 if bench.refusals == 0 and bench.moves else 1


#: The mixed load (issue 35): all-bot games of each kind, and their seats.
MIXED_LOAD = (
    ("la-revolution-francaise", ["random"] * 4, 100),
    ("red-flag-over-paris", ["mcts", "mcts"], 6),
)
#: The person's game: Pig against a random bot on the server.
PROBE_GAME, PROBE_SEATS = "pig", ["human", "random"]
#: A person's pause between seeing a decision and answering it (seconds).
THINK_SECONDS = 0.1


@dataclass
class MixedBench:
    load: dict[str, int]
    """Bot games hosted, by game."""
    seconds: float
    moves: int
    """The person's moves measured (each acknowledged)."""
    p50_ms: float
    p95_ms: float
    max_ms: float
    next_p50_ms: float
    next_p95_ms: float
    next_max_ms: float
    """Time from a move to the seat's next decision (over the bot's turn, if any)."""
    bot_moves: int
    """Moves the bot games made while the person played."""
    bot_moves_by_game: dict[str, int]
    bot_moves_per_second: float
    refusals: int
    rss_end_kib: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class _Stop(Exception):
    """The measuring window is over."""


def _bot_moves(db: Path, games: list[str]) -> int:
    """How many actions the server has committed for ``games`` (read beside it: WAL)."""
    import sqlite3

    marks = ",".join("?" * len(games))
    with sqlite3.connect(db) as conn:
        row = conn.execute(f"SELECT count(*) FROM actions WHERE game IN ({marks})", games)
        return int(row.fetchone()[0])


def bench_mixed(
    registry: Any,
    *,
    seconds: float = 60.0,
    load: tuple[tuple[str, list[str], int], ...] = MIXED_LOAD,
) -> MixedBench:
    import random

    from tabletop.adapters.server.client import Seat, play_seat, request

    for game_id, _, _ in (*load, (PROBE_GAME, PROBE_SEATS, 1)):
        registry.get(game_id)  # an unknown game is refused before the server starts
    total = sum(count for _, _, count in load)
    limit = str(total + 1)
    with (
        tempfile.TemporaryDirectory(prefix="tabletop-bench-mixed-") as folder,
        servers(
            None,
            Path(folder),
            1,
            *("--bot-games", limit, "--bot-games-per-client", limit),
            # the person's games are hosted one after another: one every few seconds
            *("--games-per-client-hour", str(total + 100_000)),
        ) as started,
    ):
        db = Path(folder) / "db"
        (server, url), *_ = started

        async def main() -> tuple[list[float], list[float], dict[str, int], int, float]:
            hosted: dict[str, list[str]] = {}
            for game_id, seats, count in load:
                for _ in range(count):
                    message = {"type": "host", "game": game_id, "seats": seats}
                    hosted.setdefault(game_id, []).append((await request(url, message))["game"])
            latencies: list[float] = []
            nexts: list[float] = []
            refusals = 0
            rng = random.Random(35)
            before = {game: _bot_moves(db, ids) for game, ids in hosted.items()}
            started = time.perf_counter()
            deadline = started + seconds
            sent = [0.0]

            async def decide(seat: Seat) -> str:
                now = time.perf_counter()
                if sent[0]:
                    nexts.append(now - sent[0])
                if now > deadline:
                    raise _Stop
                await asyncio.sleep(THINK_SECONDS)
                assert seat.prompt is not None
                sent[0] = time.perf_counter()
                return rng.choice(seat.prompt.choices).action

            while time.perf_counter() < deadline:
                game = await request(
                    url, {"type": "host", "game": PROBE_GAME, "seats": PROBE_SEATS}
                )
                sent[0] = 0.0
                seen: list[Seat] = []  # the seat, once told anything (kept past _Stop)
                with contextlib.suppress(_Stop):
                    await play_seat(url, game["invites"]["0"], decide, on_update=seen.append)
                if seen:
                    latencies += seen[-1].latencies
                    refusals += len(seen[-1].refusals)
            elapsed = time.perf_counter() - started
            made = {game: _bot_moves(db, ids) - before[game] for game, ids in hosted.items()}
            return latencies, nexts, made, refusals, elapsed

        latencies, nexts, bot_moves, refusals, elapsed = asyncio.run(main())
        rss_end = rss_kib(server.pid)

    return MixedBench(
        load={game_id: count for game_id, _, count in load},
        seconds=round(elapsed, 1),
        moves=len(latencies),
        p50_ms=ms(latencies, 0.5),
        p95_ms=ms(latencies, 0.95),
        max_ms=round(max(latencies, default=0.0) * 1000, 2),
        next_p50_ms=ms(nexts, 0.5),
        next_p95_ms=ms(nexts, 0.95),
        next_max_ms=round(max(nexts, default=0.0) * 1000, 2),
        bot_moves=sum(bot_moves.values()),
        bot_moves_by_game=bot_moves,
        bot_moves_per_second=round(sum(bot_moves.values()) / elapsed, 1) if elapsed else 0.0,
        refusals=refusals,
        rss_end_kib=rss_end,
    )
