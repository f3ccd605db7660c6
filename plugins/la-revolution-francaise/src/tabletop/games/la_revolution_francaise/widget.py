"""The Textual board widget. Imported only from the ``tabletop_board_widget`` hook."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from .render import WIDTH, render_board


class RevolutionBoard(Static):
    """France by region, the Paris box, the Assembly and the tracks, as text."""

    DEFAULT_CSS = """
    RevolutionBoard { height: auto; padding: 0 1; }
    """

    def __init__(self, view: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(render_board(view), markup=False, **kwargs)
        self.view = view

    def update_view(self, view: dict[str, Any]) -> None:
        self.view = view
        self.update(render_board(view, self._columns()))

    def _columns(self) -> int:
        """The text width inside the padding; the default before the first layout."""
        inner = self.size.width - 2
        return inner if inner > 0 else WIDTH

    def on_resize(self) -> None:
        """Re-wrap to the new width (zoom, a resized terminal)."""
        self.update(render_board(self.view, self._columns()))


def board_widget_class() -> type[RevolutionBoard]:
    return RevolutionBoard
