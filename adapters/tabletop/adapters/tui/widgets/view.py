"""The board: a game's own widget when its plugin provides one, else the generic screen
drawn from the view schema (``presenting.render_view``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from textual.containers import VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from tabletop.adapters.tui.hookspecs import BoardWidget
from tabletop.adapters.tui.presenting import render_view, rows_width
from tabletop.adapters.tui.widgets.steady import hold_height


class ViewPanel(VerticalScroll):
    """Shows a view dict. A plugin's board widget (``BoardWidget``: ``cls(view=...)``,
    then ``update_view``) is used when given; if it fails, or is not a Textual widget,
    the generic rendering takes over, so a buggy board never hides the game. It may
    fill the screen (the game screen's zoom key), for a narrow terminal."""

    ALLOW_MAXIMIZE = True
    DEFAULT_CSS = """
    ViewPanel {
        overflow-x: auto;
    }
    """

    def __init__(
        self, board_class: type[BoardWidget] | None = None, *, id: str | None = None
    ) -> None:
        super().__init__(id=id)
        self._board_class = board_class
        self._board: Widget | None = None
        self._generic = Static(id="generic-view")
        self.board_error: str | None = None
        #: The view now shown (None: blank), and for whom: the same again is not redrawn.
        self._shown: tuple[dict[str, Any], int | None] | None = None

    def use_board(self, board_class: type[BoardWidget] | None) -> None:
        """Draw with ``board_class`` from now on (chosen once the table said which game
        it is, before its first view is shown)."""
        if board_class is not self._board_class:
            if self._board is not None:
                self._board.remove()
                self._board = None
            self._board_class = board_class
            self.board_error = None
            self._shown = None

    @property
    def plain(self) -> str:
        """The view now shown, as text: lets tests check what reached the screen's DOM
        (made when asked for: a repr of a large view on every move costs)."""
        return "" if self._shown is None else repr(self._shown[0])

    def compose(self) -> Any:
        yield self._generic

    def show(
        self, view: dict[str, Any], seat_names: Sequence[str], viewer: int | None, title: str
    ) -> None:
        if self._shown is not None and self._shown == (view, viewer):
            return  # the same table for the same seat: nothing to draw again
        self._shown = (view, viewer)
        if self._board_class is not None and self.board_error is None:
            try:
                if self._board is None:
                    board = self._board_class(view=view)
                    if not isinstance(board, Widget):
                        raise TypeError(f"{type(board).__name__} is not a Textual widget")
                    self._board = board
                    self.mount(board, before=self._generic)
                else:
                    cast(BoardWidget, self._board).update_view(view)
                self._generic.display = False
                return
            except Exception as exc:  # a plugin's widget must not take the game down
                self.board_error = f"{type(exc).__name__}: {exc}"
                if self._board is not None:
                    self._board.remove()
                    self._board = None
                self.app.notify(
                    f"The game's board could not be drawn ({self.board_error}); "
                    "showing the plain view.",
                    severity="warning",
                )
        self._generic.display = True
        self._generic.update(render_view(view, seat_names, viewer, title, with_cards=False))
        # A row of the seats table is never wrapped: on a narrow terminal the view is as
        # wide as the table's widest row, and the panel scrolls sideways (or zooms).
        self._generic.styles.min_width = rows_width(view, seat_names, viewer, self.app.console)

    def hold(self, held: bool) -> None:
        """Keep the board at least as tall as it is now, or let it fit its content
        (``hold_height``): a board a line shorter or longer would otherwise lay the
        screen out twice."""
        shown = self._board if self._board is not None else self._generic
        hold_height(shown, held)

    def clear_view(self) -> None:
        """Blank the board (used while the device is handed to another player)."""
        self._shown = None
        self._generic.update("")
        if self._board is not None:
            self._board.remove()
            self._board = None
