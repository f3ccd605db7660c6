"""``tabletop bench --server``: networked play measured over loopback.

A ``tabletop serve`` process with a fresh database in a temporary folder; this process
hosts N games at once (50 by default) and plays every seat of every game with a random
bot through ``play_seat``, the client ``tabletop join --bot`` uses, all on one asyncio
loop. Reported: moves per second over all games, the latency of a move (from sending it
to its acknowledgement, which the server sends after checking, applying and committing
it) at p50 and p95, and the server's memory per open game (its resident set after the
games were hosted, less before, divided by N). Why a separate process for the server:
its memory is then its own, and the clients do not share its interpreter lock.
"""

from __future__ import annotations

import asyncio
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
                        for s, token in game["tokens"].items()
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


def run_bench_server(args: Any, registry: Any) -> int:
    """``tabletop bench --server [GAME]``: the first game id given, else pig."""
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
