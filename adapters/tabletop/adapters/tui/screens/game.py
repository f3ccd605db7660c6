"""The game screen, the same for every game: board, prompt, choices, log.

The screen is the session's UI port (``TextualUI``): ``GameSession.run`` asks it for
people's decisions and bots' moves, and tells it every change. Textual is
event-driven, so the screen answers later: a person's pick goes to
``GameSession.act``, a bot thinks in a worker thread and its move goes to
``BotTurn.play``, and ``run`` plays on. Bots therefore move through the same session
code as in ``tabletop simulate``.

It decides whose view is on screen: the only person in a game against bots, the seat
to act among several people (behind a hand-off screen when the game hides
information), or a spectator's view when only bots play.

A move (a person's pick or a bot's answer) runs the game's ``apply`` in a mover thread
that the screen waits for a moment (MOVE_WAIT_SECONDS): a usual move is done by then
and the screen goes on as if it had made it itself, while a game whose code blocks
leaves the screen and its quit key working, with a message. The session's news from
the mover thread is queued and delivered on the UI thread.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any, cast

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Size
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Header, Label, OptionList, Static
from textual.worker import Worker, WorkerState

from tabletop.adapters.bots.hint import Hint
from tabletop.adapters.bots.hint import prepare as prepare_hint
from tabletop.adapters.tui.hookspecs import board_widget_class
from tabletop.adapters.tui.patience import Patient
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
from tabletop.framework.errors import (
    IllegalAction,
    PluginFault,
    TabletopError,
    UndoRefused,
)
from tabletop.framework.game import SUMMARY, Action, Event, Prompt, Result
from tabletop.framework.ports import UserInterface
from tabletop.framework.session import BotTurn, GameSession, Move
from tabletop.framework.views import check_view_schema

#: What a bot's worker thread hands back: the turn, and its move, its error or None
#: (stopped before thinking).
Thought = tuple[BotTurn, Action | Exception | None]
#: How long the screen waits for a move before it stops waiting and says so.
MOVE_WAIT_SECONDS = 2.0
#: When the rules summary is parsed, once the game screen has opened (or at ``r``).
RULES_AFTER_SECONDS = 1.0
#: A bot thinking longer than this shows the seconds it has been thinking, updated
#: every THINKING_TICK seconds, in the status line.
THINKING_SHOWN_AFTER = 0.3
THINKING_TICK = 0.25


class TextualUI(UserInterface):
    """The UI port of one game screen (a separate object: Textual's screens have their
    own metaclass). It never answers on the spot: ``ask`` and ``bot_thinking`` show
    the decision and return None."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action | None:
        self.screen.decision_due(seat)
        return None

    def bot_thinking(self, turn: BotTurn) -> Action | None:
        self.screen.bot_due(turn)
        return None

    def moved(self, move: Move) -> None:
        # the screen renders when the next decision is due; it keeps the recaps for then
        recaps = [event for event in move.events if event.kind == SUMMARY]
        if recaps:
            self.screen.deliver(partial(self.screen.recaps_came, recaps))

    def undone(self, steps: int) -> None:
        self.screen.deliver(lambda: self.screen.undone(steps))

    def saved(self, save_id: str) -> None:
        self.screen.deliver(self.screen.save_worked)

    def save_failed(self, message: str) -> None:
        self.screen.deliver(lambda: self.screen.save_failed(message))

    def fault(self, fault: PluginFault) -> None:
        self.screen.deliver(lambda: self.screen.show_fault(fault))

    def bot_failed(self, seat: int, error: Exception) -> None:
        self.screen.deliver(lambda: self.screen.bot_failed(error))

    def game_over(self, result: Result | None) -> None:
        self.screen.deliver(self.screen.finish)


#: The keys of the screen's own commands: never given to a choice (``choice_keys``).
SCREEN_KEYS = frozenset("usrbtzcd")
#: A recap waiting for whoever is on screen next (not for each person in turn).
SCREEN = -2


