"""Asked before quitting (or leaving a game) while moves are not saved.

Autosave failed (a full or read-only disk, another window that changed the save, a
game whose ``describe`` raises) and the game holds moves that exist only in memory:
quitting at once would lose them. The dialog says why, and offers to write the game
to a file somewhere else first; quitting anyway takes an explicit choice (or a second
Ctrl+Q).
"""

from __future__ import annotations

from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from tabletop.adapters.saves import JsonSaveStore, printable
from tabletop.framework.session import GameSession

#: What the dialog answers: the game was saved elsewhere, leave without saving, or
#: stay (None).
SAVED, DISCARD = "saved", "discard"


def rescue_path(session: GameSession) -> Path:
    """Where the dialog proposes to write the game: the home directory."""
    name = session.save_id or f"{session.engine.game.info.id}-unsaved"
    return Path.home() / f"{name}-rescued.json"


def save_elsewhere(session: GameSession, path: Path) -> str:
    """Write the game as a save file at ``path``; return where, or raise SaveError."""
    path = path.expanduser()
    if path.suffix != ".json":
        path = path.with_name(path.name + ".json")
    store = JsonSaveStore(path.parent)
    store.save(session.record(), path.stem)
    return str(path)


class UnsavedScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "stay", "Back to the game")]

    def __init__(self, session: GameSession, *, leaving: str = "quit") -> None:
        super().__init__()
        self.session = session
        self.leaving = leaving

    def compose(self) -> ComposeResult:
        problem = printable(self.session.last_save_error or "the last autosave failed")
        with Vertical(id="unsaved-dialog", classes="dialog"):
            yield Label("Moves not saved", classes="dialog-title")
            yield Static(
                f"{problem}\n\nSave the game to another file before you {self.leaving}? "
                "Enter saves there; Escape goes back to the game; Ctrl+Q quits without "
                "saving.",
                id="unsaved-message",
                markup=False,
            )
            yield Input(str(rescue_path(self.session)), id="unsaved-path")
            yield Static("", id="unsaved-result", markup=False)
            with Horizontal(id="unsaved-buttons"):
                yield Button("Save there", variant="primary", id="unsaved-save")
                yield Button(f"{self.leaving.capitalize()} without saving", id="unsaved-discard")
                yield Button("Back to the game", id="unsaved-stay")

    def on_mount(self) -> None:
        self.query_one("#unsaved-path", Input).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self._save(event.value)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "unsaved-save":
            self._save(self.query_one("#unsaved-path", Input).value)
        elif event.button.id == "unsaved-discard":
            self.dismiss(DISCARD)
        else:
            self.dismiss(None)

    def action_stay(self) -> None:
        self.dismiss(None)

    def _save(self, text: str) -> None:
        result = self.query_one("#unsaved-result", Static)
        if not text.strip():
            result.update("Give a file name first.")
            return
        try:
            where = save_elsewhere(self.session, Path(text.strip()))
        except Exception as exc:  # a full disk, a bad path, a game that cannot record
            result.update(f"Not saved: {printable(str(exc))}")
            return
        self.app.notify(f"Saved the game to {printable(where)}", markup=False)
        self.dismiss(SAVED)
