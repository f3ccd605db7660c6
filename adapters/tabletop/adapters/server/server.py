"""``tabletop serve``: the asyncio WebSocket server that carries the hall's messages.

Each connection is one client: it sits at a seat (``hello``) and then only answers its
prompts and hears its seat's updates, or it hosts or fetches a game, or asks for a hint
at its seat's decision. Work that touches a
game (a move and the bot moves after it, replaying a game after a restart) runs in a
worker thread, one game at a time, so a searching bot on one table does not stop the
others. Every client message is size-limited (the WebSocket frame limit) and
rate-limited (a token bucket per connection); a client that sends garbage, floods or
presents an unknown token is told why and disconnected.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection, serve
from websockets.exceptions import ConnectionClosed

from tabletop.adapters.server.hall import Hall, Refused, Table
from tabletop.adapters.server.protocol import (
    MAX_CLIENT_MESSAGE,
    BadMessage,
    cursor_after,
    dump,
    parse,
    seat_update,
)

_log = logging.getLogger("tabletop.server")

#: A connection may send this many messages a second on average, in bursts of BURST.
RATE = 20.0
BURST = 40
#: Seconds a new connection has to say what it wants.
FIRST_MESSAGE_SECONDS = 30.0
#: Seconds an update may wait for a client to read it before that client is cut off.
SEND_SECONDS = 10.0
#: WebSocket close code for a policy violation (garbage, flooding, a bad token).
POLICY = 1008
#: Hints the server thinks about at once (each is one search, up to the default bot's
#: budget: a second or two of a core); a seat asking while it thinks is told to wait.
HINTS_AT_ONCE = 1
#: Hints remembered (a hint at a position is always the same: asking again is free).
HINTS_KEPT = 256


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


@dataclass(eq=False)
class Listener:
    """A connection sitting at a seat, and how far it has been told the game."""

    ws: ServerConnection
    seat: int
    actions: int = 0
    events: int = 0


@dataclass
class Server:
    """The hall on the wire."""

    hall: Hall
    rate: float = RATE
    burst: int = BURST
    first_message_seconds: float = FIRST_MESSAGE_SECONDS
    listeners: dict[str, set[Listener]] = field(default_factory=lambda: defaultdict(set))
    _locks: dict[str, asyncio.Lock] = field(default_factory=lambda: defaultdict(asyncio.Lock))
    #: Catching up with another server process's moves (cancelled when serving stops).
    _catching_up: set[asyncio.Task[None]] = field(default_factory=set)
    _thinking: asyncio.Semaphore = field(default_factory=lambda: asyncio.Semaphore(HINTS_AT_ONCE))
    #: The hints given, by game, seat and position (``HINTS_KEPT`` of them).
    _hints: OrderedDict[tuple[str, int, int], dict[str, Any]] = field(default_factory=OrderedDict)

    def __post_init__(self) -> None:
        self.hall.in_use = lambda game_id: bool(self.listeners.get(game_id))

    async def handler(self, ws: ServerConnection) -> None:
        bucket = Bucket(self.rate, self.burst)
        seated: tuple[Table, Listener] | None = None
        try:
            first = True
            while True:
                try:
                    timeout = self.first_message_seconds if first else None
                    raw = await asyncio.wait_for(ws.recv(), timeout)
                except TimeoutError:
                    await self._error(ws, "say hello, host or fetch first")
                    return
                first = False
                if not bucket.take():
                    await self._error(ws, "too many messages: slow down")
                    return
                try:
                    message = parse(raw)
                except BadMessage as exc:
                    await self._error(ws, str(exc))
                    return
                kind = message["type"]
                if kind == "hello":
                    if seated is not None:
                        await self._error(ws, "this connection already sits at a seat")
                        return
                    seated = await self._hello(ws, message)
                    if seated is None:
                        return
                elif kind == "move":
                    if seated is None:
                        await self._error(ws, "say hello with your seat's token first")
                        return
                    if await self._move(ws, seated, message):
                        bucket.refund()
                elif kind == "host":
                    await self._host(ws, message)
                elif kind == "fetch":
                    await self._fetch(ws, message)
                elif kind == "hint":
                    await self._hint(ws, message)
        except ConnectionClosed:
            pass
        except Exception as exc:  # a bug or a failing store: say so, keep serving others
            _log.exception("request failed")
            await self._error(ws, f"the server failed on this request ({type(exc).__name__})")
        finally:
            if seated is not None:
                table, listener = seated
                self.listeners[table.game_id].discard(listener)
                if not self.listeners[table.game_id]:
                    del self.listeners[table.game_id]
                    self.hall.release(table.game_id)

    async def _error(self, ws: ServerConnection, reason: str) -> None:
        """Say what was wrong, then close the connection."""
        try:
            await ws.send(dump({"type": "error", "reason": reason}))
            await ws.close(POLICY, reason[:100])
        except ConnectionClosed:
            pass

    async def _hello(
        self, ws: ServerConnection, message: dict[str, Any]
    ) -> tuple[Table, Listener] | None:
        try:
            table, seat = await asyncio.to_thread(self.hall.sit, message["token"])
        except Refused as exc:
            await self._error(ws, str(exc))
            return None
        async with self._locks[table.game_id]:
            engine = table.engine
            listener = Listener(ws, seat)
            listener.actions, listener.events = cursor_after(engine, message.get("seen", 0))
            info = engine.game.info
            await ws.send(
                dump(
                    {
                        "type": "welcome",
                        "game": table.game_id,
                        "game_id": info.id,
                        "title": info.title,
                        "seat": seat,
                        "seats": list(engine.seat_names),
                        "options": dict(engine.options),
                        "hidden_information": engine.game.hides_information(engine.options),
                        "abandoned": table.abandoned,
                    }
                )
            )
            self.listeners[table.game_id].add(listener)
            await self._tell(table, [listener])
        return table, listener

    async def _move(
        self, ws: ServerConnection, seated: tuple[Table, Listener], message: dict[str, Any]
    ) -> bool:
        """Apply a move; whether it was accepted."""
        table, listener = seated
        seq = message["seq"]
        async with self._locks[table.game_id]:
            try:
                await asyncio.to_thread(
                    self.hall.move, table, listener.seat, seq, message["action"]
                )
            except Refused as exc:
                refusal = {"type": "refused", "seq": seq, "reason": str(exc), "final": exc.final}
                await ws.send(dump(refusal))
                if exc.changed:  # reloaded from the store: tell every seat where it stands
                    await self._tell(table, list(self.listeners.get(table.game_id, ())))
                return False
            await ws.send(dump({"type": "ack", "seq": seq}))
            await self._tell(table, list(self.listeners.get(table.game_id, ())))
        return True

    async def _tell(self, table: Table, listeners: list[Listener]) -> None:
        """Send each listener what is new for its seat (under the game's lock)."""
        engine = table.engine
        sends: list[Awaitable[None]] = []
        with table.lock:  # bots replaying after a restart may still be moving
            for listener in listeners:
                update = seat_update(
                    engine, listener.seat, actions=listener.actions, events=listener.events
                )
                listener.actions, listener.events = len(engine.log), len(engine.history)
                sends.append(self._send(listener.ws, dump(update)))
        await asyncio.gather(*sends)

    @staticmethod
    async def _send(ws: ServerConnection, text: str) -> None:
        """Send an update; a client that does not read it within SEND_SECONDS is cut
        off (it reconnects and is told what it missed) rather than holding up the
        other seats of its game, whose updates wait for this one."""
        try:
            await asyncio.wait_for(ws.send(text), SEND_SECONDS)
        except ConnectionClosed:
            pass  # it reconnects and says what it saw
        except TimeoutError:
            ws.transport.abort()

    def listen_to_store(self) -> Callable[[], None] | None:
        """With a store shared by several server processes (PostgreSQL), hear of the
        moves the others keep and tell this process's seats; returns the function that
        stops listening, or None for a store only this process uses."""
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

    async def _external(self, game_id: str) -> None:
        """Another server process kept a move of a game this one holds: catch up."""
        table = self.hall.loaded(game_id)
        if table is None:
            return
        async with self._locks[game_id]:
            if await asyncio.to_thread(self.hall.catch_up, table):
                await self._tell(table, list(self.listeners.get(game_id, ())))

    async def _host(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        try:
            hosted = await asyncio.to_thread(
                self.hall.host,
                message["game"],
                players=message.get("players"),
                seats=message.get("seats"),
                options=message.get("options"),
            )
        except Refused as exc:
            await ws.send(dump({"type": "refused", "reason": str(exc)}))
            return
        await ws.send(
            dump(
                {
                    "type": "hosted",
                    "game": hosted.game_id,
                    "host_token": hosted.host_token,
                    "tokens": {str(seat): token for seat, token in hosted.tokens.items()},
                    "seats": list(hosted.seat_names),
                    "controllers": list(hosted.controllers),
                }
            )
        )

    async def _hint(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        """Answer a seat's question "what would the search choose?" (``Hall.hint``):
        one search at a time on the whole server, each position's answer kept."""
        seq = message["seq"]
        try:
            table, seat = await asyncio.to_thread(self.hall.sit, message["token"])
            key = (table.game_id, seat, seq)
            answer = self._hints.get(key)
            if answer is None:
                think = await asyncio.to_thread(self.hall.hint, table, seat, seq)
                if self._thinking.locked():
                    raise Refused("the server is thinking about another hint: ask again soon")
                async with self._thinking:
                    try:
                        hint = await asyncio.to_thread(think)
                    except Exception as exc:  # the game's hints failed: say so, serve on
                        _log.exception("hint failed")
                        raise Refused(
                            f"no hint: the search failed ({type(exc).__name__})"
                        ) from None
                answer = {"type": "hint", "seq": seq, "action": hint.action, "lines": hint.lines()}
                self._hints[key] = answer
                while len(self._hints) > HINTS_KEPT:
                    self._hints.popitem(last=False)
        except Refused as exc:
            await ws.send(dump({"type": "refused", "seq": seq, "reason": str(exc)}))
            return
        await ws.send(dump(answer))

    async def _fetch(self, ws: ServerConnection, message: dict[str, Any]) -> None:
        try:
            record = await asyncio.to_thread(self.hall.fetch, message["game"], message.get("token"))
        except Refused as exc:
            await ws.send(dump({"type": "refused", "reason": str(exc)}))
            return
        await ws.send(dump({"type": "record", "record": record}))


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
    ) as ws_server:
        sockets = list(ws_server.sockets)
        bound = sockets[0].getsockname()[1] if sockets else port
        shown = f"[{host}]" if ":" in host else host
        stop_listening = server.listen_to_store()
        ready(f"ws://{shown}:{bound}")
        try:
            await (stop if stop is not None else asyncio.get_running_loop().create_future())
        finally:
            if stop_listening is not None:
                stop_listening()
            pending = list(server._catching_up)
            for task in pending:
                task.cancel()
            await asyncio.gather(*pending, return_exceptions=True)
