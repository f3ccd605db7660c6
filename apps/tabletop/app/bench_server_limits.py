"""``tabletop bench --server`` under the loads issue 36 names, against ``tabletop serve``
processes of their own (``bench_server.servers``):

- ``--server-idle N``: N connections from one address (127.0.0.2, another loopback
  address than the player's) that each send one harmless message and then stay silent,
  the way about 1,010 of them once locked every new player out. The crowd holds on: a
  connection the server refuses or closes is opened again a second later, and one the
  server keeps sends another harmless message every 20 s (within the server's idle
  timeout). The server runs with its default limits. Meanwhile a new player (from
  127.0.0.1) hosts Pig games against a random bot on the server, joins them and moves:
  reported are the player's time to join and latency per move (p50, p95, max), and
  what the server held (the crowd's connections it kept open, its open files).
- ``--server-one-seat N``: N connections opened at once on one seat (its secret), the
  way 1,000 of them once made every move of that seat build 1,000 updates; the server's
  limits per address are raised so that only the rule of one live connection per seat
  stands in their way. Reported: how many stayed live (one, the newest), how many were
  told they were replaced, another game's moves meanwhile, and the seat's own moves
  once a client plays it.
- ``--server-finished N``: a store filled with N finished La Révolution française
  games (four random bots each, played in this process and stored as a server stores
  its games), and a server started on it that nobody joins them on; then a few more
  all-bot games played to their end on that server. Reported: the server's memory
  (resident set, and its peak) at the start and once those games are over, against the
  200 MB the issue allows.

The crowds run in a process of their own (``multiprocessing``, spawned), so that their
thousands of sockets neither share this process's interpreter lock with the player
whose moves are timed nor its open files. Every process here that holds many sockets
raises its soft limit on open files to the hard limit (``bench_server.enough_files``)
and the report says what it got.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import socket
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from tabletop.app.bench_server import (
    SPARE_FILES,
    enough_files,
    ms,
    open_files,
    rss_kib,
    servers,
)

#: The crowd's own loopback address (Linux routes all of 127.0.0.0/8 to loopback).
CROWD_ADDRESS = "127.0.0.2"
#: The new player's game: Pig against a random bot on the server.
PLAYER_GAME, PLAYER_SEATS = "pig", ["human", "random"]
#: The player's moves measured with --server-idle.
PLAYER_MOVES = 200
#: Seconds between a refused crowd connection and its next attempt; between two
#: harmless messages of a connection the server kept (its idle timeout is 30 s).
RETRY_SECONDS = 1.0
KEEP_ALIVE_SECONDS = 20.0
#: Handshakes the crowd has on the way at once.
OPENING_AT_ONCE = 200
#: What each idle connection asks: an unknown game, refused at once.
HARMLESS = json.dumps({"type": "fetch", "game": "no-such-game"})
#: The finished games' game and seats; all-bot games played on the server afterwards.
FINISHED_GAME, FINISHED_SEATS = "la-revolution-francaise", ["random"] * 4
PLAYED_ON_SERVER = 10
#: Of those, how many play at once (each is in memory while it plays).
PLAYING_AT_ONCE = 10
#: The memory issue 36 allows a server holding 2,000 finished games nobody joined.
MEMORY_BUDGET_KIB = 200 * 1024

# The crowd's counters, shared with its process (indexes of an array of integers).
ATTEMPTS, OPEN, MOST_OPEN, REFUSED, CUT, DONE, REPLACED, CLOSED, FILES = range(9)
COUNTERS = 9


def _crowd_main(
    url: str, mode: str, count: int, address: str, token: str, counters: Any, stop: Any
) -> None:
    """The crowd's process: ``count`` connections (``mode`` "idle" or "seat") until
    ``stop`` is set; what happened goes to ``counters``."""
    counters[FILES] = enough_files(count + SPARE_FILES)
    asyncio.run(_crowd(url, mode, count, address, token, counters, stop))


async def _crowd(
    url: str, mode: str, count: int, address: str, token: str, counters: Any, stop: Any
) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

    from tabletop.adapters.server.server import REPLACED as REPLACED_TEXT

    gate = asyncio.Semaphore(OPENING_AT_ONCE)
    stopping = asyncio.Event()

    async def watch_stop() -> None:
        while not stop.is_set():
            await asyncio.sleep(0.1)
        stopping.set()

    async def pause(seconds: float) -> None:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stopping.wait(), seconds)

    async def receive(ws: Any, seconds: float | None = None) -> Any:
        """The next frame; None after ``seconds`` or once the crowd is stopped."""
        frame = asyncio.ensure_future(ws.recv())
        stopped = asyncio.ensure_future(stopping.wait())
        await asyncio.wait({frame, stopped}, timeout=seconds, return_when="FIRST_COMPLETED")
        stopped.cancel()
        if frame.done():
            return frame.result()  # the connection's end is raised here
        frame.cancel()
        return None

    async def open_one() -> Any:
        """A connection, or None (counted as refused or cut)."""
        async with gate:
            counters[ATTEMPTS] += 1
            try:
                return await connect(
                    url,
                    local_addr=(address, 0),
                    open_timeout=30,
                    close_timeout=1,
                    compression=None,
                    ping_interval=None,
                )
            except InvalidStatus:  # HTTP 503: over a limit, and told so
                counters[REFUSED] += 1
            except (OSError, InvalidHandshake, TimeoutError, ConnectionClosed):
                counters[CUT] += 1
        return None

    def opened() -> None:
        counters[OPEN] += 1
        counters[MOST_OPEN] = max(counters[MOST_OPEN], counters[OPEN])

    async def idle() -> None:
        first = True
        while not stopping.is_set():
            ws = await open_one()
            if ws is not None:
                opened()
                try:
                    async with ws:
                        await ws.send(HARMLESS)
                        await ws.recv()  # refused: no such game
                        if first:
                            counters[DONE] += 1
                            first = False
                        while not stopping.is_set():
                            if await receive(ws, KEEP_ALIVE_SECONDS) is None:
                                await ws.send(HARMLESS)
                except ConnectionClosed:
                    counters[CLOSED] += 1
                finally:
                    counters[OPEN] -= 1
            if first:
                counters[DONE] += 1
                first = False
            await pause(RETRY_SECONDS)

    async def on_seat() -> None:
        ws = await open_one()
        if ws is None:
            counters[DONE] += 1
            return
        opened()
        told = False
        try:
            async with ws:
                await ws.send(json.dumps({"type": "hello", "token": token, "seen": 0}))
                while not stopping.is_set():
                    frame = await receive(ws)
                    if frame is None:
                        break
                    message = json.loads(frame)
                    if not told:
                        told = True
                        counters[DONE] += 1
                    if message.get("type") == "error":
                        why = message.get("reason")
                        counters[REPLACED if why == REPLACED_TEXT else CLOSED] += 1
        except ConnectionClosed:
            pass
        finally:
            counters[OPEN] -= 1
            if not told:
                counters[DONE] += 1

    work = idle if mode == "idle" else on_seat
    watcher = asyncio.create_task(watch_stop())
    await asyncio.gather(*(work() for _ in range(count)))
    watcher.cancel()


class Crowd:
    """A crowd of connections in a process of its own; ``counters`` read live."""

    def __init__(self, url: str, mode: str, count: int, address: str, token: str = "") -> None:
        context = multiprocessing.get_context("spawn")
        self.counters: Any = context.Array("q", COUNTERS, lock=False)
        self.stop = context.Event()
        self.count = count
        self.process = context.Process(
            target=_crowd_main,
            args=(url, mode, count, address, token, self.counters, self.stop),
            daemon=True,
        )

    def __enter__(self) -> Crowd:
        self.process.start()
        return self

    def __exit__(self, kind: object, *exc: object) -> None:
        self.stop.set()
        self.process.join(30)
        if self.process.is_alive():
            self.process.kill()
            self.process.join(10)
        elif self.process.exitcode and kind is None:
            raise RuntimeError(f"the crowd's process failed (exit code {self.process.exitcode})")

    def __getitem__(self, index: int) -> int:
        return int(self.counters[index])

    def wait(self, check: Callable[[Crowd], bool], seconds: float, what: str) -> None:
        """Until ``check(self)``; RuntimeError after ``seconds`` or when the crowd died."""
        deadline = time.monotonic() + seconds
        while not check(self):
            if not self.process.is_alive():
                raise RuntimeError(f"the crowd's process ended before {what}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"timed out waiting for {what}")
            time.sleep(0.05)


def _check_address(address: str) -> None:
    """The crowd's address must be usable here (Linux: all of 127.0.0.0/8)."""
    from tabletop.framework.errors import TabletopError

    try:
        with socket.socket() as probe:
            probe.bind((address, 0))
    except OSError as exc:
        raise TabletopError(
            f"--server-idle needs a second loopback address, {address}, for its crowd "
            f"({exc.strerror or exc}); Linux has it"
        ) from None


