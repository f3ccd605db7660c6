"""Game over: who won and why (the game's own summary and score breakdown), with the
final board and the whole log one key away, and no doubt that the game has ended.

Drawn, like the seat screen, from what the seat was told: the table's welcome (seats,
who played them) and the last update (result, final view) with the seat's story."""

from __future__ import annotations

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static, TabbedContent, TabPane

from tabletop.adapters.tui.hookspecs import BoardWidget, board_widget_class
from tabletop.adapters.tui.presenting import scalar_text
from tabletop.adapters.tui.screens.base import tabletop
from tabletop.adapters.tui.widgets import GameLog, ViewPanel
from tabletop.framework.game import Result
from tabletop.framework.seats import LOCAL, SeatState, TableInfo

#: Said on the result tab: the game cannot go on, so no move can be taken back.
ENDED = "The game is over: no more moves, and none can be taken back."


class GameOverScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "home", "Home"),
        Binding("escape", "home", "Home", show=False),
        Binding("o", "tab('result')", "Result"),
        Binding("b", "tab('board')", "Final board"),
        Binding("l", "tab('log')", "Log"),
        Binding("n", "new_game", "New game"),
    ]

    def __init__(self, info: TableInfo, state: SeatState, ending: str = "") -> None:
        super().__init__()
        #: How the game ended, in a line (``tabletop join`` prints it).
        self.ending = ending
        self.info = info
        self.state = state
        #: Whose view the final board and log show (the seat screen's last viewer).
        self.viewer = info.seat
        update = state.update
        self.result: Result | None = None if update is None else update.result
        self.error: str | None = (
            "the game's result() failed" if update is not None and update.result is None else None
        )

    def headline(self) -> str:
        info = self.info
        result = self.result or Result(winners=())
        if self.error:
            return f"The game ended but its result could not be read: {self.error}"
        if info.cooperative:  # one team: its win and its one score
            score = f" Team score: {scalar_text(max(result.scores))}." if result.scores else ""
            return ("The team wins!" if result.winners else "The team loses.") + score
        who = ", ".join(info.seat_name(seat) for seat in result.winners)
        person = self.solitaire()
        if person is not None:  # one person against the game: say it to them plainly
            if person in result.winners:
                return "You win!"
            return (
                f"You lose: {who} {'wins' if len(result.winners) == 1 else 'win'}."
                if who
                else "You lose."
            )
        if not result.winners:
            return "Nobody wins."
        return f"{who} {'wins' if len(result.winners) == 1 else 'win'}!"

    def solitaire(self) -> int | None:
        """The person's seat when one person played alone against the game (every
        other seat, if any, played by the game's own procedure); else None."""
        kinds = self.info.controllers
        people = [seat for seat, kind in enumerate(kinds) if kind == "human"]
        if len(people) != 1:
            return None
        others = [kind for seat, kind in enumerate(kinds) if seat != people[0]]
        return people[0] if all(kind == "procedure" for kind in others) else None

    def played_by(self, seat: int) -> str:
        """Who played ``seat``: a seat the game plays itself says so."""
        kinds = self.info.controllers
        kind = kinds[seat] if seat < len(kinds) else "?"
        return "the game's procedure" if kind == "procedure" else kind

    def facts(self) -> str:
        """The game's numbers: its length, its seed (no secret once it is over) and
        where it is kept."""
        update = self.state.update
        parts = [f"{0 if update is None else update.seq} actions"]
        if update is not None and update.seed is not None:
            parts.insert(0, f"Seed {update.seed}")
        info = self.info
        if info.holder == LOCAL:
            parts.append(f"saved as {info.table or '(not saved)'}")
        else:
            parts.append(f"server game {info.table}")
        return " · ".join(parts)

    def compose(self) -> ComposeResult:
        result = self.result or Result(winners=())
        yield Header()
        with TabbedContent(id="game-over-tabs", initial="result"):
            with TabPane("Result (o)", id="result"), VerticalScroll(id="game-over"):
                yield Static(ENDED, id="ended", markup=False)
                yield Static(self.headline(), id="winner", markup=False)
                if result.outcome:
                    yield Static(f"How it ended: {result.outcome}", id="outcome", markup=False)
                if result.summary:
                    yield Static(result.summary, id="summary", markup=False)
                scores: DataTable[str] = DataTable(
                    id="scores", cursor_type="none", show_cursor=False
                )
                scores.can_focus = False  # Enter belongs to the screen ("Home")
                yield scores
                yield Static(self.facts(), id="game-facts", markup=False)
            with TabPane("Final board (b)", id="board"):
                yield ViewPanel(self._board_class(), id="final-board")
            with TabPane("Log (l)", id="log"):
                yield GameLog(id="final-log")
        yield Footer()

    def _board_class(self) -> type[BoardWidget] | None:
        try:
            return board_widget_class(tabletop(self).registry, self.info.game)
        except Exception:  # the plugin's hook failed: the plain view
            return None

    def on_mount(self) -> None:
        info = self.info
        self.title = info.title
        self.sub_title = "game over"
        table = self.query_one("#scores", DataTable)
        table.add_columns("Seat", "Played by", "Score", "")
        result = self.result or Result(winners=())
        for seat, name in enumerate(info.seat_names):
            score = scalar_text(result.scores[seat]) if seat < len(result.scores) else "—"
            mark = "winner" if seat in result.winners else ""
            if info.cooperative:
                mark = "team win" if result.winners else ""
            table.add_row(name, self.played_by(seat), score, mark)
        board = self.query_one("#final-board", ViewPanel)
        update = self.state.update
        view = {} if update is None else dict(update.view)
        board.show(view, info.seat_names, self.viewer, info.title)
        log = self.query_one("#final-log", GameLog)
        log.add("final", self.state.lines)
        log.show("final")

    def action_tab(self, tab: str) -> None:
        self.query_one("#game-over-tabs", TabbedContent).active = tab

    def action_board(self) -> None:
        self.action_tab("board")

    def action_log(self) -> None:
        self.action_tab("log")

    def action_home(self) -> None:
        app = tabletop(self)
        if app.first is not None:  # a server seat's app (tabletop join): it ends here
            app.ending = self.ending
            app.exit()
            return
        app.go_home()

    def action_new_game(self) -> None:
        from tabletop.adapters.tui.screens.new_game import NewGameScreen

        app = tabletop(self)
        app.go_home()
        if self.info.game in app.registry.games:
            app.push_screen(NewGameScreen(self.info.game))
        else:
            self.notify("This game is not installed here.", severity="warning")

    def palette_commands(self) -> list[SystemCommand]:
        return [
            SystemCommand("Home", "Back to the list of games", self.action_home),
            SystemCommand("Final board", "The table as the game ended", self.action_board),
            SystemCommand("Log", "The story of the game", self.action_log),
            SystemCommand("New game", "Play this game again", self.action_new_game),
        ]
