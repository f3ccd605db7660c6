"""``tabletop bench --ui``: what a person feels in the Textual UI, measured by a script.

A hot-seat game (every seat a person, hand-off screens between them when the game
hides information) is played through Textual's Pilot, pressing "1" at every decision
and Enter at every hand-off, exactly as a person would. For every key press it records
the CPU time the process spent until the screen settled (``time.process_time``: the
time a person waits when the machine is not busy elsewhere, without the idle time
Pilot spends waiting for timers), by kind of press:

* ``same seat``: a decision after which the same seat decides again;
* ``into hand-off``: a decision after which the device changes hands;
* ``hand-off to board``: Enter on the hand-off screen, back to the board;
* ``other``: a decision that ended the game or led to a bot.

Each kind's median over the first and the last third of the game shows whether the
cost grows with the length of the game (it should not). Time to the first screen is
wall time from the app's start to the home screen drawn.

Textual is imported only here, only when ``--ui`` is asked for.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework.session import SessionStarter

#: The terminal size the bench plays in (a common laptop terminal).
SIZE = (140, 42)
KINDS = ("same seat", "into hand-off", "hand-off to board", "other")


@dataclass
class UiBench:
    game: str
    seed: int
    first_screen_ms: float = 0.0
    presses: list[tuple[str, int, float]] = field(default_factory=list)
    """(kind, actions played before the press, CPU milliseconds)."""
    error: str | None = None

    def summary(self) -> dict[str, dict[str, float]]:
        """Per kind: count, median, and medians of the first and last thirds (ms)."""
        out: dict[str, dict[str, float]] = {}
        total = max((moment for _, moment, _ in self.presses), default=0) or 1
        for kind in KINDS:
            rows = [(moment, ms) for k, moment, ms in self.presses if k == kind]
            if not rows:
                continue
            early = [ms for moment, ms in rows if moment < total / 3] or [0.0]
            late = [ms for moment, ms in rows if moment >= 2 * total / 3] or [0.0]
            out[kind] = {
                "count": len(rows),
                "median_ms": round(statistics.median(ms for _, ms in rows), 2),
                "first_third_ms": round(statistics.median(early), 2),
                "last_third_ms": round(statistics.median(late), 2),
                "max_ms": round(max(ms for _, ms in rows), 2),
            }
        return out

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "seed": self.seed,
            "first_screen_ms": round(self.first_screen_ms, 1),
            "presses": self.summary(),
        }
        if self.error is not None:
            data["error"] = self.error
        return data


async def _settle(pilot: Any, done: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app work until ``done`` holds and no message is pending."""
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise TimeoutError("the screen did not settle")
        await pilot.pause()
    await pilot.pause()


async def _play(sessions: SessionStarter, bench: UiBench, limit: int) -> None:
    from tabletop.adapters.tui.app import TabletopApp
    from tabletop.adapters.tui.screens.game_over import GameOverScreen
    from tabletop.adapters.tui.screens.handoff import HandoffScreen
    from tabletop.adapters.tui.screens.seat import SeatScreen

    started = time.perf_counter()
    app = TabletopApp(sessions, bot_delay=0.0, new_seed=lambda: bench.seed)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        bench.first_screen_ms = 1e3 * (time.perf_counter() - started)
        installed = sessions.registry.get(bench.game)
        players = installed.info.min_players
        session = sessions.start(
            bench.game,
            seed=bench.seed,
            players=players,
            options={},
            seats=["human"] * players,
        )
        app.open_game(session)
        engine = session.engine
        await _settle(pilot, lambda: isinstance(app.screen, (SeatScreen, HandoffScreen)))
        presses = 0
        while presses < limit and not isinstance(app.screen, GameOverScreen):
            screen = app.screen
            moment = len(engine.log)
            if isinstance(screen, HandoffScreen):
                cpu = time.process_time()
                await pilot.press("enter")
                await _settle(pilot, lambda: isinstance(app.screen, SeatScreen))
                kind = "hand-off to board"
            elif isinstance(screen, SeatScreen):
                prompt = engine.prompt
                seat = prompt.seat if prompt is not None else None
                cpu = time.process_time()
                await pilot.press("1")
                await _settle(
                    pilot,
                    lambda moment=moment, shown=screen: (  # type: ignore[misc]
                        (shown.viewer.state.seq > moment and shown.viewer.caught_up)
                        or isinstance(app.screen, (HandoffScreen, GameOverScreen))
                    ),
                )
                after = engine.prompt
                if isinstance(app.screen, HandoffScreen):
                    kind = "into hand-off"
                elif after is not None and after.seat == seat:
                    kind = "same seat"
                else:
                    kind = "other"
            else:  # a dialog (an error): nothing more to measure
                bench.error = f"stopped on {type(screen).__name__}"
                return
            bench.presses.append((kind, moment, 1e3 * (time.process_time() - cpu)))
            presses += 1


def bench_ui(
    sessions: SessionStarter, game_id: str, *, seed: int = 1, limit: int = 1000
) -> UiBench:
    """Play ``game_id`` hot-seat through Pilot, saving to a temporary directory."""
    bench = UiBench(game_id, seed)
    error = _in_a_temporary_folder(sessions, lambda starter: _play(starter, bench, limit))
    bench.error = bench.error or error
    return bench


def _in_a_temporary_folder(
    sessions: SessionStarter, play: Callable[[SessionStarter], Coroutine[Any, Any, None]]
) -> str | None:
    """Run ``play`` with ``sessions``' games saving to a temporary folder; what went
    wrong in words (reported in the figures, never a traceback), or None."""
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-ui-") as folder:
        starter = SessionStarter(
            registry=sessions.registry,
            rng_factory=sessions.rng_factory,
            dice_factory=sessions.dice_factory,
            store=JsonSaveStore(Path(folder)),
        )
        try:
            asyncio.run(play(starter))
        except Exception as exc:
            return f"{type(exc).__name__}: {exc}"
    return None


