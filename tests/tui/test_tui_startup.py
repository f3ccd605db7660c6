"""Start-up: Textual loads only for the UI, and a fresh process reaches the home screen.

How fast is measured, not asserted: ``tabletop bench --ui`` prints the time to the
first screen and the benchmark below times it (speed belongs in benchmarks)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tui_support import SIZE, FrozenStore, make_app, make_registry, run, wait_until

from tabletop.adapters.tui.screens.home import HomeScreen

NO_TEXTUAL = """
import sys
import tabletop.framework, tabletop.framework.session, tabletop.framework.plugins
import tabletop.adapters, tabletop.adapters.saves
import tabletop.adapters.headless
import tabletop.app.container
from tabletop.framework.plugins import load_registry
load_registry()
tabletop.app.container.build_container().simulation()  # the headless wiring
loaded = sorted(m for m in sys.modules if m == "textual" or m.startswith("textual."))
assert not loaded, loaded
"""

FIRST_SCREEN = """
import time
start = time.perf_counter()
import asyncio
from tabletop.app.container import build_container

async def main():
    app = build_container(console=False).tui()  # as `tabletop play` wires it
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(60_000):  # a minute at most: a screen that never comes fails
            if type(app.screen).__name__ == "HomeScreen" and app.screen.is_mounted:
                break
            await pilot.pause(0.001)
        else:
            raise SystemExit("the home screen never appeared")
        print(time.perf_counter() - start)

asyncio.run(main())
"""


def _env(tmp_path: Path) -> dict[str, str]:
    """Saves and the log in a temporary directory, never the user's."""
    env = dict(os.environ)
    env["TABLETOP_SAVE_DIR"] = str(tmp_path / "saves")
    env["TABLETOP_LOG_FILE"] = str(tmp_path / "tabletop.jsonl")
    return env


def test_nothing_outside_the_tui_imports_textual(tmp_path: Path) -> None:
    subprocess.run([sys.executable, "-c", NO_TEXTUAL], check=True, env=_env(tmp_path))


def test_a_fresh_process_reaches_the_home_screen(tmp_path: Path) -> None:
    """Imports, plugin discovery and the home screen, as a user starting the app pays
    (the time is printed for the record, not asserted)."""
    out = subprocess.run(
        [sys.executable, "-c", FIRST_SCREEN],
        check=True,
        capture_output=True,
        text=True,
        env=_env(tmp_path),
    ).stdout
    seconds = float(out.strip().splitlines()[-1])
    print(f"time to first screen: {seconds * 1000:.0f} ms")
    assert seconds > 0


def test_first_screen_benchmark(benchmark: Any) -> None:
    """Home screen up in a warm process (pytest-benchmark; runs once when disabled)."""

    def first_screen() -> float:
        start = time.perf_counter()

        async def main() -> None:
            app = make_app(make_registry(), FrozenStore())
            async with app.run_test(size=SIZE) as pilot:
                await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))

        run(main)
        return time.perf_counter() - start

    benchmark(first_screen)
