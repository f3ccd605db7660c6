"""A modal error message: problems are shown and dismissed, never fatal."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class ErrorScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "dismiss_error", "Close"),
        Binding("enter", "dismiss_error", "Close", show=False),
    ]

    def __init__(self, title: str, message: str) -> None:
        super().__init__()
        self.error_title = title
        self.message = message

    def compose(self) -> ComposeResult:
        with Vertical(id="error-dialog", classes="dialog"):
            yield Label(self.error_title, classes="dialog-title")
            with VerticalScroll():
                yield Static(self.message, id="error-message", markup=False)
            yield Button("Close", variant="error", id="error-close")

    def action_dismiss_error(self) -> None:
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(None)
