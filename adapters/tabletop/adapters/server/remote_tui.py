"""``tabletop join URL TOKEN``: a server seat in a Textual screen.

The seat's client (``client.play_seat``) runs inside Textual's own asyncio loop, so the
screen is told of every update as it arrives and answers the seat's prompts when the
person picks a choice. It is built from the local game screen's parts that draw from
what a seat receives: the board (the game's own board widget, or the plain view, in
``ViewPanel``) and the choices with their keys, consequences and the highlighted
choice's detail (``ChoiceList``), beside the log lines the server sent; the rules
screen (r) when the game is installed here, a hint (?) that the server's search thinks
out from the seat's own information (the ``hint`` message), and a recap the seat may
read covers the screen until dismissed (``SummaryScreen``). The terminal bell rings
when the decision is the seat's. Leaving (q) leaves the game waiting: joining again
with the same token picks it up where it stands.

Why a screen of its own and not the local game screen: that screen drives a
``GameSession`` with the engine at hand (undo, local hints, saves, the hand-off
screen), all of which need the state; a remote seat has only its view, prompt and log,
and asks the server for what needs more.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, RichLog, Static

import tabletop.adapters.tui
from tabletop.adapters.saves import printable
from tabletop.adapters.server.client import ClientError, Seat, play_seat
from tabletop.adapters.tui.hookspecs import board_widget_class
from tabletop.adapters.tui.screens.hint import HintScreen
from tabletop.adapters.tui.screens.rules import RulesScreen
from tabletop.adapters.tui.screens.summary import NO_MORE, SummaryScreen
from tabletop.adapters.tui.widgets import ChoiceList, ViewPanel
from tabletop.framework.game import SUMMARY, Action, Event
from tabletop.framework.plugins import GameRegistry
from tabletop.framework.seats import REFUSED, AskHint, HintAnswer, Notice, SeatMessage

#: The status line on the seat's turn and while another seat decides: what to press.
YOUR_TURN = "Your decision: press a choice's key, or Enter on the highlighted one."
WAITING_HINT = "A bell rings on your turn; q leaves (the game waits)."

#: Keys the screen keeps for itself: never a choice's.
SCREEN_KEYS = frozenset({"q", "r", "?"})
#: The status line while the server thinks about a hint.
THINKING = "Asking the server for a hint (its search, from your seat's view only)..."


class SeatLog(RichLog):
    """The log lines the seat was sent, wrapped to the column's width, and wrapped
    again when that width changes (a RichLog wraps a line once, when written: the
    layout settling after the first update, or a resized terminal, cut the lines)."""

    def __init__(self, *, id: str | None = None) -> None:
        # min_width: RichLog renders a line at least 78 cells wide by default, which
        # cuts it in a narrower column (80x24) instead of wrapping it.
        super().__init__(id=id, wrap=True, markup=False, min_width=10)
        self.texts: list[Text] = []
        self._wrapped_at = 0

    def add(self, text: Text) -> None:
        self.texts.append(text)
        self.write(text)

    def on_resize(self, event: events.Resize) -> None:
        width = self.scrollable_content_region.width
        if self.texts and width != self._wrapped_at:
            self._wrapped_at = width
            self.clear()
            for text in self.texts:
                self.write(text)


class RemoteSeatScreen(Screen[str]):
    """One seat of a server game. Dismissed with how it ended, in words: by
    ``RemoteSeatApp`` (``tabletop join``) and by the home screen's server games."""

    DEFAULT_CSS = """
    RemoteSeatScreen #body { height: 1fr; }
    RemoteSeatScreen #board { width: 1fr; }
    RemoteSeatScreen #side { width: 1fr; }
    RemoteSeatScreen #log { height: 1fr; border: round $panel; }
    RemoteSeatScreen #status { height: auto; padding: 0 1; background: $boost; }
    RemoteSeatScreen #prompt { height: auto; padding: 0 1; }
    RemoteSeatScreen #choices { height: auto; max-height: 12; }
    RemoteSeatScreen.-narrow #side { width: 34; }
    RemoteSeatScreen.-narrow #board { padding: 0; }
    """
    #: Below 100 columns the side column narrows so the board keeps the 42 columns a
    #: game's board widget may count on (Red Flag's tables), as on the local screen.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    BINDINGS = [
        Binding("r", "rules", "Rules"),
        Binding("question_mark", "hint", "Hint", key_display="?"),
        Binding("q", "leave", "Leave (the game waits)"),
        Binding("q", "close", "Close"),  # the same key, once the game is over
    ]

    def __init__(
        self,
        url: str,
        token: str,
        registry: GameRegistry | None = None,
        *,
        joined: Callable[[Seat], None] | None = None,
    ) -> None:
        super().__init__()
        self.url, self.token, self.registry = url, token, registry
        #: Told of the seat once the server has welcomed it (``join`` remembers it).
        self.joined = joined
        self.seat: Seat | None = None
        self._shown = 0
        self._pending: asyncio.Future[Action] | None = None
        self._board_ready = False
        self.ending = ""
        #: Whether a recap (``Context.summary``) the seat may read covers the screen
        #: until dismissed, as on the local game screen (n on it turns this off).
        self.pauses = True
        #: The game is over (or its host ended it): q closes, nothing waits.
        self.finished = False
        #: How many actions the seat had been told of at its first update.
        self._joined_at: int | None = None
        #: The position a hint has been asked for (``action_hint``), while it is asked.
        self._hint_for: int | None = None

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="body"):
            yield Vertical(id="board-column")
            with Vertical(id="side"):
                yield SeatLog(id="log")
                yield Static("Connecting...", id="status", markup=False)
                yield Static("", id="prompt", markup=False)
                choices = ChoiceList(id="choices", reserved=SCREEN_KEYS)
                choices.display = False  # shown with the seat's decision
                yield choices
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._play(), exclusive=True)

    async def _play(self) -> None:
        try:
            seat = await play_seat(
                self.url, self.token, self._decide, on_update=self._told, on_message=self._heard
            )
        except ClientError as exc:
            self.ending = f"tabletop: error: {exc}"
            self.query_one("#status", Static).update(self.ending)
            self.finished = True
            self.refresh_bindings()
            return
        self.seat = seat
        self.ending = self._result(seat)
        self.query_one("#status", Static).update(self.ending + "  (q closes)")
        self._hide_choices()
        self.finished = True
        self.refresh_bindings()  # the footer's q now reads Close

    # What the seat is told --------------------------------------------------------------

    def _names(self, seat: Seat) -> list[str]:
        return list(seat.names)

    def _mount_board(self, seat: Seat) -> None:
        board_class = None
        game_id = str(seat.welcome.get("game", ""))
        if self.registry is not None and game_id in self.registry.games:
            try:
                board_class = board_widget_class(self.registry, game_id)
            except Exception as exc:  # the plugin's hook failed: the plain view
                self.notify(f"The game's board is unavailable: {exc}", severity="warning")
        self.query_one("#board-column").mount(ViewPanel(board_class, id="board"))
        names, number = self._names(seat), seat.seat
        title = str(seat.welcome.get("title", game_id))
        if 0 <= number < len(names):  # which seat this is, in the header at all times
            title = f"{title}, you play {names[number]}"
        self.sub_title = printable(title, 100)
        self._board_ready = True

    def _told(self, seat: Seat) -> None:
        self.seat = seat
        if not self._board_ready:
            self._mount_board(seat)
        names = self._names(seat)
        log = self.query_one("#log", SeatLog)
        recaps: list[Event] = []
        for line in seat.log[self._shown :]:
            log.add(Text(printable(line.text, 2000)))
            event = line.event
            if event is not None and event.kind == SUMMARY:
                recaps.append(Event(SUMMARY, event.text, event.data))
        self._shown = len(seat.log)
        if self._joined_at is None:  # the log so far: its recaps are history, not news
            self._joined_at = seat.seq
            if self.joined is not None:
                self.joined(seat)
        elif recaps and self.pauses:
            self.app.push_screen(SummaryScreen(recaps), self._recap_closed)
        # After the refresh: a board panel mounted just now has not composed its parts.
        self.call_after_refresh(self._show_view)
        status = self.query_one("#status", Static)
        if seat.over:
            status.update(self._result(seat))
        elif seat.prompt is not None:
            status.update(YOUR_TURN)
        else:
            who = seat.deciding
            name = names[who] if isinstance(who, int) and 0 <= who < len(names) else "?"
            status.update(f"Waiting for {printable(name, 80)}. {WAITING_HINT}")
            self._hide_choices()

    def _hide_choices(self) -> None:
        """No question and no choices: nothing left over from the last decision (an empty
        box under the status line, or the question once the game is over)."""
        choices = self.query_one("#choices", ChoiceList)
        choices.show_prompt(None)
        choices.display = False
        self.query_one("#prompt", Static).update("")  # the question answered, or gone

    def _recap_closed(self, answer: str | None) -> None:
        if answer == NO_MORE:
            self.pauses = False
            self.notify("No more pauses at recaps in this game.")

    def _show_view(self) -> None:
        seat = self.seat
        boards = self.query("#board")
        if seat is None or not boards:
            return
        title = str(seat.welcome.get("title", ""))
        boards.first(ViewPanel).show(dict(seat.view), self._names(seat), seat.seat, title)

    async def _decide(self, seat: Seat) -> Action:
        assert seat.prompt is not None
        prompt = seat.prompt
        rule = f" ({prompt.rule})" if prompt.rule else ""
        self.query_one("#prompt", Static).update(printable(prompt.text + rule, 2000))
        choices = self.query_one("#choices", ChoiceList)
        choices.show_prompt(prompt, moment=seat.seq)
        choices.display = True
        choices.focus()
        self.app.bell()
        self._pending = asyncio.get_running_loop().create_future()
        self.refresh_bindings()  # ? now hints
        try:
            return await self._pending
        finally:
            self._pending = None
            self.refresh_bindings()

    def _result(self, seat: Seat) -> str:
        if seat.ended and not seat.over:
            return "The host ended this game before its end."
        names = self._names(seat)
        result = seat.result
        picked = [] if result is None else result.winners
        winners = [names[w] if w < len(names) else f"seat {w}" for w in picked]
        won = f"{', '.join(winners)} won" if winners else "nobody won"
        lines = ("" if result is None else result.summary).splitlines()
        summary = f" ({lines[0]})" if lines else ""  # the rest is in the log's recap
        return printable(f"Game over after {seat.seq} actions: {won}{summary}", 500)

    # What the person does -----------------------------------------------------------------

    def _choose(self, index: int) -> None:
        choices = self.query_one("#choices", ChoiceList)
        pending, prompt = self._pending, choices.prompt
        if pending is None or pending.done() or prompt is None:
            self.notify("It is not your decision now.", severity="warning")
            return
        if not 0 <= index < len(prompt.choices):
            return
        pending.set_result(prompt.choices[index].action)
        self._hide_choices()
        self.query_one("#status", Static).update("Sent; waiting for the server.")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if isinstance(event.option_list, ChoiceList):
            event.stop()
            self._choose(event.option_index)

    def on_key(self, event: events.Key) -> None:
        """A choice's key chooses it, whichever widget has the focus."""
        key = event.character if event.character and event.character.isprintable() else ""
        if not key or key.lower() in SCREEN_KEYS:
            return
        choices = self.query_one("#choices", ChoiceList)
        index = choices.key_map.get(key.lower())
        if index is not None:
            event.stop()
            event.prevent_default()
            self._choose(index)

    def action_hint(self) -> None:
        """Ask the server what its tree search would choose at this seat's decision
        (the ``hint`` message): thought from the seat's information only, shown with
        its estimate and two alternatives, the suggestion highlighted, never played."""
        seat, pending = self.seat, self._pending
        if seat is None or seat.prompt is None or pending is None or pending.done():
            self.notify("A hint is for your own decision: none is due now.", severity="warning")
            return
        if self._hint_for == seat.seq:
            return  # already asked
        self._hint_for = seat.seq
        self.query_one("#status", Static).update(THINKING)
        seat.send(AskHint(seat.seq))  # the answer comes as a message (``_heard``)

    def _heard(self, seat: Seat, message: SeatMessage) -> None:
        """A hint, or a refused request (a hint the server would not think about)."""
        if isinstance(message, HintAnswer):
            self._hinted(message.seq, message.action, list(message.lines))
        elif (
            isinstance(message, Notice)
            and message.topic == REFUSED
            and message.seq is not None
            and message.seq == self._hint_for
        ):
            self._hinted(message.seq, None, [], error=message.text)

    def _hinted(
        self, seq: int, action: str | None, lines: list[str], *, error: str | None = None
    ) -> None:
        self._hint_for = None
        seat = self.seat
        if seat is None or seat.seq != seq or seat.prompt is None or self._pending is None:
            return  # the decision is gone: the hint is of no use now
        self.query_one("#status", Static).update(YOUR_TURN)
        if error is not None:
            self.notify(f"No hint: {printable(error, 200)}", severity="error")
            return
        shown_lines = [printable(line, 300) for line in lines][:20]
        choices = self.query_one("#choices", ChoiceList)
        shown = choices.prompt
        if shown is not None:
            actions = [choice.action for choice in shown.choices]
            if action in actions:
                choices.highlighted = actions.index(action)
        self.app.push_screen(HintScreen(shown_lines))

    def action_rules(self) -> None:
        """The game's rules summary at the section the seat's decision cites, when the
        game is installed here (the server sends no rules: they are the game's own)."""
        seat = self.seat
        game_id = "" if seat is None else str(seat.welcome.get("game", ""))
        if self.registry is None or game_id not in self.registry.games:
            self.notify("This game's rules are not installed here.", severity="warning")
            return
        game = self.registry.get(game_id).definition
        try:
            text = game.rules_summary()
        except Exception as exc:
            text = f"The rules could not be shown: {type(exc).__name__}: {exc}"
        cited = None if seat is None or seat.prompt is None else seat.prompt.rule
        self.app.push_screen(RulesScreen(game.info.title, text, cited))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """q says Leave while the game goes on and Close once it is over; ? is offered
        only while the seat decides."""
        if action == "hint":  # shown dimmed while another seat decides
            return True if self._pending is not None and not self.finished else None
        if action == "leave":
            return not self.finished
        if action == "close":
            return self.finished
        return True

    def action_close(self) -> None:
        self.action_leave()

    def action_leave(self) -> None:
        if not self.ending:
            self.ending = "You left the table; the game waits. Join again with the same token."
        if self.app.screen_stack[0] is self:  # the app's only screen (tabletop join)
            self.app.exit(self.ending)
        else:
            self.dismiss(self.ending)


class RemoteSeatApp(App[str]):
    """``tabletop join``: the seat's screen alone. ``exit`` returns how it ended."""

    TITLE = "Tabletop"
    #: The Textual UI's own style sheet: the board looks as it does under ``tabletop
    #: play`` (the home screen's re-join shows this same screen there).
    CSS_PATH = str(Path(tabletop.adapters.tui.__file__).parent / "tabletop.tcss")

    def __init__(self, seat_screen: RemoteSeatScreen) -> None:
        super().__init__()
        self.seat_screen = seat_screen

    def get_default_screen(self) -> Screen[Any]:
        return self.seat_screen