class GameScreen(Screen[None]):
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
        Binding("t", "retry_bot", "Retry bot", show=False),
        # Not in the footer (no room at 80 columns): the palette and docs/playing.md say it.
        Binding("question_mark", "hint", "Hint", show=False),
        Binding("escape", "home", "Home"),
    ]

    def __init__(self, session: GameSession) -> None:
        super().__init__()
        self.session = session
        self.engine = session.engine
        self.game = session.engine.game
        self.seat_names = session.engine.seat_names
        self.hides = self.game.hides_information(self.engine.options)
        humans = session.humans()
        #: Whose view is shown; None is a spectator's (only public information).
        self.viewer: int | None = humans[0] if len(humans) == 1 else None
        self.concealed = False
        self.ui = TextualUI(self)
        if not session.bots:  # no bot plays (solitaire, people only): no bot speed key
            # (the screen's own copy of its bindings: hidden from its footer only. Not
            # ``check_action``, which Textual then asks at every binding refresh.)
            keys = self._bindings.key_to_bindings
            keys["b"] = [replace(binding, show=False) for binding in keys.get("b", [])]
        #: Seconds a bot waits before each move, for this game only: every game starts
        #: at the app's default (``TabletopApp.bot_delay``), whatever the last one used.
        self.bot_delay = 0.0
        #: Why the last autosave failed, shown in the status line until a save works.
        self.save_problem: str | None = None
        #: The bot decision a worker thread is thinking about, if any, since when
        #: (``time.monotonic``), and the timer that shows the seconds passing.
        self._bot_turn: BotTurn | None = None
        self._thinking_since = 0.0
        self._thinking_timer: Timer | None = None
        #: Wakes a bot waiting out its delay when its move is no longer wanted.
        self._bot_wake = threading.Event()
        self._bot_failed = False
        self._finished = False
        #: What each text line of the screen shows now (see ``_put``).
        self._texts: dict[str, str] = {}
        #: The move the game's code is making in the mover thread, if any.
        self._moving: Patient | None = None
        #: News from the session told in the mover thread, for the UI thread.
        self._news: list[Callable[[], None]] = []
        self._ui_thread = threading.get_ident()
        #: The rules screen, made at its first opening and kept (``action_rules``).
        self._rules: RulesScreen | None = None
        self._rules_name = f"rules-{id(self)}"
        #: The hand-off screen, made at the first change of hands and shown again at
        #: every other (``_handoff_screen``).
        self._handoff: HandoffScreen | None = None
        self._handoff_name = f"handoff-{id(self)}"
        #: Whose view and whose decision were last shown (``_hold``).
        self._turn: tuple[int | None, int | None] | None = None
        self._moment = -1
        #: Whether the screen was laid out since its parts were last let go, and
        #: whether they are held now (``_hold``).
        self._fitted = False
        self._holding = False
        #: The screen's size at its last resize (None: not shown yet).
        self._size_seen: Size | None = None
        #: Recaps (``SUMMARY`` events) not yet shown, each with the people who are still
        #: to read it (``recaps_came``).
        self._recaps: list[tuple[Event, set[int]]] = []
        #: True from the moment recaps are to be shown until they are dismissed.
        self._reading = False
        #: The decision (seat, actions so far) a hint is being thought about for, and
        #: since when (``action_hint``).
        self._hint_for: tuple[int, int] | None = None
        self._hint_since = 0.0

    def compose(self) -> ComposeResult:
        app = tabletop(self)
        try:
            board_class = board_widget_class(app.registry, self.game.info.id)
        except Exception as exc:  # the plugin's hook failed: fall back to the plain view
            board_class = None
            app.notify(f"The game's board is unavailable: {exc}", severity="warning")
        yield Header()
        with Horizontal(id="game-body"):
            with Vertical(id="board-column"):
                yield ViewPanel(board_class, id="board")
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
                yield Static("", id="status")
                yield GameLog(id="log")
        yield StableFooter()

    def on_mount(self) -> None:
        self.bot_delay = tabletop(self).bot_delay
        self.title = self.game.info.title
        self._title(self.query_one("#board", ViewPanel), "Table")
        self.query_one("#log", GameLog).border_title = "Log"
        cards = self.query_one("#cards", CardList)
        cards.border_title = "Cards (c)"
        cards.display = False
        self.query_one("#prompt-panel").border_title = "Decision"
        self.session.attach(self.ui)
        self.set_timer(RULES_AFTER_SECONDS, self._prepare_rules)
        self.screen_layout_refresh_signal.subscribe(self, self._laid_out, immediate=True)

    def on_screen_resume(self) -> None:
        # Sent when the screen is first shown and whenever a dialog over it closes.
        if not self.concealed:
            self.sync()

    # Flow ---------------------------------------------------------------------------

    def sync(self) -> None:
        """Play on: the session runs until a decision is due here (a person's, or a bot
        thinking in a worker) or the game is over, telling this screen through its port."""
        if not self.is_current or self._moving is not None:
            return  # on_screen_resume syncs when the dialog on top closes
        try:
            self.session.run()
        except PluginFault:
            pass  # already shown through the port (show_fault)
        except Exception as exc:  # the game's prompt() or view() crashed: report, keep on
            tabletop(self).show_error(
                "The game's code failed", f"{type(exc).__name__}: {exc}\n\nThe game was saved."
            )
            with contextlib.suppress(Exception):
                self.render_game()

    # The UI port (called by the session through TextualUI) ---------------------------

    def decision_due(self, seat: int) -> None:
        """A person is to decide: hand the device over if need be, then show the prompt."""
        if seat != self.viewer:
            if self.hides and len(self.session.humans()) > 1:
                if not self.concealed and self._recaps:
                    # the one who just moved reads the recaps before handing over
                    self.render_game()
                    if self._pause_for_recaps():
                        return
                self._conceal()
                self._handoff_screen().hand_to(
                    self.engine.seat_name(seat), partial(self._reveal_to, seat)
                )
                self.app.push_screen(self._handoff_name, callback=partial(self._handed_over, seat))
                return
            self.viewer = seat
        self.render_game()
        self._pause_for_recaps()

    def bot_due(self, turn: BotTurn) -> None:
        """A bot is to decide: show the table, and let it think unless it failed or a
        recap is being read (it thinks once the recap is dismissed)."""
        self.render_game()
        if self._pause_for_recaps():
            return
        if not self._bot_failed:
            self._start_bot(turn)

    def recaps_came(self, recaps: list[Event]) -> None:
        """Keep a move's recaps until the game next waits for someone. In a hot-seat
        game that hides information each person reads the recaps they may see when
        they are next at the screen; otherwise whoever is at the screen reads them
        once. Nobody pauses when only bots play (a spectator watches on)."""
        humans = self.session.humans()
        if not humans:
            return
        each = self.hides and len(humans) > 1
        for recap in recaps:
            readers = {seat for seat in humans if recap.visible_to(seat)}
            if readers:
                self._recaps.append((recap, readers if each else {SCREEN}))

    def _pause_for_recaps(self, then: Callable[[], None] | None = None) -> bool:
        """Show the recaps the seat on screen may read, if any and the pauses are on;
        True when shown (the game then waits: it plays on when the screen is
        dismissed, through ``on_screen_resume``, and ``then`` runs)."""
        if not self._recaps or self.concealed:
            return False
        if not tabletop(self).pause_on_summaries:
            self._recaps.clear()
            return False
        viewer, shown, kept = self.viewer, [], []
        for recap, readers in self._recaps:
            if SCREEN in readers and recap.visible_to(viewer):
                shown.append(recap)
            elif viewer is not None and viewer in readers:
                shown.append(recap)
                readers.discard(viewer)
                if readers:
                    kept.append((recap, readers))
            else:
                kept.append((recap, readers))
        if not shown:
            return False
        self._recaps = kept
        self._reading = True
        # After this screen's next refresh: the table under the recap shows the game as
        # the recap leaves it (a push made now could cover a table still drawing the
        # moment before; a screen under a dialog is not drawn again).
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

    def _set_pauses(self, on: bool) -> None:
        """Turn the pauses on recaps on or off for the rest of the app's run."""
        tabletop(self).pause_on_summaries = on
        if on:
            self.notify("The game pauses on its recaps again (end of a turn, round...).")
        else:
            self._recaps.clear()
            self.notify("No more pauses on recaps. Ctrl+P, 'Pauses', turns them back on.")
        if self.is_mounted:
            self._update_status()

    def action_toggle_pauses(self) -> None:
        self._set_pauses(not tabletop(self).pause_on_summaries)

    def undone(self, steps: int) -> None:
        self._stop_bot()
        self._bot_failed = False
        self._recaps.clear()  # they tell of moves that are taken back
        self.notify(f"Undid {steps} action{'s' if steps != 1 else ''}.")

    def deliver(self, news: Callable[[], None]) -> None:
        """Run a notification now on the UI thread, or queue it from the mover thread."""
        if threading.get_ident() == self._ui_thread:
            news()
        else:
            self._news.append(news)

    def save_worked(self) -> None:
        if self.save_problem is not None:
            self.save_problem = None
            self.notify("Saved again: every move is safe.")
            if self.is_mounted:
                self._update_status()

    def save_failed(self, message: str) -> None:
        self.save_problem = message
        self.notify(message, severity="warning", markup=False)  # it may name a save
        if self.is_mounted:
            self._update_status()

    def show_fault(self, fault: PluginFault) -> None:
        seat = fault.actions[-1][0] if fault.actions else None
        if isinstance(seat, int) and not self.session.is_human(seat):
            self._bot_failed = True
        tabletop(self).show_error(
            "The game's code failed",
            f"{fault}\n\nThe game was kept as it was before this action "
            f"(seed {fault.seed}, {len(fault.actions)} actions to reproduce).",
        )

    def bot_failed(self, error: Exception) -> None:
        self._bot_failed = True
        self._update_status()
        tabletop(self).show_error(
            "A bot failed", f"{type(error).__name__}: {error}\n\nPress t to let it retry."
        )

    def finish(self) -> None:
        if self._finished:
            return
        self._finished = True
        self._stop_bot()
        from tabletop.adapters.tui.screens.game_over import GameOverScreen

        # The final board and log: the only person's view, or a spectator's when
        # several people share the screen (nobody's hidden hand is shown to the others).
        humans = self.session.humans()
        viewer = humans[0] if len(humans) == 1 else (None if self.hides else self.viewer)
        over = GameOverScreen(self.session, viewer)

        def show_result() -> None:  # returns nothing: this screen must not await its end
            self.app.switch_screen(over)

        # The last recaps first (the final round's scoring), with the table as it ended.
        if self._recaps and not self.concealed:
            with contextlib.suppress(Exception):
                self.render_game()
            if self._pause_for_recaps(then=show_result):
                return
        # After this screen's first refresh: a game that ends as it opens (a finished
        # save, fast bots) must not take the screen away while its header still mounts.
        self.call_after_refresh(show_result)

    def _handoff_screen(self) -> HandoffScreen:
        """The hand-off screen of this game, installed in the app at first use."""
        if self._handoff is None:
            self._handoff = HandoffScreen("", self.game.info.title)
            self.app.install_screen(self._handoff, self._handoff_name)
        return self._handoff

    def _reveal_to(self, seat: int) -> None:
        """The next person is at the keyboard (the hand-off screen still covers this
        one): show their view now, so that the screen is laid out and drawn once when
        the hand-off screen goes. The session plays on after (``_handed_over``)."""
        self.viewer = seat
        self.concealed = False
        with contextlib.suppress(Exception):  # reported by the session's run, after
            self.render_game()
        # Laid out before it is first drawn again: the widgets tell the screen of their
        # new sizes a moment later, and it would otherwise draw its old layout first.
        self.refresh(layout=True)

    def _handed_over(self, seat: int, _: None = None) -> None:
        """The hand-off screen went. Its person said they were ready (``_reveal_to``),
        and this screen plays on as it shows again (``on_screen_resume``): once."""
        if self.concealed or self.viewer != seat:  # not revealed: play on from here
            self.viewer = seat
            self.concealed = False
            self.sync()

    def _conceal(self) -> None:
        """Wipe everything seat-specific before the device changes hands: the prompt,
        the choices and the log are emptied, and the board shows the spectator's view
        (nothing secret). The layout itself stays as it is: hiding and showing the
        whole body again cost more than half of the hand-off back to the board, and
        the hand-off screen covers it all anyway."""
        self.concealed = True
        self._turn = None
        self._hold(False)
        for line in ("#prompt-seat", "#prompt-text", "#prompt-rule"):
            self._put(self.query_one(line, Static), "")
        board = self.query_one("#board", ViewPanel)
        self._title(board, "Table")
        try:
            public = self.engine.view(None)
            board.show(public, self.seat_names, None, self.game.info.title)
            self._show_cards(public)
        except Exception:  # the game's view() crashed: a blank board hides as well
            board.clear_view()
            self._show_cards({})
        self.query_one("#log", GameLog).put_away()
        self.query_one("#choices", ChoiceList).show_prompt(None)
        self._subtitle(self.query_one("#prompt-panel"), "")

    def render_game(self) -> None:
        prompt = self.engine.prompt
        viewer = self.viewer
        turn = (viewer, None if prompt is None else prompt.seat)
        moment = len(self.engine.log)
        if turn != self._turn or moment != self._moment:  # not the same decision again
            self._hold(turn == self._turn)
            self._turn, self._moment = turn, moment
        who = "spectator" if viewer is None else self.engine.seat_name(viewer)
        self.sub_title = f"{who}'s view" if viewer is not None else "spectator view"
        board = self.query_one("#board", ViewPanel)
        try:
            view = self.engine.view(viewer)
        except Exception as exc:  # the game's view() crashed: say so, keep playing
            view = {"error": f"the game could not show its table: {type(exc).__name__}: {exc}"}
        self._title(board, f"Table — {self.sub_title}")
        board.show(view, self.seat_names, viewer, self.game.info.title)
        self._show_cards(view)
        self.query_one("#log", GameLog).sync(self.engine, viewer)
        choices = self.query_one("#choices", ChoiceList)
        seat_line = self.query_one("#prompt-seat", Label)
        text = self.query_one("#prompt-text", Static)
        rule = self.query_one("#prompt-rule", Label)
        if prompt is None:
            self._put(seat_line, "")
            self._put(text, "")
            self._put(rule, "")
            choices.show_prompt(None)
            return
        human = self.session.is_human(prompt.seat)
        name = self.engine.seat_name(prompt.seat)
        kind = "" if human else f" ({self.session.controllers[prompt.seat]} bot)"
        self._put(seat_line, f"{name}{kind} to decide")
        # Another seat's prompt and choices can reveal its hand: only that seat sees them.
        private = self.hides and viewer != prompt.seat
        self._put(text, f"Waiting for {name}…" if private else prompt.text)
        self._put(rule, f"Rule {prompt.rule} (r: the rules)" if prompt.rule else "")
        rule.display = bool(prompt.rule) and not private
        if human and not private:
            # the game's details and warnings, asked for only when a person will read them
            shown = self.engine.explained_prompt or prompt
            choices.show_prompt(shown, moment=len(self.engine.log))
            keyless = len(choices.key_map) < len(shown.choices)
            self._subtitle(self.query_one("#prompt-panel"), NO_KEY_HINT if keyless else "")
            if self.focused is None or self.focused.id not in ("choices", "cards", "log"):
                choices.focus()
        else:
            choices.show_prompt(None)
            self._subtitle(self.query_one("#prompt-panel"), "")
        if self.query_one("#cards", CardList).has_focus:
            self._explain_card()  # the card being read stays in the details pane
        self._update_status()

    def _hold(self, held: bool) -> None:
        """While the same seat decides again with the same view on screen, the parts
        whose height follows their content (the prompt's text, the choices, the details
        pane, the cards, the board) keep the height they have: a move then lays the
        screen out once, not twice (each change of a widget's size makes Textual lay
        the whole screen out again), and the log and the choices do not jump up and
        down between the steps of one turn. Longer contents still grow them. At the
        next turn, a hand-off or a resize they fit their contents again, and at once
        when together they would push the log out of the side column (``_laid_out``).

        Parts let go are held again only once the screen was laid out: until then
        their sizes are those they had before (the same seat shown twice in a row, as
        a hand-off ends, would otherwise hold the last seat's sizes)."""
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
            # Held parts taller together than the side column (a small terminal) would
            # push the log out of sight: they fit their contents again instead.
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

    def action_cards(self) -> None:
        """Move to the list of cards (their text in the details pane), and back."""
        cards = self.query_one("#cards", CardList)
        if cards.has_focus or not cards.display:
            self.query_one("#choices", ChoiceList).focus()
            if not cards.display:
                self.notify("No cards to read here.", severity="information")
        else:
            cards.focus()

    def _put(self, widget: Static, line: str) -> None:
        """Show ``line`` (plain text, never markup) in ``widget`` unless it shows it
        already: each update lays the whole screen out again, and most moves leave the
        seat, rule and status lines as they were."""
        key = widget.id or str(id(widget))
        if self._texts.get(key) != line:
            self._texts[key] = line
            widget.update(Text(line))

    def _title(self, widget: Widget, title: str) -> None:
        """Set ``widget``'s border title unless it is the one shown (setting it draws
        the whole widget again, even with the same title)."""
        key = f"title-{widget.id or id(widget)}"
        if self._texts.get(key) != title:
            self._texts[key] = title
            widget.border_title = title

    def _subtitle(self, widget: Widget, subtitle: str) -> None:
        """Set ``widget``'s border subtitle unless it is the one shown (``_title``)."""
        key = f"subtitle-{widget.id or id(widget)}"
        if self._texts.get(key, "") != subtitle:
            self._texts[key] = subtitle
            widget.border_subtitle = subtitle

    def _update_status(self) -> None:
        parts = []
        turn = self._bot_turn
        if turn is not None:
            who = self.engine.seat_name(turn.seat)
            elapsed = time.monotonic() - self._thinking_since
            took = f" {elapsed:.1f} s" if elapsed >= THINKING_SHOWN_AFTER else ""
            parts.append(f"⏳ {who} ({turn.kind}) is thinking…{took}")
        elif self._hint_for is not None:
            elapsed = time.monotonic() - self._hint_since
            took = f" {elapsed:.1f} s" if elapsed >= THINKING_SHOWN_AFTER else ""
            parts.append(f"⏳ Thinking about a hint…{took}")
        elif self._bot_failed:
            parts.append("Bot stopped after an error: press t to retry")
        moving = self._moving
        if moving is not None and moving.late:
            parts.append(
                "⏳ The game's code is still working on this move (Ctrl+Q quits; the game "
                "is saved as it was before the move)"
            )
        if self.save_problem:
            parts.append(f"⚠ NOT SAVED: {self.save_problem} (Ctrl+Q offers to save elsewhere)")
        if self.session.bots:
            parts.append(f"Bots: {speed_name(self.bot_delay)}")
        if not tabletop(self).pause_on_summaries and self.session.humans():
            parts.append("Pauses off (Ctrl+P: Pauses)")
        status = self.query_one("#status", Static)
        self._put(status, "  ·  ".join(parts))
        status.set_class(not parts, "-empty")

    # Bots ---------------------------------------------------------------------------

    def _start_bot(self, turn: BotTurn) -> None:
        if self._bot_turn is not None and self._bot_turn.current:
            self._update_status()
            return  # a worker already thinks about this decision
        self._bot_turn = turn
        self._thinking_since = time.monotonic()
        self._update_status()
        if self._thinking_timer is None:  # the seconds it has been thinking, as they pass
            self._thinking_timer = self.set_interval(THINKING_TICK, self._thinking_tick)
        self._bot_wake = threading.Event()
        self.run_worker(
            partial(self._think, turn, self.bot_delay, self._bot_wake),
            name=f"bot-{turn.seat}",
            group="bot",
            exclusive=True,
            thread=True,
            exit_on_error=False,
        )

    def _thinking_tick(self) -> None:
        """Update the seconds a bot (or a hint) has been thinking; stop once none does."""
        if self._bot_turn is None and self._hint_for is None:
            if self._thinking_timer is not None:
                self._thinking_timer.stop()
                self._thinking_timer = None
            return
        if self.is_mounted:
            self._update_status()

    @staticmethod
    def _think(turn: BotTurn, delay: float, wake: threading.Event) -> Thought:
        """Runs in a worker thread: think, then wait out what is left of the bot speed's
        delay, so a move takes the longer of the two and not their sum (a searching bot
        that thinks 0.3 s moves after 0.4 s at normal speed, not 0.7 s). Reads the game
        only; the move is applied on the UI thread (``on_worker_state_changed``)."""
        started = time.monotonic()
        if wake.is_set():
            return turn, None  # stopped before it began (undo, leaving the game)
        try:
            outcome: Action | Exception = turn.think()
        except Exception as exc:  # reported on the UI thread, through the session
            outcome = exc
        left = delay - (time.monotonic() - started)
        if left > 0 and wake.wait(left):
            return turn, None  # stopped while it waited: its move is not wanted
        return turn, outcome

    def _stop_bot(self) -> None:
        self._bot_wake.set()
        self.workers.cancel_group(self, "bot")
        self._bot_turn = None

    def on_unmount(self) -> None:
        self._bot_wake.set()  # do not keep a sleeping thread (and app exit) waiting
        self.session.close()
        for made, name in ((self._rules, self._rules_name), (self._handoff, self._handoff_name)):
            if made is not None:
                with contextlib.suppress(Exception):  # the app may be closing
                    self.app.uninstall_screen(name)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.group == "hint":
            self._hint_done(worker, event.state)
            return
        if worker.group != "bot" or event.state != WorkerState.SUCCESS:
            return
        if worker.result is None:
            return
        turn, outcome = cast(Thought, worker.result)
        if turn is not self._bot_turn:
            return  # an older worker's answer
        self._bot_turn = None
        if outcome is None or not turn.current:  # stopped, or undo happened meanwhile
            self._update_status()
            return
        if isinstance(outcome, Exception):
            turn.failed(outcome)  # the session tells the log and this screen (bot_failed)
            return
        self._apply(lambda: turn.play(outcome))

    # Hints -------------------------------------------------------------------------

    def action_hint(self) -> None:
        """Ask the tree search what it would choose at the person's decision, from that
        seat's information only (``tabletop.adapters.bots.hint``). It thinks in a worker
        (the status line says so); the answer is shown and its choice highlighted, never
        played."""
        prompt = self.engine.prompt
        if prompt is None or self.concealed or not self.session.is_human(prompt.seat):
            self.notify("A hint is for your own decision: none is due now.", severity="warning")
            return
        if self.hides and self.viewer != prompt.seat:
            self.notify("A hint is for your own decision: none is due now.", severity="warning")
            return
        moment = (prompt.seat, len(self.engine.log))
        if self._hint_for == moment:
            return  # already thinking about this one
        hints = tabletop(self).registry.hints_for(self.game.info.id)
        think = prepare_hint(self.engine, hints)
        self._hint_for = moment
        self._hint_since = time.monotonic()
        self._update_status()
        if self._thinking_timer is None:
            self._thinking_timer = self.set_interval(THINKING_TICK, self._thinking_tick)
        self.run_worker(
            think, name="hint", group="hint", exclusive=True, thread=True, exit_on_error=False
        )

    def _hint_done(self, worker: Worker[Any], state: WorkerState) -> None:
        if state not in (WorkerState.SUCCESS, WorkerState.ERROR):
            return
        asked, self._hint_for = self._hint_for, None
        if self.is_mounted:
            self._update_status()
        if state == WorkerState.ERROR:
            self.notify(f"No hint: {worker.error}", severity="error", markup=False)
            return
        hint = cast(Hint, worker.result)
        prompt = self.engine.prompt
        if (
            asked != (hint.seat, hint.moment)
            or prompt is None
            or (prompt.seat, len(self.engine.log)) != asked
            or self.concealed
        ):
            return  # the decision changed meanwhile: the hint is of no use now
        choices = self.query_one("#choices", ChoiceList)
        shown = choices.prompt
        if shown is not None:
            actions = [choice.action for choice in shown.choices]
            if hint.action in actions:
                choices.highlighted = actions.index(hint.action)
        self.app.push_screen(HintScreen(hint.lines()))

    def action_retry_bot(self) -> None:
        if self._bot_failed and not self._busy():
            self._bot_failed = False
            self.sync()

    # People -------------------------------------------------------------------------

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        choices = self.query_one("#choices", ChoiceList)
        if event.option_list is not choices:
            return
        event.stop()
        self._choose(event.option_index, choices.generation_of(event.option.id))

    def on_key(self, event: events.Key) -> None:
        """A choice's key chooses it, whichever widget of the screen has the focus."""
        key = event.character if event.character and event.character.isprintable() else ""
        if not key or key.lower() in SCREEN_KEYS:
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
            if self.engine.prompt is not None and not self.concealed:
                self.notify(f"No choice has the key {key} now.", severity="warning")
            return
        self._choose(index, choices.generation)

    def _choose(self, index: int, generation: int) -> None:
        """Act on a person's pick, ignoring stale or out-of-range input with a note."""
        choices = self.query_one("#choices", ChoiceList)
        prompt = self.engine.explained_prompt  # what render_game showed
        if self._busy():
            return
        if prompt is None or self.concealed or not self.session.is_human(prompt.seat):
            self.notify("It is not your decision now.", severity="warning")
            return
        if generation != choices.generation or choices.prompt != prompt:
            self.notify("That choice is no longer available.", severity="warning")
            self.render_game()
            return
        if not 0 <= index < len(prompt.choices):
            self.notify("There is no such choice.", severity="warning")
            return
        seat, action = prompt.seat, prompt.choices[index].action
        self._apply(lambda: self.session.act(seat, action))

    def _busy(self) -> bool:
        """Say so and return True while the game's code is still making a move (or a
        recap is about to cover the screen: a key pressed in that moment is not a
        decision made after reading it)."""
        if self._reading:
            return True
        if self._moving is None:
            return False
        self.notify("The game is still working on the last move.", severity="warning")
        return True

    def _apply(self, move: Callable[[], object]) -> None:
        """Make a move (a person's pick or a bot's answer) in the mover thread, then
        play on; see the module's docstring."""
        if self._busy():
            return
        making = Patient(move)
        self._moving = making
        app = self.app  # the mover thread has no active app of its own
        making.start(partial(self._moved_late, app), name="tabletop-move")
        if making.wait(MOVE_WAIT_SECONDS):
            self._moved(making)
        else:
            self.notify(
                "The game's code is taking long over this move. You can wait, or quit "
                "with Ctrl+Q: the game is saved as it was before this move.",
                severity="warning",
                timeout=10,
            )
            self._update_status()

    def _moved_late(self, app: App[None], making: Patient) -> None:
        """From the mover thread: a late move ended; finish it on the UI thread."""
        if not app.is_running:
            return  # the player quit meanwhile
        with contextlib.suppress(Exception):  # ... or is quitting now
            app.call_from_thread(self._moved, making)

    def _moved(self, making: Patient) -> None:
        """On the UI thread: deliver the session's news, report an error, play on."""
        self._moving = None
        news, self._news = self._news, []
        for item in news:
            item()
        error = making.error
        if isinstance(error, IllegalAction):
            self.notify(f"Not allowed: {error}", severity="warning")
        elif isinstance(error, PluginFault):
            pass  # already shown through the port (show_fault)
        elif isinstance(error, TabletopError):
            self.notify(str(error), severity="error")
        elif error is not None:  # the game's prompt() or a save raised inside the move
            tabletop(self).show_error("The game's code failed", f"{type(error).__name__}: {error}")
        if self.is_mounted:
            self._update_status()
            self.sync()

    # Commands -----------------------------------------------------------------------

    def action_undo(self) -> None:
        # With hidden information each person may take back only their own decisions;
        # at an open table a takeback of the last move is for whoever asks.
        if self._busy():
            return
        try:
            self.session.undo(by=self.viewer if self.hides else None)  # tells undone()
        except UndoRefused as exc:
            self.notify(f"Cannot undo: {exc}.", severity="warning")
            return
        self.sync()

    def action_save_copy(self) -> None:
        if self._busy():
            return
        from tabletop.adapters.tui.screens.save_as import SaveAsScreen

        self.app.push_screen(SaveAsScreen(self._copy_name()), callback=self._save_copy)

    def _copy_name(self) -> str:
        """The name offered for a copy: the game's id and the first free number
        ("pig-copy-1", then "pig-copy-2" once that one exists)."""
        try:
            existing = {info.save_id for info in tabletop(self).store.list()}
        except Exception:  # an unreadable folder: saving will say what is wrong
            existing = set()
        number = 1
        while f"{self.game.info.id}-copy-{number}" in existing:
            number += 1
        return f"{self.game.info.id}-copy-{number}"

    def _save_copy(self, name: str | None) -> None:
        if not name:
            return
        store = tabletop(self).store
        try:
            existing = {info.save_id for info in store.list()}
            if name in existing and name != self.session.save_id:
                self.notify(f"A save named {name} already exists.", severity="error")
                return
            store.save(self.session.record(), name)
        except TabletopError as exc:
            self.notify(f"Not saved: {exc}", severity="error")
            return
        # a snapshot: the game goes on saving to its own save (issue 22, finding 5)
        self.notify(f"Saved a copy as {name}: the moves so far; later moves are not added to it.")

    def action_rules(self) -> None:
        """The rules summary at the section the decision cites. The screen is made
        once per game (the summary parsed and drawn once) and shown again after."""
        prompt = self.engine.prompt
        private = prompt is not None and self.hides and self.viewer != prompt.seat
        cited = prompt.rule if prompt is not None and not private else None
        rules = self._prepare_rules()
        if rules.is_mounted:
            rules.show_rule(cited)
        else:
            rules.point_at(cited)
        self.app.push_screen(self._rules_name)

    def _prepare_rules(self) -> RulesScreen:
        """The rules screen, its summary read and parsed (done once, when the game
        screen is idle after it opened, or at the first press of r)."""
        if self._rules is None:
            try:
                text = self.game.rules_summary()
            except Exception as exc:
                text = f"The rules could not be shown: {type(exc).__name__}: {exc}"
            self._rules = RulesScreen(self.game.info.title, text)
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
        """Back from a zoom (``z``, ``d`` or Escape), with the table at its top: where
        the game stands and the scores, not wherever the zoomed table was read to."""
        zoomed = self.maximized
        super().minimize()
        board = self.query_one("#board", ViewPanel)
        if zoomed is board:
            board.scroll_home(animate=False, immediate=True)

    def action_zoom_details(self) -> None:
        """The details pane on the whole screen (a long card text on a small
        terminal), and back."""
        pane = self.query_one("#choices", ChoiceList).explanation
        if self.maximized is not None:
            self.minimize()
        elif pane.showing:
            self.maximize(pane, container=False)

    def action_bot_speed(self) -> None:
        """Cycle this game's bot speed (the next game starts at the default again)."""
        name, self.bot_delay = next_bot_speed(self.bot_delay)
        self.notify(f"Bot speed for this game: {name} ({self.bot_delay:g} s a move)")
        self._update_status()

    def action_home(self) -> None:
        self._stop_bot()
        tabletop(self).leave_game(self.session)  # asks first if moves are not saved

    def palette_commands(self) -> list[SystemCommand]:
        return [
            SystemCommand("Undo", "Take back to your last decision", self.action_undo),
            SystemCommand("Save a copy", "Save this game under a new name", self.action_save_copy),
            SystemCommand("Rules", "Show the game's rules summary", self.action_rules),
            SystemCommand("Bot speed", "Cycle fast / normal / slow", self.action_bot_speed),
            SystemCommand(
                "Zoom board", "The board on the whole screen, and back", self.action_zoom
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
