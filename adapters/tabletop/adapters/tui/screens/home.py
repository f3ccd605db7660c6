"""Home: installed games, saved games (unreadable ones included) and broken plugins.

Everything about a save comes from a file anyone could have written, so it is shown as
plain text (``rich.text.Text`` cells, no markup) with control characters defused
(``printable``): a save named ``[/oops]`` or holding terminal escape sequences is one
more row, never a crash at start-up.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from urllib.parse import urlsplit

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, Static

from tabletop.adapters.saves import printable
from tabletop.adapters.tui.presenting import players_text, save_row, shorten
from tabletop.adapters.tui.screens.base import tabletop
from tabletop.adapters.tui.services import ServerGamesError, ServerSeat
from tabletop.framework.ports import SaveInfo

#: The save list's columns.
SAVE_COLUMNS = ("Name", "Game", "Saved", "Progress", "Seats")
#: Below this many terminal columns the save list's columns are the narrow ones.
NARROW_BELOW = 100


class HomeScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "new_game", "New game"),
        Binding("l", "load_game", "Load save"),
        Binding("w", "watch_game", "Watch", show=False),
        Binding("d", "delete_save", "Delete save"),
        Binding("f", "forget_server_game", "Forget server game", show=False),
        Binding("g", "focus_games", "Games", show=False),
        Binding("s", "focus_saves", "Saves", show=False),
        Binding("f5", "refresh_saves", "Refresh"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.saves: dict[str, SaveInfo] = {}
        #: Whether the save list's columns are the narrow ones (under 100 columns).
        self._narrow = False
        #: The server games this person joined (``ServerGames``), by row key.
        self.server_games: dict[str, ServerSeat] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="home"):
            yield Label("Games", classes="section-title")
            yield DataTable(id="games", cursor_type="row", zebra_stripes=True)
            yield Label(
                "Server games (Enter re-joins, f forgets)",
                id="server-title",
                classes="section-title",
            )
            yield DataTable(id="server-games", cursor_type="row", zebra_stripes=True)
            yield Static("", id="server-games-note", markup=False)
            yield Label("Saved games", classes="section-title")
            yield DataTable(id="saves", cursor_type="row", zebra_stripes=True)
            yield Static("", id="saves-empty")
            registry = tabletop(self).registry
            failures, slow = registry.failures, getattr(registry, "slow", [])
            if failures or slow:
                title = "Plugins that failed to load"
                if slow:
                    title += " or slowed the start"
                yield Label(title, classes="section-title")
                lines = [f"• {f.plugin}: {printable(f.reason, 300)}" for f in failures]
                lines += [f"• {name}: took {seconds} s to import" for name, seconds in slow]
                yield Static("\n".join(lines), id="failures", markup=False)
        yield Footer()

    def on_mount(self) -> None:
        games = self.query_one("#games", DataTable)
        games.add_columns("Game", "Players", "Version", "Description")
        for game_id, installed in sorted(
            tabletop(self).registry.games.items(), key=lambda item: item[1].info.title
        ):
            info = installed.info
            cells = (
                info.title,
                players_text(info),
                installed.version or info.version,
                shorten(info.description, 60),
            )  # a plugin's words, shown as plain text like a save's
            games.add_row(*(Text(printable(str(cell), 200)) for cell in cells), key=game_id)
        served = self.query_one("#server-games", DataTable)
        for label in ("Game", "Seat", "Server"):
            served.add_column(label, key=label.lower())
        served.add_column("Turn", key="turn")
        self.refresh_saves()
        self.refresh_server_games()
        games.focus()

    def on_screen_resume(self) -> None:
        self.refresh_saves()
        self.refresh_server_games()

    def refresh_server_games(self) -> None:
        """Re-read the server games this person joined and ask each server, off the
        screen's thread (a worker), whose turn it is; the section shows only when
        there is something to show."""
        table = self.query_one("#server-games", DataTable)
        note = self.query_one("#server-games-note", Static)
        was_on = self._selected("#server-games")  # kept across a refresh (a dialog closed)
        table.clear()
        service = tabletop(self).server_games
        try:
            games = [] if service is None else service.seats()
        except ServerGamesError as exc:
            games = []
            note.update(Text(f"Cannot list your server games: {printable(str(exc))}"))
            note.display = True
        else:
            note.display = False
        self.query_one("#server-title").display = bool(games) or note.display
        table.display = bool(games)
        self.server_games = {game.key: game for game in games}
        for game in games:
            cells = (game.title, game.seat_name, _server_of(game.url), "asking the server...")
            table.add_row(*(Text(printable(cell, 80)) for cell in cells), key=game.key)
        if was_on in self.server_games:
            table.move_cursor(row=list(self.server_games).index(was_on))
        if games:
            self._ask_servers(games)

    @work(exclusive=True, group="server-games")
    async def _ask_servers(self, games: Sequence[ServerSeat]) -> None:
        """Each seat's turn from its server, all at once, each with a short timeout (a
        worker: ``work`` makes the coroutine inside it, so one that a newer refresh
        cancels before it starts leaves no coroutine never awaited)."""
        service = tabletop(self).server_games
        if service is None:
            return

        async def ask(game: ServerSeat) -> None:
            try:
                words = await service.status(game)
            except Exception as exc:  # a bad answer: say so in the row, keep the screen
                words = f"unreadable answer ({type(exc).__name__})"
            table = self.query_one("#server-games", DataTable)
            if game.key in table.rows:
                table.update_cell(game.key, "turn", Text(printable(words, 80)))

        await asyncio.gather(*(ask(game) for game in games))

    def on_resize(self, event: events.Resize) -> None:
        """Under 100 columns the saves' columns narrow so that all five fit."""
        narrow = event.size.width < NARROW_BELOW
        if narrow != self._narrow:
            self._narrow = narrow
            if self.is_mounted:
                self.refresh_saves()

    def refresh_saves(self) -> None:
        """Re-read the save list: after a game autosaved, or a file changed on disk."""
        table = self.query_one("#saves", DataTable)
        empty = self.query_one("#saves-empty", Static)
        table.clear(columns=True)  # the columns fit their cells again (narrow or wide)
        table.add_columns(*SAVE_COLUMNS)
        app = tabletop(self)
        titles = {game_id: g.info.title for game_id, g in app.registry.games.items()}
        try:
            infos = app.store.list()
        except Exception as exc:  # an unreadable directory, or a store's own bug
            infos = []
            empty.update(Text(f"Cannot list saves: {printable(str(exc))}"))
        else:
            empty.update("" if infos else "No saved games yet. Press n to start one.")
        empty.display = not infos
        table.display = bool(infos)
        self.saves = {info.save_id: info for info in infos}
        for info in infos:
            try:
                cells = save_row(info, titles, self._result_of(info), narrow=self._narrow)
            except Exception as exc:  # a listing entry the row cannot show
                cells = (info.save_id, "unreadable", "", f"{type(exc).__name__}", "")
            table.add_row(*(Text(printable(cell, 200)) for cell in cells), key=info.save_id)

    def _result_of(self, info: SaveInfo) -> str:
        """A finished save's result in words ("Player 1 won"), as the session wrote it
        in the record's meta; "" when unknown. Only finished saves are read."""
        if not info.finished or info.error is not None:
            return ""
        try:
            result = tabletop(self).store.load(info.save_id).meta.get("result", "")
        except Exception:  # unreadable now: the row shows what the listing knows
            return ""
        return result if isinstance(result, str) else ""

    # Actions --------------------------------------------------------------------------

    def action_new_game(self, game_id: str | None = None) -> None:
        from tabletop.adapters.tui.screens.new_game import NewGameScreen

        app = tabletop(self)
        if not app.registry.games:
            self.notify("No games are installed.", severity="warning")
            return
        if game_id is None:
            game_id = self._selected("#games")
        self.app.push_screen(NewGameScreen(game_id))

    def action_watch_game(self, save_id: str | None = None) -> None:
        """Follow the selected save as a spectator: the public table and log only,
        whoever plays its seats (a game of bots plays on; people's seats wait)."""
        self.action_load_game(save_id, watch=True)

    def action_load_game(self, save_id: str | None = None, *, watch: bool = False) -> None:
        save_id = save_id or self._selected("#saves")
        if save_id is None:
            self.notify("No save selected.", severity="warning")
            return
        info = self.saves.get(save_id)
        if info is not None and info.error is not None:
            tabletop(self).show_error(
                f"Cannot load {printable(save_id, 80)}",
                f"{printable(info.error)}\n\nThe save file was kept as it is.",
            )
            return
        tabletop(self).open_save(save_id, watch=watch)  # replays off the UI thread if long

    def action_delete_save(self, save_id: str | None = None) -> None:
        """Delete the selected save, after asking (the file is gone for good)."""
        from tabletop.adapters.tui.screens.confirm import ConfirmScreen

        save_id = save_id or self._selected("#saves")
        if save_id is None:
            self.notify("No save selected.", severity="warning")
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            try:
                tabletop(self).store.delete(save_id)
            except Exception as exc:
                self.notify(f"Not deleted: {printable(str(exc))}", severity="error", markup=False)
                return
            self.notify(f"Deleted {printable(save_id, 80)}.", markup=False)
            self.refresh_saves()

        self.app.push_screen(
            ConfirmScreen(
                "Delete this save?",
                f"{printable(save_id, 80)} will be deleted for good: it cannot be loaded "
                "or replayed afterwards.",
                yes="Delete",
            ),
            callback=answered,
        )

    def action_focus_games(self) -> None:
        self.query_one("#games", DataTable).focus()

    def action_focus_saves(self) -> None:
        self.query_one("#saves", DataTable).focus()

    def action_refresh_saves(self) -> None:
        self.refresh_saves()
        self.refresh_server_games()

    def _selected(self, selector: str) -> str | None:
        table = self.query_one(selector, DataTable)
        if not table.display or table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key.value
        return key

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        key = event.row_key.value
        if event.data_table.id == "games":
            self.action_new_game(key)
        elif event.data_table.id == "saves":
            self.action_load_game(key)
        elif event.data_table.id == "server-games":
            self.action_rejoin(key)

    def action_rejoin(self, key: str | None = None) -> None:
        """Sit at a remembered server seat again: the seat screen ``tabletop join``
        opens, on that seat's line to its server."""
        key = key or self._selected("#server-games")
        game = self.server_games.get(key or "")
        service = tabletop(self).server_games
        if game is None or service is None:
            self.notify("No server game selected.", severity="warning")
            return
        tabletop(self).open_seat(service.connect(game))

    def action_forget_server_game(self) -> None:
        """Take the selected server game off the list, after asking: the game goes on
        on its server, but its token is gone from this machine (keep it elsewhere to
        play on)."""
        from tabletop.adapters.tui.screens.confirm import ConfirmScreen

        key = self._selected("#server-games")
        game = self.server_games.get(key or "")
        if key is None or game is None:
            self.notify("No server game selected.", severity="warning")
            return

        def answered(yes: bool | None) -> None:
            if not yes:
                return
            service = tabletop(self).server_games
            try:
                gone = service is not None and service.forget(key)
            except ServerGamesError as exc:
                self.notify(f"Not forgotten: {printable(str(exc))}", severity="error", markup=False)
                return
            if gone:
                self.notify(
                    f"Forgot {printable(game.title, 60)} ({printable(game.seat_name, 40)}); "
                    "the game goes on on its server.",
                    markup=False,
                )
            self.refresh_server_games()

        self.app.push_screen(
            ConfirmScreen(
                "Forget this server game?",
                f"{printable(game.title, 60)}, seat {printable(game.seat_name, 40)} on "
                f"{printable(_server_of(game.url), 80)}: its secret will be gone from this "
                "machine, and with it the key to this seat (its invite worked once): you "
                "will not be able to play it again. The game goes on on its server.",
                yes="Forget",
            ),
            callback=answered,
        )

    def palette_commands(self) -> list[SystemCommand]:
        return [
            SystemCommand("New game", "Set up and start a game", self.action_new_game),
            SystemCommand("Load save", "Continue the selected saved game", self.action_load_game),
            SystemCommand(
                "Watch",
                "Follow the selected save as a spectator: the public view only (w)",
                self.action_watch_game,
            ),
            SystemCommand("Delete save", "Delete the selected saved game", self.action_delete_save),
            SystemCommand("Refresh saves", "Re-read the saved games", self.refresh_saves),
            SystemCommand(
                "Forget server game",
                "Take the selected server game off this list",
                self.action_forget_server_game,
            ),
        ]


def _server_of(url: str) -> str:
    """host:port of a server's address, which is what tells two servers apart."""
    return urlsplit(url).netloc or url
