"""A game being played: the engine, who controls each seat, the UI port and autosave.

This is the service layer every front end shares (the Textual UI, ``tabletop simulate``,
scripts and tests). ``run`` lets bots play and asks the UI port for people's decisions;
every change is told to the UI and to observers (the app's log); every action is saved
through the SaveStore port so that nothing a player did is lost; undo goes back to a
person's decision. Bots are asked for their moves only here (through ``bot_move``), so
the same seed and seats give the same game in every front end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from tabletop.framework import chance
from tabletop.framework.bots import Bot, BotFactory, bot_move
from tabletop.framework.engine import DiceFactory, Engine, RngFactory
from tabletop.framework.errors import PluginFault, TabletopError, UndoRefused
from tabletop.framework.game import Action, Event, GameDefinition, Prompt
from tabletop.framework.plugins import GameRegistry
from tabletop.framework.ports import SaveStore, SessionObserver, UserInterface
from tabletop.framework.record import GameRecord

HUMAN = "human"
#: Why undo stops where it does: said whenever chance or a reveal is in the way.
UNDO_BARRIER = (
    "chance or a reveal came after the last decision (a roll, a shuffle or a reveal "
    "is never taken back)"
)
#: The controller of a seat the game plays itself (``GameDefinition.automated_seats``):
#: no bot is made for it and no person sits there.
AUTOMATED = "procedure"


class Move(NamedTuple):
    """One applied action and the events it produced (all of them, unfiltered). A
    named tuple, as ``LogEntry``: one is made per action of every game."""

    seat: int
    action: Action
    label: str
    events: list[Event]


class NoUI(UserInterface):
    """The UI of a session nobody has attached a front end to: people's decisions stay
    pending (``run`` then plays the bots only) and notifications go nowhere."""

    def ask(self, seat: int, view: dict[str, Any], prompt: Prompt) -> Action | None:
        return None


class BotTurn:
    """A bot's decision that is due, handed to ``UserInterface.bot_thinking``.

    ``think`` only reads the game, so a UI may run it on another thread; ``play`` and
    ``failed`` change the game or report, and belong on the session's thread. The turn
    goes stale as soon as the game changes (an undo while the bot thought): ``play`` and
    ``failed`` then do nothing, so a late answer never lands on another decision.
    """

    __slots__ = ("_epoch", "kind", "seat", "session")

    def __init__(self, session: GameSession, seat: int) -> None:
        self.session = session
        self.seat = seat
        self.kind = session.controllers[seat]
        self._epoch = session._epoch

    @property
    def current(self) -> bool:
        """Whether this is still the decision due (nothing happened since)."""
        prompt = self.session.engine.prompt
        return (
            self.session._epoch == self._epoch and prompt is not None and prompt.seat == self.seat
        )

    def think(self) -> Action:
        """The bot's move, by ``bot_move``: seeded by game seed, seat and move number."""
        session = self.session
        return bot_move(session.engine, session.bots[self.seat], session.bot_rng)

    def play(self, action: Action) -> Move | None:
        """Apply the bot's move; None (and nothing changes) when the turn is stale."""
        if not self.current:
            return None
        return self.session.act(self.seat, action)

    def failed(self, error: Exception) -> None:
        """Report that ``think`` raised (stale turns are not reported)."""
        if self.current:
            self.session._tell(lambda listener: listener.bot_failed(self.seat, error))