@dataclass
class Player:
    """A new player's games on a server: times to join, and per move."""

    joins: list[float]
    latencies: list[float]
    refusals: list[str]
    errors: list[str]


class _Enough(Exception):
    """The player has made the moves asked of it."""


async def play_as_newcomer(url: str, enough: Callable[[int], bool]) -> Player:
    """Host Pig games against a random bot and play them, one after another, until
    ``enough(moves acknowledged)``: as a person who just arrived would."""
    import random

    from tabletop.adapters.server.client import ClientError, Seat, play_seat, request

    player = Player([], [], [], [])
    rng = random.Random(36)
    moves = 0
    while not enough(moves):
        seen: list[Seat] = []
        joining = [0.0]  # when the join began: from the hosted game's invite

        def told(seat: Seat, seen: list[Seat] = seen, joining: list[float] = joining) -> None:
            if not seen:
                player.joins.append(time.perf_counter() - joining[0])
            seen[:1] = [seat]

        def decide(seat: Seat, before: int = moves) -> str:
            if enough(before + len(seat.latencies)):
                raise _Enough
            assert seat.prompt is not None
            return rng.choice(seat.prompt.choices).action

        try:
            game = await request(url, {"type": "host", "game": PLAYER_GAME, "seats": PLAYER_SEATS})
            joining[0] = time.perf_counter()
            with contextlib.suppress(_Enough):
                await play_seat(url, game["invites"]["0"], decide, on_update=told, give_up=30)
        except ClientError as exc:
            player.errors.append(str(exc))
            if len(player.errors) > 3:
                break
        if seen:
            player.latencies += seen[0].latencies
            player.refusals += seen[0].refusals
            moves += len(seen[0].latencies)
    return player


