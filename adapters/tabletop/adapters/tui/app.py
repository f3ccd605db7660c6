"""The Textual application: the screens, and the services they share.

The app gets a ``SessionStarter`` from the composition root (registry, save store,
random source, dice and the app's log all come with it) and holds what the screens
share (starting and loading games, the default bot speed). A game it starts or loads is
a ``LocalGame``: the session, a framework ``Table`` around it, and one line to the table
for each person at this screen; the seat screen reads the game only through those lines,
exactly as it reads a server seat's (``services.ServerGames`` gives those).
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from tabletop.adapters.bots.table_hints import hinter_for
from tabletop.adapters.collector import collector
from tabletop.adapters.saves import printable
from tabletop.adapters.tui.patience import Patient
from tabletop.adapters.tui.presenting import NewGameSpec
from tabletop.adapters.tui.services import ServerGames
from tabletop.adapters.workers import ThreadWorkers
from tabletop.framework.bots import BotFactory
from tabletop.framework.errors import PLUGIN_ESCAPES, TabletopError
from tabletop.framework.plugins import GameRegistry
from tabletop.framework.ports import SaveStore, Workers
from tabletop.framework.seats import SeatConnection
from tabletop.framework.session import GameSession, SessionStarter
from tabletop.framework.table import LocalConnection, Table, people_at

if TYPE_CHECKING:
    from tabletop.adapters.tui.screens.seat import SeatScreen

#: How long opening a save may hold the screen before the replay goes on behind it.
LOAD_WAIT_SECONDS = 2.0
#: The most seconds search bots think, in all, between a person's move and their next
#: decision at a local table (each is hurried to keep to it): on a quick machine the bots
#: never reach it; on a slow or busy one the person is still answered within about 2 s
#: (``tabletop bench --waits``).
BOT_PATIENCE = 1.0
#: How long the screen waits for a move at a local table before it goes on without it
#: (a usual move is done by then; a game whose code is slow leaves the screen free).
MOVE_WAIT_SECONDS = 2.0


class LocalGame:
    """A game this app holds: its session, the table around it, and the lines of the
    people at this screen (one each; in hot-seat several, and a spectator's for the
    public view between two people's turns when the game hides information)."""

    def __init__(self, session: GameSession, *, workers: Workers, registry: GameRegistry):
        self.session = session
        self.table = Table(
            session,
            workers=workers,
            hinter=hinter_for(registry),
            on_idle=lambda table: table.close(),
            patience=BOT_PATIENCE,
        )

    def lines(self, *, watch: bool = False) -> tuple[list[SeatConnection], SeatConnection | None]:
        """The people's lines to the table, and the spectator's when the screen needs
        one (nobody plays: watch the bots; several people and hidden information;
        ``watch``: the spectator's alone, the game followed from the public view)."""
        session = self.session
        people = [] if watch else people_at(session)
        shared = len(people) > 1
        lines: list[SeatConnection] = [
            LocalConnection(
                self.table, seat, shared=shared, save_copy=self.save_copy, wait=MOVE_WAIT_SECONDS
            )
            for seat in people
        ]
        engine = session.engine
        hides = engine.game.hides_information(engine.options)
        watch = not people or (shared and hides)
        spectator = LocalConnection(self.table, None, save_copy=self.save_copy) if watch else None
        return lines, spectator

    def save_copy(self, name: str) -> str:
        """A copy of the game so far under ``name``: a snapshot, the game goes on saving
        to its own save. Refused when another save has that name."""
        store = self.session.store
        if store is None:
            raise TabletopError("this game is not kept in a save folder")
        existing = {info.save_id for info in store.list()}
        if name in existing and name != self.session.save_id:
            raise TabletopError(f"a save named {name} already exists")
        return store.save(self.session.record(), name)


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
        workers: Workers | None = None,
        server_games: ServerGames | None = None,
        first: Screen[Any] | None = None,
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
        self._watching = False
        self._collector_tuned = False
        #: Where bots think, hints search and moves run (threads: ``ThreadWorkers``);
        #: not ``workers``, which is Textual's own.
        self.play_workers: Workers = workers or ThreadWorkers()
        #: The server games a person joined from here (None: the home screen lists none).
        self.server_games = server_games
        #: The screen the app opens with instead of the home screen (``tabletop join``:
        #: a server seat; leaving it ends the app).
        self.first = first
        #: The games this app holds, by the seat screen that shows each.
        self.local_games: dict[int, LocalGame] = {}
        #: How the first screen's game stood when the app ended (``tabletop join``
        #: prints it).
        self.ending = ""

    def on_mount(self) -> None:
        if not self._collector_tuned:
            self._collector_tuned = True
            collector.enter()  # tuned while the app runs

    def on_unmount(self) -> None:
        if self._collector_tuned:
            self._collector_tuned = False
            collector.leave()

    def get_default_screen(self) -> Screen[Any]:
        if self.first is not None:
            return self.first
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

    def open_save(self, save_id: str, *, watch: bool = False) -> None:
        """Load a save and open its game (``watch``: as a spectator, the public view
        only, whoever plays its seats). Replaying runs in a daemon thread the app
        waits for up to LOAD_WAIT_SECONDS; a longer replay (a very long game) goes on
        in the background with a message, and the app, its quit key included, keeps
        working meanwhile (``patience.Patient``)."""
        self._watching = watch
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
            self.open_game(outcome, watch=self._watching)
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

    def open_game(
        self, session: GameSession, *, replace: bool = False, watch: bool = False
    ) -> None:
        """Show a game this app holds: its table, and a seat screen on its lines (only
        a spectator's when ``watch``: the public view; its people's seats wait)."""
        from tabletop.adapters.tui.screens.seat import SeatScreen

        game = LocalGame(session, workers=self.play_workers, registry=self.registry)
        lines, spectator = game.lines(watch=watch)
        screen = SeatScreen(lines, spectator=spectator)
        self.local_games[id(screen)] = game
        if replace:
            self.switch_screen(screen)
        else:
            self.push_screen(screen)

    def open_seat(self, connection: SeatConnection) -> None:
        """Show a seat held elsewhere (a server's): the same seat screen, on its line."""
        from tabletop.adapters.tui.screens.seat import SeatScreen

        self.push_screen(SeatScreen([connection]))

    def local_game(self, screen: Screen[Any]) -> LocalGame | None:
        """The game a seat screen shows, when this app holds it."""
        return self.local_games.get(id(screen))

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
            game = self.local_game(screen)
            if game is not None and game.session.last_save_error is not None:
                return game.session
        return None

    def leave_table(self, screen: SeatScreen) -> None:
        """Back from a seat screen: home from a game this app holds (asked first when
        it has unsaved moves), or the app's end when the seat was its first screen
        (``tabletop join``: the game waits on its server)."""
        from tabletop.adapters.tui.screens.unsaved import UnsavedScreen

        if screen is self.first:
            self.ending = screen.ending()
            self.exit()
            return
        game = self.local_game(screen)
        if game is None or game.session.last_save_error is None:
            self._left(screen)
            return

        def settled(answer: str | None) -> None:
            if answer is not None:
                self._left(screen)

        self.push_screen(UnsavedScreen(game.session, leaving="leave"), callback=settled)

    def _left(self, screen: Screen[Any]) -> None:
        self.local_games.pop(id(screen), None)
        self.go_home()

    def go_home(self) -> None:
        """Back to the home screen from anywhere (the game is already saved): the
        games this app held are let go (their tables closed when their screens went)."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.local_games.clear()

    def show_error(self, title: str, message: str) -> None:
        """A modal message. The title is shown as plain text (it may name a save)."""
        from textual.markup import escape

        from tabletop.adapters.tui.screens.error import ErrorScreen

        self.push_screen(ErrorScreen(escape(title), message))
