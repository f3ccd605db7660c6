"""The server's games, without the network: host, sit, watch, fetch.

Every server game is a framework ``Table`` (``tabletop.framework.table``), the same
master a local game has: each connection is a seat client of it (``Table.join``), sends
the seat protocol's requests (``Table.request``) and is told only what
``seats.seat_update`` builds for its seat. Sessions come from the server's
``SessionStarter`` (new games with the server's secret seed, stored games through
``resume_record``), so they get the app's session log; a ``Keeper`` (a session
observer) checks each action against a ``ShadowGame`` and appends it to the
``GameStore`` before anyone is told of it, and an undo truncates the store the same way.
A change the store refuses (or the shadow does not reach) is taken back by rebuilding
the game from the store (``Table.recover``).

Bots are seats too: they think on the ``Workers`` (lane ``BOTS``, or ``BOT_GAMES`` for
a game nobody plays, so that such games never queue in front of a person's bot) and
their answer comes back as a move through the same checks; nothing here runs inside
another game's request. Games with no person at them are hosted only within ``Limits``.

Seats are opened by **invites**: ``host`` makes one per person's seat, and the first
client to join with it binds the seat to a secret of its own (``bind``): the invite
opens nothing after that, and the host, who saw every invite, holds no key to any seat
(its own token fetches and ends the game, nothing more).

**Memory**: a finished game's answers to its seats (the welcome and the final update of
each seat and of a spectator) are kept in the store when it ends (``results``), and the
game leaves memory once nobody watches it; a later join is answered from those answers
without replaying the game. A game nobody is connected to and no bot of which is due
leaves memory after ``Limits.idle_game_seconds`` (``tick``); the next join replays it.

**Several server processes on one database** (a ``shared`` store, PostgreSQL): the store
lets one writer at a time change a game; each process hears of the others' changes
(``catch_up``) and tells its own seats, an end by the host included; a game's bots are
played by the process that holds the game's **lease** (``GameStore.claim``), renewed by
``tick`` while a bot is due, so when that process dies another takes the game over once
the lease runs out: a game never hangs because one server went away.

Everything a client may ask is decided here, synchronously, so it is tested without
sockets (with ``table.QueuedWorkers``); ``server.py`` only carries messages.
"""

from __future__ import annotations

import json
import logging
import secrets
import threading
import time
import zlib
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

from tabletop.adapters.bots.hint import prepare as prepare_hint
from tabletop.adapters.saves import ShadowGame
from tabletop.adapters.server.limits import LEASE_SECONDS, Limits
from tabletop.adapters.server.store import GameStore
from tabletop.framework.engine import Engine
from tabletop.framework.errors import TabletopError, UnknownGame
from tabletop.framework.game import Result
from tabletop.framework.ports import SessionObserver, Workers
from tabletop.framework.seats import (
    REFUSED,
    SERVER,
    BadMessage,
    Cursor,
    HintAnswer,
    Leave,
    Notice,
    SeatMessage,
    SeatRequest,
    SeatUpdate,
    TableInfo,
    seat_update,
)
from tabletop.framework.seats import Move as SeatMove
from tabletop.framework.session import AUTOMATED, HUMAN, BotTurn, GameSession, Move, SessionStarter
from tabletop.framework.table import Hinter, SeatChannel, SeatLink, Table

_log = logging.getLogger("tabletop.server")

#: Most games kept in memory; a game beyond that with nobody connected and no bot
#: thinking is let go (the store keeps it, and the next hello replays it).
MAX_OPEN_GAMES = 2000
#: Random bytes in a seat or host token (192 bits) and in a game id (96 bits).
TOKEN_BYTES = 24
GAME_ID_BYTES = 12
#: The lane the bots of games nobody plays think on: such games play at the pace its
#: workers allow, and never in front of the bots of a game a person plays (``BOTS``).
BOT_GAMES = "bot-games"
#: The lane games are opened on (a replay from the store may take a second): a join
#: of a long game after a restart never holds up anybody's move.
OPENING = "open"
#: Why a game takes no more moves once its host fetched it before its end.
ENDED_BY_HOST = "the host ended this game"
#: The shortest secret a client may bind an invite to (characters: 24 random bytes
#: in base64 are 32).
MIN_SECRET = 32


class Refused(Exception):
    """A client's request that changes nothing; the message says why, in words."""


