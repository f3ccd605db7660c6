"""The game log: events in words, filtered for whoever is looking."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import RichLog

from tabletop.adapters.tui.presenting import event_text
from tabletop.framework.engine import Engine


class GameLog(RichLog):
    """Appends new history entries as they come; rebuilds when the viewer or history
    changes under it (hand-off to another seat, undo), so nobody sees another seat's
    private events."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, wrap=True, markup=False, highlight=False, auto_scroll=True)
        self._position = 0
        self._viewer: int | None = None
        self._last: object = None

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
        for turn, event in history[self._position :]:
            if not event.visible_to(viewer):
                continue
            line = Text(f"{turn:>3} ", style="dim") if turn else Text("    ")
            line.append_text(event_text(event, engine))
            self.write(line)
        self._position = len(history)
        self._last = history[-1][1] if history else None

    def clear(self) -> GameLog:
        super().clear()
        self._position = 0
        self._last = None
        return self

    def text_lines(self) -> list[str]:
        """The log's plain text, for tests and copy-paste."""
        return [strip.text for strip in self.lines]
