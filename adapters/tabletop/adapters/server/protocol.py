"""The wire: JSON text messages between ``tabletop serve`` and its clients.

What a seat receives is built here and nowhere else (``seat_update``), from the same
channels the framework's leak checks cover: the seat's ``view``, its explained prompt
when it decides (``prompt_json``'s fields plus each choice's key), and the lines of the
log its seat may read (``Engine.story``: its own choices, "Player 2 decided." for
another's in a hidden-information game, and the events ``Event.visible_to`` allows, as
``seen_events`` gives them). Never the state, the seed or another seat's prompt.

Client to server (every message a JSON object with a ``type``):

- ``{"type": "hello", "token": T, "seen": N}``: sit at the token's seat; ``seen`` is how
  many actions the client has already been told of (0: tell the whole log).
- ``{"type": "move", "seq": N, "action": A}``: answer the prompt of position ``N`` (the
  number of actions so far); any other ``N`` is a stale or forged move and is refused.
- ``{"type": "host", "game": G, "players": N, "seats": [...], "options": {...}}``.
- ``{"type": "fetch", "game": ID, "token": T}``: the game as a save (see ``Hall.fetch``).
- ``{"type": "hint", "token": T, "seq": N}``: what the tree search suggests at the token
  seat's decision of position ``N``, thought from that seat's information set only
  (``tabletop.adapters.bots.hint``), as the local screen's ``?`` key gives it.

Server to client: ``welcome``, ``update``, ``ack``, ``refused``, ``hosted``, ``record``,
``hint`` (``seq``, ``action``: the suggested choice, ``lines``: the hint in words),
``error`` (the connection is closed after an ``error``).
"""

from __future__ import annotations

import json
from typing import Any

from tabletop.framework.engine import Engine
from tabletop.framework.game import Choice, Prompt, Result

#: Largest message a client may send (bytes): a move is under 200, a host request
#: under 2,000. A bigger frame closes the connection (WebSocket close code 1009).
MAX_CLIENT_MESSAGE = 16 * 1024
#: Largest message a client accepts from the server (a big game's view and whole log).
MAX_SERVER_MESSAGE = 16 * 1024 * 1024
#: Longest token, game id, action or option the server reads; longer is refused.
MAX_FIELD = 200

#: The fields each client message may have (besides ``type``); any other is refused.
FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"token": str, "seen": int},
    "move": {"seq": int, "action": str},
    "host": {"game": str, "players": int, "seats": list, "options": dict},
    "fetch": {"game": str, "token": str},
    "hint": {"token": str, "seq": int},
}
REQUIRED: dict[str, tuple[str, ...]] = {
    "hello": ("token",),
    "move": ("seq", "action"),
    "host": ("game",),
    "fetch": ("game",),
    "hint": ("token", "seq"),
}


class BadMessage(ValueError):
    """A client message that is not one of ours (the reason is sent back)."""


def parse(text: str | bytes) -> dict[str, Any]:
    """A client's message, checked for shape: its type, required fields, field types
    and sizes. Raises BadMessage saying what is wrong."""
    if isinstance(text, bytes):
        raise BadMessage("messages are JSON text frames, not binary ones")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("not JSON") from None
    if not isinstance(data, dict):
        raise BadMessage("a message is a JSON object")
    kind = data.get("type")
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


def dump(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def prompt_wire(prompt: Prompt) -> dict[str, Any]:
    """A prompt as the deciding seat receives it: ``leaks.prompt_json``'s fields (seat,
    text, rule, each choice's action, label, detail, consequence) and each choice's key,
    which front ends bind."""
    return {
        "seat": prompt.seat,
        "text": prompt.text,
        "rule": prompt.rule,
        "choices": [
            {
                "action": c.action,
                "label": c.label,
                "detail": c.detail,
                "consequence": c.consequence,
                "key": c.key,
            }
            for c in prompt.choices
        ],
    }


def prompt_from_wire(data: dict[str, Any]) -> Prompt:
    """The client's copy of its prompt (for a bot's ``choose`` or a UI)."""
    choices = tuple(
        Choice(
            str(c["action"]),
            str(c["label"]),
            str(c.get("detail", "")),
            str(c.get("consequence", "")),
            str(c.get("key", "")),
        )
        for c in data["choices"]
    )
    rule = data.get("rule")
    return Prompt(
        int(data["seat"]), str(data["text"]), choices, None if rule is None else str(rule)
    )


def result_wire(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "winners": list(result.winners),
        "scores": list(result.scores),
        "summary": result.summary,
        "outcome": result.outcome,
    }


def seat_update(engine: Engine, seat: int, *, actions: int = 0, events: int = 0) -> dict[str, Any]:
    """Everything ``seat`` is told after the game has changed: its view, its explained
    prompt when it decides (only who decides otherwise: never a secret), and the log
    lines it may read from ``actions`` actions and ``events`` history entries on."""
    prompt = engine.prompt
    over = prompt is None
    shown = engine.explained_prompt if prompt is not None and prompt.seat == seat else None
    log = [
        {
            "action": line.action,
            "text": line.text,
            "event": None if line.event is None else line.event.to_json(),
        }
        for line in engine.story(seat, actions=actions, events=events)
    ]
    result: Result | None = None
    if over:
        try:
            result = engine.result
        except Exception:  # the game's result() failed: the end is still the end
            result = None
    return {
        "type": "update",
        "seq": len(engine.log),
        "view": engine.view(seat),
        "deciding": None if prompt is None else prompt.seat,
        "prompt": None if shown is None else prompt_wire(shown),
        "log": log,
        "over": over,
        "result": result_wire(result),
    }


def cursor_after(engine: Engine, seen: int) -> tuple[int, int]:
    """(actions, history entries) for ``Engine.story`` to resume after action ``seen``:
    a returning client is told only what it has not been told."""
    seen = max(0, min(seen, len(engine.log)))
    if seen == 0:
        return 0, 0
    events = 0
    for index, (turn, _) in enumerate(engine.history):
        if turn > seen:
            return seen, index
        events = index + 1
    return seen, events