@dataclass
class IdleBench:
    idle: int
    """Connections the crowd kept trying to hold, from one address."""
    attempts: int
    """Its handshakes in all (a refused connection tries again a second later)."""
    held: int
    """Its connections the server had accepted and kept open while the player played."""
    most_held: int
    refused: int
    """Handshakes answered HTTP 503 (over the limit per address, with the reason)."""
    cut: int
    """Handshakes cut at once (a client that went on opening connections)."""
    server_files: int
    """The server's open files while the crowd held on (its sockets and the rest)."""
    crowd_file_limit: int
    joins: int
    join_p95_ms: float
    join_max_ms: float
    moves: int
    p50_ms: float
    p95_ms: float
    max_ms: float
    refusals: int
    errors: list[str]
    rss_end_kib: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def bench_idle(registry: Any, *, count: int = 2000, moves: int = PLAYER_MOVES) -> IdleBench:
    """``count`` idle connections from one address, and a new player's moves."""
    registry.get(PLAYER_GAME)
    _check_address(CROWD_ADDRESS)
    with (
        tempfile.TemporaryDirectory(prefix="tabletop-bench-idle-") as folder,
        servers(None, Path(folder), 1) as started,  # the server's default limits
    ):
        (server, url), *_ = started
        with Crowd(url, "idle", count, CROWD_ADDRESS) as crowd:
            crowd.wait(lambda c: c[DONE] >= count, 120 + count / 20, "the crowd to connect")
            time.sleep(1.0)  # what the server cut is closed by now
            server_files = open_files(server.pid)
            player = asyncio.run(play_as_newcomer(url, lambda made: made >= moves))
            held = crowd[OPEN]
            counters = [crowd[i] for i in range(COUNTERS)]
        rss_end = rss_kib(server.pid)
    joins, latencies = player.joins, player.latencies
    return IdleBench(
        idle=count,
        attempts=counters[ATTEMPTS],
        held=held,
        most_held=counters[MOST_OPEN],
        refused=counters[REFUSED],
        cut=counters[CUT],
        server_files=server_files,
        crowd_file_limit=counters[FILES],
        joins=len(joins),
        join_p95_ms=ms(joins, 0.95),
        join_max_ms=round(max(joins, default=0.0) * 1000, 2),
        moves=len(latencies),
        p50_ms=ms(latencies, 0.5),
        p95_ms=ms(latencies, 0.95),
        max_ms=round(max(latencies, default=0.0) * 1000, 2),
        refusals=len(player.refusals),
        errors=player.errors,
        rss_end_kib=rss_end,
    )


