"""``tabletop serve``: the asyncio WebSocket server that carries the hall's messages.

Each connection is one client: it sits at a seat (``hello``) or watches a game
(``watch``) and then speaks the seat protocol with that game's table, or it hosts or
fetches a game. The event loop only carries messages: it never takes a game's lock
and never runs a game's code. A seat's request runs on the workers (lane ``MOVES``;
opening a game, which may replay it from the store, on ``hall.OPENING``); bots think
on their own lanes and move like any seat. What a table tells a connection is built on
the thread that made the change (``seats.seat_update``, by the table), turned into
text there, and queued for that connection's sender task with
``loop.call_soon_threadsafe``: a slow client holds up nobody but itself.

Every client message is size-limited (the WebSocket frame limit) and rate-limited (a
token bucket per connection); a client that sends garbage, floods or presents an
unknown token is told why and disconnected.

No client may lock the others out (``Limits``): connections are counted from the
moment they are accepted to the moment they close, in all and per client address, and
one beyond either limit is refused during its handshake (HTTP 503, saying why), or cut
at once when a client keeps opening them regardless; a connection that has not sat at
a table must speak every ``idle_seconds``; and a seat has one live connection: a new
one for the same seat replaces the old, which is told why before it is closed (it does
not come back by itself), so a thousand connections on one seat cost one seat's
updates.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import logging
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request, Response

from tabletop.adapters.server.hall import OPENING, Hall, Refused, StoredLink
from tabletop.adapters.server.limits import Limits
from tabletop.adapters.server.protocol import (
    MAX_CLIENT_MESSAGE,
    BadMessage,
    decode,
    dump,
    encode,
    server_message,
)
from tabletop.framework.ports import Busy, Workers
from tabletop.framework.seats import (
    REFUSED,
    Leave,
    Move,
    Notice,
    SeatMessage,
    SeatRequest,
    SeatUpdate,
    request_from_json,
)
from tabletop.framework.table import SeatLink

_log = logging.getLogger("tabletop.server")

#: A connection may send this many messages a second on average, in bursts of BURST.
RATE = 20.0
BURST = 40
#: Seconds a new connection has to say what it wants (``Limits.idle_seconds`` by
#: default: the same limit applies to every message before the connection sits).
FIRST_MESSAGE_SECONDS = 30.0
#: Seconds between two of the hall's ticks (leases renewed, idle games let go).
TICK_SECONDS = 3.0
#: What a connection replaced by a newer one for its seat is told.
REPLACED = (
    "this seat was opened by another connection, which plays it now (only the newest "
    "connection to a seat is kept)"
)
#: Seconds an update may wait for a client to read it before that client is cut off.
SEND_SECONDS = 10.0
#: WebSocket close codes: a policy violation (garbage, flooding, a bad token), and a
#: normal end (the seat left).
POLICY = 1008
NORMAL = 1000


class TryAgain(Refused):
    """The workers' lane is full: nothing was done, and the same request may well work
    in a moment (a thousand seats reconnecting at once after a restart). A hello refused
    so is told ``again``, and its client tries again by itself instead of giving up."""


class Bucket:
    """A token bucket: ``take`` is False once the client sends faster than allowed."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic):
        self.rate, self.burst, self.clock = rate, float(burst), clock
        self.tokens = float(burst)
        self.at = clock()

    def take(self) -> bool:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def refund(self) -> None:
        """Give back the last message's token: an accepted move costs nothing, since a
        seat can only move as fast as the game gives it prompts (a bot in a long chain
        of its own decisions moves at once, again and again)."""
        self.tokens = min(self.burst, self.tokens + 1)


