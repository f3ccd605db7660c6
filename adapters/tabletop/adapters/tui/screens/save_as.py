"""Ask for a name to save a copy of the game under."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Label, Static


class SaveAsScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, default: str) -> None:
        super().__init__()
        self.default = default

    def compose(self) -> ComposeResult:
        with Vertical(id="save-dialog", classes="dialog"):
            yield Label("Save a copy", classes="dialog-title")
            yield Static("Name (letters, digits, . _ -). Enter saves, Escape cancels.")
            yield Input(self.default, restrict=r"[A-Za-z0-9._-]*", max_length=100, id="save-name")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value.strip() or None)

    def action_cancel(self) -> None:
        self.dismiss(None)
