"""Child process for the big-save test: open a 640,000-action save in the Textual UI.

Usage: big_save_child.py SAVE_DIR ACTIONS, with tests/ on PYTHONPATH (toygames).
Writes a legal save of a counting game (one event per action) straight to disk (its
digest is known without replaying), then starts the app headless, loads the save,
lets the game screen settle, idles a moment, and prints one JSON line: seconds to
open, lines in the log widget, peak RSS (MB) after opening and after idling.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time
from pathlib import Path
from typing import Any

from sessions import DICE_FACTORY, RNG_FACTORY
from toygames import Counter, renamed

from tabletop.adapters.saves import JsonSaveStore
from tabletop.adapters.tui.app import TabletopApp
from tabletop.adapters.tui.screens.home import HomeScreen
from tabletop.adapters.tui.screens.seat import SeatScreen
from tabletop.adapters.tui.widgets.log import GameLog
from tabletop.framework import hookimpl
from tabletop.framework.plugins import load_registry
from tabletop.framework.record import GameRecord, digest_of
from tabletop.framework.session import SessionStarter

LIMIT = 10**7


class Ticker(Counter):
    """Counts up to LIMIT: a save of any length is legal."""

    info = renamed(Counter.info, "ticker", "Ticker")
    limit = LIMIT


class Plugin:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(Ticker())


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def write_save(store: JsonSaveStore, actions: int) -> str:
    seed = 1
    digest = digest_of({"state": {"n": actions}, "rng": RNG_FACTORY(seed).getstate()})
    record = GameRecord(
        game="ticker",
        seed=seed,
        players=1,
        options={},
        actions=[(0, "tick")] * actions,
        digest=digest,
        game_version="1",
        rng=RNG_FACTORY(seed).algorithm,
        seats=["human"],
        progress=f"counted to {actions}",
    )
    return store.save(record, "big")


async def main(directory: Path, actions: int) -> dict[str, Any]:
    store = JsonSaveStore(directory)
    save_id = write_save(store, actions)
    registry = load_registry(plugins=[("ticker", Plugin())], use_entry_points=False)
    app = TabletopApp(SessionStarter(registry, RNG_FACTORY, DICE_FACTORY, store), bot_delay=0)
    report: dict[str, Any] = {"save_bytes": store.path_of(save_id).stat().st_size}
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        started = time.perf_counter()
        home = app.screen
        assert isinstance(home, HomeScreen)
        home.action_load_game(save_id)
        await pilot.pause()
        while not isinstance(app.screen, SeatScreen):  # a long replay goes on behind
            await asyncio.sleep(0.1)
            await pilot.pause()
        await pilot.pause()
        report["open_seconds"] = round(time.perf_counter() - started, 2)
        log = app.screen.query_one(GameLog)
        report["log_lines"] = log.virtual_size.height  # lines drawn, in any scroll view
        report["rss_open_mb"] = round(peak_mb())
        for _ in range(20):  # idle: nothing may keep growing
            await asyncio.sleep(0.1)
            await pilot.pause()
        report["rss_idle_mb"] = round(peak_mb())
        report["screen"] = type(app.screen).__name__
        await pilot.press("ctrl+q")
    return report


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(Path(sys.argv[1]), int(sys.argv[2])))))