def format_idle(bench: IdleBench) -> list[str]:
    return [
        f"{bench.idle} idle connections from {CROWD_ADDRESS} against a server with its "
        "default limits, and a new player from 127.0.0.1",
        f"  the crowd: {bench.attempts} handshakes, {bench.refused} refused (HTTP 503), "
        f"{bench.cut} cut at once; the server kept {bench.held} of them open "
        f"(at most {bench.most_held}), {bench.server_files} open files in all "
        f"(the crowd's process may open {bench.crowd_file_limit})",
        f"  the player: {bench.joins} joins, p95 {bench.join_p95_ms} ms, max "
        f"{bench.join_max_ms} ms; {bench.moves} moves: p50 {bench.p50_ms} ms, p95 "
        f"{bench.p95_ms} ms, max {bench.max_ms} ms to the acknowledgement",
        f"  refused moves {bench.refusals}, errors {len(bench.errors)}; "
        f"server memory {bench.rss_end_kib} KiB",
    ]


@dataclass
class OneSeatBench:
    connections: int
    """Connections opened on the one seat."""
    replaced: int
    """Of those, told they were replaced by a newer one, then closed by the server."""
    live: int
    """Still open once they had all arrived: the seat's one live connection."""
    refused: int
    cut: int
    storm_seconds: float
    server_files_before: int
    server_files_after: int
    other_moves: int
    """Another game's moves (a player against a bot) while the connections arrived."""
    other_p95_ms: float
    other_max_ms: float
    seat_moves: int
    """The seat's own moves afterwards, from one client."""
    seat_p95_ms: float
    seat_max_ms: float
    refusals: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def bench_one_seat(registry: Any, *, count: int = 1000) -> OneSeatBench:
    """``count`` connections on one seat at once, and what it costs the others."""
    from tabletop.adapters.server.client import (
        ClientError,
        bot_decider,
        new_secret,
        peek,
        play_seat,
        request,
    )
    from tabletop.framework.bots import RandomBot

    definition = registry.get(PLAYER_GAME).definition
    room = str(count + 128)  # only the rule of one live connection per seat limits them
    options = ("--connections", room, "--connections-per-client", room)
    enough_files(count + SPARE_FILES)
    with (
        tempfile.TemporaryDirectory(prefix="tabletop-bench-seat-") as folder,
        servers(None, Path(folder), 1, *options) as started,
    ):
        (server, url), *_ = started

        async def seat_secret() -> str:
            hosted = await request(
                url, {"type": "host", "game": PLAYER_GAME, "seats": PLAYER_SEATS}
            )
            secret = new_secret()
            seat = await peek(url, hosted["invites"]["0"], secret=secret, timeout=30)
            if seat.token != secret:
                raise ClientError("the invite was not bound")
            return secret

        secret = asyncio.run(seat_secret())
        files_before = open_files(server.pid)
        with Crowd(url, "seat", count, "127.0.0.1", secret) as crowd:
            began = time.perf_counter()
            state = {"settled": 0.0}

            def settled(_: int) -> bool:
                """All arrived and no more than one open, for half a second."""
                if crowd[DONE] < count or crowd[OPEN] > 1:
                    state["settled"] = 0.0
                    return time.perf_counter() - began > 300
                state["settled"] = state["settled"] or time.perf_counter()
                return time.perf_counter() - state["settled"] > 0.5

            other = asyncio.run(play_as_newcomer(url, settled))
            storm = time.perf_counter() - began
            live, counters = crowd[OPEN], [crowd[i] for i in range(COUNTERS)]
            files_after = open_files(server.pid)
            mine = asyncio.run(
                play_seat(url, secret, bot_decider(definition, RandomBot(), 36), give_up=30)
            )
    return OneSeatBench(
        connections=count,
        replaced=counters[REPLACED],
        live=live,
        refused=counters[REFUSED],
        cut=counters[CUT],
        storm_seconds=round(storm, 2),
        server_files_before=files_before,
        server_files_after=files_after,
        other_moves=len(other.latencies),
        other_p95_ms=ms(other.latencies, 0.95),
        other_max_ms=round(max(other.latencies, default=0.0) * 1000, 2),
        seat_moves=len(mine.latencies),
        seat_p95_ms=ms(mine.latencies, 0.95),
        seat_max_ms=round(max(mine.latencies, default=0.0) * 1000, 2),
        refusals=len(other.refusals) + len(mine.refusals),
    )


