"""``tabletop web --join URL`` in a real browser (issue 24): headless Chromium opens the
page, the seat's screen appears, a key press there plays the seat's move on the game
server, and the page is captured (the picture in docs/networked-play.md:
``TABLETOP_WEB_SCREENSHOT=docs/networked-play-web.png`` writes it). Meanwhile no process
on the machine has a token on its command line (issue 36: ``/proc/*/cmdline`` is
readable by every local user): not the invite, not the secret it was bound to, not the
host token. Skipped, saying why, where Chromium or textual-serve is absent (CI installs
Chromium from the system's packages)."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from tabletop.adapters.server.client import request
from tabletop.adapters.server.remembered import load as remembered_load


def chromium() -> str | None:
    for name in ("chromium-headless-shell", "chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_for(check: Callable[[], bool], seconds: float, what: str) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.2)


def command_lines() -> dict[int, str]:
    """Every process's command line, as ``ps`` shows it to any local user."""
    lines: dict[int, str] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                raw = (entry / "cmdline").read_bytes()
            except OSError:  # it ended meanwhile
                continue
            lines[int(entry.name)] = raw.replace(b"\0", b" ").decode("utf-8", "replace")
    return lines


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes the test starts, each in a session of its own: ended with their
    children (textual-serve's app, Chromium's helpers)."""
    started: list[subprocess.Popen[str]] = []
    yield started
    for process in started:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)


class DevTools:
    """The few Chrome DevTools Protocol calls the test needs, over a WebSocket."""

    def __init__(self, ws: Any) -> None:
        self.ws, self.next_id = ws, 0

    def call(self, method: str, **params: Any) -> dict[str, Any]:
        self.next_id += 1
        self.ws.send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv(timeout=30))
            if message.get("id") == self.next_id:
                result: dict[str, Any] = message.get("result", {})
                return result

    def evaluate(self, expression: str) -> Any:
        return self.call("Runtime.evaluate", expression=expression, returnByValue=True)[
            "result"
        ].get("value")

    def key(self, character: str) -> None:
        code = f"Digit{character}" if character.isdigit() else f"Key{character.upper()}"
        vk = ord(character.upper())
        self.call(
            "Input.dispatchKeyEvent",
            type="keyDown",
            key=character,
            code=code,
            text=character,
            windowsVirtualKeyCode=vk,
        )
        self.call(
            "Input.dispatchKeyEvent",
            type="keyUp",
            key=character,
            code=code,
            windowsVirtualKeyCode=vk,
        )


@pytest.mark.slow
def test_a_joined_seat_plays_a_move_in_a_real_browser(
    processes: list[subprocess.Popen[str]], tmp_path: Path, no_server_games: Path
) -> None:
    browser = chromium()
    if browser is None:
        pytest.skip("no Chromium on this machine (apt install chromium-headless-shell)")
    pytest.importorskip("textual_serve", reason="textual-serve is not installed")
    env = dict(os.environ, TABLETOP_SAVE_DIR=str(tmp_path / "saves"))
    env.update(TABLETOP_LOG_FILE=str(tmp_path / "log.jsonl"), TABLETOP_LOAD_PLUGINS="pig")

    def start(*argv: str, env: dict[str, str] = env) -> subprocess.Popen[str]:
        process = subprocess.Popen(
            argv,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,
        )
        processes.append(process)
        return process

    db = tmp_path / "server.sqlite3"
    game_port, web_port, devtools_port = free_port(), free_port(), free_port()
    server = start(
        sys.executable, "-m", "tabletop", "serve", "--port", str(game_port), "--db", str(db)
    )
    assert server.stdout is not None and server.stdout.readline().startswith("tabletop: serving")
    url = f"ws://127.0.0.1:{game_port}"
    hosted = asyncio.run(
        request(url, {"type": "host", "game": "pig", "seats": ["human", "random"]})
    )
    start(
        sys.executable,
        "-m",
        "tabletop",
        "web",
        "--port",
        str(web_port),
        "--join",
        url,
        env={**env, "TABLETOP_TOKEN": hosted["invites"]["0"]},
    )
    page_url = f"http://127.0.0.1:{web_port}/"
    wait_for(lambda: answers(page_url), 30, "tabletop web")
    profile = tmp_path / "chromium"  # removed with tmp_path, after Chromium has ended
    start(
        browser,
        "--headless",
        f"--remote-debugging-port={devtools_port}",
        "--no-sandbox",
        "--disable-gpu",
        f"--user-data-dir={profile}",
        "--window-size=1200,800",
        "about:blank",
    )
    wait_for(lambda: answers(f"http://127.0.0.1:{devtools_port}/json/version"), 30, "Chromium")
    with urllib.request.urlopen(f"http://127.0.0.1:{devtools_port}/json/list") as listing:
        page = next(p for p in json.load(listing) if p["type"] == "page")

    def actions() -> int:
        with sqlite3.connect(db) as conn:
            return int(conn.execute("SELECT count(*) FROM actions").fetchone()[0])

    with connect(page["webSocketDebuggerUrl"], max_size=None) as ws:
        tools = DevTools(ws)
        tools.call("Page.enable")
        tools.call("Page.navigate", url=page_url)
        wait_for(
            lambda: bool(
                tools.evaluate("!!document.querySelector('.textual-terminal.-connected')")
            ),
            30,
            "the page to connect to its app",
        )
        time.sleep(3)  # the app starts, joins the seat and draws its prompt
        assert actions() == 0
        focused = "(() => { const t = document.querySelector('.xterm-helper-textarea');"
        focused += " if (!t) return false; t.focus(); return true; })()"
        assert tools.evaluate(focused) is True
        tools.key("1")  # Pig's first decision has one choice, Roll, under the key 1
        wait_for(lambda: actions() >= 1, 30, "the move to reach the game server")
        with sqlite3.connect(db) as conn:
            first = conn.execute("SELECT seat, action FROM actions ORDER BY idx LIMIT 1").fetchone()
        assert tuple(first) == (0, "roll")
        # the session runs: tabletop web, the tab's tabletop join, Chromium; no token
        # on any command line (web --join hands the tab its secret in the environment)
        (remembered,) = remembered_load(no_server_games)
        tokens = [hosted["invites"]["0"], remembered.token, hosted["host_token"]]
        lines = command_lines()
        assert any(" join " in line and "--screen" in line for line in lines.values())
        assert any(" web " in line and "--join" in line for line in lines.values())
        leaks = {pid: line for pid, line in lines.items() if any(t in line for t in tokens)}
        assert not leaks, leaks
        time.sleep(2)  # the screen shows the log of the roll
        shot = base64.b64decode(tools.call("Page.captureScreenshot", format="png")["data"])
    assert shot.startswith(b"\x89PNG") and len(shot) > 10_000
    target = os.environ.get("TABLETOP_WEB_SCREENSHOT")
    if target:
        Path(target).write_bytes(shot)
