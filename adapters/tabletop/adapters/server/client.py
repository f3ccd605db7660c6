"""The seat's side of the wire: sit at a seat, hear its updates, answer its prompts.

``play_seat`` keeps one seat connected for a whole game and reconnects by itself when
the server goes away (a restart, a lost network): it says how many actions it has
already been told of, so the server sends only what it missed, and the seat's next
prompt comes again with the update. ``request`` is one question and its answer
(host, fetch). A bot that plays a seat from here sees exactly what a person's client
sees: the view, the prompt and the log lines of its seat.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

from tabletop.adapters.server.protocol import MAX_SERVER_MESSAGE, dump, prompt_from_wire
from tabletop.framework import chance
from tabletop.framework.bots import Bot
from tabletop.framework.game import Action, GameDefinition

#: How long ``play_seat`` keeps trying to reach a server that went away (seconds).
GIVE_UP_SECONDS = 300.0
#: The first and the longest wait between two attempts to reconnect (seconds).
FIRST_RETRY = 0.1
LONGEST_RETRY = 2.0


class ClientError(Exception):
    """The server refused us or cannot be reached; the message says why."""


@dataclass
class Seat:
    """What a seat's client knows: only what the server sent it."""

    url: str
    token: str
    welcome: dict[str, Any] = field(default_factory=dict)
    seq: int = 0
    view: dict[str, Any] = field(default_factory=dict)
    deciding: int | None = None
    prompt: dict[str, Any] | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    over: bool = False
    ended: bool = False
    """The host ended the game before its end."""
    result: dict[str, Any] | None = None
    messages: list[dict[str, Any]] = field(default_factory=list)
    """Every message received, when ``keep_messages`` (the leak tests read them)."""
    keep_messages: bool = False
    reconnects: int = 0
    refusals: list[str] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    """Seconds from sending each accepted move to its acknowledgement (the server has
    checked, applied and committed it by then): what ``tabletop bench --server`` reads."""
    _sent_at: float = 0.0

    @property
    def seat(self) -> int:
        return int(self.welcome.get("seat", -1))

    def take(self, update: dict[str, Any]) -> None:
        self.seq = int(update["seq"])
        self.view = update["view"]
        self.deciding = update["deciding"]
        self.prompt = update["prompt"]
        self.log.extend(update["log"])
        self.over = bool(update["over"])
        self.result = update["result"]


#: Answers a seat's prompt: an action, or None to leave it pending (a person's UI).
Decide = Callable[[Seat], "Action | Awaitable[Action | None] | None"]


async def play_seat(
    url: str,
    token: str,
    decide: Decide,
    *,
    on_update: Callable[[Seat], None] | None = None,
    give_up: float = GIVE_UP_SECONDS,
    keep_messages: bool = False,
) -> Seat:
    """Play one seat to the game's end (or until its host ends it); returns the seat."""
    seat = Seat(url, token, keep_messages=keep_messages)
    delay = FIRST_RETRY
    lost_since: float | None = None
    while True:
        try:
            async with connect(
                url, max_size=MAX_SERVER_MESSAGE, compression=None, open_timeout=10
            ) as ws:
                await ws.send(dump({"type": "hello", "token": token, "seen": seat.seq}))
                async for raw in ws:
                    lost_since, delay = None, FIRST_RETRY
                    message = json.loads(raw)
                    if seat.keep_messages:
                        seat.messages.append(message)
                    kind = message.get("type")
                    if kind == "error":
                        raise ClientError(str(message.get("reason")))
                    if kind == "welcome":
                        seat.welcome = message
                        if message.get("abandoned"):
                            seat.ended = True
                    elif kind == "ack":
                        seat.latencies.append(time.perf_counter() - seat._sent_at)
                    elif kind == "refused":
                        seat.refusals.append(str(message.get("reason")))
                        if message.get("final"):
                            seat.ended = not seat.over
                            return seat
                    elif kind == "update":
                        seat.take(message)
                        if on_update is not None:
                            on_update(seat)
                        if seat.over or seat.ended:
                            return seat
                        if seat.prompt is not None:
                            answer = decide(seat)
                            if inspect.isawaitable(answer):
                                answer = await answer
                            if answer is not None:
                                move = {"type": "move", "seq": seat.seq, "action": answer}
                                seat._sent_at = time.perf_counter()
                                await ws.send(dump(move))
                if seat.ended:
                    return seat
        except ClientError:
            raise
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
            now = time.monotonic()
            lost_since = now if lost_since is None else lost_since
            if now - lost_since > give_up:
                raise ClientError(f"lost the server at {url}: {exc}") from None
        except InvalidURI as exc:
            raise ClientError(f"not a server address: {exc}") from None
        seat.reconnects += 1
        await asyncio.sleep(delay)
        delay = min(delay * 2, LONGEST_RETRY)


