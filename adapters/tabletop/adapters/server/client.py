"""The seat's side of the wire: a front end's line to a server's table.

``RemoteConnection`` is the framework's ``SeatConnection`` over a WebSocket: a front end
(the seat screen, ``play_seat``, a test) opens it inside its running asyncio loop and
receives the table's messages (``seats.TableInfo``, ``SeatUpdate``, ``Notice``,
``HintAnswer``) on that loop's thread, exactly as a local table's; its requests
(``Move``, ``AskHint``, ``Undo``...) go to the server. When the server goes away (a
restart, a lost network) it says so (a ``Notice`` of topic ``LOST``), reconnects by
itself saying how many actions it has been told of, so the server sends only what it
missed, and says when it is back (``BACK``); each failed attempt is another ``LOST``
notice that counts them. A server that stops answering without closing the line is
found out by pings within ``PING_SECONDS + PONG_SECONDS + SILENT_CLOSE_SECONDS`` (4 s).
A request sent while the server is unreachable is refused at once with a notice saying
so: never silently dropped.

A seat is opened by an invite once: the connection makes a secret of its own
(``new_secret``) and sends it with its first hello; the server binds the seat to it
(``bound``) and from then on the connection presents the secret (``token`` becomes
it), which its owner keeps (``remembered``, 0600) to come back later.

``play_seat`` plays one seat to the end with a ``decide`` function (``join --bot``,
``--plain``, the tests, the bench); ``request`` is one question and its answer (host,
fetch); ``peek`` asks where a seat's game stands (the home screen). A bot that plays a
seat from here sees exactly what a person's client sees: the seat's messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import json
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus, InvalidURI

from tabletop.adapters.server.protocol import MAX_SERVER_MESSAGE, dump
from tabletop.framework import chance
from tabletop.framework.bots import Bot
from tabletop.framework.game import Action, GameDefinition, Prompt, Result
from tabletop.framework.seats import (
    BACK,
    ENDED,
    LOST,
    REFUSED,
    BadMessage,
    LogLine,
    Move,
    Notice,
    SeatConnection,
    SeatMessage,
    SeatRequest,
    SeatUpdate,
    TableInfo,
    message_from_json,
    request_to_json,
)

#: How long ``play_seat`` keeps trying to reach a server that went away (seconds).
GIVE_UP_SECONDS = 300.0
#: The first and the longest wait between two attempts to reconnect (seconds).
FIRST_RETRY = 0.1
LONGEST_RETRY = 2.0
#: How long one attempt to connect may take (seconds); how long leaving waits for the
#: server to agree to close the line.
OPEN_SECONDS = 10.0
CLOSE_SECONDS = 2.0
#: A seat's line pings the server every PING_SECONDS and gives it up when no answer
#: came within PONG_SECONDS, waiting at most SILENT_CLOSE_SECONDS more for the line
#: to close (a silent server never agrees): a server gone without a word is said
#: within their sum, 4 s, inside the 5 s issue 36 promises.
PING_SECONDS = 1.5
PONG_SECONDS = 2.0
SILENT_CLOSE_SECONDS = 0.5
#: What a front end is told when a request finds the server unreachable.
NOT_SENT = "Not sent: the server cannot be reached right now (reconnecting); try again then."
GONE = "The server cannot be reached: reconnecting..."
AGAIN = "Connected to the server again."
#: Random bytes in the secret a client binds an invite to (as many as a token's).
SECRET_BYTES = 24


class ClientError(Exception):
    """The server refused us or cannot be reached; the message says why."""


class _TryAgain(Exception):
    """The server turned the hello away for now (its workers are full): try again."""


def new_secret() -> str:
    """The secret a client binds a seat to (192 random bits); never starts with "-"."""
    while True:
        secret = secrets.token_urlsafe(SECRET_BYTES)
        if not secret.startswith("-"):
            return secret


def gone(number: int) -> str:
    """What a seat is told after its ``number``-th failed attempt to reconnect."""
    return f"The server cannot be reached: reconnecting (attempt {number})..."


def refusal(exc: BaseException) -> str:
    """Why a connection failed, in words: a server that refused the handshake says why
    in its answer's body (too many connections from this address, the server full)."""
    if isinstance(exc, InvalidStatus):
        body = exc.response.body or b""
        text = body.decode("utf-8", "replace").strip()[:200]
        return f"the server refused the connection (HTTP {exc.response.status_code}): {text}"
    return str(exc) or type(exc).__name__


