"""Games whose code never returns, kills its process or raises in a view: what the
batch commands' time limit, their worker pool and ``replay`` must survive (installed
with ``fakesite``)."""

from __future__ import annotations

import collections
import contextlib
import itertools
import multiprocessing
import os
import signal
import time
from typing import Any

from toygames import Counter, SometimesFlaky, renamed

from tabletop.framework import Action, Context, State
from tabletop.games.pig import Pig


class Stuck(SometimesFlaky):
    """Loops for ever in ``apply`` at turn 7 with 8 or more points at risk (some games,
    not all): game code that hangs."""

    info = renamed(Pig.info, "stuck-pig", "Stuck Pig", version="0.1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if state["turn"] == self.fail_at and self.fails(state):
            while True:
                pass
        super().apply(state, seat, action, ctx)


class WorkerKiller(Pig):
    """Kills the process it runs in at turn 3, when that is a worker process (never the
    test's own): a worker that dies."""

    info = renamed(Pig.info, "worker-killer", "Worker Killer", version="0.1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if state["turn"] == 3 and multiprocessing.parent_process() is not None:
            os.kill(os.getpid(), signal.SIGKILL)
        super().apply(state, seat, action, ctx)


class ViewExplodes(Pig):
    """Its view for seat 1 raises: a fault ``replay --to --seat 1`` must name."""

    info = renamed(Pig.info, "exploding-view", "Exploding View", version="0.1")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        if seat == 1:
            raise RuntimeError("view for seat 1 exploded")
        return super().view(state, seat)


class SlowCounter(Counter):
    """Each count takes 0.06 s: a game of eight (0.5 s) longer than a 0.2 s limit on
    one action, every action well within it."""

    info = renamed(Counter.info, "slow-counter", "Slow Counter")
    limit = 8

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        time.sleep(0.06)
        super().apply(state, seat, action, ctx)


class SwallowPig(Pig):
    """Waits for ever at turn 3, catching every exception, the time limit's and
    SIGTERM's included (``except BaseException``): game code the soft limit cannot end."""

    info = renamed(Pig.info, "swallow-pig", "Swallow Pig", version="0.1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if state["turn"] == 3:
            while True:
                with contextlib.suppress(BaseException):  # the point of this game
                    time.sleep(0.05)
        super().apply(state, seat, action, ctx)


class CLoopPig(Pig):
    """Loops for ever inside C at turn 3: no Python signal handler runs meanwhile, the
    time limit's and SIGTERM's included."""

    info = renamed(Pig.info, "cloop-pig", "C Loop Pig", version="0.1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if state["turn"] == 3:
            collections.deque(itertools.count(), maxlen=0)
        super().apply(state, seat, action, ctx)
