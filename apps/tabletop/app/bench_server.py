"""``tabletop bench --server``: networked play measured over loopback.

A ``tabletop serve`` process with a fresh database in a temporary folder; this process
hosts N games at once (50 by default) and plays every seat of every game with a random
bot through ``play_seat``, the client ``tabletop join --bot`` uses, all on one asyncio
loop. Reported: moves per second over all games, the latency of a move (from sending it
to its acknowledgement, which the server sends after checking, applying and committing
it) at p50 and p95, and the server's memory per open game (its resident set after the
games were hosted, less before, divided by N). Why a separate process for the server:
its memory is then its own, and the clients do not share its interpreter lock.

``--server-mixed`` measures what issue 35 asks of a loaded server instead: while 100
La Révolution française games of four ``random`` seats and 6 Red Flag Over Paris games
of ``mcts,mcts`` play on the server (all their seats bots on the server, within limits
raised for the bench), a person's seat in another game (Pig against a random bot on the
server, played from here at a person's pace) sends its moves; reported are that seat's
latency per move (to the acknowledgement) at p50, p95 and max, the time until its next
decision came back (the bot's whole turn, when it passed the turn), and how many moves
the bot games made meanwhile (counted in the server's database).
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
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any


@dataclass
class ServerBench:
    game: str
    games: int
    players: int
    moves: int
    seconds: float
    moves_per_second: float
    p50_ms: float
    p95_ms: float
    max_ms: float
    rss_before_kib: int
    rss_hosted_kib: int
    rss_end_kib: int
    kib_per_game: float
    reconnects: int
    refusals: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _rss_kib(pid: int) -> int:
    """The resident set of a process in KiB (Linux /proc); 0 where it cannot be read."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def _percentile(values: list[float], fraction: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def bench_server(
    registry: Any, game_id: str, *, games: int = 50, players: int | None = None
) -> ServerBench:
    from tabletop.adapters.server.client import bot_decider, play_seat, request
    from tabletop.framework.bots import RandomBot

    definition = registry.get(game_id).definition
    count = players if players is not None else definition.info.min_players
    definition.info.check_players(count)
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-server-") as folder:
        env = dict(os.environ, TABLETOP_SAVE_DIR=str(Path(folder) / "saves"))
        env["TABLETOP_LOG_FILE"] = str(Path(folder) / "log.jsonl")
        server = subprocess.Popen(
            [sys.executable, "-m", "tabletop", "serve", "--port", "0", "--db", f"{folder}/db"],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            if not line.startswith("tabletop: serving on "):
                raise RuntimeError(f"the server did not start: {line.strip()}")
            url = line.split()[3]
            rss_before = _rss_kib(server.pid)

            async def main() -> tuple[list[Any], float, int]:
                message = {"type": "host", "game": game_id, "players": count}
                hosted = [await request(url, message) for _ in range(games)]
                rss_hosted = _rss_kib(server.pid)
                started = time.perf_counter()
                seats = await asyncio.gather(
                    *(
                        play_seat(
                            url, token, bot_decider(definition, RandomBot(), 7919 * g + int(s))
                        )
                        for g, game in enumerate(hosted)
                        for s, token in game["invites"].items()
                    )
                )
                return seats, time.perf_counter() - started, rss_hosted

            seats, seconds, rss_hosted = asyncio.run(main())
            rss_end = _rss_kib(server.pid)
        finally:
            server.terminate()
            server.wait(10)
    latencies = [value for seat in seats for value in seat.latencies]
    return ServerBench(
        game=game_id,
        games=games,
        players=count,
        moves=len(latencies),
        seconds=round(seconds, 3),
        moves_per_second=round(len(latencies) / seconds, 1) if seconds else 0.0,
        p50_ms=round(statistics.median(latencies) * 1000, 2) if latencies else 0.0,
        p95_ms=round(_percentile(latencies, 0.95) * 1000, 2),
        max_ms=round(max(latencies, default=0.0) * 1000, 2),
        rss_before_kib=rss_before,
        rss_hosted_kib=rss_hosted,
        rss_end_kib=rss_end,
        kib_per_game=round((rss_hosted - rss_before) / games, 1) if games else 0.0,
        reconnects=sum(seat.reconnects for seat in seats),
        refusals=sum(len(seat.refusals) for seat in seats),
    )


def format_server(bench: ServerBench) -> list[str]:
    return [
        f"server over loopback: {bench.games} concurrent games of {bench.game}, "
        f"{bench.players} random-bot clients each",
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
    game_id = args.game[0] if args.game else "pig"
    registry.get(game_id)  # an unknown game is refused before the server starts
    if args.server_games < 1:
        from tabletop.framework.errors import TabletopError

        raise TabletopError("--server-games must be 1 or more")
    bench = bench_server(registry, game_id, games=args.server_games, players=args.server_players)
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
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-mixed-") as folder:
        db = Path(folder) / "db"
        env = dict(os.environ, TABLETOP_SAVE_DIR=str(Path(folder) / "saves"))
        env["TABLETOP_LOG_FILE"] = str(Path(folder) / "log.jsonl")
        limit = str(total + 1)
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "tabletop", "serve", "--port", "0", "--db", str(db)),
                *("--bot-games", limit, "--bot-games-per-client", limit),
            ],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        try:
            assert server.stdout is not None
            line = server.stdout.readline()
            if not line.startswith("tabletop: serving on "):
                raise RuntimeError(f"the server did not start: {line.strip()}")
            url = line.split()[3]

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
            rss_end = _rss_kib(server.pid)
        finally:
            server.terminate()
            server.wait(30)

    def ms(values: list[float], fraction: float) -> float:
        return round(_percentile(values, fraction) * 1000, 2)

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
