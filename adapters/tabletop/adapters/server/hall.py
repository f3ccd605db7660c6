"""The server's games, without the network: host, sit, move, hint, fetch.

Everything a client may ask is decided here, synchronously, so it is tested without
sockets; ``server.py`` only carries messages. Each game is a ``GameSession`` (the same
service layer every front end uses): the seats people play are ``"human"`` and answered
from the wire, the seats bots play on the server are played by ``GameSession.run``
through ``bot_move``, as in ``tabletop simulate``. Every action is appended to the store
(an observer of the session) before anyone is told of it.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tabletop.adapters.bots.hint import Hint
from tabletop.adapters.bots.hint import prepare as prepare_hint
from tabletop.adapters.server.store import GameStore
from tabletop.framework.engine import DiceFactory, Engine, RngFactory
from tabletop.framework.errors import PluginFault, TabletopError
from tabletop.framework.game import Prompt
from tabletop.framework.plugins import GameRegistry
from tabletop.framework.ports import SessionObserver, UserInterface
from tabletop.framework.session import AUTOMATED, HUMAN, GameSession, Move, make_bots

#: Most games kept in memory; a game beyond that with nobody connected is let go (the
#: store keeps it, and the next ``hello`` replays it).
MAX_OPEN_GAMES = 2000
#: Random bytes in a seat or host token (192 bits) and in a game id (96 bits).
TOKEN_BYTES = 24
GAME_ID_BYTES = 12


class Refused(Exception):
    """A client's request that changes nothing; the message says why, in words.
    ``final``: the game takes no more moves (over, or ended by its host)."""

    def __init__(self, reason: str, *, final: bool = False, changed: bool = False) -> None:
        super().__init__(reason)
        self.final = final
        #: The game was reloaded meanwhile: every seat should be told where it stands.
        self.changed = changed


class _Remote(UserInterface):
    """The session's UI port on the server: people answer over the wire, later."""

    def ask(self, seat: int, view: dict[str, Any], prompt: Any) -> None:
        return None


class _Keeper(SessionObserver):
    """Appends each action to the store as the session applies it (the session tells
    its observers right after the engine changed, before anything else is told)."""

    def __init__(self, store: GameStore, game_id: str) -> None:
        self.store = store
        self.game_id = game_id
        self.session: GameSession | None = None
        #: Set while actions another server process already stored are applied here.
        self.quiet = False

    def attached(self, session: GameSession) -> None:
        self.session = session

    def moved(self, move: Move) -> None:
        assert self.session is not None
        if self.quiet:
            return
        engine = self.session.engine
        self.store.append(
            self.game_id,
            len(engine.log),
            move.seat,
            move.action,
            digest=engine.digest(),
            progress=engine.game.describe(engine.state),
            finished=engine.over,
        )


@dataclass
class Table:
    """One game the server holds: its session, and whether its host ended it."""

    game_id: str
    session: GameSession
    abandoned: bool = False
    keeper: _Keeper | None = None
    #: Serialises changes to this game (moves come from several connections).
    lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def engine(self) -> Engine:
        return self.session.engine


@dataclass(frozen=True)
class Hosted:
    game_id: str
    host_token: str
    tokens: dict[int, str]
    """Seat -> invite token, for every seat a person plays."""
    seat_names: tuple[str, ...] = ()
    controllers: tuple[str, ...] = ()


def new_token(size: int = TOKEN_BYTES) -> str:
    """A random URL-safe word of ``size`` bytes that never begins with "-": a player
    types it as a command's argument, where a leading dash reads as an option."""
    while True:
        token = secrets.token_urlsafe(size)
        if not token.startswith("-"):
            return token