class Keeper(SessionObserver):
    """Keeps a server game's store in step with its session: each action is checked
    against the shadow (does replaying it reach the game's digest?) and appended, an
    undo truncates. It is told before the table is (an observer), so nobody hears of
    an action that is not kept; when the store or the shadow refuses, the error goes
    up to the table, which rebuilds the game from the store (``Table.recover``)."""

    def __init__(self, store: GameStore, game_id: str, shadow: Callable[[], ShadowGame]) -> None:
        self.store = store
        self.game_id = game_id
        self._new_shadow = shadow
        self.shadow = shadow()
        self.session: GameSession | None = None
        #: Set while actions another server process already stored are applied here:
        #: they are followed, not appended again.
        self.quiet = False

    def attached(self, session: GameSession) -> None:
        self.session = session
        actions = [(entry.seat, entry.action) for entry in session.engine.log]
        if actions:
            self.shadow.follow(actions, session.engine.digest())

    def moved(self, move: Move) -> None:
        assert self.session is not None
        engine = self.session.engine
        digest = engine.digest()
        self.shadow.step(move.seat, move.action, digest)
        if self.quiet:
            return
        self.store.append(
            self.game_id,
            len(engine.log),
            move.seat,
            move.action,
            digest=digest,
            progress=engine.game.describe(engine.state),
            finished=engine.over,
        )

    def undone(self, steps: int) -> None:
        assert self.session is not None
        engine = self.session.engine
        digest = engine.digest()
        self.store.truncate(
            self.game_id,
            len(engine.log),
            digest=digest,
            progress=engine.game.describe(engine.state),
            finished=engine.over,
        )
        self.shadow = self._new_shadow()  # it keeps no snapshots: start it over
        self.shadow.follow([(entry.seat, entry.action) for entry in engine.log], digest)


class ServerTable(Table):
    """A server game: the framework's table with its game id and keeper."""

    def __init__(
        self,
        session: GameSession,
        *,
        game_id: str,
        keeper: Keeper,
        workers: Workers,
        hinter: Hinter,
        recover: Callable[[Table, BaseException], GameSession],
        on_idle: Callable[[Table], None],
    ) -> None:
        super().__init__(
            session,
            workers=workers,
            table_id=game_id,
            holder=SERVER,
            hinter=hinter,
            recover=recover,
            on_idle=on_idle,
        )
        self.game_id = game_id
        self.keeper = keeper
        #: Set while another server process's moves are applied: this process's bots
        #: leave the next decision to the process that made the move before it.
        self.catching_up = False
        #: Whether the game is over, as the session last said: read without the lock
        #: (the engine itself is read only under it: a prompt is the game's code).
        self.finished = False
        #: Let go of by the hall: nobody may join it any more (a join opens the game
        #: again from the store).
        self.released = False
        #: Told when a move ends the game (not when a finished game is opened).
        self.on_over: Callable[[ServerTable], None] | None = None
        #: Asked before a bot of this game thinks, when several server processes share
        #: the store: whether this one holds the game's lease (plays its bots).
        self.lease: Callable[[], bool] | None = None
        #: A bot is due and another process holds the lease: ``Hall.tick`` asks again.
        self.lease_wanted = False
        #: Until when (``time.monotonic``) this process holds the lease as far as it
        #: knows, and until when it does not ask again after being refused one.
        self.leased_until = 0.0
        self.refused_until = 0.0
        #: Since when nobody has been connected and no bot has been due (None: busy).
        self.quiet_since: float | None = None
        #: The finished game's answers are in the store (``results``).
        self.result_kept = False

    @property
    def abandoned(self) -> bool:
        return self.ended is not None

    @property
    def people(self) -> bool:
        """Whether a person plays a seat of this game."""
        return bool(self.session.humans())

    def bot_thinking(self, turn: BotTurn) -> Any:
        if self.catching_up:
            return None
        if self.lease is not None and not self.lease():
            self.lease_wanted = True  # another process plays this game's bots
            return None
        self.lease_wanted = False
        return super().bot_thinking(turn)

    def bot_due(self) -> bool:
        """Whether a bot's decision is pending (read under the lock)."""
        return self.ended is None and not self.finished and self.session.waiting_for_bot

    def game_over(self, result: Result | None) -> None:
        self.finished = True
        super().game_over(result)
        if self.on_over is not None:
            self.on_over(self)

    def undone(self, steps: int) -> None:
        self.finished = self.session.engine.prompt is None

    def join(
        self, seat: int | None, channel: SeatChannel, *, seen: int = 0, shared: bool = False
    ) -> SeatLink:
        with self.lock:
            if self.released:
                raise _Released
            return super().join(seat, channel, seen=seen, shared=shared)

    def release(self, *, wait: bool = True, finished_only: bool = False) -> bool:
        """Mark the table let go if it is idle (and over or ended, with
        ``finished_only``); whether it was. Nobody joins it after that."""
        if not self.lock.acquire(blocking=wait):
            return False
        try:
            if not self._idle() or (finished_only and not (self.finished or self.abandoned)):
                return False
            self.released = True
            return True
        finally:
            self.lock.release()

    def idle(self, *, wait: bool = True) -> bool:
        """Nobody is connected and no bot is due: the game may leave memory. Without
        ``wait``, a table busy with a change is not idle."""
        if not self.lock.acquire(blocking=wait):
            return False
        try:
            return self._idle()
        finally:
            self.lock.release()

    def _idle(self) -> bool:
        if self.links:
            return False
        return self.finished or self.ended is not None or not self.session.waiting_for_bot


