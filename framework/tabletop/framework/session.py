"""A game being played: the engine, who controls each seat, and autosave.

This is the service layer shared by every front end (Textual UI, headless runs, the
CLI): it asks bots for their moves, saves after every action through the SaveStore
port so that nothing a player did is lost, and undoes back to a person's decision.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tabletop.framework.bots import Bot, bot_move
from tabletop.framework.engine import DiceFactory, Engine, RngFactory
from tabletop.framework.errors import PluginFault, TabletopError, UndoRefused
from tabletop.framework.game import Action, Event, GameDefinition
from tabletop.framework.ports import SaveStore
from tabletop.framework.record import GameRecord

HUMAN = "human"


@dataclass(frozen=True)
class Move:
    """One applied action and the events it produced (all of them, unfiltered)."""

    seat: int
    action: Action
    label: str
    events: list[Event]


class GameSession:
    """Plays one game. Seats are ``"human"`` or the name of a registered bot kind."""

    def __init__(
        self,
        engine: Engine,
        controllers: list[str],
        bots: dict[int, Bot],
        *,
        rng_factory: RngFactory,
        store: SaveStore | None = None,
        save_id: str | None = None,
        on_save_error: Callable[[Exception], None] | None = None,
    ) -> None:
        if len(controllers) != engine.players:
            raise TabletopError(
                f"{engine.players} seats need {engine.players} controllers, got {len(controllers)}"
            )
        self.engine = engine
        self.controllers = controllers
        self.bots = bots
        self.store = store
        self.save_id = save_id
        self._rng_factory = rng_factory
        self._on_save_error = on_save_error
        self.last_save_error: str | None = None

    @classmethod
    def start(
        cls,
        game: GameDefinition,
        *,
        seed: int,
        players: int,
        options: dict[str, str] | None,
        controllers: list[str],
        bot_factories: dict[str, Callable[[GameDefinition], Bot]],
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        store: SaveStore | None = None,
    ) -> GameSession:
        engine = Engine(
            game,
            seed=seed,
            players=players,
            options=options,
            rng_factory=rng_factory,
            dice_factory=dice_factory,
        )
        session = cls(
            engine,
            controllers,
            make_bots(game, controllers, bot_factories),
            rng_factory=rng_factory,
            store=store,
        )
        session.autosave()
        return session

    # Who decides --------------------------------------------------------------------

    def is_human(self, seat: int) -> bool:
        return self.controllers[seat] == HUMAN

    @property
    def waiting_for_bot(self) -> bool:
        prompt = self.engine.prompt
        return prompt is not None and not self.is_human(prompt.seat)

    def humans(self) -> list[int]:
        return [seat for seat, kind in enumerate(self.controllers) if kind == HUMAN]

    # Acting -------------------------------------------------------------------------

    def act(self, seat: int, action: Action) -> Move:
        """Apply an action for ``seat`` and autosave. Illegal actions change nothing."""
        prompt = self.engine.prompt
        label = prompt.label_of(action) if prompt is not None else action
        try:
            events = self.engine.act(seat, action)
        except PluginFault:
            self.autosave()  # the state was restored: keep the game as it was
            raise
        self.autosave()
        return Move(seat, action, label, events)

    def bot_choice(self) -> tuple[int, Action] | None:
        """The move the bot due to decide would make, without applying it.

        Split from ``act`` so a UI can think in a worker thread and apply on its own.
        The bot's randomness is seeded by the game seed, seat and move number, so a
        reloaded game plays on exactly as an uninterrupted one would.
        """
        prompt = self.engine.prompt
        if prompt is None or self.is_human(prompt.seat):
            return None
        return prompt.seat, bot_move(self.engine, self.bots[prompt.seat], self._rng_factory)

    def play_bot(self) -> Move | None:
        """Let the bot whose turn it is play one action."""
        choice = self.bot_choice()
        if choice is None:
            return None
        return self.act(*choice)

    def play_bots(self, limit: int = 100_000) -> list[Move]:
        """Let bots play until a human must decide or the game ends."""
        moves: list[Move] = []
        while len(moves) < limit:
            move = self.play_bot()
            if move is None:
                break
            moves.append(move)
        return moves

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
        raise UndoRefused("chance or a reveal came after the last decision")

    def _undo_hidden(self, by: int | None) -> int:
        last = self.engine.log[-1]
        asker = last.seat if by is None else by
        if last.seat != asker or not self.is_human(last.seat):
            name = self.engine.seat_name(last.seat)
            raise UndoRefused(
                f"the last decision was {name}'s: with hidden information, undo never "
                "takes back another seat's decision"
            )
        if not self.engine.can_undo():
            raise UndoRefused("chance or a reveal came after the last decision")
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
        self.autosave()
        return steps

    # Saving -------------------------------------------------------------------------

    def record(self) -> GameRecord:
        return self.engine.record(seats=list(self.controllers))

    def autosave(self) -> None:
        """Save after every change. A failing disk is reported, never fatal: the game
        stays in memory and the next save tries again."""
        if self.store is None:
            return
        try:
            self.save_id = self.store.save(self.record(), self.save_id)
            self.last_save_error = None
        except Exception as exc:
            self.last_save_error = f"autosave failed: {exc}"
            if self._on_save_error is not None:
                self._on_save_error(exc)

    @classmethod
    def resume(
        cls,
        game: GameDefinition,
        record: GameRecord,
        *,
        save_id: str | None,
        bot_factories: dict[str, Callable[[GameDefinition], Bot]],
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        store: SaveStore | None = None,
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
            rng_factory=rng_factory,
            store=store,
            save_id=save_id,
        )


def make_bots(
    game: GameDefinition,
    controllers: list[str],
    factories: dict[str, Callable[[GameDefinition], Bot]],
) -> dict[int, Bot]:
    bots: dict[int, Bot] = {}
    for seat, kind in enumerate(controllers):
        if kind == HUMAN:
            continue
        if kind not in factories:
            known = ", ".join(sorted([HUMAN, *factories]))
            raise TabletopError(f"unknown seat kind {kind!r} (known: {known})")
        bots[seat] = factories[kind](game)
    return bots


def describe_move(engine: Engine, move: Move) -> dict[str, Any]:
    """A loggable summary of a move (for structured logs)."""
    return {
        "game": engine.game.info.id,
        "seat": move.seat,
        "action": move.action,
        "n": len(engine.log),
    }
