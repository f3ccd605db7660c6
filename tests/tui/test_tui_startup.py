"""Start-up stays fast: Textual loads only for the UI, and the first screen is quick."""

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
        while type(app.screen).__name__ != "HomeScreen" or not app.screen.is_mounted:
            await pilot.pause(0.001)
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


def test_time_to_first_screen_in_a_fresh_process(tmp_path: Path) -> None:
    """Imports, plugin discovery and the home screen, as a user starting the app pays."""
    out = subprocess.run(
        [sys.executable, "-c", FIRST_SCREEN],
        check=True,
        capture_output=True,
        text=True,
        env=_env(tmp_path),
    ).stdout
    seconds = float(out.strip().splitlines()[-1])
    print(f"time to first screen: {seconds * 1000:.0f} ms")
    assert seconds < 5.0


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

    seconds = benchmark(first_screen)
    assert seconds < 5.0