class Channel:
    """A connection's end at a table (the table's ``SeatChannel``): each message the
    table delivers (with its lock held, on the thread that made the change) becomes
    text there and is queued for the connection's sender task on the event loop.

    It also sends the ``ack`` of the connection's move: just before the first update
    that tells that move (its choice line, made by this seat), so a client hears that
    its move is kept before what followed it."""

    def __init__(self, loop: asyncio.AbstractEventLoop, seat: int | None = None) -> None:
        self.loop = loop
        self.seat = seat
        #: Text frames to send; a close code (an int) closes the connection.
        self.outbox: asyncio.Queue[str | int] = asyncio.Queue()
        self._pending: int | None = None
        self._lock = threading.Lock()

    def expect(self, seq: int | None) -> None:
        """The connection sent a move answering position ``seq`` (None: none now)."""
        with self._lock:
            self._pending = seq

    def kept(self, seq: int) -> None:
        """The table kept the move of position ``seq``: ack it if no update did."""
        with self._lock:
            if self._pending != seq:
                return
            self._pending = None
        self.put(dump({"type": "ack", "seq": seq}))

    def deliver(self, message: SeatMessage) -> None:
        text = encode(message)
        acked: int | None = None
        with self._lock:
            pending = self._pending
            if pending is not None:
                if isinstance(message, SeatUpdate) and self._tells(message, pending):
                    acked, self._pending = pending, None
                elif (
                    isinstance(message, Notice)
                    and message.topic == REFUSED
                    and message.seq == pending
                ):
                    self._pending = None
        if acked is not None:
            self.put(dump({"type": "ack", "seq": acked}))
        self.put(text)

    def _tells(self, update: SeatUpdate, pending: int) -> bool:
        return any(
            line.action == pending + 1 and line.event is None and line.seat == self.seat
            for line in update.log
        )

    def put(self, text: str | int) -> None:
        """Queue a frame (or a close code) for the sender task, from any thread."""
        with contextlib.suppress(RuntimeError):  # the loop is closed: the server stops
            self.loop.call_soon_threadsafe(self.outbox.put_nowait, text)


class _Sitting(Protocol):
    """What a connection sits at: a game's table, or a finished game's kept answers."""

    def request(self, link: Any, request: SeatRequest) -> bool: ...
    def leave(self, link: Any) -> None: ...


@dataclass
class _Seated:
    """A connection sitting at a table: its link and its channel, and for a seat the
    key of its one live connection (game id, seat)."""

    table: _Sitting
    link: SeatLink | StoredLink
    channel: Channel
    key: tuple[str, int] | None = None
    ws: ServerConnection | None = None