class GameSession:
    """Plays one game. Seats are ``"human"`` or the name of a registered bot kind.

    The UI port (``ui``, attached at construction or later with ``attach``) is asked
    for people's decisions and told every change; observers are told the same changes
    and never asked anything. A session without a UI plays its bots only.
    """

    def __init__(
        self,
        engine: Engine,
        controllers: list[str],
        bots: dict[int, Bot],
        *,
        bot_rng: RngFactory = chance.bot_rng,
        store: SaveStore | None = None,
        save_id: str | None = None,
        ui: UserInterface | None = None,
        observers: Iterable[SessionObserver] = (),
    ) -> None:
        if len(controllers) != engine.players:
            raise TabletopError(
                f"{engine.players} seats need {engine.players} controllers, got {len(controllers)}"
            )
        self.engine = engine
        self.controllers = controllers
        #: Seats the game plays itself: never a person's, whatever a save recorded.
        self.automated = automated_seats(engine.game, engine.players, engine.options)
        for seat, kind in enumerate(controllers):
            if kind == AUTOMATED and seat not in self.automated:
                name = engine.seat_name(seat)
                raise TabletopError(
                    f"{name} is not played by the game's own procedure: choose a person "
                    "or a bot for it"
                )
        self.bots = bots
        self.store = store
        self.save_id = save_id
        #: Where the bots' randomness comes from (``bot_move``): their own generator.
        self.bot_rng = bot_rng
        self.ui: UserInterface = NoUI()
        self.observers: list[SessionObserver] = []
        #: Why the last autosave failed; None once a save succeeds. The UI is told
        #: through ``save_failed``; this is kept for a UI or observer attached later.
        self.last_save_error: str | None = None
        #: Counts changes (actions, undos): a bot's answer for an older epoch is stale.
        self._epoch = 0
        #: Whether observers, and the UI now attached, were told that the game is over.
        self._over_logged = False
        self._over_shown = False
        self._closed = False
        for observer in observers:
            self.observe(observer)
        if ui is not None:
            self.attach(ui)

    @classmethod
    def start(
        cls,
        game: GameDefinition,
        *,
        seed: int,
        players: int,
        options: dict[str, str] | None,
        controllers: list[str],
        bot_factories: dict[str, BotFactory],
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        store: SaveStore | None = None,
        save_id: str | None = None,
        ui: UserInterface | None = None,
        observers: Iterable[SessionObserver] = (),
    ) -> GameSession:
        """A new game, saved at once; the UI and observers are told once it has its id
        (``save_id`` names it from the start: a server's game id, with no store).

        With no person at the table nobody can take a move back (``undo`` refuses), so
        the engine keeps no undo snapshots: batch play (``simulate``) skips their cost."""
        engine = Engine(
            game,
            seed=seed,
            players=players,
            options=options,
            rng_factory=rng_factory,
            dice_factory=dice_factory,
            undo=HUMAN in controllers,
        )
        session = cls(
            engine,
            controllers,
            make_bots(game, controllers, bot_factories),
            store=store,
            save_id=save_id,
        )
        session.autosave()
        for observer in observers:
            session.observe(observer)
        if ui is not None:
            session.attach(ui)
        return session

    # The UI port and observers --------------------------------------------------------

    def attach(self, ui: UserInterface) -> None:
        """Make ``ui`` the front end that is asked and told from now on.

        It learns at once of a save problem that is still unresolved.
        """
        self.ui = ui
        self._over_shown = False  # a new UI learns of the end when ``run`` finds it
        self._welcome(ui)

    def observe(self, observer: SessionObserver) -> None:
        """Tell ``observer`` every change from now on (the app's log is one)."""
        self.observers.append(observer)
        self._welcome(observer)

    def _welcome(self, listener: SessionObserver) -> None:
        listener.attached(self)
        if self.last_save_error is not None:
            listener.save_failed(self.last_save_error)

    def _tell(self, news: Callable[[SessionObserver], None]) -> None:
        """Observers first (the log is written before a UI reacts), then the UI."""
        for observer in self.observers:
            news(observer)
        news(self.ui)

    def _tell_over(self) -> None:
        """Tell observers once, and the UI once while it is attached, that the game
        ended (after the move that ended it, or when ``run`` finds it over)."""
        if self._over_logged and self._over_shown:
            return
        try:
            result = self.engine.result
        except Exception:  # the game's result() crashed: the end is still the end
            result = None
        if not self._over_logged:
            self._over_logged = True
            for observer in self.observers:
                observer.game_over(result)
        if not self._over_shown:
            self._over_shown = True
            self.ui.game_over(result)

    def close(self) -> None:
        """The session ends (game over or left; it stays saved): observers and the UI
        are told once, then let go. A closed session tells nobody anything more, and
        holds no reference cycle with its listeners (each refers to the session), so a
        finished game is freed at once instead of by the cyclic collector: a sixth of
        ``simulate``'s time when every game waited for it."""
        if not self._closed:
            self._closed = True
            self._tell(lambda listener: listener.closed())
            self.ui = NoUI()
            self.observers = []

    # Who decides --------------------------------------------------------------------

    def is_human(self, seat: int) -> bool:
        return self.controllers[seat] == HUMAN and seat not in self.automated

    @property
    def waiting_for_bot(self) -> bool:
        prompt = self.engine.prompt
        return prompt is not None and not self.is_human(prompt.seat)

    def humans(self) -> list[int]:
        automated = self.automated
        return [
            seat
            for seat, kind in enumerate(self.controllers)
            if kind == HUMAN and seat not in automated
        ]

    # Playing ------------------------------------------------------------------------

    def run(self, limit: int = 100_000) -> list[Move]:
        """Play on until a person's decision is pending with the UI, a bot is thinking
        elsewhere, the game is over or ``limit`` actions were made; return the moves.

        People's decisions come from ``ui.ask``, bots' from ``ui.bot_thinking`` (which
        lets the bot think on the spot unless the UI thinks elsewhere). This is the one
        loop that lets bots play, for ``tabletop simulate``, scripts, tests and the
        Textual app alike. Errors (a fault in the game's code, a bot that raised, an
        illegal action from a script) propagate once the UI and observers were told.
        """
        moves: list[Move] = []
        engine, controllers = self.engine, self.controllers  # read once: a loop per action
        while len(moves) < limit:
            prompt = engine.prompt
            if prompt is None:
                self._tell_over()
                break
            seat = prompt.seat
            action: Action | None
            if controllers[seat] == HUMAN:
                shown = engine.explained_prompt or prompt
                action = self.ui.ask(seat, self._view_of(seat), shown)
            else:
                turn = BotTurn(self, seat)
                try:
                    action = self.ui.bot_thinking(turn)
                except Exception as exc:
                    turn.failed(exc)
                    raise
            if action is None:
                break
            moves.append(self.act(seat, action))
        return moves

    def _view_of(self, seat: int) -> dict[str, Any]:
        """The seat's view for ``ask``. A view() that raises must not stop the game (the
        person can still choose; fuzzing reports the bug), so it becomes an error note."""
        try:
            return self.engine.view(seat)
        except Exception as exc:
            return {"error": f"the game could not show its table: {type(exc).__name__}: {exc}"}

    def play_bot(self) -> Move | None:
        """One bot move through ``run``: None when a person is due or the game is over."""
        if not self.waiting_for_bot:
            return None
        moves = self.run(limit=1)
        return moves[0] if moves else None

    def play_bots(self, limit: int = 100_000) -> list[Move]:
        """``run`` under the name older callers know: with no UI attached (or one that
        answers nobody) the bots play until a person must decide or the game ends."""
        return self.run(limit)

    def act(self, seat: int, action: Action) -> Move:
        """Apply an action for ``seat``, autosave, and tell the UI and observers.

        An illegal action raises IllegalAction and changes nothing (no one is told: it
        is the caller's mistake). A fault in the game's code keeps the game as it was,
        is saved and told, then raises PluginFault.
        """
        try:
            events = self.engine.act(seat, action)
        except PluginFault as exc:
            fault = exc
            self.autosave()  # the state was restored: keep the game as it was
            self._tell(lambda listener: listener.fault(fault))
            raise
        self._epoch += 1
        self.autosave()
        engine = self.engine
        move = Move(seat, action, engine.log[-1].label, events)
        for observer in self.observers:  # _tell written out: this runs once per action
            observer.moved(move)
        self.ui.moved(move)
        if engine.prompt is None:
            self._tell_over()
        return move

    def _undo_target(self, by: int | None) -> int:
        """How many actions undo would take back, or raise UndoRefused saying why.

        Open information: the target is the newest decision a person made, with the bot
        moves after it. ``by`` is the seat asking: in a game with several people, only
        the seat that made that decision may take it back (nobody undoes an opponent's
        move).

        Hidden information: undo never crosses another seat's decision, bot or person.
        Otherwise a person could act, watch how a bot answers from its hidden hand, take
        both back and try again: a peek. Chance and reveals are barriers in both cases.
        """
        if not self.humans():
            raise UndoRefused("no person plays in this game")
        log = self.engine.log
        if not log:
            raise UndoRefused("nothing to take back yet")
        if self.engine.game.hides_information(self.engine.options):
            return self._undo_hidden(by)
        for back in range(1, self.engine.undo_depth() + 1):
            seat = log[-back].seat
            if not self.is_human(seat):
                continue
            if by is not None and seat != by and len(self.humans()) > 1:
                name = self.engine.seat_name(seat)
                raise UndoRefused(f"the last decision was {name}'s: only they can take it back")
            return back
        raise UndoRefused(UNDO_BARRIER)

    def _undo_hidden(self, by: int | None) -> int:
        last = self.engine.log[-1]
        asker = last.seat if by is None else by
        if last.seat != asker or not self.is_human(last.seat):
            name = self.engine.seat_name(last.seat)
            raise UndoRefused(
                f"the last decision was {name}'s: with hidden information, undo never "
                "takes back another seat's decision (a decision of yours can be taken "
                "back until another seat decides after it)"
            )
        if not self.engine.can_undo():
            raise UndoRefused(UNDO_BARRIER)
        return 1

    def can_undo(self, by: int | None = None) -> bool:
        try:
            self._undo_target(by)
        except UndoRefused:
            return False
        return True

    def undo(self, by: int | None = None) -> int:
        """Undo to the last decision a person made; return how many actions went back.

        Bot moves after that decision are undone with it. Nothing changes when undo is
        refused (chance or a reveal in the way, or another person's decision).
        """
        steps = self._undo_target(by)
        for _ in range(steps):
            self.engine.undo()
        self._epoch += 1
        if not self.engine.over:
            self._over_logged = self._over_shown = False
        self.autosave()
        self._tell(lambda listener: listener.undone(steps))
        return steps

    # Saving -------------------------------------------------------------------------

    def record(self) -> GameRecord:
        """The game to save; a finished game's record also says who won (``meta``
        ``"result"``, "Player 1 won"), so a list of saves can show it without a replay."""
        meta: dict[str, Any] = {}
        if self.engine.over:
            try:
                result = self.engine.result
            except Exception:  # the game's result() crashed: saved without it
                result = None
            if result is not None:
                meta["result"] = result_line(result.winners, self.engine.seat_name)
        return self.engine.record(seats=list(self.controllers), meta=meta)

    def autosave(self) -> None:
        """Save after every change. A failing disk is told (``save_failed``), never
        fatal: the game stays in memory and the next save tries again."""
        if self.store is None:
            return
        try:
            self.save_id = self.store.save(self.record(), self.save_id)
        except Exception as exc:
            message = f"autosave failed: {exc}"
            self.last_save_error = message
            self._tell(lambda listener: listener.save_failed(message))
            return
        self.last_save_error = None
        save_id = self.save_id
        self._tell(lambda listener: listener.saved(save_id))

    @classmethod
    def resume(
        cls,
        game: GameDefinition,
        record: GameRecord,
        *,
        save_id: str | None,
        bot_factories: dict[str, BotFactory],
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        store: SaveStore | None = None,
        ui: UserInterface | None = None,
        observers: Iterable[SessionObserver] = (),
    ) -> GameSession:
        """Rebuild a saved game by replaying it, verified against its digest."""
        engine = Engine.from_record(
            game, record, rng_factory=rng_factory, dice_factory=dice_factory
        )
        controllers = list(record.seats) or [HUMAN] * engine.players
        return cls(
            engine,
            controllers,
            make_bots(game, controllers, bot_factories),
            store=store,
            save_id=save_id,
            ui=ui,
            observers=observers,
        )