class _Released(Exception):
    """The table was let go while a front end was about to join it: open it again."""


class _Lanes(Workers):
    """Workers with some lanes renamed (a game nobody plays: ``BOTS`` -> ``BOT_GAMES``)."""

    def __init__(self, workers: Workers, renamed: dict[str, str]) -> None:
        self.workers = workers
        self.renamed = renamed

    def submit(
        self,
        lane: str,
        work: Callable[[], Any],
        done: Callable[[Any, BaseException | None], None],
    ) -> None:
        self.workers.submit(self.renamed.get(lane, lane), work, done)


def final_answers(table: ServerTable) -> bytes:
    """What a finished game tells whoever joins it, kept in the store when it ends: the
    welcome, and the whole final update of each seat and of a spectator (built by
    ``seat_update`` like every update), as compressed JSON. Read under the lock."""
    engine = table.engine
    seats: list[int | None] = [*range(engine.players), None]
    body = {
        "info": table.info(None).to_json(),
        "updates": {
            _answer_key(seat): seat_update(engine, seat, Cursor()).to_json() for seat in seats
        },
    }
    return zlib.compress(json.dumps(body, separators=(",", ":")).encode("utf-8"), 6)


def _answer_key(seat: int | None) -> str:
    return "spectator" if seat is None else str(seat)


@dataclass(eq=False)
class StoredLink:
    """A front end at a finished game answered from the store (``StoredEnd``)."""

    table: StoredEnd
    seat: int | None
    channel: SeatChannel

    def send(self, request: SeatRequest) -> bool:
        return self.table.request(self, request)


class StoredEnd:
    """A finished game as its kept answers (``final_answers``): a join is told the
    welcome and the seat's final update (the log after what it has seen), with no
    replay and nothing kept in memory; it takes no request but leaving."""

    def __init__(self, game_id: str, body: bytes) -> None:
        self.game_id = game_id
        try:
            data = json.loads(zlib.decompress(body))
            self.info = data["info"]
            self.updates = data["updates"]
        except (ValueError, KeyError, TypeError, zlib.error):
            raise BadMessage(f"the kept answers of game {game_id} are damaged") from None

    def join(self, seat: int | None, channel: SeatChannel, *, seen: int = 0) -> StoredLink:
        key = _answer_key(seat)
        if key not in self.updates:
            raise Refused(f"there is no seat {seat} at this table")
        info = TableInfo.from_json({**self.info, "seat": seat})
        update = SeatUpdate.from_json(self.updates[key])
        if seen > update.seq:  # it heard of actions that an undo took back
            update = replace(update, rewind=update.seq)
        elif seen > 0:
            update = replace(update, log=tuple(line for line in update.log if line.action > seen))
        channel.deliver(info)
        channel.deliver(update)
        return StoredLink(self, seat, channel)

    def request(self, link: StoredLink, request: SeatRequest) -> bool:
        if isinstance(request, Leave):
            return True
        seq = getattr(request, "seq", None)
        link.channel.deliver(Notice(REFUSED, "the game is over", seq, final=True))
        return False

    def leave(self, link: StoredLink) -> None:
        """Nothing to let go: nothing of the game is in memory."""


