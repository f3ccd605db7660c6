"""A table: one game and the seats that play it, each told only its seat's messages.

The table is the master of a game in the sense of boardgame.io: it owns the session
(``GameSession``: the engine, autosave, undo, the observers), and every front end is a
seat client of it that receives ``seats`` messages and sends ``seats`` requests. The
local screen, each hot-seat person, a remote seat (through the server), a spectator and
a bot all sit at a table the same way; what each receives is built by
``seats.seat_update``, the one place that reads the engine for a seat.

Bots are seats too: when a bot's decision is due, what it may read (its view and
prompt, a copy of the state for its information set, its random stream) is copied
under the table's lock (``bots.prepare_bot_move``), it thinks on a worker
(``ports.Workers``, lane ``BOTS``), and its answer comes back as a ``Move`` through the
same checks as a person's: a bot whose position was undone meanwhile is refused like a
stale click. Nothing a bot thinks about runs inside another seat's request.

Every change happens under the table's lock, from whatever thread asks (a UI's worker,
a server's, a bot's); the messages it causes are handed to each seat's channel under the
lock too, so each seat hears the changes in the order they happened. A channel must not
block and must not call the table back (it queues the message for its own thread).
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol

from tabletop.framework.bots import prepare_bot_move
from tabletop.framework.engine import Engine
from tabletop.framework.errors import IllegalAction, PluginFault, UndoRefused
from tabletop.framework.game import Action, Prompt, Result
from tabletop.framework.ports import Busy, UserInterface, Workers
from tabletop.framework.seats import (
    BOT_FAILED,
    ENDED,
    FAULT,
    LOCAL,
    REFUSED,
    SAVE_FAILED,
    SAVED,
    UNDONE,
    AskHint,
    Cursor,
    HintAnswer,
    Leave,
    Move,
    Notice,
    Retry,
    SeatConnection,
    SeatMessage,
    SeatRequest,
    SeatUpdate,
    TableInfo,
    Undo,
    seat_update,
)
from tabletop.framework.session import AUTOMATED, HUMAN, BotTurn, GameSession

#: Makes the search for a hint at the engine's current decision, ready to run on a
#: worker (the state is copied when it is made): the answer, in the protocol's words.
Hinter = Callable[[Engine], Callable[[], HintAnswer]]
#: Told the result of a piece of work, or its error (``Workers.submit``).
Done = Callable[[Any, BaseException | None], None]
#: The least a hurried search bot is given a decision (its first iteration is always
#: made): when a person has waited the table's whole patience already.
HURRIED_SECONDS = 0.02
#: Hints a table remembers (a hint at a position is always the same).
HINTS_KEPT = 64


class SeatChannel(Protocol):
    """How a table tells one seat's front end: called with the table's lock held, in
    order; must queue the message and return at once."""

    def deliver(self, message: SeatMessage) -> None: ...


class _Refusal(Exception):
    def __init__(self, text: str, *, final: bool = False) -> None:
        super().__init__(text)
        self.final = final


class _Silent:
    """The channel of a bot's own seat: a bot needs no news (it is handed its inputs
    when it is due), and a refusal of a stale bot move is nobody's business."""

    def deliver(self, message: SeatMessage) -> None:
        pass


@dataclass(eq=False)
class SeatLink:
    """One front end sitting at a seat of a table (None: a spectator)."""

    table: Table
    seat: int | None
    channel: SeatChannel
    cursor: Cursor = field(default_factory=Cursor)
    shared: bool = False
    """Several people share this front end (hot-seat): in a game without hidden
    information, an undo there takes back the last person's decision, whoever asks."""
    bot: bool = False
    #: Set by an undo: the next update tells the seat to forget lines after this action.
    rewind: int | None = None

    def send(self, request: SeatRequest) -> bool:
        return self.table.request(self, request)