class Hall:
    """All the games of one server, kept in a ``GameStore``."""

    def __init__(
        self,
        store: GameStore,
        registry: GameRegistry,
        *,
        rng_factory: RngFactory,
        dice_factory: DiceFactory,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
        max_open: int = MAX_OPEN_GAMES,
        in_use: Callable[[str], bool] = lambda game_id: False,
    ) -> None:
        self.store = store
        self.registry = registry
        self.rng_factory = rng_factory
        self.dice_factory = dice_factory
        #: Where a new game's seed comes from: the server's own secret randomness (a
        #: seed known to a player would tell every hidden card to come).
        self.seed_source = seed_source
        self.max_open = max_open
        #: Whether anyone is connected to a game (such a game is never let go).
        self.in_use = in_use
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()

    # Hosting ------------------------------------------------------------------------

    def host(
        self,
        game: str,
        *,
        players: int | None = None,
        seats: list[Any] | None = None,
        options: dict[str, Any] | None = None,
    ) -> Hosted:
        """A new game: seats are ``"human"`` or a bot kind that plays on the server."""
        if game not in self.registry.games:
            known = ", ".join(sorted(self.registry.games)) or "none"
            raise Refused(f"no game {game!r} on this server (games: {known})")
        definition = self.registry.get(game).definition
        info = definition.info
        if seats is None:
            count = info.min_players if players is None else players
            if not info.min_players <= count <= info.max_players:
                raise Refused(f"{game} takes {info.min_players}-{info.max_players} players")
            seats = [HUMAN] * count
        if not all(isinstance(seat, str) for seat in seats):
            raise Refused("seats are words: human or a bot kind")
        if players is not None and players != len(seats):
            raise Refused(f"{players} players but {len(seats)} seats given")
        if not info.min_players <= len(seats) <= info.max_players:
            raise Refused(f"{game} takes {info.min_players}-{info.max_players} players")
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in (options or {}).items()):
            raise Refused("options map names to words")
        factories = {name: self.registry.bots[name][0] for name in self.registry.bot_kinds(game)}
        controllers = [str(seat) for seat in seats]
        for seat in controllers:
            if seat not in (HUMAN, AUTOMATED) and seat not in factories:
                known = ", ".join(sorted([HUMAN, *factories]))
                raise Refused(f"unknown seat kind {seat[:40]!r} (known: {known})")
        try:
            engine = Engine(
                definition,
                seed=self.seed_source(),
                players=len(controllers),
                options=options,
                rng_factory=self.rng_factory,
                dice_factory=self.dice_factory,
                undo=False,
            )
            session = GameSession(
                engine, controllers, make_bots(definition, controllers, factories)
            )
        except TabletopError as exc:
            raise Refused(str(exc)) from None
        game_id = new_token(GAME_ID_BYTES)
        host_token = new_token()
        tokens = {seat: new_token() for seat in session.humans()}
        record = session.record()
        owners: dict[str, int | None] = {host_token: None}
        owners.update({token: seat for seat, token in tokens.items()})
        self.store.create(game_id, record, owners)
        table = self._open(game_id, session)
        with table.lock:
            self._run_bots(table)
        return Hosted(game_id, host_token, tokens, tuple(engine.seat_names), tuple(controllers))

    def _wire(self, game_id: str, session: GameSession) -> _Keeper:
        keeper = _Keeper(self.store, game_id)
        session.observe(keeper)
        session.attach(_Remote())
        return keeper

    def _open(self, game_id: str, session: GameSession) -> Table:
        table = Table(game_id, session)
        table.keeper = self._wire(game_id, session)
        with self._lock:
            self._tables[game_id] = table
            self._tables.move_to_end(game_id)
            self._let_go()
        return table

    def _let_go(self) -> None:
        """Forget the least recently used games nobody is connected to, beyond the
        limit (they stay in the store)."""
        excess = len(self._tables) - self.max_open
        for game_id in list(self._tables):
            if excess <= 0:
                break
            if not self.in_use(game_id):
                del self._tables[game_id]
                excess -= 1

    # Sitting ------------------------------------------------------------------------

    def table(self, game_id: str) -> Table:
        """The game, from memory or replayed from the store (after a restart)."""
        with self._lock:
            table = self._tables.get(game_id)
            if table is not None:
                self._tables.move_to_end(game_id)
                return table
        session, abandoned = self._replay(game_id)
        with self._lock:
            raced = self._tables.get(game_id)
        if raced is not None:
            return raced
        table = self._open(game_id, session)
        table.abandoned = abandoned
        with table.lock:
            self._run_bots(table)  # a server killed while its bots played goes on
        return table

    def _replay(self, game_id: str) -> tuple[GameSession, bool]:
        """The game's session rebuilt from the store, and whether its host ended it."""
        stored = self.store.load(game_id)
        if stored is None:
            raise Refused("no such game on this server")
        record = stored.record
        if record.game not in self.registry.games:
            raise Refused(f"this server no longer has the game {record.game!r}")
        definition = self.registry.get(record.game).definition
        factories = {
            name: self.registry.bots[name][0] for name in self.registry.bot_kinds(record.game)
        }
        try:
            engine = Engine.from_record(
                definition, record, rng_factory=self.rng_factory, dice_factory=self.dice_factory
            )
            engine.keeps_undo = False
            controllers = list(record.seats) or [HUMAN] * engine.players
            session = GameSession(
                engine, controllers, make_bots(definition, controllers, factories)
            )
        except TabletopError as exc:
            raise Refused(f"this game cannot be opened on this server: {exc}") from None
        return session, stored.abandoned

    def _reload(self, table: Table) -> None:
        """Rebuild ``table`` from the store, in place (connections keep the object);
        forget it when even that fails (the next hello tries again)."""
        try:
            session, abandoned = self._replay(table.game_id)
        except Exception:
            self._forget(table)
            return
        table.keeper = self._wire(table.game_id, session)
        table.session, table.abandoned = session, abandoned

    def loaded(self, game_id: str) -> Table | None:
        """The game if this server holds it in memory now."""
        with self._lock:
            return self._tables.get(game_id)

    def catch_up(self, table: Table) -> int:
        """Apply the actions another server process sharing the store has kept since
        this one last moved the game; return how many (0: nothing new)."""
        with table.lock:
            engine, keeper = table.engine, table.keeper
            assert keeper is not None
            newer = self.store.actions_after(table.game_id, len(engine.log))
            keeper.quiet = True
            try:
                for seat, action in newer:
                    table.session.act(seat, action)
            except Exception:
                self._reload(table)
            finally:
                keeper.quiet = False
            return len(newer)

    def sit(self, token: str) -> tuple[Table, int]:
        """The game and seat a seat token opens. A host token is no seat."""
        owner = self.store.owner(token)
        if owner is None:
            raise Refused("unknown token")
        game_id, seat = owner
        if seat is None:
            raise Refused("this is the host's token, not a seat's: join with a seat's token")
        return self.table(game_id), seat

    # Playing ------------------------------------------------------------------------

    def move(self, table: Table, seat: int, seq: int, action: str) -> list[Move]:
        """Apply ``seat``'s answer to the prompt of position ``seq``, then let the
        server's bots play until a person is due; return every move made. Refused
        (nothing changes) when it is not this seat's decision or position."""
        with table.lock:
            prompt = self._due(table, seat, seq, "move")
            if action not in prompt.actions():
                raise Refused(f"{action[:60]!r} is not one of your choices now")
            try:
                moves = [table.session.act(seat, action)]
            except PluginFault:  # the engine put the game back as it was
                raise Refused("the game's code failed on this move; nothing changed") from None
            except Exception as exc:  # the store refused: its copy is the truth
                self._reload(table)
                if len(table.engine.log) > seq:  # another server process moved first
                    raise Refused(
                        f"stale move: the game moved on to position {len(table.engine.log)}",
                        changed=True,
                    ) from None
                raise Refused(
                    f"the server could not keep this move ({type(exc).__name__}); try again",
                    changed=True,
                ) from None
            try:
                moves += self._run_bots(table)
            except Exception:  # a bot or the store failed: its copy is the truth
                self._reload(table)
            return moves

    def hint(self, table: Table, seat: int, seq: int) -> Callable[[], Hint]:
        """The search for a hint at ``seat``'s decision of position ``seq``, ready to
        think outside the lock (``hint.prepare`` copies the state now): from that seat's
        information set only, so it tells nothing the seat cannot see. Refused when the
        decision is not that seat's, or not at that position any more."""
        with table.lock:
            self._due(table, seat, seq, "hint")
            return prepare_hint(table.engine, self.registry.hints_for(table.engine.game.info.id))

    @staticmethod
    def _due(table: Table, seat: int, seq: int, what: str) -> Prompt:
        """The prompt a ``what`` (a move, a hint) from ``seat`` for position ``seq``
        is about, under the table's lock. Refused when the game is over or ended, the
        position has passed, or the decision is another seat's."""
        engine = table.engine
        if table.abandoned:
            raise Refused("the host ended this game", final=True)
        prompt = engine.prompt
        if prompt is None:
            raise Refused("the game is over", final=True)
        if seq != len(engine.log):
            raise Refused(
                f"stale {what}: it answers position {seq}, the game is at {len(engine.log)}"
            )
        if prompt.seat != seat:
            raise Refused(
                f"it is {engine.seat_name(prompt.seat)}'s decision, not {engine.seat_name(seat)}'s"
            )
        return prompt

    def _run_bots(self, table: Table) -> list[Move]:
        if table.abandoned:
            return []
        return table.session.run()

    def _forget(self, table: Table) -> None:
        with self._lock:
            if self._tables.get(table.game_id) is table:
                del self._tables[table.game_id]

    def release(self, game_id: str) -> None:
        """Let go of a finished or ended game once nobody is connected to it: its
        history (about 1 MB for a long game) need not stay in memory; the store keeps
        it, and a later hello or fetch replays it."""
        table = self.loaded(game_id)
        if table is not None and (table.engine.over or table.abandoned):
            self._forget(table)

    def open_games(self) -> int:
        with self._lock:
            return len(self._tables)

    # Fetching -----------------------------------------------------------------------

    def fetch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The game as a save (``GameRecord.to_json``). A finished game: for anyone who
        knows its id. An unfinished one only for its host, and fetching it ends it (its
        seed tells every secret still to come, so nobody may play on with it known)."""
        stored = self.store.load(game_id)
        if stored is None:
            raise Refused("no such game on this server")
        if not stored.record.finished:
            owner = None if token is None else self.store.owner(token)
            if owner != (game_id, None):
                raise Refused(
                    "the game is not over: only its host may fetch it now (with the host "
                    "token), and that ends it"
                )
            if not stored.abandoned:
                self.store.abandon(game_id)
                with self._lock:
                    table = self._tables.get(game_id)
                if table is not None:
                    with table.lock:
                        table.abandoned = True
        return stored.record.to_json()
