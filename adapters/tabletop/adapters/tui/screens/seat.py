"""The seat screen: one screen for every way of playing a game (board, decision, log).

It reads the game only through the seat protocol (``tabletop.framework.seats``): the
messages its table sends through a ``SeatConnection`` (the welcome, an update after every
change, notices, hint answers), and it answers with requests (a move, a hint, an undo, a
retry). The same screen therefore serves ``tabletop play`` (a table in this process),
hot-seat (several seats of one local table, with the hand-off screen between them when
the game hides information), a server seat (``tabletop join``, ``tabletop web``) and a
spectator: only the connection differs, and no front end can show more than another.

Updates are shown one at a time: after a bot's move the screen pauses for reading (the
bot speed, ``b``), and Space skips the pause. When the seat's decision comes, the log
marks what happened since its last one and, if that does not fit, says how much is
above (``l`` shows it).
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Header, Label, OptionList, Static

from tabletop.adapters.tui.hookspecs import board_widget_class
from tabletop.adapters.tui.presenting import next_bot_speed, speed_name
from tabletop.adapters.tui.screens.base import tabletop
from tabletop.adapters.tui.screens.handoff import HandoffScreen
from tabletop.adapters.tui.screens.hint import HintScreen
from tabletop.adapters.tui.screens.rules import RulesScreen
from tabletop.adapters.tui.screens.summary import NO_MORE, SummaryScreen
from tabletop.adapters.tui.widgets import CardList, ChoiceList, GameLog, ViewPanel
from tabletop.adapters.tui.widgets.cards import card_details
from tabletop.adapters.tui.widgets.choices import NO_KEY_HINT
from tabletop.adapters.tui.widgets.footer import StableFooter
from tabletop.adapters.tui.widgets.steady import hold_height
from tabletop.framework.errors import TabletopError
from tabletop.framework.game import SUMMARY, Event, Prompt
from tabletop.framework.seats import (
    BACK,
    BOT_FAILED,
    ENDED,
    FAULT,
    LOST,
    REFUSED,
    SAVE_FAILED,
    SAVED,
    SERVER,
    UNDONE,
    AskHint,
    HintAnswer,
    Move,
    Notice,
    Retry,
    SeatConnection,
    SeatMessage,
    SeatState,
    SeatUpdate,
    TableInfo,
    Undo,
)
from tabletop.framework.views import check_view_schema

#: After this long without an answer to a move, the status line says so.
ANSWER_LATE_SECONDS = 2.0
#: When the rules summary is parsed, once the screen has opened (or at ``r``).
RULES_AFTER_SECONDS = 1.0
#: A bot (or a hint) thinking longer than this shows the seconds it has been thinking,
#: updated every THINKING_TICK seconds, in the status line.
THINKING_SHOWN_AFTER = 0.3
THINKING_TICK = 0.25
#: The reading pauses between two of a person's decisions add up to at most this many
#: bot speeds: a round of many short bot turns (offers in turn) is shown at the bots'
#: own pace once the person has had that much time to read, so the person's next
#: decision is not held up by pauses (``tabletop bench --waits``).
PAUSES_PER_TURN = 1.5
#: The keys of the screen's own commands: never given to a choice (``choice_keys``).
SCREEN_KEYS = frozenset("usrbtzcdl")


class Arrived(Message):
    """A message from the table for one of the screen's seats (posted from any thread)."""

    def __init__(self, side: int, message: SeatMessage) -> None:
        super().__init__()
        self.side = side
        self.message = message


@dataclass(eq=False)
class Side:
    """One seat this screen sits at (several in hot-seat; a spectator's too), what its
    table told it as far as shown, and what waits to be shown."""

    index: int
    connection: SeatConnection
    state: SeatState = field(default_factory=SeatState)
    waiting: deque[SeatUpdate] = field(default_factory=deque)
    #: Recaps this seat has not read yet.
    recaps: list[Event] = field(default_factory=list)
    #: The position of this seat's last decision (what happened since is marked new).
    decided_at: int = 0
    #: The last position whose decision was shown to this seat (rung and marked once).
    asked_at: int = -1

    @property
    def seat(self) -> int | None:
        info = self.state.info
        return None if info is None else info.seat

    @property
    def update(self) -> SeatUpdate | None:
        return self.state.update

    @property
    def caught_up(self) -> bool:
        return not self.waiting