class Table(UserInterface):
    """One game and its seats; the session's UI port (it answers people later, and
    lets bots think on ``workers``)."""

    def __init__(
        self,
        session: GameSession,
        *,
        workers: Workers,
        table_id: str = "",
        holder: str = LOCAL,
        hinter: Hinter | None = None,
        recover: Callable[[Table, BaseException], GameSession] | None = None,
        on_idle: Callable[[Table], None] | None = None,
        patience: float | None = None,
    ) -> None:
        self.session = session
        #: The most seconds the bots should think, in all, between a person's move and
        #: that person's next decision (a search bot is hurried to keep to it,
        #: ``SearchBot.hurried``); None: bots think as long as their budget says.
        self.patience = patience
        #: Since when a person has been waiting for the bots (``time.monotonic``).
        self._waiting_since = time.monotonic()
        self.workers = workers
        self.table_id = table_id or (session.save_id or "")
        self.holder = holder
        self.hinter = hinter
        #: Rebuilds the session when a change could not be kept (a server's store that
        #: refused a move: its copy is the truth). Without one, the error propagates.
        self.recover = recover
        #: Called when the last person's front end left (a server lets the game go).
        self.on_idle = on_idle
        self.lock = threading.RLock()
        self.links: list[SeatLink] = []
        self._bot_links: dict[int, SeatLink] = {}
        #: The position each bot seat is thinking about, and where one failed.
        self._thinking: dict[int, int] = {}
        self._failed: dict[int, int] = {}
        self._hints: OrderedDict[tuple[int, int], HintAnswer] = OrderedDict()
        self._hinting: set[tuple[int, int]] = set()
        #: Why the table takes no more moves (its host ended the game), or None.
        self.ended: str | None = None
        #: Why the last autosave failed, until one works again.
        self.save_problem: str | None = None
        self._closed = False
        session.attach(self)

    # What a seat is told ------------------------------------------------------------

    @property
    def engine(self) -> Engine:
        return self.session.engine

    def info(self, seat: int | None) -> TableInfo:
        session, engine = self.session, self.session.engine
        game = engine.game
        controllers = tuple(
            AUTOMATED if seat_ in session.automated else kind
            for seat_, kind in enumerate(session.controllers)
        )
        return TableInfo(
            game=game.info.id,
            title=game.info.title,
            seat=seat,
            seat_names=tuple(engine.seat_names),
            controllers=controllers,
            options=dict(engine.options),
            hidden_information=game.hides_information(engine.options),
            cooperative=game.info.cooperative,
            table=self.table_id,
            holder=self.holder,
            undo=bool(session.humans()) and engine.keeps_undo,
            hints=self.hinter is not None,
        )

    def join(
        self, seat: int | None, channel: SeatChannel, *, seen: int = 0, shared: bool = False
    ) -> SeatLink:
        """Sit a front end at ``seat`` (None: watch as a spectator). It is told the
        table, then where the game stands and the log after action ``seen`` (what it
        already knows), and every change from now on."""
        with self.lock:
            engine = self.engine
            if seat is not None and not 0 <= seat < engine.players:
                raise IllegalAction(f"there is no seat {seat} at this table")
            link = SeatLink(self, seat, channel, shared=shared)
            link.cursor = Cursor.after(engine, seen)
            if seen > len(engine.log):  # it heard of actions an undo took back
                link.rewind = len(engine.log)
            self.links.append(link)
            channel.deliver(self.info(seat))
            if self.ended is not None:
                channel.deliver(Notice(ENDED, self.ended, final=True))
            if self.save_problem is not None and self.holder == LOCAL:
                channel.deliver(Notice(SAVE_FAILED, self.save_problem))
            self._tell(link)
            self._play()
            return link

    def _tell(self, link: SeatLink, made: dict[tuple[Any, ...], SeatUpdate] | None = None) -> None:
        """Send ``link`` what is new for its seat. Seats at the same position get the
        same message object (``made``): one update per seat, not per connection."""
        engine = self.engine
        rewind, link.rewind = link.rewind, None
        if link.cursor.rewound(engine):
            rewind = len(engine.log)
        key = (link.seat, link.cursor.actions, link.cursor.events, rewind)
        update = None if made is None else made.get(key)
        if update is None:
            update = seat_update(engine, link.seat, link.cursor, rewind=rewind)
            if made is not None:
                made[key] = update
        else:
            link.cursor.actions, link.cursor.events = update.seq, len(engine.history)
        link.channel.deliver(update)

    def _broadcast(self) -> None:
        made: dict[tuple[Any, ...], SeatUpdate] = {}
        for link in list(self.links):
            self._tell(link, made)

    def _notify(self, message: SeatMessage, *seats: int) -> None:
        """Tell every front end a message (only those at ``seats``, when given)."""
        for link in list(self.links):
            if not seats or link.seat in seats:
                link.channel.deliver(message)

    # What a seat asks ----------------------------------------------------------------

    def request(self, link: SeatLink, request: SeatRequest) -> bool:
        """Carry out a seat's request; its answer (an update to every seat, or a
        notice to this one) goes out through the channels. Never raises for a bad or
        stale request: it is refused in words and changes nothing. Returns whether it
        was carried out (a server acknowledges a kept move by it)."""
        with self.lock:
            if self._closed or (link not in self.links and not link.bot):
                return False
            try:
                if isinstance(request, Move):
                    self._move(link, request)
                elif isinstance(request, Undo):
                    self._undo(link)
                elif isinstance(request, AskHint):
                    self._hint(link, request)
                elif isinstance(request, Retry):
                    self._retry()
                elif isinstance(request, Leave):
                    self.leave(link)
            except _Refusal as refusal:
                seq = getattr(request, "seq", None)
                link.channel.deliver(Notice(REFUSED, str(refusal), seq, refusal.final))
                return False
            return True

    def _due(self, seat: int | None, seq: int, what: str) -> Prompt:
        """The decision a ``what`` (a move, a hint) of ``seat`` at position ``seq`` is
        about. Refused when the game is over or ended, the position has passed, or the
        decision is another seat's."""
        engine = self.engine
        if self.ended is not None:
            raise _Refusal(self.ended, final=True)
        if seat is None:
            raise _Refusal("a spectator watches: it has no decision to make")
        prompt = engine.prompt
        if prompt is None:
            raise _Refusal("the game is over", final=True)
        if seq != len(engine.log):
            raise _Refusal(
                f"stale {what}: it answers position {seq}, the game is at {len(engine.log)}"
            )
        if prompt.seat != seat:
            raise _Refusal(
                f"it is {engine.seat_name(prompt.seat)}'s decision, not {engine.seat_name(seat)}'s"
            )
        return prompt

    def _move(self, link: SeatLink, move: Move) -> None:
        prompt = self._due(link.seat, move.seq, "move")
        assert link.seat is not None
        if not link.bot and not self.session.is_human(link.seat):
            raise _Refusal("that seat is played by a bot")
        if move.action not in prompt.actions():
            raise _Refusal(f"{move.action[:60]!r} is not one of your choices now")
        if not link.bot:
            self._waiting_since = time.monotonic()
        try:
            self.session.act(link.seat, move.action)
        except IllegalAction as exc:
            raise _Refusal(str(exc)) from None
        except PluginFault:  # told to every seat (``fault``); the game is as it was
            raise _Refusal("the game's code failed on this move; nothing changed") from None
        except Exception as exc:  # the move could not be kept (a server's store)
            self._recovered(exc)
            if self.ended is not None:  # its host ended it through another server process
                raise _Refusal(self.ended, final=True) from None
            if len(self.engine.log) != move.seq:  # another server process moved first
                raise _Refusal(
                    f"stale move: the game moved on to position {len(self.engine.log)}"
                ) from None
            raise _Refusal(
                f"this move could not be kept ({type(exc).__name__}): try again"
            ) from None
        self._changed()

    def _undo(self, link: SeatLink) -> None:
        if self.ended is not None:
            raise _Refusal(self.ended, final=True)
        if link.seat is None:
            raise _Refusal("a spectator has no decision to take back")
        session = self.session
        if not session.is_human(link.seat):
            raise _Refusal("that seat is played by a bot")
        hides = session.engine.game.hides_information(session.engine.options)
        by = None if link.shared and not hides else link.seat
        try:
            steps = session.undo(by=by)
        except UndoRefused as exc:
            raise _Refusal(f"cannot undo: {exc}") from None
        except Exception as exc:  # the undo could not be kept (a server's store)
            self._recovered(exc)
            if self.ended is not None:
                raise _Refusal(self.ended, final=True) from None
            raise _Refusal(f"the undo could not be kept ({type(exc).__name__})") from None
        self._thinking.clear()  # their answers are for positions that are gone
        self._failed.clear()
        self._waiting_since = time.monotonic()
        name = session.engine.seat_name(link.seat)
        plural = "s" if steps != 1 else ""
        self._notify(Notice(UNDONE, f"{name} took back {steps} action{plural}."))
        self._changed()

    def _hint(self, link: SeatLink, ask: AskHint) -> None:
        if self.hinter is None:
            raise _Refusal("this table gives no hints")
        self._due(link.seat, ask.seq, "hint")
        assert link.seat is not None
        key = (link.seat, ask.seq)
        known = self._hints.get(key)
        if known is not None:
            link.channel.deliver(known)
            return
        if key in self._hinting:
            return  # thought about now: the answer goes to every front end at the seat
        try:
            think = self.hinter(self.engine)
            self.workers.submit(Workers.HINTS, think, partial(self._hinted, key))
        except Busy:
            raise _Refusal("busy thinking about other hints: ask again in a moment") from None
        except ValueError as exc:
            raise _Refusal(f"no hint: {exc}") from None
        self._hinting.add(key)

    def _hinted(self, key: tuple[int, int], answer: Any, error: BaseException | None) -> None:
        with self.lock:
            self._hinting.discard(key)
            if error is not None or not isinstance(answer, HintAnswer):
                kind = type(error).__name__ if error is not None else "no answer"
                failed = Notice(REFUSED, f"no hint: the search failed ({kind})", key[1])
                self._notify(failed, key[0])
                return
            self._hints[key] = answer
            while len(self._hints) > HINTS_KEPT:
                self._hints.popitem(last=False)
            self._notify(answer, key[0])

    def _retry(self) -> None:
        if self._failed:
            self._failed.clear()
            self._changed()

    def leave(self, link: SeatLink) -> None:
        """A front end left its seat: it hears nothing more; the game waits."""
        with self.lock:
            if link in self.links:
                self.links.remove(link)
            idle = not any(not other.bot for other in self.links)
        if idle and self.on_idle is not None:
            self.on_idle(self)

    # Playing on --------------------------------------------------------------------

    def start(self) -> None:
        """Let the bots play, if one is due (a new table, or one just reloaded)."""
        with self.lock:
            self._play()

    def _changed(self) -> None:
        self._play()
        self._broadcast()

    def _play(self) -> None:
        """Find the next decision: a person's waits for their front end; a bot's is
        handed to the workers (``bot_thinking``)."""
        if self.ended is not None or self._closed:
            return
        try:
            self.session.run()
        except PluginFault:
            pass  # told through ``fault``
        except Exception as exc:  # the game's prompt() or view() crashed
            self._notify(Notice(FAULT, self._fault_words(exc, None)))

    def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action | None:
        return None  # the person's front end is told by the update that follows

    def bot_thinking(self, turn: BotTurn) -> Action | None:
        seat, seq = turn.seat, len(self.engine.log)
        if self._thinking.get(seat) == seq or self._failed.get(seat) == seq:
            return None
        bot = self.session.bots.get(seat)
        if bot is None:  # a seat nobody plays (an old save's controller): wait
            return None
        seconds = None
        if self.patience is not None and self.session.humans():  # somebody waits
            waited = time.monotonic() - self._waiting_since
            seconds = max(HURRIED_SECONDS, self.patience - waited)
        try:
            think = prepare_bot_move(self.engine, bot, self.session.bot_rng, seconds=seconds)
            self.workers.submit(Workers.BOTS, think, partial(self._bot_answered, seat, seq))
        except Exception as exc:
            self._bot_failed(seat, seq, exc)
            return None
        self._thinking[seat] = seq
        return None

    def _bot_answered(self, seat: int, seq: int, action: Any, error: BaseException | None) -> None:
        """A bot's answer, from its worker: a move like any seat's, or its failure."""
        with self.lock:
            if self._thinking.get(seat) != seq or self._closed:
                return  # undone meanwhile: the answer is for a position that is gone
            del self._thinking[seat]
            if error is not None or not isinstance(action, str):
                failure = error if isinstance(error, Exception) else RuntimeError(str(error))
                self._bot_failed(seat, seq, failure)
                return
            link = self._bot_links.get(seat)
            if link is None:
                link = self._bot_links[seat] = SeatLink(self, seat, _Silent(), bot=True)
            self.request(link, Move(seq, action))

    def _bot_failed(self, seat: int, seq: int, error: Exception) -> None:
        if seq != len(self.engine.log):
            return
        self._failed[seat] = seq
        BotTurn(self.session, seat).failed(error)  # the session tells its observers (the log)
        name = self.engine.seat_name(seat)
        kind = self.session.controllers[seat]
        self._notify(
            Notice(
                BOT_FAILED,
                f"The bot playing {name} ({kind}) failed: {type(error).__name__}. "
                "Retry lets it try again.",
                seq,
            )
        )

    def _recovered(self, error: BaseException) -> None:
        """A change could not be kept: rebuild the session where it is kept, and tell
        every seat where the game stands (from the start of its story)."""
        if self.recover is None:
            raise error
        session = self.recover(self, error)
        self.session = session
        session.attach(self)
        self._thinking.clear()
        self._failed.clear()
        for link in self.links:
            link.cursor, link.rewind = Cursor(), 0
        self._changed()

    def reload(self, error: BaseException) -> None:
        """Rebuild the session through ``recover`` and tell every seat where the game
        stands: what a server does when its store changed under the table (another
        server process sharing it moved or undid). Raises ``error`` without ``recover``."""
        with self.lock:
            self._recovered(error)

    def end(self, reason: str) -> None:
        """The game takes no more moves (its host ended it): every seat is told."""
        with self.lock:
            if self.ended is None:
                self.ended = reason
                self._thinking.clear()
                self._notify(Notice(ENDED, reason, final=True))

    def close(self) -> None:
        """The table is let go: no more messages, the session ends (it stays saved)."""
        with self.lock:
            self._closed = True
            self.links.clear()
            self._thinking.clear()
            self.session.close()

    @property
    def over(self) -> bool:
        return self.engine.over

    # The session's news --------------------------------------------------------------

    def saved(self, save_id: str) -> None:
        self.table_id = self.table_id or save_id
        if self.save_problem is not None:
            self.save_problem = None
            self._notify(Notice(SAVED, "Saved again: every move is safe."))

    def save_failed(self, message: str) -> None:
        self.save_problem = message
        self._notify(Notice(SAVE_FAILED, message))

    def fault(self, fault: PluginFault) -> None:
        seat = fault.actions[-1][0] if fault.actions else None
        who = seat if isinstance(seat, int) else None
        self._notify(Notice(FAULT, self._fault_words(fault, who)))

    def _fault_words(self, error: BaseException, seat: int | None) -> str:
        """A fault in words for every seat: whose move, the error's kind, and that
        nothing changed. The error's own message may quote a hidden card, so it is
        shown only at a local table of a game without hidden information."""
        engine = self.engine
        cause = error.__cause__ if isinstance(error, PluginFault) else error
        kind = type(cause or error).__name__
        on = f" on {engine.seat_name(seat)}'s move" if seat is not None else ""
        detail = ""
        if self.holder == LOCAL and not engine.game.hides_information(engine.options):
            detail = f": {cause or error}"
        where = "the game's save reproduces it" if self.holder == LOCAL else "the server logged it"
        return (
            f"The game's code failed{on} ({kind}{detail}). The game was kept as it was "
            f"before; {where}."
        )

    def game_over(self, result: Result | None) -> None:
        pass  # the update that ends the game says so


