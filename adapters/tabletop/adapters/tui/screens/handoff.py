"""Hot-seat hand-off: an opaque screen between two people in a game of hidden information."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import Label, Static

from tabletop.adapters.tui.widgets.footer import StableFooter


def handoff_text(seat_name: str) -> str:
    """What the hand-off screen says (markup: the seat's name in bold)."""
    return (
        f"Pass the keyboard to [b]{seat_name}[/b].\n\n"
        "Everyone else: please look away.\n"
        f"{seat_name}: press Enter (or click) when you are ready."
    )


class HandoffScreen(Screen[None]):
    """Covers the whole terminal (not a modal) so nothing of the last player's view shows
    until the next player confirms they are at the keyboard.

    A game screen makes one and shows it again at every change of hands (``hand_to``
    names the next seat): composing, styling and drawing a fresh screen each time cost
    most of a hand-off."""

    BINDINGS = [
        Binding("enter", "ready", "I am ready"),
        Binding("space", "ready", "I am ready", show=False),
        Binding("escape", "home", "Home"),
    ]

    def __init__(self, seat_name: str, game_title: str) -> None:
        super().__init__()
        self.seat_name = seat_name
        self.game_title = game_title
        self._text = Static(handoff_text(seat_name), id="handoff-text")
        self._ready: Callable[[], None] | None = None

    def compose(self) -> ComposeResult:
        with Middle(), Center(), Vertical(id="handoff-box"):
            yield Label(self.game_title, classes="dialog-title")
            yield self._text
        yield StableFooter()

    def hand_to(self, seat_name: str, ready: Callable[[], None] | None = None) -> None:
        """Name the seat the device goes to next (before the screen is shown again).

        ``ready`` is called when that person says they are ready, just before this
        screen goes: the game screen below draws their view then, so that it is laid
        out and drawn once, as it appears (not first as it was, then again)."""
        self._ready = ready
        if seat_name != self.seat_name:
            self.seat_name = seat_name
            self._text.update(handoff_text(seat_name))

    def action_ready(self) -> None:
        if not self.is_current:
            return  # a key or click that came after the screen went
        ready, self._ready = self._ready, None
        if ready is not None:
            ready()
        self.dismiss(None)

    def action_home(self) -> None:
        """Leave without revealing anything (the game is saved; loading it hands off again)."""
        from tabletop.adapters.tui.screens.base import tabletop

        tabletop(self).go_home()

    def on_click(self) -> None:
        self.action_ready()
