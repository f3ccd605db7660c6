"""The Textual board widget. Imported only from the ``tabletop_board_widget`` hook."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from .render import render_board


class RedFlagBoard(Static):
    """Draws the whole board as text; refreshed with every new view."""

    DEFAULT_CSS = """
    RedFlagBoard { height: auto; padding: 0; }
    """

    def __init__(self, view: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(render_board(view), markup=False, **kwargs)
        self.view = view

    def update_view(self, view: dict[str, Any]) -> None:
        self.view = view
        self.update(render_board(view))


def board_widget_class() -> type[RedFlagBoard]:
    return RedFlagBoard
