"""The progress line on a real terminal (issue 39): in an 80x24 pseudo-terminal,
``simulate`` of every installed game draws one line that never wraps, at most ten
frames a second; with stderr not a terminal, nothing but the report.

Each game plays for a second or two (its number of games is set by how long one takes
here); stdout is a pipe, so the terminal holds the progress line alone.
"""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from tabletop.app import progress
from tabletop.framework.plugins import load_registry

#: Games per run: about a second of play each here (a game not listed: 50).
GAMES = {
    "pig": 1500,
    "tic-tac-toe": 4000,
    "council": 1500,
    "red-flag-over-paris": 300,
    "charlemagne-master-of-europe": 120,
    "la-revolution-francaise": 15,
}


def _on_a_terminal(argv: list[str], env: dict[str, str]) -> tuple[str, float, int]:
    """Run ``argv`` with stderr on an 80x24 pty; its terminal output, seconds, exit."""
    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    started = time.monotonic()
    command = subprocess.Popen(
        argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=side, env=env
    )
    os.close(side)
    output = b""
    try:
        while True:
            if select.select([main], [], [], 0.1)[0]:
                try:
                    data = os.read(main, 65536)
                except OSError:  # the other end closed: the command ended
                    break
                if not data:
                    break
                output += data
            elif command.poll() is not None:
                break
        command.communicate(timeout=120)
    finally:
        os.close(main)
        if command.poll() is None:
            command.kill()
            command.wait()
    return output.decode(errors="replace"), time.monotonic() - started, command.returncode


@pytest.mark.parametrize("game", sorted(load_registry().games))
def test_simulate_draws_one_line_that_never_wraps_ten_frames_a_second(
    game: str, isolated_env: Path
) -> None:
    games = GAMES.get(game, 50)
    argv = [sys.executable, "-m", "tabletop", "simulate", game, "--games", str(games)]
    text, seconds, code = _on_a_terminal(argv, dict(os.environ))
    assert code == 0, text
    # the terminal turns the last "\n" into "\r\n": one line, ended once
    assert text.endswith("\r\n") and text.count("\n") == 1, text[-300:]
    frames = [frame for frame in text[:-2].split("\r") if frame]
    assert frames, "no progress was drawn"
    widest = max(len(frame) for frame in frames)
    assert widest <= 79, f"a frame of {widest} characters wraps at 80 columns"
    assert f"{games}/{games}" in frames[-1]
    assert len(frames) <= progress.RATE * seconds + 2, (len(frames), seconds)


def test_nothing_but_the_report_when_stderr_is_not_a_terminal(isolated_env: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "simulate", "pig", "--games", "300"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.startswith("pig: 300/300 completed")