@dataclass(frozen=True)
class Hosted:
    game_id: str
    host_token: str
    invites: dict[int, str]
    """Seat -> invite, for every seat a person plays: each works once (``Hall.bind``)."""
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
        sessions: SessionStarter,
        workers: Workers,
        *,
        seed_source: Callable[[], int] = lambda: secrets.randbits(63),
        max_open: int = MAX_OPEN_GAMES,
        limits: Limits | None = None,
        lease_seconds: float = LEASE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        #: Starts and resumes sessions (the server's: no autosave, the session log).
        self.sessions = sessions
        self.registry = sessions.registry
        self.workers = workers
        #: Where a new game's seed comes from: the server's own secret randomness (a
        #: seed known to a player would tell every hidden card to come).
        self.seed_source = seed_source
        self.max_open = max_open
        self.limits = limits or Limits()
        self._tables: OrderedDict[str, ServerTable] = OrderedDict()
        #: Games with no person at them that are playing, and the client that hosted
        #: each ("" when it came back from the store after a restart).
        self._bot_games: dict[str, str] = {}
        #: One lock per game being opened: two hellos for a game not in memory replay
        #: it once.
        self._opening: dict[str, threading.Lock] = {}
        #: Tables let go of under ``_lock``, to close once it is released.
        self._closing: list[ServerTable] = []
        self._lock = threading.Lock()
        #: When each client address hosted its games in the last hour.
        self._hosted_by: dict[str, deque[float]] = {}
        #: This process among those sharing the store: the owner of its bot leases.
        self.owner_id = new_token(GAME_ID_BYTES)
        self.lease_seconds = lease_seconds
        self.clock = clock

    # Hosting ------------------------------------------------------------------------

    def host(
        self,
        game: str,
        *,
        players: int | None = None,
        seats: list[Any] | None = None,
        options: dict[str, Any] | None = None,
        client: str = "",
    ) -> Hosted:
        """A new game: seats are ``"human"`` or a bot kind that plays on the server.
        ``client`` (the address asking) counts against the limits on bot games."""
        if game not in self.registry.games:
            known = ", ".join(sorted(self.registry.games)) or "none"
            raise Refused(f"no game {game!r} on this server (games: {known})")
        info = self.registry.get(game).definition.info
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
        kinds = self.registry.bot_kinds(game)
        controllers = [str(seat) for seat in seats]
        for seat in controllers:
            if seat not in (HUMAN, AUTOMATED) and seat not in kinds:
                known = ", ".join(sorted([HUMAN, *kinds]))
                raise Refused(f"unknown seat kind {seat[:40]!r} (known: {known})")
        self._count_host(client)
        game_id = new_token(GAME_ID_BYTES)
        bots_only = HUMAN not in controllers
        if bots_only:
            self._reserve_bot_game(game_id, client)
        try:
            try:
                session = self.sessions.start(
                    game,
                    seed=self.seed_source(),
                    players=len(controllers),
                    options=options,
                    seats=controllers,
                    save_id=game_id,
                )
            except TabletopError as exc:
                raise Refused(str(exc)) from None
            if not session.humans() and not bots_only:  # every person's seat is automated
                raise Refused("seat a person or a bot: the game plays those seats itself")
            host_token = new_token()
            invites = {seat: new_token() for seat in session.humans()}
            self.store.create(
                game_id,
                session.record(),
                {host_token: None},
                {invite: seat for seat, invite in invites.items()},
            )
        except BaseException:
            with self._lock:
                self._bot_games.pop(game_id, None)
            raise
        self._open(game_id, session)
        engine = session.engine
        return Hosted(game_id, host_token, invites, tuple(engine.seat_names), tuple(controllers))

    def _count_host(self, client: str) -> None:
        """Count a game hosted by ``client`` against its limit per hour, or refuse it:
        one client must not fill the store (an in-process caller, "", is not counted)."""
        limit = self.limits.hosts_per_client_hour
        if not client:
            return
        now = self.clock()
        with self._lock:
            times = self._hosted_by.setdefault(client, deque())
            while times and times[0] <= now - 3600:
                times.popleft()
            if len(times) >= limit:
                raise Refused(
                    f"you have hosted {len(times)} games on this server in the last hour "
                    "(the limit per client): try again later"
                )
            times.append(now)
            for address in [a for a, t in self._hosted_by.items() if not t]:
                del self._hosted_by[address]

    def _reserve_bot_game(self, game_id: str, client: str) -> None:
        """Count a new game with no person at it against the limits, or refuse it."""
        with self._lock:
            playing = self._playing_bot_games()
            if len(playing) >= self.limits.bot_games:
                raise Refused(
                    f"this server already plays {len(playing)} games with no person at them "
                    "(its limit): seat a person, or try again later"
                )
            mine = sum(1 for who in playing.values() if who == client)
            if client and mine >= self.limits.bot_games_per_client:
                raise Refused(
                    f"you already have {mine} games with no person at them on this server "
                    "(the limit per client): seat a person, or wait for one to end"
                )
            self._bot_games[game_id] = client

    def _playing_bot_games(self) -> dict[str, str]:
        """The bot games still playing (under ``_lock``): one that ended is dropped."""
        for game_id in list(self._bot_games):
            table = self._tables.get(game_id)
            if table is not None and (table.finished or table.ended is not None):
                del self._bot_games[game_id]
        return self._bot_games

    def bot_games(self, client: str | None = None) -> int:
        """How many games with no person at them are playing (hosted by ``client``)."""
        with self._lock:
            playing = self._playing_bot_games()
            return sum(1 for who in playing.values() if client is None or who == client)

    # Opening a game -----------------------------------------------------------------

    def _keep(self, game_id: str, session: GameSession) -> Keeper:
        """The keeper of ``session``, observing it from now on."""
        engine = session.engine
        record = engine.record()

        def shadow() -> ShadowGame:
            return ShadowGame.of(
                record, engine.game, self.sessions.rng_factory, self.sessions.dice_factory
            )

        keeper = Keeper(self.store, game_id, shadow)
        session.observe(keeper)
        return keeper

    def _open(self, game_id: str, session: GameSession, *, abandoned: bool = False) -> ServerTable:
        """Hold ``session`` as a table in memory and let its bots play."""
        keeper = self._keep(game_id, session)
        people = bool(session.humans())
        table = ServerTable(
            session,
            game_id=game_id,
            keeper=keeper,
            workers=self.workers if people else _Lanes(self.workers, {Workers.BOTS: BOT_GAMES}),
            hinter=self._hinter(session.engine.game.info.id),
            recover=self._recover,
            on_idle=self._idle,
        )
        if abandoned:
            table.end(ENDED_BY_HOST)
        if self.store.shared:
            table.lease = partial(self._lease, table)
        with self._lock:
            self._tables[game_id] = table
            self._tables.move_to_end(game_id)
            if not people and not table.finished and not abandoned:
                self._bot_games.setdefault(game_id, "")
            self._let_go()
            closing, self._closing = self._closing, []
        for old in closing:  # their sessions end (their logs say so) outside the lock
            self._close(old)
        table.start()
        table.on_over = self._over
        return table

    def _close(self, table: ServerTable) -> None:
        """The table leaves memory: its session ends (its log says so) and another
        process sharing the store may play its bots at once."""
        table.close()
        if self.store.shared and table.leased_until:
            try:
                self.store.drop_lease(table.game_id, self.owner_id)
            except Exception as exc:  # it runs out by itself
                _log.warning("dropping the lease of game %s failed: %s", table.game_id, exc)

    def _over(self, table: ServerTable) -> None:
        """A move ended the game (with the table's lock held): its answers are kept in
        the store and, once nobody watches it, it leaves memory (a game nobody plays
        would stay there for good); on the workers, after this move is told."""
        self.workers.submit(OPENING, partial(self._finished, table.game_id), _ignore)

    def _finished(self, game_id: str) -> None:
        table = self.loaded(game_id)
        if table is not None:
            self._keep_result(table)
            self.release(game_id)

    def _keep_result(self, table: ServerTable) -> None:
        """Keep a finished game's answers (``final_answers``) in the store, once."""
        with table.lock:
            if table.result_kept or not table.finished or table.abandoned:
                return
            body = final_answers(table)
            table.result_kept = True
        try:
            self.store.keep_result(table.game_id, body)
        except Exception as exc:  # joins replay the game instead: slower, no worse
            table.result_kept = False
            _log.warning("keeping the result of game %s failed: %s", table.game_id, exc)

    def _lease(self, table: ServerTable) -> bool:
        """Whether this process plays the table's bots now (called under the table's
        lock before a bot thinks): it holds the game's lease, or takes it. Refused, it
        does not ask the store again before ``tick`` does."""
        now = self.clock()
        if table.leased_until > now:
            return True
        if table.refused_until > now:
            return False
        try:
            held = self.store.claim(table.game_id, self.owner_id, self.lease_seconds)
        except Exception as exc:
            _log.warning("claiming the bots of game %s failed: %s", table.game_id, exc)
            held = False
        if held:  # believed a little less long than the store keeps it
            table.leased_until = now + self.lease_seconds * 0.8
        else:
            table.leased_until = 0.0
            table.refused_until = now + self.lease_seconds / 3
        return held

    def tick(self) -> None:
        """What the server does every few seconds (``Server``'s ticker, on a worker):
        renew the leases of the games whose bots this process plays, let the games
        waiting for another process's lease try again (it may have died), and let go
        of the games nobody has been at for ``Limits.idle_game_seconds``."""
        now = self.clock()
        with self._lock:
            tables = list(self._tables.values())
        renew: list[ServerTable] = []
        wanted: list[ServerTable] = []
        quiet: list[ServerTable] = []
        for table in tables:
            if not table.lock.acquire(blocking=False):
                table.quiet_since = None  # busy with a change: not idle
                continue
            try:
                due = table.bot_due()
                if table.lease is not None and due and table.leased_until > now:
                    renew.append(table)
                if table.lease_wanted:
                    wanted.append(table)
                idle = table._idle() and not (table.finished and not table.result_kept)
            finally:
                table.lock.release()
            if not idle:
                table.quiet_since = None
            elif table.quiet_since is None:
                table.quiet_since = now
            elif now - table.quiet_since >= self.limits.idle_game_seconds:
                quiet.append(table)
        if renew:
            try:
                self.store.renew(self.owner_id, [t.game_id for t in renew], self.lease_seconds)
            except Exception as exc:
                _log.warning("renewing the bot leases failed: %s", exc)
            else:
                for table in renew:
                    table.leased_until = now + self.lease_seconds * 0.8
        for table in wanted:
            table.refused_until = 0.0
            table.lease_wanted = False
            table.start()  # asks for the lease again if a bot is still due
        for table in quiet:
            self.let_go(table.game_id)

    def _hinter(self, game_id: str) -> Hinter:
        """What the table's ``AskHint`` runs: the default search at the seat's decision,
        from its information set only (``bots.hint``, as the local screen's ``?``)."""
        hints = self.registry.hints_for(game_id)

        def hinter(engine: Engine) -> Callable[[], HintAnswer]:
            think = prepare_hint(engine, hints)  # copies the state now, under the lock
            seq = len(engine.log)

            def answer() -> HintAnswer:
                hint = think()
                return HintAnswer(seq, hint.action, tuple(hint.lines()))

            return answer

        return hinter

    def _let_go(self) -> None:
        """Forget the least recently used idle games beyond the limit (under ``_lock``;
        they stay in the store)."""
        excess = len(self._tables) - self.max_open
        for game_id, table in list(self._tables.items()):
            if excess <= 0:
                break
            if table.release(wait=False):
                del self._tables[game_id]
                self._bot_games.pop(game_id, None)
                self._closing.append(table)
                excess -= 1

    def let_go(self, game_id: str) -> bool:
        """Let go of a game nobody is at and no bot of which is due, finished or not
        (the store keeps it; the next join replays it); whether it was let go."""
        table = self.loaded(game_id)
        if table is None or not table.release(wait=False):
            return False
        with self._lock:
            if self._tables.get(game_id) is table:
                del self._tables[game_id]
                self._bot_games.pop(game_id, None)
        self._close(table)
        return True

    def table(self, game_id: str) -> ServerTable:
        """The game, from memory or replayed from the store (after a restart)."""
        with self._lock:
            table = self._tables.get(game_id)
            if table is not None:
                self._tables.move_to_end(game_id)
                return table
            gate = self._opening.setdefault(game_id, threading.Lock())
        try:
            with gate:
                with self._lock:
                    table = self._tables.get(game_id)
                if table is not None:
                    return table
                session, abandoned = self._replay(game_id)
                return self._open(game_id, session, abandoned=abandoned)
        finally:
            with self._lock:
                self._opening.pop(game_id, None)

    def _replay(self, game_id: str) -> tuple[GameSession, bool]:
        """The game's session rebuilt from the store, and whether its host ended it."""
        stored = self.store.load(game_id)
        if stored is None:
            raise Refused("no such game on this server")
        record = stored.record
        try:
            session = self.sessions.resume_record(record, save_id=game_id)
        except UnknownGame:
            raise Refused(f"this server no longer has the game {record.game!r}") from None
        except TabletopError as exc:
            raise Refused(f"this game cannot be opened on this server: {exc}") from None
        if not session.humans():  # nobody can undo: no snapshots to keep
            session.engine.keeps_undo = False
        return session, stored.abandoned

    def _recover(self, table: Table, error: BaseException) -> GameSession:
        """A change could not be kept (the store refused it, or the shadow did not
        reach its digest): the store's copy is the truth. Rebuild the game from it."""
        assert isinstance(table, ServerTable)
        _log.warning(
            "game %s reloaded from the store after %s", table.game_id, type(error).__name__
        )
        session, abandoned = self._replay(table.game_id)
        table.keeper = self._keep(table.game_id, session)
        if abandoned:
            table.end(ENDED_BY_HOST)
        return session

    def _idle(self, table: Table) -> None:
        assert isinstance(table, ServerTable)
        self.release(table.game_id)

    def loaded(self, game_id: str) -> ServerTable | None:
        """The game if this server holds it in memory now."""
        with self._lock:
            return self._tables.get(game_id)

    def release(self, game_id: str) -> None:
        """Let go of a finished or ended game once nobody is connected to it: its
        history (about 1 MB for a long game) need not stay in memory; the store keeps
        it, and a later hello or fetch replays it."""
        table = self.loaded(game_id)
        if table is None:
            return
        if table.finished and not table.result_kept:
            self._keep_result(table)  # a finished game opened by a join: once
        if not table.release(finished_only=True):
            return
        with self._lock:
            if self._tables.get(game_id) is table:
                del self._tables[game_id]
                self._bot_games.pop(game_id, None)
        self._close(table)  # the session ends (its log says so); the store keeps the game

    def open_games(self) -> int:
        with self._lock:
            return len(self._tables)

    # Sitting ------------------------------------------------------------------------

    def seat(self, token: str, channel: SeatChannel, *, seen: int = 0) -> SeatLink | StoredLink:
        """Sit a front end at the token's seat (``Table.join``), opening the game if
        it is not in memory; the link's ``table`` is the game (a finished game not in
        memory: its kept answers, ``StoredEnd``)."""
        owner = self._owner(token)
        return self._join(owner[0], owner[1], channel, seen)

    def seat_at(
        self, game_id: str, seat: int, channel: SeatChannel, *, seen: int = 0
    ) -> SeatLink | StoredLink:
        """Sit a front end at a seat ``resolve`` found."""
        return self._join(game_id, seat, channel, seen)

    def spectate(
        self, game_id: str, channel: SeatChannel, *, seen: int = 0
    ) -> SeatLink | StoredLink:
        """Sit a spectator at the game (public view only), opening it if need be."""
        return self._join(game_id, None, channel, seen)

    def bind(self, invite: str, secret: str) -> tuple[str, int]:
        """Use an invite: its seat is opened by ``secret`` from now on (the joining
        client made it and keeps it), and the invite by nothing. (game id, seat)."""
        if len(secret) < MIN_SECRET:
            raise Refused(f"a seat's secret has at least {MIN_SECRET} characters")
        try:
            bound = self.store.bind(invite, secret)
        except TabletopError:
            raise
        except Exception as exc:  # the secret is taken (a clash): nothing was used
            raise Refused(f"this secret cannot be used ({type(exc).__name__})") from None
        if bound is None:
            raise Refused(
                "unknown token, or an invite already used (an invite works once: the seat "
                "belongs to whoever joined with it first)"
            )
        return bound

    def resolve(self, token: str, secret: str | None = None) -> tuple[str, int, bool]:
        """(game id, seat, whether the seat is opened by ``secret`` now) for a hello:
        the secret when it already opens a seat, else the token (a seat's secret, or
        a token of a game hosted before invites), else the token as an invite, bound
        to ``secret`` now. The host's token opens no seat."""
        if secret is not None:
            owner = self.store.owner(secret)
            if owner is not None and owner[1] is not None:
                return owner[0], owner[1], True
        owner = self.store.owner(token)
        if owner is not None:
            game_id, seat = owner
            if seat is None:
                raise Refused("this is the host's token, not a seat's: join with a seat's invite")
            return game_id, seat, False
        if secret is None:
            if self.store.invited(token) is not None:
                raise Refused(
                    "this is an invite: the first client to join with it binds the seat to "
                    "a secret of its own, and this one sent none (join with tabletop join)"
                )
            raise Refused("unknown token")
        game_id, seat = self.bind(token, secret)
        return game_id, seat, True

    def _join(
        self, game_id: str, seat: int | None, channel: SeatChannel, seen: int
    ) -> SeatLink | StoredLink:
        while True:
            if self.loaded(game_id) is None:
                stored = self._stored_end(game_id)
                if stored is not None:
                    return stored.join(seat, channel, seen=seen)
            table = self.table(game_id)
            try:
                return table.join(seat, channel, seen=seen)
            except _Released:  # let go just now: the next lookup opens it again
                with self._lock:
                    if self._tables.get(game_id) is table:
                        del self._tables[game_id]

    def _stored_end(self, game_id: str) -> StoredEnd | None:
        """The finished game's kept answers, or None (not finished, or kept before
        answers were: the game is replayed once, and its answers kept then)."""
        body = self.store.result(game_id)
        if body is None:
            return None
        try:
            return StoredEnd(game_id, body)
        except BadMessage as exc:
            _log.warning("%s: the game is replayed instead", exc)
            return None

    def _owner(self, token: str) -> tuple[str, int]:
        game_id, seat, _ = self.resolve(token)
        return game_id, seat

    def sit(self, token: str) -> tuple[ServerTable, int]:
        """The game and seat a seat token opens. A host token is no seat."""
        game_id, seat = self._owner(token)
        return self.table(game_id), seat

    def watch(self, game_id: str) -> ServerTable:
        """The game a spectator watches by its id (it is told the public view only)."""
        return self.table(game_id)

    def catch_up(self, table: ServerTable) -> int:
        """Apply the actions another server process sharing the store kept since this
        one last moved the game, telling this process's seats; return how many (0:
        nothing new). A store that holds fewer (an undo there), or an action that does
        not apply, rebuilds the game from the store."""
        with table.lock:
            engine = table.engine
            kept, ended = self.store.status(table.game_id)
            if ended:  # its host ended it through another process: every seat is told
                table.end(ENDED_BY_HOST)
                return 0
            newer = self.store.actions_after(table.game_id, len(engine.log))
            if not newer:
                if kept < len(engine.log):
                    table.reload(RuntimeError("another server process took actions back"))
                return 0
            table.keeper.quiet = table.catching_up = True
            try:
                for seat, action in newer:
                    link = SeatLink(table, seat, _Quiet(), bot=True)
                    if not table.request(link, SeatMove(len(table.engine.log), action)):
                        table.reload(RuntimeError("another server process's move did not apply"))
                        break
            finally:
                table.keeper.quiet = table.catching_up = False
            table.start()  # a bot may be due: played here if this process takes the lease
            return len(newer)

    # Fetching -----------------------------------------------------------------------

    def fetch(self, game_id: str, token: str | None) -> dict[str, Any]:
        """The game as a save (``GameRecord.to_json``). A finished game: for anyone who
        knows its id. An unfinished one only for its host, and fetching it ends it (its
        seed tells every secret still to come, so nobody may play on with it known):
        every seat is told."""
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
            table = self.loaded(game_id)
            if table is None:
                self.store.abandon(game_id)
            else:
                with table.lock:  # no move is kept between the end and the record
                    table.end(ENDED_BY_HOST)
                    self.store.abandon(game_id)
            stored = self.store.load(game_id) or stored
        return stored.record.to_json()


def _ignore(result: Any, error: BaseException | None) -> None:
    """Nobody waits for a release: a failed one leaves the game in memory, no more."""
    if error is not None:
        _log.warning("releasing a finished game failed: %s", type(error).__name__)


class _Quiet:
    """The channel of a move another server process made: nobody here needs its news."""

    def deliver(self, message: SeatMessage) -> None:
        pass