async def request(url: str, message: dict[str, Any], *, timeout: float = 30.0) -> dict[str, Any]:
    """Send one message and return the server's answer; ClientError when it refuses."""
    try:
        async with connect(
            url, max_size=MAX_SERVER_MESSAGE, compression=None, open_timeout=timeout
        ) as ws:
            await ws.send(dump(message))
            answer = json.loads(await asyncio.wait_for(ws.recv(), timeout))
    except InvalidURI as exc:
        raise ClientError(f"not a server address: {exc}") from None
    except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
        raise ClientError(
            f"cannot reach the server at {url}: {exc or type(exc).__name__}"
        ) from None
    if not isinstance(answer, dict):
        raise ClientError("the server's answer is not a message")
    if answer.get("type") in ("refused", "error"):
        raise ClientError(str(answer.get("reason")))
    return answer


#: Larger than any game's number of actions: a status question wants no log lines.
_SEEN_ALL = 2**52
#: How long the home screen waits for a server's answer about one seat (seconds).
PEEK_SECONDS = 3.0


async def peek(url: str, token: str, *, timeout: float = PEEK_SECONDS) -> Seat:
    """Where a seat's game stands (whose turn, over, ended), then hang up: a hello
    that says it has seen every action, so the answer holds no log, only the seat's
    update. ClientError when the server refuses or does not answer within
    ``timeout`` seconds (the home screen says "server unreachable")."""
    seat = Seat(url, token)

    async def ask() -> None:
        async with connect(
            url, max_size=MAX_SERVER_MESSAGE, compression=None, open_timeout=timeout
        ) as ws:
            await ws.send(dump({"type": "hello", "token": token, "seen": _SEEN_ALL}))
            while True:
                message = json.loads(await ws.recv())
                kind = message.get("type")
                if kind == "error":
                    raise ClientError(str(message.get("reason")))
                if kind == "welcome":
                    seat.welcome = message
                    seat.ended = bool(message.get("abandoned"))
                elif kind == "update":
                    seat.take(message)
                    return

    try:
        await asyncio.wait_for(ask(), timeout)
    except InvalidURI as exc:
        raise ClientError(f"not a server address: {exc}") from None
    except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError) as exc:
        raise ClientError(f"server unreachable ({exc or type(exc).__name__})") from None
    return seat


def turn_words(seat: Seat) -> str:
    """Whose turn it is at a seat's game, in the words of the home screen's table."""
    names = [str(name) for name in seat.welcome.get("seats", [])]
    if seat.ended and not seat.over:
        return "ended by its host"
    if seat.over:
        result = seat.result or {}
        winners = [names[w] for w in result.get("winners", []) if 0 <= w < len(names)]
        return f"over: {', '.join(winners)} won" if winners else "over"
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
        prompt = prompt_from_wire(seat.prompt)
        rng = chance.bot_rng(seed + seat.seq)
        return bot.choose(game, dict(seat.view), prompt, rng)

    return decide
