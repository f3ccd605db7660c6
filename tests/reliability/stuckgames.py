"""Games whose code never returns or kills its process: what the batch commands'
time limit and their worker pool must survive (installed with ``fakesite``)."""

from __future__ import annotations

import multiprocessing
import os
import signal

from toygames import SometimesFlaky, renamed

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