def format_one_seat(bench: OneSeatBench) -> list[str]:
    return [
        f"{bench.connections} connections opened at once on one seat (limits per address "
        "raised: only one live connection per seat holds them back)",
        f"  {bench.live} live once all had arrived ({bench.storm_seconds} s); "
        f"{bench.replaced} told they were replaced, {bench.refused} refused, {bench.cut} "
        f"cut; the server's open files {bench.server_files_before} before, "
        f"{bench.server_files_after} after",
        f"  another game meanwhile: {bench.other_moves} moves, p95 {bench.other_p95_ms} ms, "
        f"max {bench.other_max_ms} ms; then the seat itself: {bench.seat_moves} moves, p95 "
        f"{bench.seat_p95_ms} ms, max {bench.seat_max_ms} ms",
    ]


@dataclass
class FinishedBench:
    stored: int
    """Finished games in the store, none of them joined."""
    actions: int
    """Their actions (rows of the store)."""
    fill_seconds: float
    rss_start_kib: int
    """The server's resident set once started on that store."""
    played: int
    """All-bot games then played to their end on the server."""
    played_actions: int
    played_seconds: float
    rss_end_kib: int
    """Once those were over (a finished game leaves memory)."""
    peak_kib: int
    """The server's peak resident set (``VmHWM``)."""
    budget_kib: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def fill_store(registry: Any, db: Path, count: int) -> int:
    """Store ``count`` finished games of four random bots, as a server keeps them
    (``GameStore.create`` with the finished record); returns their actions."""
    from tabletop.adapters.server.hall import GAME_ID_BYTES, new_token
    from tabletop.adapters.server.store import SqliteGameStore
    from tabletop.framework import chance
    from tabletop.framework.fuzz import MAX_ACTIONS
    from tabletop.framework.session import SessionStarter

    sessions = SessionStarter(registry, chance.rng_factory, chance.dice_factory)
    store = SqliteGameStore(db)
    actions = 0
    try:
        for index in range(count):
            session = sessions.start(
                FINISHED_GAME,
                seed=index + 1,
                players=len(FINISHED_SEATS),
                options=None,
                seats=list(FINISHED_SEATS),
            )
            try:
                session.run(MAX_ACTIONS)
                record = session.record()
            finally:
                session.close()
            if not record.finished:
                raise RuntimeError(f"game {index + 1} did not finish")
            actions += len(record.actions)
            store.create(new_token(GAME_ID_BYTES), record, {new_token(): None})
    finally:
        store.close()
    return actions


def _finished_games(db: Path, games: list[str]) -> int:
    import sqlite3

    marks = ",".join("?" * len(games))
    with sqlite3.connect(db) as conn:
        query = f"SELECT count(*) FROM games WHERE finished AND id IN ({marks})"
        return int(conn.execute(query, games).fetchone()[0])


def _actions_of(db: Path, games: list[str]) -> int:
    import sqlite3

    marks = ",".join("?" * len(games))
    with sqlite3.connect(db) as conn:
        query = f"SELECT count(*) FROM actions WHERE game IN ({marks})"
        return int(conn.execute(query, games).fetchone()[0])


