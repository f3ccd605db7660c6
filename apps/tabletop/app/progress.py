"""The progress line of the batch commands: count, rate, elapsed time and ETA.

Why: a bare ``5/20`` that stays for a minute says neither whether the run is alive nor
how long is left. The line shows the games per second so far, the time since the start
and an estimate of the rest (the mean time per finished game times the games left;
none before the first game ends). It is drawn on stderr only when stderr is a terminal,
so pipes, ``--json`` and CI logs get nothing but the final report.

Why it is clipped and throttled: a line wider than the terminal wraps, and every redraw
then leaves a row behind (a 90-character line in 80 columns scrolled the screen once a
game); a redraw per game wrote 20,008 frames for a 20-second run. So the line is fitted
to the terminal's width at each frame (the bar narrows, then goes, then the label is
cut), and drawn at most ``RATE`` times a second, the first and the last frame always.
Only the standard library is used.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

WIDTH = 24
#: The narrowest bar worth drawing; below it the line goes without one.
MIN_BAR = 8
#: Most frames a second.
RATE = 10
#: The width assumed when the terminal does not say.
DEFAULT_COLUMNS = 80


def clock(seconds: float) -> str:
    """``m:ss``, or ``h:mm:ss`` from an hour."""
    whole = int(seconds)
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _stats(done: int, total: int, elapsed: float) -> str:
    """``done/total rate elapsed ETA``: the part of the line that is never cut."""
    text = f"{done}/{total}"
    if elapsed > 0 and done > 0:
        text += f" {done / elapsed:.3g}/s"
    text += f" {clock(elapsed)}"
    if done >= total:
        return text
    if done > 0:
        return text + f" ETA {clock(elapsed / done * (total - done))}"
    return text + " ETA -"


def _bar(done: int, total: int, width: int) -> str:
    filled = width * min(done, total) // max(total, 1)
    return "[" + "#" * filled + "-" * (width - filled) + "]"


def line(label: str, done: int, total: int, elapsed: float, columns: int | None = None) -> str:
    """The progress line for ``done`` of ``total`` after ``elapsed`` seconds, at most
    ``columns - 1`` characters long (None: no limit). The last column stays free: a
    line that fills it leaves some terminals' cursor waiting to wrap."""
    stats = _stats(done, total, elapsed)
    full = f"{label} {_bar(done, total, WIDTH)} {stats}"
    if columns is None:
        return full
    room = max(1, columns - 1)
    if len(full) <= room:
        return full
    bar_room = room - len(label) - len(stats) - 4  # two spaces and the brackets
    if bar_room >= MIN_BAR:
        return f"{label} {_bar(done, total, bar_room)} {stats}"
    head_room = room - len(stats) - 1
    if head_room >= 4:
        head = label if len(label) <= head_room else label[: head_room - 1] + "…"
        return f"{head} {stats}"
    return stats[:room]


def _columns(out: TextIO) -> int:
    """The terminal's width, asked at each frame (it may have been resized)."""
    try:
        return os.get_terminal_size(out.fileno()).columns or DEFAULT_COLUMNS
    except (AttributeError, ValueError, OSError):  # not a real terminal (a test's stream)
        return DEFAULT_COLUMNS


def bar(
    label: str,
    *,
    stream: TextIO | None = None,
    now: Callable[[], float] = time.monotonic,
    columns: Callable[[], int] | None = None,
) -> Callable[[int, int], None] | None:
    """A progress callback ``(done, total)`` drawing on ``stream`` (stderr), or None
    when it is not a terminal. ``columns`` gives the width (default: the terminal's)."""
    out = stream if stream is not None else sys.stderr
    if not out.isatty():
        return None
    width = columns if columns is not None else (lambda: _columns(out))
    start = now()
    shown = ""  # the last frame
    drawn: float | None = None  # when it was drawn

    def show(done: int, total: int) -> None:
        nonlocal shown, drawn
        moment = now()
        final = done >= total
        if not final and drawn is not None and moment - drawn < 1 / RATE:
            return
        drawn = moment
        room = width()
        text = line(label, done, total, moment - start, room)
        # a shorter line clears what is left of the longer one, within the width
        pad = " " * max(0, min(len(shown), room - 1) - len(text))
        shown = text
        end = "\n" if final else ""
        print(f"\r{text}{pad}", end=end, file=out, flush=True)

    return show