def format_ui(bench: UiBench) -> list[str]:
    lines = [f"UI, {bench.game} hot-seat (seed {bench.seed}), CPU ms per key press:"]
    lines.append(f"  time to the first screen: {bench.first_screen_ms:.0f} ms (wall)")
    lines.append(
        f"  {'kind':<20} {'presses':>7} {'median':>7} {'first ⅓':>8} {'last ⅓':>7} {'max':>7}"
    )
    for kind, row in bench.summary().items():
        lines.append(
            f"  {kind:<20} {row['count']:>7.0f} {row['median_ms']:>7.1f} "
            f"{row['first_third_ms']:>8.1f} {row['last_third_ms']:>7.1f} {row['max_ms']:>7.1f}"
        )
    if bench.error is not None:
        lines.append(f"  stopped: {bench.error}")
    return lines


# The waits a person feels against bots ------------------------------------------------

#: The game, seats and bot speed ``--waits`` plays by default: La Révolution, one person
#: and three search bots (the new-game dialog's default opponent), at the default speed.
WAITS_GAME = "la-revolution-francaise"
WAITS_BOT = "mcts"
WAITS_DELAY = 0.4


@dataclass
class WaitsBench:
    """Seconds from each key a person pressed at their decision to the next moment the
    screen needed them again (their next decision, a recap to read, the game's end):
    the bots' thinking and the reading pauses between their turns, as felt."""

    game: str
    seats: list[str]
    bot_delay: float
    seed: int
    waits: list[float] = field(default_factory=list)
    error: str | None = None

    def quantile(self, q: float) -> float:
        ordered = sorted(self.waits)
        if not ordered:
            return 0.0
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "game": self.game,
            "seats": self.seats,
            "bot_delay": self.bot_delay,
            "seed": self.seed,
            "presses": len(self.waits),
            "p50_s": round(self.quantile(0.5), 3),
            "p95_s": round(self.quantile(0.95), 3),
            "max_s": round(max(self.waits, default=0.0), 3),
        }
        if self.error is not None:
            data["error"] = self.error
        return data


async def _wait_for_person(pilot: Any, timeout: float = 120.0) -> None:
    """Until the screen needs the person: their decision shown whole, a recap, a
    hand-off, the game's end or an error dialog."""
    from tabletop.adapters.tui.screens.seat import SeatScreen

    app = pilot.app
    deadline = time.monotonic() + timeout
    while True:
        screen = app.screen
        if not isinstance(screen, SeatScreen):
            return
        if screen._my_prompt() is not None:
            return
        if time.monotonic() > deadline:
            raise TimeoutError("the screen never asked the person again")
        await pilot.pause(0.01)


async def _play_waits(sessions: SessionStarter, bench: WaitsBench, presses: int) -> None:
    from tabletop.adapters.tui.app import TabletopApp
    from tabletop.adapters.tui.screens.game_over import GameOverScreen
    from tabletop.adapters.tui.screens.seat import SeatScreen
    from tabletop.adapters.tui.screens.summary import SummaryScreen
    from tabletop.adapters.tui.widgets import ChoiceList

    app = TabletopApp(sessions, bot_delay=bench.bot_delay, new_seed=lambda: bench.seed)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        session = sessions.start(
            bench.game, seed=bench.seed, players=len(bench.seats), options={}, seats=bench.seats
        )
        app.open_game(session)
        await _wait_for_person(pilot)
        while len(bench.waits) < presses:
            screen = app.screen
            if isinstance(screen, GameOverScreen):
                return
            if isinstance(screen, SummaryScreen):  # read, then go on: not a decision
                await pilot.press("enter")
                await _wait_for_person(pilot)
                continue
            if not isinstance(screen, SeatScreen):
                bench.error = f"stopped on {type(screen).__name__}"
                return
            keys = screen.query_one("#choices", ChoiceList).keys
            started = time.perf_counter()
            await pilot.press(keys[0] or "1")
            await pilot.pause()
            await _wait_for_person(pilot)
            bench.waits.append(time.perf_counter() - started)


def bench_waits(
    sessions: SessionStarter,
    game_id: str = WAITS_GAME,
    *,
    bot: str = WAITS_BOT,
    bot_delay: float = WAITS_DELAY,
    seed: int = 1,
    presses: int = 40,
) -> WaitsBench:
    """A person (the first seat) against bots in the Textual UI through Pilot: the wall
    time from each of their key presses to the screen's next need of them."""
    players = sessions.registry.get(game_id).info.min_players
    seats = ["human"] + [bot] * (players - 1)
    bench = WaitsBench(game_id, seats, bot_delay, seed)
    error = _in_a_temporary_folder(sessions, lambda starter: _play_waits(starter, bench, presses))
    bench.error = bench.error or error
    return bench


def format_waits(bench: WaitsBench) -> list[str]:
    data = bench.to_json()
    lines = [
        f"Waits a person feels, {bench.game} against {', '.join(bench.seats[1:])} "
        f"(bot speed {bench.bot_delay:g} s, seed {bench.seed}): from a key press to the "
        "next moment the screen needs them",
        f"  {data['presses']} presses: p50 {data['p50_s']:.2f} s, p95 {data['p95_s']:.2f} s, "
        f"max {data['max_s']:.2f} s",
    ]
    if bench.error is not None:
        lines.append(f"  stopped: {bench.error}")
    return lines
