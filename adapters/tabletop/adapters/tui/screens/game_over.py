"""Game over: who won, the scores and how the winner was decided."""

from __future__ import annotations

from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Label, Static

from tabletop.adapters.tui.presenting import scalar_text
from tabletop.adapters.tui.screens.base import tabletop
from tabletop.framework.game import Result
from tabletop.framework.session import GameSession


class GameOverScreen(Screen[None]):
    BINDINGS = [
        Binding("enter", "home", "Home"),
        Binding("escape", "home", "Home", show=False),
        Binding("n", "new_game", "New game"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        try:
            self.result: Result | None = session.engine.result()
            self.error: str | None = None
        except Exception as exc:  # the game's result() crashed
            self.result = None
            self.error = f"{type(exc).__name__}: {exc}"

    def compose(self) -> ComposeResult:
        engine = self.session.engine
        result = self.result or Result(winners=())
        if self.error:
            headline = f"The game ended but its result could not be read: {self.error}"
        elif not result.winners:
            headline = "Nobody wins."
        else:
            who = ", ".join(engine.seat_name(seat) for seat in result.winners)
            headline = f"{who} {'wins' if len(result.winners) == 1 else 'win'}!"
        yield Header()
        with Center(), Vertical(id="game-over"):
            yield Label("Game over", classes="dialog-title")
            yield Static(headline, id="winner", markup=False)
            scores: DataTable[str] = DataTable(id="scores", cursor_type="none", show_cursor=False)
            scores.can_focus = False  # Enter belongs to the screen ("Home")
            yield scores
            yield Static(result.summary, id="summary", markup=False)
            yield Static(
                f"Seed {engine.seed} · {len(engine.log)} actions · saved as "
                f"{self.session.save_id or '(not saved)'}",
                id="game-facts",
                markup=False,
            )
        yield Footer()

    def on_mount(self) -> None:
        self.title = self.session.engine.game.info.title
        self.sub_title = "game over"
        table = self.query_one("#scores", DataTable)
        table.add_columns("Seat", "Played by", "Score", "")
        result = self.result or Result(winners=())
        names = self.session.engine.seat_names
        for seat, name in enumerate(names):
            score = scalar_text(result.scores[seat]) if seat < len(result.scores) else "—"
            mark = "winner" if seat in result.winners else ""
            table.add_row(name, self.session.controllers[seat], score, mark)

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
            SystemCommand("New game", "Play this game again", self.action_new_game),
        ]
