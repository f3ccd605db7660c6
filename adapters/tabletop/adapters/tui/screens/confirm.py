"""Ask before doing something that cannot be undone (deleting a save)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; dismissed with True only on an explicit yes (y or the
    button), so a stray Enter or Escape never deletes anything."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("escape", "answer(False)", "No", show=False),
    ]

    def __init__(self, title: str, question: str, yes: str = "Yes") -> None:
        super().__init__()
        self.question_title = title
        self.question = question
        self.yes = yes

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm-dialog", classes="dialog"):
            yield Label(self.question_title, classes="dialog-title", markup=False)
            yield Static(self.question, id="confirm-question", markup=False)
            with Horizontal(classes="buttons"):
                yield Button(f"{self.yes} (y)", variant="error", id="confirm-yes")
                yield Button("Keep it (n)", variant="primary", id="confirm-no")

    def on_mount(self) -> None:
        self.query_one("#confirm-no", Button).focus()

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "confirm-yes")