class Gate:
    """Counts the open connections, in all and per client address, from the moment one
    is accepted to the moment it closes (``GatedConnection``), and says why a new one
    is refused. Touched on the event loop only."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.total = 0
        self.by_address: Counter[str] = Counter()
        #: How many were refused, and cut at once without a word.
        self.refused = 0
        self.cut = 0

    def enter(self, address: str) -> tuple[str | None, bool]:
        """Count a new connection: (why it is refused, or None; whether to cut it at
        once, a client that goes on opening connections past its refusals)."""
        self.total += 1
        self.by_address[address] += 1
        limits = self.limits
        mine = self.by_address[address]
        if mine > 2 * limits.connections_per_client or self.total > (
            limits.connections + limits.connections_per_client
        ):
            self.cut += 1
            return "cut", True
        if mine > limits.connections_per_client:
            self.refused += 1
            return (
                f"too many connections from your address (at most "
                f"{limits.connections_per_client} at once): close some and try again",
                False,
            )
        if self.total > limits.connections:
            self.refused += 1
            return "the server is full: try again in a moment", False
        return None, False

    def leave(self, address: str) -> None:
        self.total -= 1
        self.by_address[address] -= 1
        if self.by_address[address] <= 0:
            del self.by_address[address]


def gated(gate: Gate) -> type[ServerConnection]:
    """The connection class ``serve`` makes for each accepted socket, counting it in
    ``gate`` until it is lost."""

    class GatedConnection(ServerConnection):
        refusal: str | None = None
        address = ""

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            peer = transport.get_extra_info("peername")
            self.address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
            self.refusal, cut = gate.enter(self.address)
            super().connection_made(transport)
            if cut and isinstance(transport, asyncio.WriteTransport):
                transport.abort()

        def connection_lost(self, exc: Exception | None) -> None:
            gate.leave(self.address)
            super().connection_lost(exc)

    return GatedConnection


def _refuse_over_limit(connection: ServerConnection, request: Request) -> Response | None:
    """The handshake of a connection beyond the limits: HTTP 503 and the reason."""
    refusal = getattr(connection, "refusal", None)
    if refusal is None:
        return None
    return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, refusal + "\n")


class Server:
    """The hall on the wire."""

    def __init__(
        self,
        hall: Hall,
        *,
        workers: Workers | None = None,
        rate: float = RATE,
        burst: int = BURST,
        first_message_seconds: float | None = None,
        tick_seconds: float = TICK_SECONDS,
    ) -> None:
        self.hall = hall
        self.workers = workers or hall.workers
        self.rate = rate
        self.burst = burst
        self.limits = hall.limits
        #: How long a connection may stay silent before it sits at a table.
        self.idle_seconds = (
            self.limits.idle_seconds if first_message_seconds is None else first_message_seconds
        )
        self.tick_seconds = min(tick_seconds, hall.lease_seconds / 3)
        self.gate = Gate(self.limits)
        #: The one live connection of each seat (game id, seat).
        self.live: dict[tuple[str, int], _Seated] = {}
        #: Catching up with another server process's moves (cancelled when serving stops).
        self._catching_up: set[asyncio.Task[None]] = set()

    async def _off_loop(self, lane: str, work: Callable[[], Any]) -> Any:
        """Run ``work`` on the workers' ``lane`` and wait for it without blocking the
        loop; its error is raised here. A full lane is a refusal in words."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()

        def settle(result: Any, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(result)

        def done(result: Any, error: BaseException | None) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody waits
                loop.call_soon_threadsafe(settle, result, error)

        try:
            self.workers.submit(lane, work, done)
        except Busy:
            raise TryAgain("the server is busy: try again in a moment") from None
        return await future

    async def handler(self, ws: ServerConnection) -> None:
        bucket = Bucket(self.rate, self.burst)
        seated: _Seated | None = None
        sender: asyncio.Task[None] | None = None
        message: dict[str, Any] = {}
        request: SeatRequest | None = None
        try:
            while True:
                try:
                    timeout = self.idle_seconds if seated is None else None
                    raw = await asyncio.wait_for(ws.recv(), timeout)
                except TimeoutError:
                    await self._error(
                        ws, f"nothing asked for {self.idle_seconds:g} s: say hello or watch"
                    )
                    return
                if not bucket.take():
                    await self._error(ws, "too many messages: slow down", seated)
                    return
                try:
                    data = decode(raw)
                    if seated is None:
                        message = server_message(data)
                    elif data.get("type") in ("hello", "watch"):
                        await self._error(ws, "this connection already sits at a table", seated)
                        return
                    else:
                        request = request_from_json(data)
                except BadMessage as exc:
                    await self._error(ws, str(exc), seated)
                    return
                if seated is not None and request is not None:
                    if await self._request(seated, request):
                        bucket.refund()
                    if isinstance(request, Leave):
                        await self._close(ws, seated)
                        return
                    continue
                kind = message["type"]
                if kind in ("hello", "watch"):
                    seated = await self._sit(ws, message)
                    if seated is None:
                        return
                    sender = asyncio.create_task(self._sender(ws, seated.channel))
                    if message.get("peek"):  # told where the game stands: hang up
                        await self._close(ws, seated)
                        return
                    self._keep_live(seated)
                elif kind == "host":
                    await self._host(ws, message)
                elif kind == "fetch":
                    await self._fetch(ws, message)
        except ConnectionClosed:
            pass
        except Exception as exc:  # a bug or a failing store: say so, keep serving others
            _log.exception("request failed")
            await self._error(
                ws, f"the server failed on this request ({type(exc).__name__})", seated
            )
        finally:
            if seated is not None:
                if seated.key is not None and self.live.get(seated.key) is seated:
                    del self.live[seated.key]
                await self._leave(seated)
            if sender is not None:
                sender.cancel()
                await asyncio.gather(sender, return_exceptions=True)

    async def _error(
        self,
        ws: ServerConnection,
        reason: str,
        seated: _Seated | None = None,
        *,
        again: bool = False,
    ) -> None:
        """Say what was wrong, then close the connection (after what was queued for it,
        when it sits at a table); ``again``: the client may try the same again soon."""
        said: dict[str, Any] = {"type": "error", "reason": reason}
        if again:
            said["again"] = True
        text = dump(said)
        if seated is not None:
            seated.channel.put(text)
            seated.channel.put(POLICY)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ws.wait_closed(), SEND_SECONDS)
            return
        try:
            await ws.send(text)
            await ws.close(POLICY, reason[:100])
        except ConnectionClosed:
            pass

    async def _close(self, ws: ServerConnection, seated: _Seated) -> None:
        """The seat left: send what was queued, then close normally."""
        seated.channel.put(NORMAL)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ws.wait_closed(), SEND_SECONDS)

    async def _sender(self, ws: ServerConnection, channel: Channel) -> None:
        """Send what the table told this connection, in order; a client that does not
        read within SEND_SECONDS is cut off (it reconnects and is told what it missed)
        rather than let its queue grow. A close code in the queue closes the connection."""
        while True:
            text = await channel.outbox.get()
            if isinstance(text, int):
                with contextlib.suppress(ConnectionClosed):
                    await ws.close(text)
                return
            if not await self._send(ws, text):
                return

    @staticmethod
    async def _send(ws: ServerConnection, text: str) -> bool:
        """Send one frame; False when the connection is gone (or was cut off)."""
        try:
            await asyncio.wait_for(ws.send(text), SEND_SECONDS)
        except ConnectionClosed:
            return False  # it reconnects and says what it saw
        except TimeoutError:
            ws.transport.abort()
            return False
        return True

    def _keep_live(self, seated: _Seated) -> None:
        """Make ``seated`` its seat's one live connection: an older one is told why
        and closed (its client does not come back by itself: the error is final)."""
        if seated.key is None:
            return
        old = self.live.get(seated.key)
        self.live[seated.key] = seated
        if old is not None and old is not seated:
            old.key = None  # its end must not remove the new one
            old.channel.put(dump({"type": "error", "reason": REPLACED}))
            old.channel.put(POLICY)

    async def _sit(self, ws: ServerConnection, message: dict[str, Any]) -> _Seated | None:
        """Sit the connection at the token's seat, or at the game as a spectator; its
        welcome and first update are queued by the table as it joins. A hello with an
        invite and the client's secret binds the seat to that secret first (the client
        is told ``bound``, before the welcome)."""
        channel = Channel(asyncio.get_running_loop())
        seen = int(message.get("seen", 0))

        def join() -> _Seated:
            key: tuple[str, int] | None = None
            if message["type"] == "hello":
                game_id, seat, bound = self.hall.resolve(message["token"], message.get("secret"))
                if bound:
                    channel.put(dump({"type": "bound"}))
                link = self.hall.seat_at(game_id, seat, channel, seen=seen)
                key = (game_id, seat)
            else:
                link = self.hall.spectate(message["game"], channel, seen=seen)
            channel.seat = link.seat  # before any move of its own: the acks' seat
            return _Seated(link.table, link, channel, key, ws)

        try:
            seated: _Seated = await self._off_loop(OPENING, join)
        except Refused as exc:
            await self._error(ws, str(exc), again=isinstance(exc, TryAgain))
            return None
        return seated

    async def _request(self, seated: _Seated, request: SeatRequest) -> bool:
        """Carry out a seat's request on the workers; whether it was a move that was
        kept. Its answer (an update to every seat, or a notice) comes through the
        channel."""
        move = request if isinstance(request, Move) else None
        if move is not None:
            seated.channel.expect(move.seq)
        carry_out = partial(seated.table.request, seated.link, request)
        try:
            kept = bool(await self._off_loop(Workers.MOVES, carry_out))
        except Refused as exc:  # the workers are full: nothing was done
            seated.channel.deliver(Notice(REFUSED, str(exc), getattr(request, "seq", None)))
            kept = False
        if move is None:
            return False
        if kept:
            seated.channel.kept(move.seq)
        else:
            seated.channel.expect(None)
        return kept

    async def _leave(self, seated: _Seated) -> None:
        """The connection is gone: its seat leaves the table (the game waits)."""
        try:
            await self._off_loop(Workers.MOVES, partial(seated.table.leave, seated.link))
        except Refused:  # the workers are full: leave here, in a thread of its own
            await asyncio.to_thread(seated.table.leave, seated.link)

    async def _host(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        address = ws.remote_address[0] if ws.remote_address else ""

        def host() -> Any:
            return self.hall.host(
                message["game"],
                players=message.get("players"),
                seats=message.get("seats"),
                options=message.get("options"),
                client=str(address),
            )

        try:
            hosted = await self._off_loop(OPENING, host)
        except Refused as exc:
            await ws.send(dump({"type": "refused", "reason": str(exc)}))
            return
        await ws.send(
            dump(
                {
                    "type": "hosted",
                    "game": hosted.game_id,
                    "host_token": hosted.host_token,
                    "invites": {str(seat): invite for seat, invite in hosted.invites.items()},
                    "seats": list(hosted.seat_names),
                    "controllers": list(hosted.controllers),
                }
            )
        )

    async def _fetch(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        try:
            record = await self._off_loop(
                OPENING, partial(self.hall.fetch, message["game"], message.get("token"))
            )
        except Refused as exc:
            await ws.send(dump({"type": "refused", "reason": str(exc)}))
            return
        await ws.send(dump({"type": "record", "record": record}))

    def listen_to_store(self) -> Callable[[], None] | None:
        """With a store shared by several server processes (PostgreSQL), hear of the
        changes the others keep and tell this process's seats; returns the function
        that stops listening, or None for a store only this process uses."""
        listen = getattr(self.hall.store, "listen", None)
        if listen is None:
            return None
        loop = asyncio.get_running_loop()

        def catch_up(game_id: str) -> None:
            task = loop.create_task(self._external(game_id))
            self._catching_up.add(task)
            task.add_done_callback(self._catching_up.discard)

        def changed(game_id: str) -> None:  # on the store's listening thread
            loop.call_soon_threadsafe(catch_up, game_id)

        stop: Callable[[], None] = listen(changed)
        return stop

    async def ticker(self) -> None:
        """Tick the hall every ``tick_seconds`` (on a worker: it takes game locks and
        asks the store): leases renewed or taken over, idle games let go."""
        while True:
            await asyncio.sleep(self.tick_seconds)
            try:
                await self._off_loop(OPENING, self.hall.tick)
            except Refused:
                pass  # the lane is full: the next tick
            except Exception:
                _log.exception("the hall's tick failed")

    async def _external(self, game_id: str) -> None:
        """Another server process kept a change of a game this one holds: catch up
        (on the workers: the table's lock is taken there, never on the loop)."""
        table = self.hall.loaded(game_id)
        if table is None:
            return
        try:
            await self._off_loop(Workers.MOVES, partial(self.hall.catch_up, table))
        except Exception:
            _log.exception("catching up with game %s failed", game_id)


async def run(
    server: Server,
    host: str,
    port: int,
    *,
    ready: Callable[[str], None] = lambda url: None,
    stop: asyncio.Future[None] | None = None,
) -> None:
    """Serve until ``stop`` is done (forever without one); ``ready`` gets the URL once
    the port is open (port 0 picks a free one)."""
    async with serve(
        server.handler,
        host,
        port,
        max_size=MAX_CLIENT_MESSAGE,
        compression=None,  # a small frame may not inflate into a huge one
        max_queue=16,
        create_connection=gated(server.gate),
        process_request=_refuse_over_limit,
    ) as ws_server:
        sockets = list(ws_server.sockets)
        bound = sockets[0].getsockname()[1] if sockets else port
        shown = f"[{host}]" if ":" in host else host
        stop_listening = server.listen_to_store()
        ticker = asyncio.create_task(server.ticker())
        ready(f"ws://{shown}:{bound}")
        try:
            await (stop if stop is not None else asyncio.get_running_loop().create_future())
        finally:
            ticker.cancel()
            if stop_listening is not None:
                stop_listening()
            pending = [ticker, *server._catching_up]
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