def _connect(url: str, timeout: float, *, pings: bool = False) -> Any:
    """A websocket to ``url``; with ``pings``, one that notices a silent server."""
    heartbeat: dict[str, Any] = (
        {
            "ping_interval": PING_SECONDS,
            "ping_timeout": PONG_SECONDS,
            "close_timeout": SILENT_CLOSE_SECONDS,
        }
        if pings
        else {}
    )
    return connect(
        url, max_size=MAX_SERVER_MESSAGE, compression=None, open_timeout=timeout, **heartbeat
    )


class RemoteConnection(SeatConnection):
    """A seat at a server's table (``token``), or a spectator of a game (``watch_game``,
    the public view only), as a ``SeatConnection``.

    ``open`` is called on the thread of a running asyncio loop; every message then
    reaches ``receive`` on that thread, in order. ``give_up`` (seconds) ends the
    attempts to reconnect with a final ``LOST`` notice; None keeps trying."""

    def __init__(
        self,
        url: str,
        *,
        token: str | None = None,
        watch_game: str | None = None,
        give_up: float | None = None,
        keep_messages: bool = False,
        secret: str | None = None,
    ) -> None:
        if (token is None) == (watch_game is None):
            raise ValueError("a connection sits at a seat (token) or watches a game, not both")
        self.url = url
        #: What opens the seat: an invite until the server bound it, then the secret.
        self.token = token
        #: The secret an invite is bound to (made here unless given).
        self.secret = secret or new_secret()
        #: Whether the seat is opened by ``secret`` (the server said ``bound``).
        self.bound = False
        self.watch_game = watch_game
        self.give_up = give_up
        #: The position of the last update (what a reconnection says it has seen).
        self.seen = 0
        #: Why the server closed the line for good (an ``error``), once it did.
        self.error: str | None = None
        #: Every message received as JSON, when ``keep_messages`` (the leak tests).
        self.keep_messages = keep_messages
        self.messages: list[dict[str, Any]] = []
        self.reconnects = 0
        #: Seconds from sending each kept move to its acknowledgement (the server has
        #: checked, applied and committed it by then): what the bench reads.
        self.latencies: list[float] = []
        self._sent: dict[int, float] = {}
        self._receive: Callable[[SeatMessage], None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._task: asyncio.Task[None] | None = None
        self._ws: ClientConnection | None = None
        #: The current connection, from its handshake on (``_ws`` once welcomed).
        self._line: ClientConnection | None = None
        self._outbox: asyncio.Queue[tuple[ClientConnection, str, SeatRequest]] | None = None
        self._writer: asyncio.Task[None] | None = None
        self._closed = False
        #: The next update is the first after a reconnection.
        self._again = False

    @property
    def connected(self) -> bool:
        """Whether the server has welcomed this line on its current connection."""
        return self._ws is not None

    def open(self, receive: Callable[[SeatMessage], None]) -> None:
        loop = asyncio.get_running_loop()
        self._loop, self._receive = loop, receive
        self._outbox = asyncio.Queue()
        self._task = loop.create_task(self._run())
        self._writer = loop.create_task(self._write())

    def _tell(self, message: SeatMessage) -> None:
        if self._receive is not None and not self._closed:
            self._receive(message)

    def _hello(self) -> dict[str, Any]:
        if self.token is not None:
            hello = {"type": "hello", "token": self.token, "seen": self.seen}
            if self.token != self.secret:
                hello["secret"] = self.secret
            return hello
        return {"type": "watch", "game": self.watch_game, "seen": self.seen}

    async def _run(self) -> None:
        delay, lost_since, offline = FIRST_RETRY, None, False
        attempts = 0
        while not self._closed:
            busy: str | None = None
            try:
                async with _connect(self.url, OPEN_SECONDS, pings=True) as ws:
                    self._line = ws
                    await ws.send(dump(self._hello()))
                    async for raw in ws:
                        message = self._read(raw)
                        if message is None:
                            continue
                        if isinstance(message, TableInfo):
                            self._again = self.info is not None
                            self._ws = ws
                            delay, lost_since, attempts = FIRST_RETRY, None, 0
                            if offline:
                                offline = False
                                self._tell(Notice(BACK, AGAIN))
                            if self.info is not None:
                                self.info = message  # the same table again: not news
                                continue
                            self.info = message
                        elif isinstance(message, SeatUpdate):
                            message = self._resumed(message)
                            self.seen = message.seq
                        self._tell(message)
                    if self.error is not None:
                        return
            except ClientError as exc:
                self.error = str(exc)
                self._tell(Notice(REFUSED, self.error, final=True))
                return
            except InvalidURI as exc:
                self.error = f"not a server address: {exc}"
                self._tell(Notice(REFUSED, self.error, final=True))
                return
            except _TryAgain as exc:  # reachable, but too busy to seat us now
                busy = str(exc)
            except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
                pass
            finally:
                self._ws = self._line = None
            if self._closed:
                return
            now = time.monotonic()
            lost_since = now if lost_since is None else lost_since
            if self.give_up is not None and now - lost_since > self.give_up:
                self.error = f"lost the server at {self.url}"
                self._tell(Notice(LOST, f"Gave up: {self.error}.", final=True))
                return
            if not offline:
                offline = True
                self._tell(Notice(LOST, GONE if busy is None else f"{busy}: trying again..."))
            else:  # each failed attempt is counted where the seat can see it
                attempts += 1
                said = gone(attempts)
                if busy is not None:
                    said = f"{busy}: trying again (attempt {attempts})..."
                self._tell(Notice(LOST, said))
            self.reconnects += 1
            await asyncio.sleep(delay)
            delay = min(delay * 2, LONGEST_RETRY)

    def _resumed(self, update: SeatUpdate) -> SeatUpdate:
        """The first update after a reconnection that said "seen 0" tells the whole
        story again (the setup's lines too, which the front end has): it forgets them
        first (``rewind`` before action 0), so no line shows twice."""
        if self._again and self.seen == 0 and update.rewind is None:
            update = replace(update, rewind=-1)
        self._again = False
        return update

    def _read(self, raw: str | bytes) -> SeatMessage | None:
        """A frame as the table's message; None for the server's own ``ack`` (noted);
        ClientError for an ``error`` (the server closes the line after it) or a frame
        that is not the protocol's."""
        try:
            data = json.loads(raw)
        except ValueError:
            raise ClientError("the server sent a frame that is not JSON") from None
        if self.keep_messages:
            self.messages.append(data)
        kind = data.get("type") if isinstance(data, dict) else None
        if kind == "error":
            if data.get("again") is True:
                raise _TryAgain(str(data.get("reason")))
            raise ClientError(str(data.get("reason")))
        if kind == "bound":  # the seat is opened by our secret from now on
            self.token, self.bound = self.secret, True
            return None
        if kind == "ack":
            sent = self._sent.pop(data.get("seq"), None)
            if sent is not None:
                self.latencies.append(time.perf_counter() - sent)
            return None
        try:
            return message_from_json(data)
        except BadMessage as exc:
            raise ClientError(
                f"the server sent a message that is not the protocol's: {exc}"
            ) from None

    def send(self, request: SeatRequest) -> None:
        """Send a request; while the server is unreachable it is refused at once (a
        ``REFUSED`` notice on the next turn of the loop), never dropped in silence."""
        ws, outbox = self._ws, self._outbox
        if ws is None or outbox is None or self._closed:
            self._refuse(request)
            return
        if isinstance(request, Move):
            self._sent[request.seq] = time.perf_counter()
        outbox.put_nowait((ws, dump(request_to_json(request)), request))

    def _refuse(self, request: SeatRequest) -> None:
        notice = Notice(REFUSED, NOT_SENT, getattr(request, "seq", None))
        if self._loop is not None:
            self._loop.call_soon(self._tell, notice)

    async def _write(self) -> None:
        """Send the requests in order; one whose connection broke is refused."""
        assert self._outbox is not None
        while True:
            ws, text, request = await self._outbox.get()
            try:
                await ws.send(text)
            except ConnectionClosed:
                self._refuse(request)

    def close(self) -> None:
        """Leave (the game waits for the seat); nothing more is received."""
        self._closed = True
        self._receive = None
        for task in (self._task, self._writer):
            if task is not None:
                task.cancel()

    async def aclose(self) -> None:
        """``close``, and the line closed with the server's agreement first: the
        server then hears the end at once, not when this process ends (a process that
        goes on, the bench, would otherwise leave it waiting for that line's close when
        it stops)."""
        line = self._line
        self._closed = True
        self._receive = None
        if line is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(line.close(), CLOSE_SECONDS)
        self.close()
        tasks = [task for task in (self._task, self._writer) if task is not None]
        await asyncio.gather(*tasks, return_exceptions=True)


@dataclass
class Seat:
    """What a seat's client knows: only what the server sent it."""

    url: str
    token: str
    info: TableInfo | None = None
    seq: int = 0
    view: dict[str, Any] = field(default_factory=dict)
    deciding: int | None = None
    prompt: Prompt | None = None
    log: list[LogLine] = field(default_factory=list)
    over: bool = False
    ended: bool = False
    """The game takes no more moves before its end (its host ended it)."""
    result: Result | None = None
    notices: list[Notice] = field(default_factory=list)
    refusals: list[str] = field(default_factory=list)
    connection: RemoteConnection | None = None

    @property
    def seat(self) -> int:
        return -1 if self.info is None or self.info.seat is None else self.info.seat

    @property
    def welcome(self) -> dict[str, Any]:
        """The table's welcome as it came over the wire (``TableInfo`` as JSON)."""
        return {} if self.info is None else self.info.to_json()

    @property
    def names(self) -> tuple[str, ...]:
        return () if self.info is None else self.info.seat_names

    @property
    def reconnects(self) -> int:
        return 0 if self.connection is None else self.connection.reconnects

    @property
    def latencies(self) -> list[float]:
        return [] if self.connection is None else self.connection.latencies

    @property
    def messages(self) -> list[dict[str, Any]]:
        return [] if self.connection is None else self.connection.messages

    def take(self, update: SeatUpdate) -> None:
        self.seq = update.seq
        self.view = dict(update.view)
        self.deciding = update.deciding
        self.prompt = update.prompt
        if update.rewind is not None:
            self.log = [line for line in self.log if line.action <= update.rewind]
        self.log.extend(update.log)
        self.over = update.over
        self.result = update.result

    def send(self, request: SeatRequest) -> None:
        if self.connection is not None:
            self.connection.send(request)


#: Answers a seat's prompt: an action, or None to leave it pending (a person's UI).
Decide = Callable[[Seat], "Action | Awaitable[Action | None] | None"]


async def play_seat(
    url: str,
    token: str,
    decide: Decide,
    *,
    on_update: Callable[[Seat], None] | None = None,
    on_message: Callable[[Seat, SeatMessage], None] | None = None,
    give_up: float = GIVE_UP_SECONDS,
    keep_messages: bool = False,
    watch: bool = False,
    secret: str | None = None,
) -> Seat:
    """Play one seat to the game's end (or until its host ends it); returns the seat.
    ``token``: an invite (bound to ``secret``, made here unless given) or a seat's
    secret; once bound, ``seat.token`` is the secret. ``watch``: ``token`` is a game's
    id, watched as a spectator (``decide`` is never asked). ``on_message`` hears every
    message as it arrives (a hint, a notice), even while ``decide`` waits. ClientError
    when the server refuses the seat or is gone for ``give_up`` seconds."""
    connection = RemoteConnection(
        url,
        token=None if watch else token,
        watch_game=token if watch else None,
        give_up=give_up,
        keep_messages=keep_messages,
        secret=secret,
    )
    seat = Seat(url, token, connection=connection)
    inbox: asyncio.Queue[SeatMessage] = asyncio.Queue()

    def receive(message: SeatMessage) -> None:
        if on_message is not None:
            on_message(seat, message)
        inbox.put_nowait(message)

    connection.open(receive)
    try:
        while True:
            message = await inbox.get()
            if isinstance(message, TableInfo):
                seat.info = message
                if connection.token is not None:
                    seat.token = connection.token  # the secret, once the invite is bound
            elif isinstance(message, Notice):
                seat.notices.append(message)
                if connection.error is not None:
                    raise ClientError(connection.error)
                if message.topic == REFUSED:
                    seat.refusals.append(message.text)
                if message.final and message.topic in (REFUSED, ENDED):
                    seat.ended = not seat.over
                    return seat
            elif isinstance(message, SeatUpdate):
                seat.take(message)
                if on_update is not None:
                    on_update(seat)
                if seat.over:
                    return seat
                if seat.prompt is not None and not watch:
                    answer = decide(seat)
                    if inspect.isawaitable(answer):
                        answer = await answer
                    if answer is not None:
                        connection.send(Move(seat.seq, answer))
    finally:
        await connection.aclose()


async def request(url: str, message: dict[str, Any], *, timeout: float = 30.0) -> dict[str, Any]:
    """Send one message and return the server's answer; ClientError when it refuses."""
    try:
        async with _connect(url, timeout) as ws:
            await ws.send(dump(message))
            answer = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    except InvalidURI as exc:
        raise ClientError(f"not a server address: {exc}") from None
    except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
        raise ClientError(f"cannot reach the server at {url}: {refusal(exc)}") from None
    if not isinstance(answer, dict):
        raise ClientError("the server's answer is not a message")
    if answer.get("type") in ("refused", "error"):
        raise ClientError(str(answer.get("reason")))
    return answer


#: Larger than any game's number of actions: a status question wants no log lines.
_SEEN_ALL = 2**52
#: How long the home screen waits for a server's answer about one seat (seconds).
PEEK_SECONDS = 3.0


async def peek(
    url: str, token: str, *, timeout: float = PEEK_SECONDS, secret: str | None = None
) -> Seat:
    """Where a seat's game stands (whose turn, over, ended), then hang up: a hello
    that says it has seen every action, so the answer holds no log, only the seat's
    update; a peek does not take the seat from its live connection. With ``secret``,
    an invite is bound to it (``seat.token`` is then the secret). ClientError when the
    server refuses or does not answer within ``timeout`` seconds (the home screen says
    "server unreachable")."""
    seat = Seat(url, token)
    hello: dict[str, Any] = {"type": "hello", "token": token, "seen": _SEEN_ALL, "peek": True}
    if secret is not None:
        hello["secret"] = secret

    async def ask() -> None:
        async with _connect(url, timeout) as ws:
            await ws.send(dump(hello))
            while True:
                data = json.loads(await ws.recv())
                if isinstance(data, dict) and data.get("type") == "error":
                    raise ClientError(str(data.get("reason")))
                if isinstance(data, dict) and data.get("type") == "bound" and secret:
                    seat.token = secret
                    continue
                try:
                    message = message_from_json(data)
                except BadMessage as exc:
                    raise ClientError(f"an answer that is not the protocol's: {exc}") from None
                if isinstance(message, TableInfo):
                    seat.info = message
                elif isinstance(message, Notice) and message.topic == ENDED:
                    seat.ended = True
                elif isinstance(message, SeatUpdate):
                    seat.take(message)
                    return

    try:
        await asyncio.wait_for(ask(), timeout)
    except InvalidURI as exc:
        raise ClientError(f"not a server address: {exc}") from None
    except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
        raise ClientError(f"server unreachable ({refusal(exc)})") from None
    return seat


def turn_words(seat: Seat) -> str:
    """Whose turn it is at a seat's game, in the words of the home screen's table."""
    names = seat.names
    if seat.ended and not seat.over:
        return "ended by its host"
    if seat.over:
        result = seat.result
        winners = [] if result is None else result.winners
        won = [names[w] for w in winners if 0 <= w < len(names)]
        return f"over: {', '.join(won)} won" if won else "over"
    if seat.prompt is not None or seat.deciding == seat.seat:
        return "your turn"
    who = seat.deciding
    name = names[who] if isinstance(who, int) and 0 <= who < len(names) else "another seat"
    return f"{name}'s turn"


def bot_decider(game: GameDefinition, bot: Bot, seed: int) -> Decide:
    """A bot answering a remote seat's prompts from what the seat receives. Its own
    random stream is seeded by ``seed`` and the position, never by the game's seed
    (which the server keeps secret)."""

    def decide(seat: Seat) -> Action:
        assert seat.prompt is not None
        rng = chance.bot_rng(seed + seat.seq)
        return bot.choose(game, dict(seat.view), seat.prompt, rng)

    return decide
