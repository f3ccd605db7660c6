"""Running a game's code without letting it hold the UI hostage.

The Textual UI calls a game's code (replaying a save, applying a move) on a daemon
thread and waits for it a moment: the usual call is done by then and the UI goes on
exactly as if it had made it itself (so tests and ordering stay simple), while a call
that takes long (a 640,000-action save, an ``apply`` that blocks) leaves the UI and its
quit key working and is handed back to the UI thread when it ends.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from tabletop.framework.errors import PLUGIN_ESCAPES


class Patient:
    """One call made in a daemon thread; whoever finishes second hands it over.

    ``wait`` returns True when the call ended in time (the caller finishes it now);
    otherwise the call is *late* and ``run`` passes it to ``when_late`` (from its own
    thread) when it ends. A thread is never killed: a call that never ends keeps its
    daemon thread, which dies with the process.
    """

    def __init__(self, call: Callable[[], object]) -> None:
        self.call = call
        self.result: object = None
        self.error: BaseException | None = None
        self.late = False
        self._finished = False
        self._done = threading.Event()
        self._lock = threading.Lock()

    def start(self, when_late: Callable[[Patient], None], name: str) -> None:
        threading.Thread(target=self._run, args=(when_late,), name=name, daemon=True).start()

    def _run(self, when_late: Callable[[Patient], None]) -> None:
        try:
            self.result = self.call()
        except PLUGIN_ESCAPES as exc:  # reported on the UI thread
            self.error = exc
        finally:
            with self._lock:
                self._finished = True
                late = self.late
            self._done.set()
        if late:
            when_late(self)

    def wait(self, seconds: float) -> bool:
        """True when the call finished within ``seconds``; else it is late from now on."""
        self._done.wait(seconds)
        with self._lock:
            if not self._finished:
                self.late = True
            return self._finished
