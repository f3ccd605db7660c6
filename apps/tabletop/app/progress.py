"""The progress line of the batch commands: count, rate, elapsed time and ETA.

Why: a bare ``5/20`` that stays for a minute says neither whether the run is alive nor
how long is left. The line shows the games per second so far, the time since the start
and an estimate of the rest (the mean time per finished game times the games left;
none before the first game ends). It is drawn on stderr only when stderr is a terminal,
so pipes, ``--json`` and CI logs never see it; only the standard library is used.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

WIDTH = 24


def clock(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def line(label: str, done: int, total: int, elapsed: float) -> str:
    """The progress line for ``done`` of ``total`` after ``elapsed`` seconds."""
    filled = WIDTH * min(done, total) // max(total, 1)
    bar = "#" * filled + "-" * (WIDTH - filled)
    text = f"{label} [{bar}] {done}/{total}"
    if elapsed > 0 and done > 0:
        text += f" {done / elapsed:.3g}/s"
    text += f" {clock(elapsed)}"
    if done >= total:
        return text
    if done > 0:
        return text + f" ETA {clock(elapsed / done * (total - done))}"
    return text + " ETA -"


def bar(
    label: str,
    *,
    stream: TextIO | None = None,
    now: Callable[[], float] = time.monotonic,
) -> Callable[[int, int], None] | None:
    """A progress callback ``(done, total)`` drawing on ``stream`` (stderr), or None
    when it is not a terminal."""
    out = stream if stream is not None else sys.stderr
    if not out.isatty():
        return None
    start = now()
    last = [""]

    def show(done: int, total: int) -> None:
        text = line(label, done, total, now() - start)
        pad = " " * max(0, len(last[0]) - len(text))  # a shorter line clears the longer
        last[0] = text
        end = "\n" if done >= total else ""
        print(f"\r{text}{pad}", end=end, file=out, flush=True)

    return show
