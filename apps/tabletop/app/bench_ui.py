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
from collections.abc import Callable
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
    with tempfile.TemporaryDirectory(prefix="tabletop-bench-ui-") as folder:
        starter = SessionStarter(
            registry=sessions.registry,
            rng_factory=sessions.rng_factory,
            dice_factory=sessions.dice_factory,
            store=JsonSaveStore(Path(folder)),
        )
        try:
            asyncio.run(_play(starter, bench, limit))
        except Exception as exc:  # reported in the figures, never a traceback
            bench.error = f"{type(exc).__name__}: {exc}"
    return bench


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
