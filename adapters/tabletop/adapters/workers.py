"""Threads for the ``Workers`` port: where bots think, hints search and moves run.

Each lane has its own threads and its own queue, so a lane full of bot decisions never
delays a person's move or a hint: a hundred bot games on a server wait their turn on the
``bots`` lane while a person's move runs on another. Threads are daemons: a game whose
code never returns cannot keep the program from quitting (the game is saved as it was
before that move).

Why threads and not processes: a bot's thinking reads a copy of the game made under the
table's lock (``bots.prepare_bot_move``) and hands back one short word, but a process
would need the game's plugin loaded and the copy sent over a pipe for every decision;
the lanes' sizes (one bot thread a core, less one for the rest) keep the moves and the
event loop responsive under the GIL, which ``tabletop bench --server`` measures.
"""

from __future__ import annotations

import contextlib
import os
import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any

from tabletop.framework.ports import Busy, Workers

Done = Callable[[Any, BaseException | None], None]

#: Threads per lane by default: bots get a core each but one (at least one); hints are
#: searched one at a time (each is a bot's whole search); moves run in order.
DEFAULT_SIZES = {
    Workers.BOTS: max(1, (os.cpu_count() or 2) - 1),
    Workers.HINTS: 1,
    Workers.MOVES: 1,
}
#: Most pieces of work a lane holds waiting (beyond it: ``Busy``); None: no limit.
DEFAULT_QUEUES: dict[str, int | None] = {
    Workers.BOTS: None,
    Workers.HINTS: 8,
    Workers.MOVES: 64,
}


class _Lane:
    def __init__(self, name: str, size: int, limit: int | None) -> None:
        self.name = name
        self.queue: queue.Queue[tuple[Callable[[], Any], Done] | None] = queue.Queue()
        self.limit = limit
        self.threads = [
            threading.Thread(target=self._run, name=f"tabletop-{name}-{n}", daemon=True)
            for n in range(size)
        ]
        for thread in self.threads:
            thread.start()

    def put(self, work: Callable[[], Any], done: Done) -> None:
        if self.limit is not None and self.queue.qsize() >= self.limit:
            raise Busy(f"the {self.name} lane has {self.limit} pieces of work waiting")
        self.queue.put((work, done))

    def _run(self) -> None:
        while True:
            item = self.queue.get()
            if item is None:
                return
            work, done = item
            try:
                result = work()
            except BaseException as exc:  # reported, never lost with the thread
                with contextlib.suppress(Exception):  # a broken report must not stop it
                    done(None, exc)
                if not isinstance(exc, Exception):
                    raise
                continue
            with contextlib.suppress(Exception):  # the lane goes on with the next piece
                done(result, None)

    def stop(self) -> None:
        for _ in self.threads:
            self.queue.put(None)


class ThreadWorkers(Workers):
    """``Workers`` on daemon threads, a set per lane (made at the first use of a lane)."""

    def __init__(
        self,
        sizes: Mapping[str, int] | None = None,
        queues: Mapping[str, int | None] | None = None,
    ) -> None:
        self.sizes = {**DEFAULT_SIZES, **(sizes or {})}
        self.queues = {**DEFAULT_QUEUES, **(queues or {})}
        self._lanes: dict[str, _Lane] = {}
        self._lock = threading.Lock()

    def submit(self, lane: str, work: Callable[[], Any], done: Done) -> None:
        with self._lock:
            runner = self._lanes.get(lane)
            if runner is None:
                size = max(1, self.sizes.get(lane, 1))
                runner = self._lanes[lane] = _Lane(lane, size, self.queues.get(lane))
        runner.put(work, done)

    def waiting(self, lane: str) -> int:
        """How many pieces of work wait on ``lane`` (not counting those running)."""
        runner = self._lanes.get(lane)
        return 0 if runner is None else runner.queue.qsize()

    def stop(self) -> None:
        """Let every lane's threads end once their current work is done."""
        with self._lock:
            lanes, self._lanes = list(self._lanes.values()), {}
        for runner in lanes:
            runner.stop()