def bench_finished(
    registry: Any, *, count: int = 2000, played: int = PLAYED_ON_SERVER
) -> FinishedBench:
    """A server's memory over a store of ``count`` finished games nobody joins, and
    after ``played`` more were played to their end on it (``PLAYING_AT_ONCE`` at a
    time)."""
    from tabletop.adapters.server.client import request

    registry.get(FINISHED_GAME)
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-finished-") as folder:
        db = Path(folder) / "db"
        began = time.perf_counter()
        actions = fill_store(registry, db, count)
        fill_seconds = time.perf_counter() - began
        room = str(min(played, PLAYING_AT_ONCE) + 1)
        options = [
            *("--bot-games", room, "--bot-games-per-client", room),
            *("--games-per-client-hour", str(played + 1)),
        ]
        with servers(str(db), Path(folder), 1, *options) as started:
            (server, url), *_ = started
            time.sleep(1.0)
            rss_start = rss_kib(server.pid)
            began = time.perf_counter()
            games: list[str] = []
            deadline = time.monotonic() + 600 + 60 * played
            message = {"type": "host", "game": FINISHED_GAME, "seats": FINISHED_SEATS}
            while True:  # PLAYING_AT_ONCE at a time, the next hosted as one ends
                over = _finished_games(db, games) if games else 0
                if over >= played:
                    break
                if len(games) < played and len(games) - over < PLAYING_AT_ONCE:
                    games.append(asyncio.run(request(url, message))["game"])
                    continue
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError("the games played on the server did not finish")
                time.sleep(0.5)
            played_seconds = time.perf_counter() - began
            time.sleep(3.0)  # their answers are kept and they leave memory
            rss_end, peak = rss_kib(server.pid), rss_kib(server.pid, "VmHWM")
            played_actions = _actions_of(db, games) if games else 0
    return FinishedBench(
        stored=count,
        actions=actions,
        fill_seconds=round(fill_seconds, 1),
        rss_start_kib=rss_start,
        played=played,
        played_actions=played_actions,
        played_seconds=round(played_seconds, 1),
        rss_end_kib=rss_end,
        peak_kib=peak,
        budget_kib=MEMORY_BUDGET_KIB,
    )


def format_finished(bench: FinishedBench) -> list[str]:
    return [
        f"a server on a store of {bench.stored} finished {FINISHED_GAME} games "
        f"({bench.actions} actions, stored in {bench.fill_seconds} s), none joined",
        f"  server memory at the start: {bench.rss_start_kib} KiB",
        f"  then {bench.played} all-bot games played to their end on it ({bench.played_actions} "
        f"actions in {bench.played_seconds} s): {bench.rss_end_kib} KiB after, peak "
        f"{bench.peak_kib} KiB (budget {bench.budget_kib} KiB)",
    ]


def run_bench_limits(args: Any, registry: Any) -> int:
    """``tabletop bench --server --server-idle N | --server-one-seat N |
    --server-finished N``: one of them, its figures printed; exit 1 when the
    figures miss what issue 36 asks."""
    from tabletop.framework.errors import TabletopError

    chosen = [
        (name, value)
        for name, value in (
            ("idle", args.server_idle),
            ("one-seat", args.server_one_seat),
            ("finished", args.server_finished),
        )
        if value is not None
    ]
    if len(chosen) != 1:
        raise TabletopError("give one of --server-idle, --server-one-seat, --server-finished")
    name, count = chosen[0]
    if count < 1:
        raise TabletopError(f"--server-{name} must be 1 or more")
    report: IdleBench | OneSeatBench | FinishedBench
    if name == "idle":
        report = bench_idle(registry, count=count)
        lines, ok = format_idle(report), report.moves > 0 and not report.refusals
    elif name == "one-seat":
        report = bench_one_seat(registry, count=count)
        lines, ok = format_one_seat(report), report.live == 1 and not report.refusals
    else:
        played = args.server_played
        if played < 0:
            raise TabletopError("--server-played must be 0 or more")
        report = bench_finished(registry, count=count, played=played)
        lines, ok = format_finished(report), report.rss_end_kib < report.budget_kib
    if args.json:
        print(json.dumps({f"server_{name.replace('-', '_')}": report.to_json()}, indent=2))
    else:
        print("\n".join(lines))
    return 0 if ok else 1
