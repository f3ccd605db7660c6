"""The Textual board widget. Imported only from the ``tabletop_board_widget`` hook."""

from __future__ import annotations

from typing import Any

from textual import events
from textual.widgets import Static

from .render import WIDTH, render_board


class CharlemagneBoard(Static):
    """Draws the map, tracks, cups and any battle as text; refreshed with every view,
    and fitted again to its width when resized (long rows continue under themselves)."""

    DEFAULT_CSS = """
    CharlemagneBoard { height: auto; padding: 0 1; }
    """

    def __init__(self, view: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(render_board(view), markup=False, **kwargs)
        self.view = view

    def _width(self) -> int:
        width = self.content_size.width
        return width if width > 0 else WIDTH

    def update_view(self, view: dict[str, Any]) -> None:
        self.view = view
        self.update(render_board(view, self._width()))

    def on_resize(self, event: events.Resize) -> None:
        self.update(render_board(self.view, self._width()))


def board_widget_class() -> type[CharlemagneBoard]:
    return CharlemagneBoard
