"""Python's garbage collector, tuned while the app plays: the terminal UI and batch runs.

Why: an action or a key press makes thousands of short-lived containers (events, choices,
Textual's strips). At Python's default (a young collection every 700 allocations) many
of them live through two young collections and reach the old generation, whose full
collections then walk every object the process holds: over 100 ms with a game open in
the UI, and a tenth or more of a batch run's time. Collected less often they die young.
The objects that exist when play starts (modules, plugins, styles) are set aside
(``gc.freeze``) so that no collection walks them again. Reference cycles are still
collected (a finished game's session and UI refer to each other), only less often.

Tuning is process-wide, so it is counted: the first user in tunes the collector, the
last one out gives it back its first settings (apps may overlap in one process, as in
tests, and a batch run may play inside a process that runs an app).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

#: Objects allocated between two collections of the youngest generation while tuned
#: (Python's default is 700). 10,000 and 50,000 measured the same in batch play.
YOUNG_THRESHOLD = 50_000


class CollectorTuning:
    """The collector tuned while at least one user plays: the first in tunes it, the
    last out restores it."""

    def __init__(self) -> None:
        self.users = 0
        self.before = gc.get_threshold()

    def enter(self) -> None:
        if self.users == 0:
            self.before = gc.get_threshold()
            young, middle, old = self.before
            gc.set_threshold(max(YOUNG_THRESHOLD, young), middle, old)
            gc.freeze()
        self.users += 1

    def leave(self) -> None:
        self.users -= 1
        if self.users == 0:
            gc.unfreeze()
            gc.set_threshold(*self.before)

    @contextmanager
    def tuned(self) -> Iterator[None]:
        """The collector tuned for the duration of a ``with`` block (a batch run)."""
        self.enter()
        try:
            yield
        finally:
            self.leave()


#: The one tuning of this process, shared by every app and batch run.
collector = CollectorTuning()
