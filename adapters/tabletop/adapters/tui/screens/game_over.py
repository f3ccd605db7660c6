"""Game over: who won and why (the game's own summary and score breakdown), with the
final board and the whole log one key away, and no doubt that the game has ended."""

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
from tabletop.framework.session import GameSession

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

    def __init__(self, session: GameSession, viewer: int | None = None) -> None:
        super().__init__()
        self.session = session
        #: Whose view the final board and log show (the game screen's last viewer).
        self.viewer = viewer
        try:
            self.result: Result | None = session.engine.result
            self.error: str | None = None
        except Exception as exc:  # the game's result() crashed
            self.result = None
            self.error = f"{type(exc).__name__}: {exc}"

    def headline(self) -> str:
        engine = self.session.engine
        result = self.result or Result(winners=())
        if self.error:
            return f"The game ended but its result could not be read: {self.error}"
        if engine.game.info.cooperative:  # one team: its win and its one score
            score = f" Team score: {scalar_text(max(result.scores))}." if result.scores else ""
            return ("The team wins!" if result.winners else "The team loses.") + score
        who = ", ".join(engine.seat_name(seat) for seat in result.winners)
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
        session = self.session
        humans = session.humans()
        if len(humans) != 1:
            return None
        others = set(range(session.engine.players)) - set(humans)
        return humans[0] if others <= session.automated else None

    def played_by(self, seat: int) -> str:
        """Who played ``seat``: a seat the game plays itself says so, whatever an older
        save recorded for it."""
        if seat in self.session.automated:
            return "the game's procedure"
        return self.session.controllers[seat]

    def compose(self) -> ComposeResult:
        engine = self.session.engine
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
                yield Static(
                    f"Seed {engine.seed} · {len(engine.log)} actions · saved as "
                    f"{self.session.save_id or '(not saved)'}",
                    id="game-facts",
                    markup=False,
                )
            with TabPane("Final board (b)", id="board"):
                yield ViewPanel(self._board_class(), id="final-board")
            with TabPane("Log (l)", id="log"):
                yield GameLog(id="final-log")
        yield Footer()

    def _board_class(self) -> type[BoardWidget] | None:
        try:
            return board_widget_class(tabletop(self).registry, self.session.engine.game.info.id)
        except Exception:  # the plugin's hook failed: the plain view
            return None

    def on_mount(self) -> None:
        engine = self.session.engine
        self.title = engine.game.info.title
        self.sub_title = "game over"
        table = self.query_one("#scores", DataTable)
        table.add_columns("Seat", "Played by", "Score", "")
        result = self.result or Result(winners=())
        for seat, name in enumerate(engine.seat_names):
            score = scalar_text(result.scores[seat]) if seat < len(result.scores) else "—"
            mark = "winner" if seat in result.winners else ""
            if engine.game.info.cooperative:
                mark = "team win" if result.winners else ""
            table.add_row(name, self.played_by(seat), score, mark)
        board = self.query_one("#final-board", ViewPanel)
        try:
            view = engine.view(self.viewer)
        except Exception as exc:
            view = {"error": f"the game could not show its table: {type(exc).__name__}: {exc}"}
        board.show(view, engine.seat_names, self.viewer, engine.game.info.title)
        self.query_one("#final-log", GameLog).sync(engine, self.viewer)

    def action_tab(self, tab: str) -> None:
        self.query_one("#game-over-tabs", TabbedContent).active = tab

    def action_board(self) -> None:
        self.action_tab("board")

    def action_log(self) -> None:
        self.action_tab("log")

    def action_home(self) -> None:
        tabletop(self).go_home()

    def action_new_game(self) -> None:
        from tabletop.adapters.tui.screens.new_game import NewGameScreen

        app = tabletop(self)
        app.go_home()
        app.push_screen(NewGameScreen(self.session.engine.game.info.id))

    def palette_commands(self) -> list[SystemCommand]:
        return [
            SystemCommand("Home", "Back to the list of games", self.action_home),
            SystemCommand("Final board", "The table as the game ended", self.action_board),
            SystemCommand("Log", "The story of the game", self.action_log),
            SystemCommand("New game", "Play this game again", self.action_new_game),
        ]
