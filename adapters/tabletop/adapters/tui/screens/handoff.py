"""Hot-seat hand-off: an opaque screen between two people in a game of hidden information."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Middle, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Label, Static


class HandoffScreen(Screen[None]):
    """Covers the whole terminal (not a modal) so nothing of the last player's view shows
    until the next player confirms they are at the keyboard."""

    BINDINGS = [
        Binding("enter", "ready", "I am ready"),
        Binding("space", "ready", "I am ready", show=False),
        Binding("escape", "home", "Home"),
    ]

    def __init__(self, seat_name: str, game_title: str) -> None:
        super().__init__()
        self.seat_name = seat_name
        self.game_title = game_title

    def compose(self) -> ComposeResult:
        with Middle(), Center(), Vertical(id="handoff-box"):
            yield Label(self.game_title, classes="dialog-title")
            yield Static(
                f"Pass the keyboard to [b]{self.seat_name}[/b].\n\n"
                "Everyone else: please look away.\n"
                f"{self.seat_name}: press Enter (or click) when you are ready.",
                id="handoff-text",
            )
        yield Footer()

    def action_ready(self) -> None:
        self.dismiss(None)

    def action_home(self) -> None:
        """Leave without revealing anything (the game is saved; loading it hands off again)."""
        from tabletop.adapters.tui.screens.base import tabletop

        tabletop(self).go_home()

    def on_click(self) -> None:
        self.dismiss(None)
