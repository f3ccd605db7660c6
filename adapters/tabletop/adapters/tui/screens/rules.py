"""The game's rules summary (Markdown) as a reference over the game."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Label, Markdown


class RulesScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Close"),
        Binding("r", "close", "Close", show=False),
    ]

    def __init__(self, title: str, markdown: str, cited: str | None = None) -> None:
        super().__init__()
        self.rules_title = title
        self.markdown = markdown
        self.cited = cited

    def compose(self) -> ComposeResult:
        with Vertical(id="rules-dialog", classes="dialog"):
            yield Label(f"Rules of {self.rules_title}", classes="dialog-title")
            if self.cited:
                yield Label(f"The current decision applies {self.cited}.", id="rules-cited")
            with VerticalScroll(id="rules-scroll"):
                yield Markdown(self.markdown or "*This game has no rules summary.*")

    def action_close(self) -> None:
        self.dismiss(None)
