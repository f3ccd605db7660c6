"""The wire: JSON text messages between ``tabletop serve`` and its clients.

A seat's conversation with its table is the framework's seat protocol
(``tabletop.framework.seats``), in its JSON form: the table sends ``welcome``
(``TableInfo``), ``update`` (``SeatUpdate``, built by ``seats.seat_update`` and nowhere
else: the seat's view, its explained prompt when it decides, who decides otherwise, the
log lines its seat may read), ``notice`` and ``hint``; the seat sends ``move``,
``hint``, ``undo``, ``retry`` and ``leave`` (``seats.request_from_json`` checks each
field). A local table hands the same objects over without the JSON, so what a remote
seat is told is exactly what a local one is. Never the state, the seed (until the game
is over) or another seat's prompt.

Besides that conversation, the server's own messages. Client to server, the first
message of a connection (every message a JSON object with a ``type``):

- ``{"type": "hello", "token": T, "secret": S, "seen": N, "peek": P}``: sit at the
  seat that ``T`` opens (an invite, or a seat's secret); ``seen`` is how many actions
  the client has already been told of (0: tell the whole log). ``S`` is a secret the
  client made and keeps: an invite's first hello binds the seat to it (the server
  answers ``bound`` before the welcome), and the invite opens nothing after that; a
  later hello may present it as ``T`` or ``S``. ``peek``: only the welcome and where the
  game stands, then the server hangs up (the seat's live connection is not replaced);
- ``{"type": "watch", "game": ID, "seen": N}``: watch the game as a spectator (its
  public view and log only);
- ``{"type": "host", "game": G, "players": N, "seats": [...], "options": {...}}``;
- ``{"type": "fetch", "game": ID, "token": T}``: the game as a save (see ``Hall.fetch``).

Server to client, besides the table's messages: ``ack`` (``{"type": "ack", "seq": N}``:
the move answering position ``N`` is kept, committed to the store; it comes before the
update that tells it), ``bound`` (the seat is opened by the hello's secret from now
on), ``hosted`` (with ``invites``, seat to invite, and ``host_token``), ``record``,
``refused`` (a host or fetch that changed nothing, with its ``reason``) and ``error``
(the connection is closed after it: a newer connection took the seat, among others).
"""

from __future__ import annotations

import json
from typing import Any

from tabletop.framework.seats import REQUEST_FIELDS, BadMessage, SeatMessage

__all__ = [
    "MAX_CLIENT_MESSAGE",
    "MAX_FIELD",
    "MAX_SERVER_MESSAGE",
    "BadMessage",
    "decode",
    "dump",
    "encode",
    "parse",
    "server_message",
]

#: Largest message a client may send (bytes): a move is under 200, a host request
#: under 2,000. A bigger frame closes the connection (WebSocket close code 1009).
MAX_CLIENT_MESSAGE = 16 * 1024
#: Largest message a client accepts from the server (a big game's view and whole log).
MAX_SERVER_MESSAGE = 16 * 1024 * 1024
#: Longest token, game id, action or option the server reads; longer is refused.
MAX_FIELD = 200

#: The fields each server-level message may have (besides ``type``); any other is
#: refused.
FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"token": str, "secret": str, "seen": int, "peek": bool},
    "watch": {"game": str, "seen": int},
    "host": {"game": str, "players": int, "seats": list, "options": dict},
    "fetch": {"game": str, "token": str},
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "hello": ("token",),
    "watch": ("game",),
    "host": ("game",),
    "fetch": ("game",),
}


def decode(text: str | bytes) -> dict[str, Any]:
    """A client's frame as a JSON object; BadMessage saying what is wrong."""
    if isinstance(text, bytes):
        raise BadMessage("messages are JSON text frames, not binary ones")
    try:
        data = json.loads(text)
    except RecursionError:  # where the parser gives up first (Python 3.11, 3.12)
        raise BadMessage(TOO_DEEP) from None
    except ValueError:
        raise BadMessage("not JSON") from None
    if _depth(data) > MAX_DEPTH:  # the same refusal where it parses (3.13)
        raise BadMessage(TOO_DEEP)
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object")
    return data


#: Deepest nesting of lists and objects a message may have: a real one has 3 or 4
#: levels; a deeper one is refused alike on every Python, whose parsers stop at
#: different depths.
MAX_DEPTH = 32
TOO_DEEP = f"nested too deeply (at most {MAX_DEPTH} levels)"


def _depth(data: Any) -> int:
    """How deeply ``data``'s lists and objects nest (iterative: no recursion limit)."""
    deepest, todo = 0, [(data, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, level)
            if level > MAX_DEPTH:
                return level
            todo.extend((child, level + 1) for child in item)
    return deepest


def server_message(data: dict[str, Any]) -> dict[str, Any]:
    """A server-level message (hello, watch, host, fetch), checked for shape: its type,
    required fields, field types and sizes. Raises BadMessage saying what is wrong."""
    kind = data.get("type")
    if kind in REQUEST_FIELDS:
        raise BadMessage(f"a {kind} needs a seat: say hello with your seat's token first")
    if not isinstance(kind, str) or kind not in FIELDS:
        raise BadMessage(f"unknown message type (known: {', '.join(FIELDS)})")
    fields = FIELDS[kind]
    for key, value in data.items():
        if key == "type":
            continue
        if key not in fields:
            raise BadMessage(f"a {kind} message has no field {key[:40]!r}")
        want = fields[key]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise BadMessage(f"{kind}.{key} has the wrong type")
        if isinstance(value, str) and len(value) > MAX_FIELD:
            raise BadMessage(f"{kind}.{key} is too long")
        if isinstance(value, int) and not 0 <= value < 2**53:
            raise BadMessage(f"{kind}.{key} is out of range")
    for key in REQUIRED[kind]:
        if key not in data:
            raise BadMessage(f"a {kind} message needs {key!r}")
    return data


def parse(text: str | bytes) -> dict[str, Any]:
    """A server-level message from a frame (``decode``, then ``server_message``)."""
    return server_message(decode(text))


def dump(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def encode(message: SeatMessage) -> str:
    """A table's message as the text frame a remote seat receives."""
    return dump(message.to_json())
