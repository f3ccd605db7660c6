"""The Textual application: the screens, and the services they share.

The app gets a ``SessionStarter`` from the composition root (registry, save store,
random source, dice and the app's log all come with it) and holds what the screens
share (starting and loading games, the default bot speed), so that screens stay about
presentation. Each game screen is the session's UI port (``screens.game.TextualUI``).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Iterable
from typing import Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from tabletop.adapters.collector import collector
from tabletop.adapters.saves import printable
from tabletop.adapters.tui.patience import Patient
from tabletop.adapters.tui.presenting import NewGameSpec
from tabletop.framework.bots import BotFactory
from tabletop.framework.errors import PLUGIN_ESCAPES, TabletopError
from tabletop.framework.plugins import GameRegistry
from tabletop.framework.ports import SaveStore
from tabletop.framework.session import GameSession, SessionStarter

#: How long opening a save may hold the screen before the replay goes on behind it.
LOAD_WAIT_SECONDS = 2.0


def random_seed() -> int:
    """A fresh seed from the OS (not Python's global RNG, which tests may pin)."""
    return secrets.randbelow(2**31)


class TabletopApp(App[None]):
    """Play any installed game in the terminal."""

    TITLE = "Tabletop"
    CSS_PATH = "tabletop.tcss"
    BINDINGS = [Binding("ctrl+q", "quit", "Quit", priority=True, show=False)]

    def __init__(
        self,
        sessions: SessionStarter,
        *,
        bot_delay: float = 0.4,
        new_seed: Callable[[], int] = random_seed,
    ) -> None:
        super().__init__()
        if sessions.store is None:
            raise TabletopError("the terminal UI needs a save store (every move is autosaved)")
        self.sessions = sessions
        self.registry: GameRegistry = sessions.registry
        self.store: SaveStore = sessions.store
        #: The bot speed every game starts with (each game screen keeps its own).
        self.bot_delay = bot_delay
        #: Whether game screens pause on a game's recaps (a turn's or round's end); the
        #: player may turn the pauses off, for the rest of this run (``SummaryScreen``).
        self.pause_on_summaries = True
        self.new_seed = new_seed
        #: A save being replayed in the background, if any (``open_save``).
        self._loading: Patient | None = None
        self._loading_id = ""
        self._collector_tuned = False

    def on_mount(self) -> None:
        if not self._collector_tuned:
            self._collector_tuned = True
            collector.enter()  # tuned while the app runs

    def on_unmount(self) -> None:
        if self._collector_tuned:
            self._collector_tuned = False
            collector.leave()

    def get_default_screen(self) -> Screen[Any]:
        from tabletop.adapters.tui.screens.home import HomeScreen

        return HomeScreen()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """Every screen action is also a palette command (Ctrl+P)."""
        yield from super().get_system_commands(screen)
        commands = getattr(screen, "palette_commands", None)
        if callable(commands):
            yield from commands()

    # Services used by the screens -----------------------------------------------------

    def bot_factories(self, game_id: str) -> dict[str, BotFactory]:
        return self.sessions.bot_factories(game_id)

    def start_game(self, spec: NewGameSpec) -> GameSession | None:
        """Start a game (autosaved at once); on failure tell the player and return None.

        The game screen attaches itself as the session's UI when it opens, and is then
        told of a first autosave that failed.
        """
        try:
            return self.sessions.start(
                spec.game_id,
                seed=spec.seed,
                players=spec.players,
                options=dict(spec.options),
                seats=list(spec.controllers),
            )
        except TabletopError as exc:
            self.show_error("Cannot start the game", str(exc))
            return None
        except Exception as exc:  # a plugin's setup or bot factory crashed
            self.show_error("Cannot start the game", f"{type(exc).__name__}: {exc}")
            return None

    def load_game(self, save_id: str, *, report: bool = True) -> GameSession | str | None:
        """Resume a save by replaying it; a bad or mismatching file is reported and kept.

        With ``report=False`` (off the UI thread) the reason is returned instead of
        shown."""
        try:
            return self.sessions.resume(save_id)
        except TabletopError as exc:
            message = str(exc)
        except PLUGIN_ESCAPES as exc:  # a plugin crashed (or exited) while replaying
            message = f"{type(exc).__name__}: {exc}"
        if not report:
            return message
        self._cannot_load(save_id, message)
        return None

    def open_save(self, save_id: str) -> None:
        """Load a save and open its game. Replaying runs in a daemon thread the app
        waits for up to LOAD_WAIT_SECONDS; a longer replay (a very long game) goes on
        in the background with a message, and the app, its quit key included, keeps
        working meanwhile (``patience.Patient``)."""
        if self._loading is not None:
            self.notify("Still loading a game: a moment, please.", severity="warning")
            return
        loading = Patient(lambda: self.load_game(save_id, report=False))
        self._loading, self._loading_id = loading, save_id
        loading.start(self._loaded_late, name="tabletop-load")
        if loading.wait(LOAD_WAIT_SECONDS):
            self._loaded(loading, save_id)
        else:
            self.notify(
                f"Loading {printable(save_id, 80)}: a long game takes a while to replay. "
                "Ctrl+Q quits meanwhile; the save is only read.",
                markup=False,
                timeout=10,
            )

    def _loaded_late(self, loading: Patient) -> None:
        if not self.is_running:
            return  # the player quit meanwhile
        with contextlib.suppress(Exception):  # ... or is quitting now
            self.call_from_thread(self._loaded, loading, self._loading_id)

    def _loaded(self, loading: Patient, save_id: str) -> None:
        self._loading = None
        outcome = loading.result
        if isinstance(outcome, GameSession):
            self.open_game(outcome)
        elif isinstance(outcome, str):
            self._cannot_load(save_id, outcome)
        else:
            error = loading.error
            self._cannot_load(save_id, f"{type(error).__name__}: {error}")

    def _cannot_load(self, save_id: str, message: str) -> None:
        self.show_error(
            f"Cannot load {printable(save_id, 80)}",
            f"{printable(message)}\n\nThe save file was kept as it is.",
        )

    def open_game(self, session: GameSession, *, replace: bool = False) -> None:
        from tabletop.adapters.tui.screens.game import GameScreen

        screen = GameScreen(session)
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    async def action_quit(self) -> None:
        """Quit, unless a game holds moves that are not saved: then ask first (a second
        Ctrl+Q while asked quits anyway)."""
        from tabletop.adapters.tui.screens.unsaved import UnsavedScreen

        session = self.unsaved_session()
        if session is None or isinstance(self.screen, UnsavedScreen):
            self.exit()
            return
        self.push_screen(UnsavedScreen(session), callback=self._quit_if_settled)

    def _quit_if_settled(self, answer: str | None) -> None:
        if answer is not None:  # saved elsewhere, or the player chose to lose the moves
            self.exit()

    def unsaved_session(self) -> GameSession | None:
        """The open game whose last autosave failed, if any."""
        for screen in reversed(self.screen_stack):
            session = getattr(screen, "session", None)
            if isinstance(session, GameSession) and session.last_save_error is not None:
                return session
        return None

    def leave_game(self, session: GameSession) -> None:
        """Back home from a game; asks first when the game has unsaved moves."""
        from tabletop.adapters.tui.screens.unsaved import UnsavedScreen

        if session.last_save_error is None:
            self.go_home()
            return

        def settled(answer: str | None) -> None:
            if answer is not None:
                self.go_home()

        self.push_screen(UnsavedScreen(session, leaving="leave"), callback=settled)

    def go_home(self) -> None:
        """Back to the home screen from anywhere (the game is already saved)."""
        while len(self.screen_stack) > 1:
            self.pop_screen()

    def show_error(self, title: str, message: str) -> None:
        """A modal message. The title is shown as plain text (it may name a save)."""
        from textual.markup import escape

        from tabletop.adapters.tui.screens.error import ErrorScreen

        self.push_screen(ErrorScreen(escape(title), message))
