"""The hint: what the tree search would choose at the person's decision, with its
estimate and the two best alternatives (``tabletop.adapters.bots.hint``).

A small dialog over the game; closing it leaves the suggested choice highlighted in
the decision panel, never chosen: the person still decides.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, Static


class HintScreen(ModalScreen[None]):
    BINDINGS = [
        Binding("escape", "close", "Back to the decision"),
        Binding("enter", "close", "Back", show=False),
        Binding("question_mark", "close", "Back", show=False),
    ]

    def __init__(self, lines: list[str]) -> None:
        super().__init__()
        self.lines = lines

    def compose(self) -> ComposeResult:
        with Vertical(id="hint-dialog", classes="dialog"):
            yield Label("Hint from the tree search", classes="dialog-title")
            yield Static("\n".join(self.lines), id="hint-text", markup=False)
            yield Static(
                "Enter or Escape: back to the decision, the suggestion highlighted.",
                id="hint-keys",
                markup=False,
            )

    def action_close(self) -> None:
        self.dismiss(None)
