"""Asked before quitting (or leaving a game) while moves are not saved.

Autosave failed (a full or read-only disk, another window that changed the save, a
game whose ``describe`` raises) and the game holds moves that exist only in memory:
quitting at once would lose them. The dialog says why, and offers to write the game
to a file somewhere else first; quitting anyway takes an explicit choice (or a second
Ctrl+Q). Writing there never replaces a file without a second Enter on the same name,
and never this game's own save (which another window may have changed: its moves
would be lost).
"""

from __future__ import annotations

import os
from pathlib import Path

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static

from tabletop.adapters.saves import JsonSaveStore, printable
from tabletop.framework.errors import SaveError
from tabletop.framework.session import GameSession

#: What the dialog answers: the game was saved elsewhere, leave without saving, or
#: stay (None).
SAVED, DISCARD = "saved", "discard"


#: Most numbered names ``rescue_path`` tries before it gives the last one anyway.
MAX_RESCUE_NAMES = 1000


class FileExists(SaveError):
    """The chosen file exists: replacing it takes a confirmation."""


def rescue_folder(session: GameSession) -> Path:
    """Where rescued games go: the home directory; without one (HOME unset and no
    passwd entry), the save directory if it can be written, else the current one."""
    try:
        return Path.home()
    except RuntimeError:
        pass
    directory = getattr(session.store, "directory", None)
    if directory is not None and os.access(directory, os.W_OK | os.X_OK):
        return Path(directory)
    return Path(".").absolute()


def rescue_path(session: GameSession) -> Path:
    """Where the dialog proposes to write the game: a name no file has yet in
    ``rescue_folder`` (a second rescue of the same game must not replace the first)."""
    name = session.save_id or f"{session.engine.game.info.id}-unsaved"
    folder = rescue_folder(session)
    path = folder / f"{name}-rescued.json"
    for number in range(2, MAX_RESCUE_NAMES):
        if not path.exists():
            break
        path = folder / f"{name}-rescued-{number}.json"
    return path


def own_save(session: GameSession) -> Path | None:
    """The file this game autosaves to, if it has one."""
    path_of = getattr(session.store, "path_of", None)
    if session.save_id is None or path_of is None:
        return None
    try:
        own: Path = path_of(session.save_id)
    except Exception:
        return None
    return own


def _same_file(one: Path, other: Path) -> bool:
    try:
        return one.resolve() == other.resolve() or (
            one.exists() and other.exists() and os.path.samefile(one, other)
        )
    except OSError:
        return False


def save_elsewhere(session: GameSession, path: Path, *, replace: bool = False) -> str:
    """Write the game as a save file at ``path``; return where, or raise SaveError
    (``FileExists`` when the file exists and ``replace`` is not set). This game's own
    save is refused whatever ``replace`` says: another window may own it now."""
    try:
        path = path.expanduser()
    except RuntimeError:  # "~" with no home directory
        raise SaveError("there is no home directory: give the file's full path") from None
    if path.suffix != ".json":
        path = path.with_name(path.name + ".json")
    own = own_save(session)
    if own is not None and _same_file(path, own):
        raise SaveError(
            f"{printable(str(path))} is this game's own save, which another window or "
            "program may have changed: it is not overwritten; choose another file"
        )
    if path.is_dir():
        raise SaveError(f"{printable(str(path))} is a directory")
    if not replace and (path.exists() or path.is_symlink()):
        raise FileExists(f"{printable(str(path))} exists")
    store = JsonSaveStore(path.parent)
    store.save(session.record(), path.stem)
    return str(path)


class UnsavedScreen(ModalScreen[str | None]):
    BINDINGS = [Binding("escape", "stay", "Back to the game")]

    def __init__(self, session: GameSession, *, leaving: str = "quit") -> None:
        super().__init__()
        self.session = session
        self.leaving = leaving
        #: The file the player was told exists: a second Enter on it replaces it.
        self.confirming: str | None = None

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

    def on_input_changed(self, event: Input.Changed) -> None:
        if event.value.strip() != self.confirming:
            self.confirming = None  # another name: ask again before replacing

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
        name = text.strip()
        try:
            where = save_elsewhere(self.session, Path(name), replace=self.confirming == name)
        except FileExists as exc:
            self.confirming = name
            result.update(
                f"Not saved yet: {exc}. Press Enter again to replace it, or change the name."
            )
            return
        except Exception as exc:  # a full disk, a bad path, a game that cannot record
            result.update(f"Not saved: {printable(str(exc))}")
            return
        self.app.notify(f"Saved the game to {printable(where)}", markup=False)
        self.dismiss(SAVED)