def result_line(winners: Iterable[int], seat_name: Callable[[int], str]) -> str:
    """Who won, in a few words: "Player 1 won", "North, South won", "nobody won"."""
    names = [seat_name(seat) for seat in winners]
    return f"{', '.join(names)} won" if names else "nobody won"


def automated_seats(
    game: GameDefinition, players: int, options: Mapping[str, str]
) -> frozenset[int]:
    """The seats ``game`` plays itself with these options; none when its hook fails
    (a plugin bug must not stop a game from starting or loading)."""
    try:
        return frozenset(game.automated_seats(players, options))
    except Exception:
        return frozenset()


def make_bots(
    game: GameDefinition, controllers: list[str], factories: dict[str, BotFactory]
) -> dict[int, Bot]:
    bots: dict[int, Bot] = {}
    for seat, kind in enumerate(controllers):
        if kind in (HUMAN, AUTOMATED):
            continue
        if kind not in factories:
            known = ", ".join(sorted([HUMAN, *factories]))
            raise TabletopError(f"unknown seat kind {kind!r} (known: {known})")
        bots[seat] = factories[kind](game)
    return bots


@dataclass(frozen=True)
class SessionStarter:
    """Starts and resumes sessions with the adapters the composition root chose.

    The one way the CLI, ``tabletop simulate`` and the Textual app get a session, so
    that all of them share the same random source, dice, save store, bot kinds and
    observers (the app's log) without knowing where those come from.
    """

    registry: GameRegistry
    rng_factory: RngFactory
    dice_factory: DiceFactory
    store: SaveStore | None = None
    """Where sessions autosave; None: they do not (a simulation saves what it wants)."""
    observer: Callable[[], SessionObserver] | None = None
    """Makes the observer each session gets, a new one per session (the app's log)."""

    def bot_factories(self, game_id: str) -> dict[str, BotFactory]:
        """The bot kinds that may play ``game_id``, by name."""
        return {name: self.registry.bots[name][0] for name in self.registry.bot_kinds(game_id)}

    def _observers(self) -> list[SessionObserver]:
        return [] if self.observer is None else [self.observer()]

    def start(
        self,
        game_id: str,
        *,
        seed: int,
        players: int,
        options: dict[str, str] | None,
        seats: list[str],
        ui: UserInterface | None = None,
        save_id: str | None = None,
    ) -> GameSession:
        """A new game of ``game_id``; ``seats`` holds ``"human"`` or a bot kind per seat.
        ``save_id`` names it (a server's game id, which its log lines then carry)."""
        return GameSession.start(
            self.registry.get(game_id).definition,
            seed=seed,
            players=players,
            options=options,
            controllers=list(seats),
            bot_factories=self.bot_factories(game_id),
            rng_factory=self.rng_factory,
            dice_factory=self.dice_factory,
            store=self.store,
            save_id=save_id,
            ui=ui,
            observers=self._observers(),
        )

    def resume(self, save_id: str, *, ui: UserInterface | None = None) -> GameSession:
        """A saved game, replayed and verified; it autosaves under the same id."""
        if self.store is None:
            raise TabletopError("there is no save store to load games from")
        return self.resume_record(self.store.load(save_id), save_id=save_id, ui=ui)

    def resume_record(
        self, record: GameRecord, *, save_id: str | None = None, ui: UserInterface | None = None
    ) -> GameSession:
        """A game from its record (a server's stored game), replayed and verified
        against its digest; it autosaves to ``store`` under ``save_id`` when both are set."""
        return GameSession.resume(
            self.registry.get(record.game).definition,
            record,
            save_id=save_id,
            bot_factories=self.bot_factories(record.game),
            rng_factory=self.rng_factory,
            dice_factory=self.dice_factory,
            store=self.store,
            ui=ui,
            observers=self._observers(),
        )