class SeatScreen(Screen[None]):
    """The seats of one table at this screen: one person's, several people's in turn
    (hot-seat), or a spectator's (``spectator``: the public view, shown between two
    people's turns in a game that hides information)."""

    #: Below 100 columns the side column narrows to give the board the room it needs;
    #: below 28 rows the decision and details panes shrink to leave the log a few lines.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (100, "-wide")]
    VERTICAL_BREAKPOINTS = [(0, "-short"), (28, "-tall")]
    BINDINGS = [
        # Shown in the footer only: choice keys are read in ``on_key`` (any key a
        # choice holds: 0-9 and letters), before bindings are looked at.
        Binding("1", "choose_key('1')", "Choose", key_display="key"),
        Binding("u", "undo", "Undo"),
        Binding("s", "save_copy", "Save"),
        Binding("r", "rules", "Rules"),
        Binding("b", "bot_speed", "Bots"),
        Binding("c", "cards", "Cards"),
        Binding("d", "zoom_details", "Details", show=False),
        Binding("z", "zoom", "Zoom"),
        Binding("l", "read_log", "Log", show=False),
        Binding("t", "retry_bot", "Retry bot", show=False),
        # Not in the footer (no room at 80 columns): the palette and docs/playing.md say it.
        Binding("question_mark", "hint", "Hint", show=False),
        Binding("space", "go_on", "Go on", show=False),
        Binding("escape", "home", "Home"),
    ]

    def __init__(
        self,
        connections: Sequence[SeatConnection],
        *,
        spectator: SeatConnection | None = None,
        leave: Callable[[SeatScreen], None] | None = None,
    ) -> None:
        super().__init__()
        people = list(connections)
        if spectator is not None:
            people.append(spectator)
        if not people:
            raise TabletopError("a seat screen needs a line to its table")
        self.sides = [Side(index, connection) for index, connection in enumerate(people)]
        #: The spectator's side (the public view), if the screen has one.
        self.public: Side | None = self.sides[-1] if spectator is not None else None
        #: The sides of the people at this screen.
        self.people = self.sides[: len(connections)]
        #: The side on screen.
        self.viewer = self.people[0] if self.people else self.sides[0]
        self._leave = leave
        self.info: TableInfo | None = None
        self.concealed = False
        #: Seconds a bot's move stays on screen before the next one, for this game only:
        #: every game starts at the app's default (``TabletopApp.bot_delay``).
        self.bot_delay = 0.0
        #: Until when the screen pauses on a bot's move (``time.monotonic``), who made
        #: the last move shown and when it was shown.
        self._pause_until = 0.0
        self._last_mover: int | None = None
        self._shown_at = 0.0
        #: Seconds of reading pauses since the person at the screen last decided.
        self._paused_for = 0.0
        self._pause_timer: Timer | None = None
        #: Why the last autosave failed, shown in the status line until a save works.
        self.save_problem: str | None = None
        #: The line to the table is down (a server gone), in words.
        self.line_down: str | None = None
        #: Why the table takes no more moves (its host ended it).
        self.ended: str | None = None
        self._bot_failed = False
        self._finished = False
        #: The game is over and the screen waits for the spectator's last update.
        self._finishing = False
        #: The move sent and not yet answered: (its position, when it was sent).
        self._sent: tuple[int, float] | None = None
        #: The position a hint was asked for, and since when.
        self._hint_for: int | None = None
        self._hint_since = 0.0
        #: Since when the decision on screen has been a bot's (the thinking line).
        self._waiting_since = 0.0
        self._tick: Timer | None = None
        #: What each text line of the screen shows now (see ``_put``).
        self._texts: dict[str, str] = {}
        self._rules: RulesScreen | None = None
        self._rules_name = f"rules-{id(self)}"
        self._handoff: HandoffScreen | None = None
        self._handoff_name = f"handoff-{id(self)}"
        #: Whose view and whose decision were last shown (``_hold``), and at which move.
        self._turn: tuple[int | None, int | None] | None = None
        self._moment = -1
        self._fitted = False
        self._holding = False
        self._size_seen: Size | None = None
        #: True from the moment recaps are to be shown until they are dismissed.
        self._reading = False
        #: Whether the game has shown cards (the c key is in the footer from then on).
        self._has_cards = False
        self._show_key("c", False)

    # Layout -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="game-body"):
            with Vertical(id="board-column"):
                yield ViewPanel(None, id="board")
                yield CardList(id="cards")
            with Vertical(id="side-column"):
                with Vertical(id="prompt-panel"):
                    yield Label("", id="prompt-seat")
                    yield Static("", id="prompt-text", markup=False)
                    yield Label("", id="prompt-rule")
                    choices = ChoiceList(id="choices", reserved=SCREEN_KEYS)
                    yield choices
                # The details pane under the decision, not inside it: a long menu
                # never pushes the highlighted choice's text out of sight.
                yield choices.explanation
                yield Static("Joining the table…", id="status")
                yield GameLog(id="log")
        yield StableFooter()

    def on_mount(self) -> None:
        self.bot_delay = tabletop(self).bot_delay
        self._title(self.query_one("#board", ViewPanel), "Table")
        self._title(self.query_one("#log", GameLog), "Log")
        cards = self.query_one("#cards", CardList)
        cards.border_title = "Cards (c)"
        cards.display = False
        self.query_one("#prompt-panel").border_title = "Decision"
        self.screen_layout_refresh_signal.subscribe(self, self._laid_out, immediate=True)
        for side in self.sides:
            side.connection.open(partial(self._arrive, side.index))

    def _arrive(self, index: int, message: SeatMessage) -> None:
        """From the connection, on any thread: hand the message to the screen's own."""
        self.post_message(Arrived(index, message))

    def on_screen_resume(self) -> None:
        # Sent when the screen is first shown and whenever a dialog over it closes.
        if not self.concealed:
            self._advance()

    def on_unmount(self) -> None:
        for side in self.sides:
            with contextlib.suppress(Exception):
                side.connection.close()
        for made, name in ((self._rules, self._rules_name), (self._handoff, self._handoff_name)):
            if made is not None:
                with contextlib.suppress(Exception):  # the app may be closing
                    self.app.uninstall_screen(name)

    # What the table says --------------------------------------------------------------

    def on_arrived(self, event: Arrived) -> None:
        event.stop()
        side = self.sides[event.side]
        message = event.message
        if isinstance(message, TableInfo):
            side.state.take(message)
            if self.info is None:
                self._welcome(message)
        elif isinstance(message, SeatUpdate):
            side.waiting.append(message)
            if self._sent is not None and message.seq > self._sent[0]:
                self._sent = None
            if self._finishing and message.over:
                self._finishing = False
                self._finish()
                return
            self._advance()
        elif isinstance(message, Notice):
            self._notice(side, message)
        elif isinstance(message, HintAnswer):
            self._hint_answered(side, message)

    def _welcome(self, info: TableInfo) -> None:
        """The table said which game it is: its title, board widget and bot seats."""
        self.info = info
        self.title = info.title
        if info.hidden_information and len(self.people) > 1 and self.public is not None:
            # several people, secrets: the table shows nobody's hand until the first
            # of them has the keyboard (the hand-off screen comes first)
            self.viewer = self.public
        board = self.query_one("#board", ViewPanel)
        try:
            board.use_board(board_widget_class(tabletop(self).registry, info.game))
        except Exception as exc:  # the plugin's hook failed: the plain view
            self.notify(f"The game's board is unavailable: {exc}", severity="warning")
        if not self._has_bots():  # solitaire, people only: no bot speed key
            self._show_key("b", False)
        self.set_timer(RULES_AFTER_SECONDS, self._prepare_rules)

    def _show_key(self, key: str, shown: bool) -> None:
        """Show or hide ``key`` in the footer (the screen's own copy of its bindings:
        not ``check_action``, which Textual would ask at every binding refresh)."""
        keys = self._bindings.key_to_bindings
        keys[key] = [replace(binding, show=shown) for binding in keys.get(key, [])]
        if self.is_mounted:
            self.refresh_bindings()

    def _has_bots(self) -> bool:
        """Whether a bot plays a seat (the game's own procedure moves inside the
        moves of the seats it answers: it has no turn of its own to watch)."""
        info = self.info
        return info is not None and any(
            kind not in ("human", "procedure") for kind in info.controllers
        )

    def _notice(self, side: Side, notice: Notice) -> None:
        text = notice.text
        topic = notice.topic
        if topic == REFUSED and notice.final and notice.seq is None:
            # the table turned the line away (an unknown token, not a server): the
            # screen says so and waits for Escape
            self.ended = f"tabletop: error: {text}"
            self._put(self.query_one("#prompt-text", Static), self.ended)
        elif topic == REFUSED:
            if self._hint_for is not None and notice.seq == self._hint_for:
                self._hint_for = None
                self.notify(f"No hint: {text}", severity="warning", markup=False)
            elif self._sent is not None and notice.seq == self._sent[0]:
                self._sent = None
                self.notify(f"Not done: {text}", severity="warning", markup=False)
            else:
                self.notify(_sentence(text), severity="warning", markup=False)
        elif topic == UNDONE:
            self._bot_failed = False
            for each in self.sides:
                each.recaps.clear()  # they tell of moves that are taken back
            self.notify(text, markup=False)
        elif topic == FAULT:
            self._sent = None
            tabletop(self).show_error("The game's code failed", text)
        elif topic == BOT_FAILED:
            self._bot_failed = True
            tabletop(self).show_error("A bot failed", f"{text}\n\nPress t to let it retry.")
        elif topic == SAVE_FAILED:
            self.save_problem = text
            self.notify(text, severity="warning", markup=False)
        elif topic == SAVED:
            if self.save_problem is not None:
                self.save_problem = None
                self.notify(text, markup=False)
        elif topic == ENDED:
            self.ended = text
            self._sent = None
            self.notify(_sentence(text), severity="warning", markup=False)
            if self.is_mounted:
                self._draw()
        elif topic == LOST:
            self.line_down = text
            self._sent = None
            if notice.final:  # gave up: the line is gone for good
                self.ended = text
        elif topic == BACK:
            self.line_down = None
            self.notify(text, markup=False)
        else:
            self.notify(text, markup=False)
        if self.is_mounted:
            self._update_status()

    # Showing updates, one at a time -----------------------------------------------------

    def _advance(self) -> None:
        """Show what the table said, in order: the other seats' news at once (off
        screen), the seat on screen's one update at a time with a reading pause after
        a bot's move; then recaps, a hand-off or the end, as the game now stands."""
        if not self.is_mounted or self.concealed or self._reading or not self.is_current:
            return
        for side in self.sides:
            if side is not self.viewer:
                self._catch_up(side)
        viewer = self.viewer
        taken = False
        while viewer.waiting:
            update = viewer.waiting[0]
            wait = self._pause_before(update) - time.monotonic()
            if wait > 0:
                if taken:
                    self._draw()
                self._pause_later(wait)
                return
            viewer.waiting.popleft()
            # several updates in a row (a bot's sub-decisions that came together) are
            # taken one by one and drawn once
            self._take(viewer, update)
            taken = True
            self._last_mover, self._shown_at = _mover(update), time.monotonic()
        if taken:
            self._draw()
        if self._pause_recaps():
            return
        self._next_hands()

    def _pause_later(self, wait: float) -> None:
        if self._pause_timer is None:
            self._pause_timer = self.set_timer(wait, self._paused)
        self._update_status()

    def _paused(self) -> None:
        self._pause_timer = None
        self._advance()

    def _pause_before(self, update: SeatUpdate) -> float:
        """Until when ``update`` waits (``time.monotonic``): the last move shown was a
        bot's and this one is another seat's, so the person reads the bot's turn for
        the bot speed's delay first. A bot's moves in a row (its sub-decisions) follow
        each other at once, and the person's own moves never wait."""
        info, last = self.info, self._last_mover
        if info is None or last is None or info.is_person(last) or self.bot_delay <= 0:
            return 0.0
        mover = _mover(update)
        if mover is None or mover == last:
            return 0.0
        until = self._shown_at + self.bot_delay
        if until != self._pause_until:  # a new pause (this one counts once)
            if self._paused_for >= PAUSES_PER_TURN * self.bot_delay:
                return 0.0  # the bots' turns since the person's move were paused on enough
            self._paused_for += max(0.0, until - time.monotonic())
            self._pause_until = until
        return self._pause_until

    def _catch_up(self, side: Side) -> None:
        """Learn every waiting update of a seat not on screen (its story grows off
        screen, its recaps wait for its person)."""
        while side.waiting:
            self._take(side, side.waiting.popleft())

    def _take(self, side: Side, update: SeatUpdate) -> None:
        first = side.state.update is None
        lines = side.state.take(update)
        self.query_one("#log", GameLog).add(side.index, lines, update.rewind)
        if first:  # the story so far: its recaps are history, not news
            side.decided_at = update.seq
            return
        if update.rewind is not None:
            side.recaps.clear()
            side.decided_at = min(side.decided_at, update.seq)
        if self._collects_recaps(side):
            side.recaps += [line.event for line in lines if line.event and _recap(line.event)]

    def _collects_recaps(self, side: Side) -> bool:
        """Who reads a recap: each person their own in a hot-seat game that hides
        information; otherwise whoever is at the screen, once (a spectator of a game
        only bots play reads none: it watches on)."""
        info = self.info
        if info is None or side is self.public:
            return False
        if len(self.people) > 1 and info.hidden_information:
            return True
        return side is self.viewer and bool(self.people)

    def _next_hands(self) -> None:
        """The screen is up to date: end the game, or hand the screen to the person
        whose decision it is."""
        update = self.viewer.update
        if update is None:
            return
        if update.over:
            self._finish()
            return
        if self.ended is not None:
            return
        deciding = update.deciding
        if deciding is None or deciding == self.viewer.seat:
            return
        nextside = next((side for side in self.people if side.seat == deciding), None)
        if nextside is None:
            return  # a bot's decision, or another person's elsewhere
        self._catch_up(nextside)
        info = self.info
        if info is not None and info.hidden_information and len(self.people) > 1:
            self._hand_over(nextside)
        else:
            self.viewer = nextside
            self.query_one("#log", GameLog).show(nextside.index)
            self._draw()
            self._pause_recaps()

    # Drawing the seat on screen ------------------------------------------------------------

    def _draw(self) -> None:
        side, info = self.viewer, self.info
        update = side.update
        if info is None or update is None:
            return
        viewer = side.seat
        prompt = update.prompt if self.ended is None else None
        # a game that takes no more moves (ended by its host, its line given up) waits
        # for nobody: the prompt's place says why instead
        deciding = None if update.over or self.ended is not None else update.deciding
        turn = (viewer, deciding)
        if turn != self._turn or update.seq != self._moment:  # not the same decision again
            self._hold(turn == self._turn)
            self._turn, self._moment = turn, update.seq
        who = info.seat_name(viewer)
        self.sub_title = f"{who}'s view" if viewer is not None else "spectator view"
        board = self.query_one("#board", ViewPanel)
        self._title(board, f"Table — {self.sub_title}")
        view = dict(update.view)
        board.show(view, info.seat_names, viewer, info.title)
        self._show_cards(view)
        log = self.query_one("#log", GameLog)
        log.show(side.index)
        choices = self.query_one("#choices", ChoiceList)
        seat_line = self.query_one("#prompt-seat", Label)
        text = self.query_one("#prompt-text", Static)
        rule = self.query_one("#prompt-rule", Label)
        if deciding is None:
            self._put(seat_line, "")
            self._put(text, self.ended or "")
            self._put(rule, "")
            rule.display = False
            choices.show_prompt(None)
            self._subtitle(self.query_one("#prompt-panel"), "")
            self._update_status()
            return
        name = info.seat_name(deciding)
        kind = info.controllers[deciding] if deciding < len(info.controllers) else "human"
        bot = "" if kind == "human" else f" ({kind} bot)" if kind != "procedure" else " (game)"
        self._put(seat_line, f"{name}{bot} to decide")
        mine = prompt is not None and prompt.seat == viewer
        self._put(text, prompt.text if mine and prompt else f"Waiting for {name}…")
        cited = prompt.rule if mine and prompt else None
        self._put(rule, f"Rule {cited} (r: the rules)" if cited else "")
        rule.display = bool(cited)
        if mine and prompt is not None:
            if self._sent is None or self._sent[0] != update.seq:
                choices.show_prompt(prompt, moment=update.seq)
            keyless = len(choices.key_map) < len(prompt.choices)
            self._subtitle(self.query_one("#prompt-panel"), NO_KEY_HINT if keyless else "")
            if self.focused is None or self.focused.id not in ("choices", "cards", "log"):
                choices.focus()
            if side.asked_at != update.seq:
                side.asked_at = update.seq
                self._decision_came(side)
        else:
            choices.show_prompt(None)
            self._subtitle(self.query_one("#prompt-panel"), "")
            self._title(log, "Log")  # "new above" is said when the seat's decision comes
            self._waiting_since = time.monotonic()
        if self.query_one("#cards", CardList).has_focus:
            self._explain_card()  # the card being read stays in the details pane
        self._update_status()

    def _decision_came(self, side: Side) -> None:
        """The seat's decision is on screen: mark in the log what happened since its
        last one (and say how much of it is above the log's window), ring the bell for
        a server seat (its person may be looking elsewhere)."""
        log = self.query_one("#log", GameLog)
        log.mark_new(side.index, side.decided_at)
        # now, with the screen's other changes (one drawing), and again once laid out
        # (the log's height may change with this decision)
        self._say_new_above()
        self.call_after_refresh(self._say_new_above)
        info = self.info
        if info is not None and info.holder == SERVER:
            self.app.bell()

    def _say_new_above(self) -> None:
        """The log's title says how many of the entries new since the seat's last
        decision are above its window (its top border is on screen at any size)."""
        log = self.query_one("#log", GameLog)
        above = log.new_above()
        self._title(log, f"Log · ↑ {above} new above (l)" if above else "Log")

    def _hold(self, held: bool) -> None:
        """While the same seat decides again with the same view on screen, the parts
        whose height follows their content (the prompt's text, the choices, the details
        pane, the cards, the board) keep the height they have: a move then lays the
        screen out once, not twice, and the log and the choices do not jump up and down
        between the steps of one turn. Longer contents still grow them. At the next
        turn, a hand-off or a resize they fit their contents again, and at once when
        together they would push the log out of the side column (``_laid_out``)."""
        held = held and self._fitted
        self._holding = held
        if not held:
            self._fitted = False
        for widget in (self.query_one("#prompt-text"), self.query_one("#cards")):
            hold_height(widget, held)
        choices = self.query_one("#choices", ChoiceList)
        hold_height(choices, held)
        choices.explanation.hold(held)
        self.query_one("#board", ViewPanel).hold(held)

    def _laid_out(self, _: Screen[Any]) -> None:
        self._fitted = True
        if self._holding:
            column = self.query_one("#side-column")
            if self.query_one("#log", GameLog).region.bottom > column.region.bottom:
                self._turn = None
                self._hold(False)

    def on_resize(self, event: events.Resize) -> None:
        if self._size_seen is not None and event.size != self._size_seen:
            self._turn = None  # a new size: every part fits its content again
            self._hold(False)
        self._size_seen = event.size

    def _show_cards(self, view: dict[str, Any]) -> None:
        """List the view's cards (the schema's ``cards``) for the details pane."""
        cards = view.get("cards")
        valid = cards is not None and check_view_schema({"cards": cards}, 0) is None
        card_list = self.query_one("#cards", CardList)
        card_list.show_cards(cards if valid and isinstance(cards, list) else [])
        if card_list.cards and not self._has_cards:  # a game of cards: c reads them
            self._has_cards = True
            self._show_key("c", True)
        if card_list.has_focus:
            self._explain_card()

    def _explain_card(self) -> None:
        card = self.query_one("#cards", CardList).highlighted_card()
        if card is not None:
            self.query_one("#choices", ChoiceList).explanation.show_item(card_details(card))

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.id == "cards" and event.option_list.has_focus:
            self._explain_card()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        if event.widget.id == "cards":
            self._explain_card()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        if event.widget.id == "cards":
            self.query_one("#choices", ChoiceList).explain_highlighted()

    def _put(self, widget: Static, line: str) -> None:
        """Show ``line`` (plain text, never markup) in ``widget`` unless it shows it
        already: each update lays the whole screen out again."""
        key = widget.id or str(id(widget))
        if self._texts.get(key) != line:
            self._texts[key] = line
            widget.update(Text(line))

    def _title(self, widget: Widget, title: str) -> None:
        key = f"title-{widget.id or id(widget)}"
        if self._texts.get(key) != title:
            self._texts[key] = title
            widget.border_title = title

    def _subtitle(self, widget: Widget, subtitle: str) -> None:
        key = f"subtitle-{widget.id or id(widget)}"
        if self._texts.get(key, "") != subtitle:
            self._texts[key] = subtitle
            widget.border_subtitle = subtitle

    def _update_status(self) -> None:
        parts: list[str] = []
        info, update = self.info, self.viewer.update
        now = time.monotonic()
        if self.line_down is not None:
            parts.append(f"⚠ {self.line_down}")
        if self.ended is not None:
            parts.append(self.ended)
        sent = self._sent
        if sent is not None and now - sent[1] >= ANSWER_LATE_SECONDS:
            if info is not None and info.holder == SERVER:
                parts.append("⏳ Sent: waiting for the server's answer")
            else:
                parts.append(
                    "⏳ The game's code is still working on this move (Ctrl+Q quits; the "
                    "game is saved as it was before the move)"
                )
        if self.viewer.waiting and self._pause_until > now:
            parts.append("Space: next move")
        elif self._hint_for is not None:
            elapsed = now - self._hint_since
            took = f" {elapsed:.1f} s" if elapsed >= THINKING_SHOWN_AFTER else ""
            parts.append(f"⏳ Thinking about a hint…{took}")
        elif self._bot_failed:
            parts.append("Bot stopped after an error: press t to retry")
        elif (
            info is not None
            and update is not None
            and not update.over
            and not self.ended
            and not self._reading  # a recap covers the screen: nothing moves on it
        ):
            deciding = update.deciding
            if deciding is not None and not info.is_person(deciding) and self.viewer.caught_up:
                elapsed = now - self._waiting_since
                took = f" {elapsed:.1f} s" if elapsed >= THINKING_SHOWN_AFTER else ""
                kind = info.controllers[deciding]
                parts.append(f"⏳ {info.seat_name(deciding)} ({kind}) is thinking…{took}")
        if self.save_problem:
            parts.append(f"⚠ NOT SAVED: {self.save_problem} (Ctrl+Q offers to save elsewhere)")
        if self._has_bots():
            parts.append(f"Bots: {speed_name(self.bot_delay)}")
        if not tabletop(self).pause_on_summaries and self.people:
            parts.append("Pauses off (Ctrl+P: Pauses)")
        status = self.query_one("#status", Static)
        self._put(status, "  ·  ".join(parts))
        status.set_class(not parts, "-empty")
        if self._tick is None and self._ticking():
            self._tick = self.set_interval(THINKING_TICK, self._thinking_tick)

    def _ticking(self) -> bool:
        """Whether the status line counts seconds now: a bot thinking, a hint being
        searched, a move not yet answered, a reading pause."""
        update = self.viewer.update
        info = self.info
        thinking = (
            info is not None
            and update is not None
            and not update.over
            and update.deciding is not None
            and not info.is_person(update.deciding)
            and self.ended is None
            and not self._reading
        )
        return bool(thinking or self._hint_for is not None or self._sent or self.viewer.waiting)

    def _thinking_tick(self) -> None:
        """Update the seconds in the status line; stop once nothing is timed."""
        if not self._ticking() and self._tick is not None:
            self._tick.stop()
            self._tick = None
        if self.is_mounted and self.info is not None:
            self._update_status()

    # Recaps, hand-offs and the end ---------------------------------------------------------

    def _pause_recaps(self, then: Callable[[], None] | None = None) -> bool:
        """Show the recaps the seat on screen has not read, if any and the pauses are
        on; True when shown (the screen goes on when they are dismissed)."""
        side = self.viewer
        if not side.recaps or self.concealed:
            return False
        if not tabletop(self).pause_on_summaries:
            for each in self.sides:
                each.recaps.clear()
            return False
        shown, side.recaps = side.recaps, []
        self._reading = True
        self._update_status()  # the status line under the recap says no bot is thinking
        # After this screen's next refresh: the table under the recap shows the game as
        # the recap leaves it.
        dialog = SummaryScreen(shown)
        self.call_after_refresh(
            lambda: self.app.push_screen(dialog, callback=partial(self._recaps_read, then))
        )
        return True

    def _recaps_read(self, then: Callable[[], None] | None, answer: str | None) -> None:
        self._reading = False
        if answer == NO_MORE:
            self._set_pauses(False)
        if then is not None:
            then()
        else:
            self._advance()

    def _set_pauses(self, on: bool) -> None:
        """Turn the pauses on recaps on or off for the rest of the app's run."""
        tabletop(self).pause_on_summaries = on
        if on:
            self.notify("The game pauses on its recaps again (end of a turn, round...).")
        else:
            for side in self.sides:
                side.recaps.clear()
            self.notify("No more pauses on recaps. Ctrl+P, 'Pauses', turns them back on.")
        if self.is_mounted:
            self._update_status()

    def action_toggle_pauses(self) -> None:
        self._set_pauses(not tabletop(self).pause_on_summaries)

    def _handoff_screen(self) -> HandoffScreen:
        if self._handoff is None:
            title = self.info.title if self.info is not None else ""
            self._handoff = HandoffScreen("", title)
            self.app.install_screen(self._handoff, self._handoff_name)
        return self._handoff

    def _hand_over(self, side: Side) -> None:
        """Wipe the screen of the last person's view and hand the device to ``side``'s
        person (the hand-off screen covers everything until they are ready)."""
        self._conceal()
        info = self.info
        name = info.seat_name(side.seat) if info is not None else "the next player"
        self._handoff_screen().hand_to(name, partial(self._reveal_to, side))
        self.app.push_screen(self._handoff_name, callback=partial(self._handed_over, side))

    def _conceal(self) -> None:
        """Everything seat-specific goes: the prompt, the choices and the log; the
        board shows the spectator's view (nothing secret), or nothing."""
        self.concealed = True
        self._turn = None
        self._hold(False)
        for line in ("#prompt-seat", "#prompt-text", "#prompt-rule"):
            self._put(self.query_one(line, Static), "")
        board = self.query_one("#board", ViewPanel)
        self._title(board, "Table")
        public = self.public.update if self.public is not None else None
        if self.public is not None:
            self._catch_up(self.public)
            public = self.public.update
        if public is not None and self.info is not None:
            board.show(dict(public.view), self.info.seat_names, None, self.info.title)
            self._show_cards(dict(public.view))
        else:
            board.clear_view()
            self._show_cards({})
        self.query_one("#log", GameLog).put_away()
        self.query_one("#choices", ChoiceList).show_prompt(None)
        self._subtitle(self.query_one("#prompt-panel"), "")

    def _reveal_to(self, side: Side) -> None:
        """The next person is at the keyboard (the hand-off screen still covers this
        one): draw their view now, so that it is laid out once, as it appears."""
        self.viewer = side
        self.concealed = False
        with contextlib.suppress(Exception):
            self._draw()
        self.refresh(layout=True)

    def _handed_over(self, side: Side, _: None = None) -> None:
        if self.concealed or self.viewer is not side:  # not revealed: play on from here
            self.viewer = side
            self.concealed = False
            self._draw()
        self._advance()

    def _finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        from tabletop.adapters.tui.screens.game_over import GameOverScreen

        # The final board and log: the only person's view, or a spectator's when
        # several people share a screen of hidden information (nobody's hand shown).
        info = self.info
        side = self.viewer
        if info is not None and info.hidden_information and len(self.people) > 1:
            side = self.public or side
            self._catch_up(side)
            if not side.state.over:  # the spectator's last update is on its way
                self._finished = False
                self._finishing = True
                return
        assert info is not None
        over = GameOverScreen(side.state.info or info, side.state, self.ending())

        def show_result() -> None:  # returns nothing: this screen must not await its end
            if self.app.screen_stack[0] is self:  # the app's first screen (a server seat)
                self.app.push_screen(over)
            else:
                self.app.switch_screen(over)

        if self._pause_recaps(then=show_result):
            return
        self.call_after_refresh(show_result)

    # People ------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choices = self.query_one("#choices", ChoiceList)
        if event.option_list is not choices:
            return
        event.stop()
        self._choose(event.option_index, choices.generation_of(event.option.id))

    def on_key(self, event: events.Key) -> None:
        """A choice's key chooses it, whichever widget of the screen has the focus."""
        key = event.character if event.character and event.character.isprintable() else ""
        if not key or key.lower() in SCREEN_KEYS or key == " ":
            return
        choices = self.query_one("#choices", ChoiceList)
        if key.lower() in choices.key_map or key.isdigit():
            event.stop()
            event.prevent_default()
            self.action_choose_key(key.lower())

    def action_choose_key(self, key: str) -> None:
        choices = self.query_one("#choices", ChoiceList)
        index = choices.key_map.get(key)
        if index is None:
            if self._my_prompt() is not None:
                self.notify(f"No choice has the key {key} now.", severity="warning")
            return
        self._choose(index, choices.generation)

    def _my_prompt(self) -> Prompt | None:
        """The decision on screen when it is the seat on screen's (and shown whole)."""
        update = self.viewer.update
        if update is None or self.concealed or not self.viewer.caught_up or self.ended:
            return None
        return update.prompt

    def _choose(self, index: int, generation: int) -> None:
        """Send a person's pick, ignoring stale or out-of-range input with a note."""
        choices = self.query_one("#choices", ChoiceList)
        prompt = self._my_prompt()
        update = self.viewer.update
        if self._busy():
            return
        if prompt is None or update is None:
            self.notify("It is not your decision now.", severity="warning")
            return
        if generation != choices.generation or choices.prompt != prompt:
            self.notify("That choice is no longer available.", severity="warning")
            self._draw()
            return
        if not 0 <= index < len(prompt.choices):
            self.notify("There is no such choice.", severity="warning")
            return
        self._sent = (update.seq, time.monotonic())
        self.viewer.decided_at = update.seq + 1
        self._paused_for = 0.0
        self.viewer.connection.send(Move(update.seq, prompt.choices[index].action))
        self._update_status()  # says so if the answer is late (the tick keeps it up)

    def _busy(self) -> bool:
        """Say so and return True while a move is on its way (or a recap is about to
        cover the screen: a key pressed in that moment is not a decision made after
        reading it)."""
        if self._reading:
            return True
        if self._sent is None:
            return False
        info = self.info
        if info is not None and info.holder == SERVER:
            self.notify("The last move is still on its way to the server.", severity="warning")
        else:
            self.notify("The game is still working on the last move.", severity="warning")
        return True

    def action_go_on(self) -> None:
        """Space: end the reading pause on a bot's move and show the next."""
        if self._pause_until > time.monotonic():
            self._pause_until = 0.0
            self._last_mover = None
            if self._pause_timer is not None:
                self._pause_timer.stop()
                self._pause_timer = None
            self._advance()

    # Commands -----------------------------------------------------------------------

    def action_undo(self) -> None:
        info, update = self.info, self.viewer.update
        if self._busy() or info is None or update is None:
            return
        if not info.undo:
            why = (
                "nobody plays here: only bots"
                if not any(kind == "human" for kind in info.controllers)
                else "this table keeps no moves to take back"
            )
            self.notify(f"Cannot undo: {why}.", severity="warning")
            return
        if self.viewer.seat is None:
            self.notify("Cannot undo: a spectator has no decision.", severity="warning")
            return
        self.viewer.connection.send(Undo(update.seq))

    def action_retry_bot(self) -> None:
        if self._bot_failed:
            self._bot_failed = False
            self.viewer.connection.send(Retry())
            self._update_status()

    def action_hint(self) -> None:
        """Ask the table what the tree search would choose at the person's decision,
        from that seat's information only; the answer is shown and its choice
        highlighted, never played."""
        prompt, update = self._my_prompt(), self.viewer.update
        if prompt is None or update is None:
            self.notify("A hint is for your own decision: none is due now.", severity="warning")
            return
        if self.info is not None and not self.info.hints:
            self.notify("This table gives no hints.", severity="warning")
            return
        if self._hint_for == update.seq:
            return  # already asked
        self._hint_for = update.seq
        self._hint_since = time.monotonic()
        self._update_status()
        self.viewer.connection.send(AskHint(update.seq))

    def _hint_answered(self, side: Side, answer: HintAnswer) -> None:
        asked, self._hint_for = self._hint_for, None
        if self.is_mounted:
            self._update_status()
        update = side.update
        if side is not self.viewer or asked != answer.seq or update is None:
            return
        if update.seq != answer.seq or self._my_prompt() is None:
            return  # the decision changed meanwhile: the hint is of no use now
        choices = self.query_one("#choices", ChoiceList)
        shown = choices.prompt
        if shown is not None:
            actions = [choice.action for choice in shown.choices]
            if answer.action in actions:
                choices.highlighted = actions.index(answer.action)
        self.app.push_screen(HintScreen(list(answer.lines)))

    def action_save_copy(self) -> None:
        if self._busy():
            return
        connection = self.viewer.connection
        if not connection.can_save:
            self.notify(
                "This game is held by its server: its host can save it (tabletop fetch).",
                severity="warning",
            )
            return
        from tabletop.adapters.tui.screens.save_as import SaveAsScreen

        self.app.push_screen(SaveAsScreen(self._copy_name()), callback=self._save_copy)

    def _copy_name(self) -> str:
        """The name offered for a copy: the game's id and the first free number."""
        game = self.info.game if self.info is not None else "game"
        try:
            existing = {info.save_id for info in tabletop(self).store.list()}
        except Exception:  # an unreadable folder: saving will say what is wrong
            existing = set()
        number = 1
        while f"{game}-copy-{number}" in existing:
            number += 1
        return f"{game}-copy-{number}"

    def _save_copy(self, name: str | None) -> None:
        if not name:
            return
        try:
            saved = self.viewer.connection.save_copy(name)
        except TabletopError as exc:
            self.notify(f"Not saved: {exc}", severity="error")
            return
        self.notify(f"Saved a copy as {saved}: the moves so far; later moves are not added to it.")

    def action_rules(self) -> None:
        """The rules summary at the section the decision cites. The screen is made
        once per game (the summary parsed and drawn once) and shown again after."""
        prompt = self._my_prompt()
        cited = prompt.rule if prompt is not None else None
        rules = self._prepare_rules()
        if rules is None:
            self.notify("This game's rules are not installed here.", severity="warning")
            return
        if rules.is_mounted:
            rules.show_rule(cited)
        else:
            rules.point_at(cited)
        self.app.push_screen(self._rules_name)

    def _prepare_rules(self) -> RulesScreen | None:
        """The rules screen, its summary read and parsed (once, when the screen is idle
        after it opened, or at the first press of r); None when the game is not
        installed here (a server seat of a game this machine lacks)."""
        if self._rules is None:
            info = self.info
            registry = tabletop(self).registry
            if info is None or info.game not in registry.games:
                return None
            game = registry.get(info.game).definition
            try:
                text = game.rules_summary()
            except Exception as exc:
                text = f"The rules could not be shown: {type(exc).__name__}: {exc}"
            self._rules = RulesScreen(info.title, text)
            self.app.install_screen(self._rules, self._rules_name)
        return self._rules

    def action_zoom(self) -> None:
        """The board on the whole screen (a narrow terminal's table read whole), and
        back; Escape also brings the game back."""
        if self.maximized is not None:
            self.minimize()
        else:
            self.maximize(self.query_one("#board", ViewPanel), container=False)

    def minimize(self) -> None:
        """Back from a zoom, with the table at its top, and the focus on the choices."""
        zoomed = self.maximized
        super().minimize()
        board = self.query_one("#board", ViewPanel)
        if zoomed is board:
            board.scroll_home(animate=False, immediate=True)
        log = self.query_one("#log", GameLog)
        if zoomed is log:
            log.follow()
        if self._my_prompt() is not None:
            self.query_one("#choices", ChoiceList).focus()

    def action_zoom_details(self) -> None:
        """The details pane on the whole screen (a long card text on a small
        terminal), and back."""
        pane = self.query_one("#choices", ChoiceList).explanation
        if self.maximized is not None:
            self.minimize()
        elif pane.showing:
            self.maximize(pane, container=False)

    def action_read_log(self) -> None:
        """The log on the whole screen, at the first line new since the seat's last
        decision; again (or Escape) brings the game back."""
        log = self.query_one("#log", GameLog)
        if self.maximized is not None:
            self.minimize()
            return
        self.maximize(log, container=False)
        log.focus()
        self.call_after_refresh(log.scroll_to_new)

    def action_cards(self) -> None:
        """Move to the list of cards (their text in the details pane), and back."""
        cards = self.query_one("#cards", CardList)
        if cards.has_focus or not cards.display:
            self.query_one("#choices", ChoiceList).focus()
            if not cards.display:
                self.notify("No cards to read here.", severity="information")
        else:
            cards.focus()

    def action_bot_speed(self) -> None:
        """Cycle this game's bot speed (the next game starts at the default again)."""
        name, self.bot_delay = next_bot_speed(self.bot_delay)
        self.notify(f"Bot speed for this game: {name} ({self.bot_delay:g} s a move)")
        self._update_status()

    def action_home(self) -> None:
        if self.maximized is not None:
            self.minimize()
            return
        self.leave()

    def ending(self) -> str:
        """How this seat's game stands as the screen goes, in words (what ``tabletop
        join`` prints when its screen closes)."""
        info, update = self.info, self.viewer.update
        if self.ended is not None and (update is None or not update.over):
            return self.ended
        if info is not None and update is not None and update.over:
            result = update.result
            winners = [info.seat_name(seat) for seat in (result.winners if result else ())]
            won = f"{', '.join(winners)} won" if winners else "nobody won"
            summary = result.summary.splitlines()[0] if result and result.summary else ""
            return f"Game over after {update.seq} actions: {won}" + (
                f" ({summary})" if summary else ""
            )
        if info is not None and info.holder == SERVER and self.people:
            return "You left the table; the game waits. Join again with the same token."
        return ""

    def leave(self) -> None:
        """Leave the table (it stays saved, or waits on its server)."""
        if self._leave is not None:
            self._leave(self)
        else:
            tabletop(self).leave_table(self)

    def palette_commands(self) -> list[SystemCommand]:
        return [
            SystemCommand("Undo", "Take back to your last decision", self.action_undo),
            SystemCommand("Save a copy", "Save this game under a new name", self.action_save_copy),
            SystemCommand("Rules", "Show the game's rules summary", self.action_rules),
            SystemCommand("Bot speed", "Cycle fast / normal / slow", self.action_bot_speed),
            SystemCommand(
                "Zoom board", "The board on the whole screen, and back", self.action_zoom
            ),
            SystemCommand(
                "Read the log",
                "The log on the whole screen, at what happened since your last decision (l)",
                self.action_read_log,
            ),
            SystemCommand("Retry bot", "Let a failed bot try again", self.action_retry_bot),
            SystemCommand(
                "Hint",
                "What the tree search would choose here, from what you can see (?)",
                self.action_hint,
            ),
            SystemCommand(
                "Pauses",
                "Pause on the game's recaps (end of a turn, round or phase): "
                + ("turn off" if tabletop(self).pause_on_summaries else "turn on"),
                self.action_toggle_pauses,
            ),
            SystemCommand("Home", "Leave the game (it is saved)", self.action_home),
        ]


def _mover(update: SeatUpdate) -> int | None:
    """The seat whose move an update tells last (None: it tells no move)."""
    for line in reversed(update.log):
        if line.event is None and line.seat is not None:
            return line.seat
    return None


def _recap(event: Event) -> bool:
    return event.kind == SUMMARY


def _sentence(text: str) -> str:
    """A table's words as a sentence for a notification."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."
