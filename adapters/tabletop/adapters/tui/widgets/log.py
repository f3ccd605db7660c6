"""The game log: events in words, filtered for whoever is looking."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.text import Text
from textual.geometry import Size
from textual.strip import Strip
from textual.widgets import RichLog

from tabletop.adapters.tui.presenting import event_text
from tabletop.framework.engine import Engine
from tabletop.framework.game import Event

#: Most events the log widget holds: a window on the newest. A legal save may hold
#: hundreds of thousands of actions; the widget's memory (and the time to open it) must
#: not grow with them. The whole log is ``tabletop export``'s job.
MAX_LOG_LINES = 1000


@dataclass
class _PutAway:
    """A seat's log taken off the screen at a hand-off: drawn lines and where they end."""

    position: int
    last: object
    lines: list[Strip]
    widest: int
    start_line: int


class GameLog(RichLog):
    """Appends new history entries as they come; rebuilds when the viewer or history
    changes under it (hand-off to another seat, undo), so nobody sees another seat's
    private events. Holds only the newest MAX_LOG_LINES events."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(
            id=id,
            wrap=True,
            markup=False,
            highlight=False,
            auto_scroll=True,
            max_lines=MAX_LOG_LINES,
        )
        self._position = 0
        self._viewer: int | None = None
        self._last: object = None
        #: Seats' logs put away at hand-offs (never drawn while put away), by viewer.
        self._put_away: dict[int | None, _PutAway] = {}

    def sync(
        self, engine: Engine, viewer: int | None, seat_names: Sequence[str] | None = None
    ) -> None:
        """Show ``viewer``'s events up to now. Seats are named by the engine
        (``Engine.event_line``), as ``tabletop export`` names them; ``seat_names`` is
        accepted for older callers and not used."""
        history = engine.history
        rewritten = len(history) < self._position or (
            self._position > 0 and history[self._position - 1][1] is not self._last
        )
        if viewer != self._viewer or rewritten:
            self.clear()
            self._position = 0
            self._viewer = viewer
            if not rewritten:
                self._take_back(viewer, history)
        start, skipped = self._window(history, viewer)
        if skipped:
            self.write(
                Text(
                    f"… {skipped:,} earlier events not shown here "
                    "(tabletop export shows the whole log)",
                    style="dim italic",
                )
            )
        for turn, event in history[start:]:
            if not event.visible_to(viewer):
                continue
            line = Text(f"{turn:>3} ", style="dim") if turn else Text("    ")
            line.append_text(event_text(event, engine))
            self.write(line)
        self._position = len(history)
        self._last = history[-1][1] if history else None

    def _window(
        self, history: Sequence[tuple[int, Event]], viewer: int | None
    ) -> tuple[int, int]:
        """Where to start writing so that at most MAX_LOG_LINES new events are
        written, and how many visible events that skips (counted, never rendered)."""
        start, shown = len(history), 0
        while start > self._position and shown < MAX_LOG_LINES:
            start -= 1
            if history[start][1].visible_to(viewer):
                shown += 1
        skipped = 0
        for index in range(self._position, start):
            if history[index][1].visible_to(viewer):
                skipped += 1
        return start, skipped

    def put_away(self) -> None:
        """Empty the widget before the device changes hands, keeping this seat's drawn
        lines off screen so that its log comes back at its next turn without drawing
        the whole game again (only the events since are added then)."""
        if self._position and self._size_known:
            self._put_away[self._viewer] = _PutAway(
                self._position,
                self._last,
                list(self.lines),
                self._widest_line_width,
                self._start_line,
            )
        self.clear()

    def _take_back(self, viewer: int | None, history: Sequence[tuple[int, Event]]) -> None:
        """Show ``viewer``'s put-away lines again when the history they were drawn from
        is still there (no undo took it back). Lines keep the width they were drawn at,
        as a RichLog's lines always do after a resize."""
        kept = self._put_away.pop(viewer, None)
        if kept is None:
            return
        if len(history) < kept.position or history[kept.position - 1][1] is not kept.last:
            return
        self.lines = kept.lines
        self._widest_line_width = kept.widest
        self._start_line = kept.start_line
        self._line_cache.clear()
        self.virtual_size = Size(kept.widest, len(kept.lines))
        self._position = kept.position
        self._last = kept.last
        if self.auto_scroll:
            self.scroll_end(animate=False, immediate=True, x_axis=False)

    def clear(self) -> GameLog:
        super().clear()
        self._position = 0
        self._last = None
        return self

    def text_lines(self) -> list[str]:
        """The log's plain text, for tests and copy-paste."""
        return [strip.text for strip in self.lines]