# Running work ------------------------------------------------------------------------


class QueuedWorkers(Workers):
    """Workers that run nothing until asked (``drain``): a table played from a script
    or a test moves one step at a time, on the caller's thread, deterministically."""

    def __init__(self) -> None:
        self.queue: deque[
            tuple[str, Callable[[], Any], Callable[[Any, BaseException | None], None]]
        ]
        self.queue = deque()

    def submit(
        self,
        lane: str,
        work: Callable[[], Any],
        done: Callable[[Any, BaseException | None], None],
    ) -> None:
        self.queue.append((lane, work, done))

    def drain(self, limit: int = 1_000_000) -> int:
        """Run the waiting work (and the work it causes) up to ``limit`` items;
        return how many ran."""
        ran = 0
        while self.queue and ran < limit:
            _, work, done = self.queue.popleft()
            try:
                result = work()
            except Exception as exc:
                done(None, exc)
            else:
                done(result, None)
            ran += 1
        return ran


class LocalConnection(SeatConnection):
    """A front end's line to a table in this process. Requests run on the workers'
    ``MOVES`` lane (the game's code may be slow; the front end stays free), in order;
    the table's messages reach ``receive`` on the thread that made the change."""

    can_save = True

    def __init__(
        self,
        table: Table,
        seat: int | None,
        *,
        shared: bool = False,
        save_copy: Callable[[str], str] | None = None,
        wait: float = 0.0,
    ) -> None:
        self.table = table
        self.seat = seat
        self.shared = shared
        #: How long ``send`` waits for its request to be carried out (seconds): a
        #: screen that waits a moment sees a usual move done as if it made it itself,
        #: while a game whose code is slow leaves it free after that moment.
        self.wait = wait
        self._save_copy = save_copy
        self.can_save = save_copy is not None
        self.link: SeatLink | None = None
        self._receive: Callable[[SeatMessage], None] | None = None

    def open(self, receive: Callable[[SeatMessage], None]) -> None:
        self._receive = receive
        self.link = self.table.join(self.seat, self, shared=self.shared)

    def deliver(self, message: SeatMessage) -> None:
        if isinstance(message, TableInfo):
            self.info = message
        if self._receive is not None:
            self._receive(message)

    def send(self, request: SeatRequest) -> None:
        link = self.link
        if link is None:
            return
        finished = threading.Event()

        def done(result: Any, error: BaseException | None) -> None:
            finished.set()
            if error is not None:  # a bug in the table: say so rather than lose it
                self.deliver(Notice(FAULT, f"the request failed: {type(error).__name__}: {error}"))

        try:
            self.table.workers.submit(
                Workers.MOVES, partial(self.table.request, link, request), done
            )
        except Busy:
            self.deliver(Notice(REFUSED, "still working on the last request: a moment"))
            return
        if self.wait > 0:
            finished.wait(self.wait)

    def save_copy(self, name: str) -> str:
        if self._save_copy is None:
            return super().save_copy(name)
        return self._save_copy(name)

    def close(self) -> None:
        """Leave the table without waiting for it: the leave runs on the ``MOVES`` lane,
        after a move the game's code may still be making (a front end that quits while
        a game's code blocks must not wait for it)."""
        link, self.link = self.link, None
        self._receive = None
        if link is None:
            return
        leave = partial(self.table.leave, link)
        try:
            self.table.workers.submit(Workers.MOVES, leave, lambda result, error: None)
        except Busy:
            threading.Thread(target=leave, name="tabletop-leave", daemon=True).start()


def people_at(session: GameSession) -> list[int]:
    """The seats people play at a session, in order (what a local front end joins)."""
    return [
        seat
        for seat, kind in enumerate(session.controllers)
        if kind == HUMAN and seat not in session.automated
    ]
