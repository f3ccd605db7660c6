"""The seat protocol: what a seat at a table is told, and what it may ask.

Every front end (the local screen, hot-seat, a remote seat, the browser, a bot) reads a
game only through these messages, built in one place (``seat_update``) from the channels
the leak checks cover: the seat's view, its explained prompt when it decides, who decides
otherwise, the log lines its seat may read (``Engine.story``), and the result. Nothing
else of the engine reaches a front end, so no front end can show more than another, and
a new one (a browser, a bot over the network) gets exactly what the others get.

A table (``tabletop.framework.table``) sends:

- ``TableInfo`` once, when a seat joins: the game, the seat, the seats' names and who
  plays them, and what the table offers (undo, hints, saving a copy);
- ``SeatUpdate`` after every change: the position (``seq``: actions so far), the view,
  who decides, the prompt when it is this seat's decision, the new log lines (after
  forgetting those of actions an undo took back: ``rewind``), and the result once over;
- ``Notice``: a refusal, a fault in the game's code, a bot that failed, a save problem,
  the end of the game by its host, in words;
- ``HintAnswer``: the search's suggestion at this seat's decision.

A seat sends ``Move`` (a choice at position ``seq``), ``AskHint``, ``Undo``, ``Retry``
(let a failed bot try again) and ``Leave``. Each message has a JSON form (``to_json``,
``message_from_json``, ``request_from_json``): a local table hands the objects over, a
server sends the JSON, and both decode to the same objects.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, TypeAlias

from tabletop.framework.engine import Engine
from tabletop.framework.errors import Unsupported
from tabletop.framework.game import Choice, Event, Prompt, Result

#: Who holds a table's game: this process (saves and copies are the player's), or a
#: server (the seat holds only what it is told).
LOCAL, SERVER = "local", "server"

#: What a notice is about (``Notice.topic``).
REFUSED = "refused"
"""A request of this seat changed nothing; ``text`` says why."""
FAULT = "fault"
"""The game's own code failed on a move; the game was kept as it was before it."""
BOT_FAILED = "bot-failed"
"""A bot raised instead of choosing; a ``Retry`` lets it try again."""
SAVE_FAILED = "save-failed"
"""The autosave failed: the game goes on in memory (local tables)."""
SAVED = "saved"
"""The autosave works again after a failure."""
ENDED = "ended"
"""The game takes no more moves (its host ended it, or the table closed)."""
UNDONE = "undone"
"""An undo took actions back (``text`` says how many); the update after it rewinds."""
LOST = "lost"
"""The line to the table is down (a server gone away): the front end keeps trying."""
BACK = "back"
"""The line to the table works again after ``LOST``."""
TOPICS = (REFUSED, FAULT, BOT_FAILED, SAVE_FAILED, SAVED, ENDED, UNDONE, LOST, BACK)

#: Longest action, label or text field a request may carry (a move is a short word).
MAX_REQUEST_FIELD = 200


class BadMessage(ValueError):
    """A message that is not one of the protocol's (the reason says what is wrong)."""


# Server to seat ------------------------------------------------------------------------


@dataclass(frozen=True)
class TableInfo:
    """What a seat learns once, as it joins: the game and the table around it."""

    type: ClassVar[str] = "welcome"
    game: str
    """The game's id (its plugin's ``GameInfo.id``): a front end finds the game's
    board widget and rules summary by it, when the game is installed there."""
    title: str
    seat: int | None
    """The seat this front end sits at; None for a spectator (public view only)."""
    seat_names: tuple[str, ...]
    controllers: tuple[str, ...]
    """Who plays each seat: ``"human"``, a bot kind, or ``"procedure"`` (the game's
    own solo opponent). Never a secret: the host chose them in the open."""
    options: Mapping[str, str] = field(default_factory=dict)
    hidden_information: bool = False
    cooperative: bool = False
    table: str = ""
    """The table's name: the save id of a local game, the game id on a server."""
    holder: str = LOCAL
    """``LOCAL``: this process holds the game (its save, copies of it); ``SERVER``."""
    undo: bool = False
    """Whether an undo can ever be granted at this table (a person plays, and the
    table keeps what undo needs); whether it is granted now, the table decides."""
    hints: bool = True
    """Whether the table answers ``AskHint``."""

    def seat_name(self, seat: int | None) -> str:
        if seat is None:
            return "Spectator"
        if 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return f"seat {seat}"

    def is_person(self, seat: int) -> bool:
        return 0 <= seat < len(self.controllers) and self.controllers[seat] == "human"

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "game": self.game,
            "title": self.title,
            "seat": self.seat,
            "seats": list(self.seat_names),
            "controllers": list(self.controllers),
            "options": dict(self.options),
            "hidden_information": self.hidden_information,
            "cooperative": self.cooperative,
            "table": self.table,
            "holder": self.holder,
            "undo": self.undo,
            "hints": self.hints,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> TableInfo:
        options = _get(data, "options", dict)
        return cls(
            game=_get(data, "game", str),
            title=_get(data, "title", str),
            seat=_seat(data.get("seat")),
            seat_names=tuple(_strings(data, "seats")),
            controllers=tuple(_strings(data, "controllers")),
            options={str(k): str(v) for k, v in options.items()},
            hidden_information=bool(data.get("hidden_information", False)),
            cooperative=bool(data.get("cooperative", False)),
            table=str(data.get("table", "")),
            holder=str(data.get("holder", SERVER)),
            undo=bool(data.get("undo", False)),
            hints=bool(data.get("hints", True)),
        )


@dataclass(frozen=True)
class LogLine:
    """One line of the game's story as a seat may read it (``Engine.story``)."""

    action: int
    """The number of the action the line belongs to (0: setup)."""
    text: str
    event: Event | None = None
    """The event the line tells; None for the line that tells a choice."""
    seat: int | None = None
    """Who made the choice a choice line tells (who decides is never a secret)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "action": self.action,
            "text": self.text,
            "event": None if self.event is None else self.event.to_json(),
            "seat": self.seat,
        }

    @classmethod
    def from_json(cls, data: Any) -> LogLine:
        if not isinstance(data, Mapping):
            raise BadMessage("a log line is an object")
        event = data.get("event")
        return cls(
            action=_get(data, "action", int),
            text=_get(data, "text", str),
            event=None if event is None else event_from_json(event),
            seat=_seat(data.get("seat")),
        )


@dataclass(frozen=True)
class SeatUpdate:
    """Everything a seat is told after the game changed."""

    type: ClassVar[str] = "update"
    seq: int
    """The position: how many actions the game has had. A move answers this position."""
    seat: int | None
    view: Mapping[str, Any]
    deciding: int | None
    """The seat that decides now (None once the game is over)."""
    prompt: Prompt | None = None
    """The decision with its explanations, only when it is this seat's."""
    log: tuple[LogLine, ...] = ()
    """The lines new since the last update, oldest first."""
    rewind: int | None = None
    """Set after an undo: forget every line of an action after this one, then add
    ``log``."""
    over: bool = False
    result: Result | None = None
    seed: int | None = None
    """The game's seed, once it is over (it tells no secret then; a save holds it)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "seq": self.seq,
            "seat": self.seat,
            "view": dict(self.view),
            "deciding": self.deciding,
            "prompt": None if self.prompt is None else prompt_to_json(self.prompt),
            "log": [line.to_json() for line in self.log],
            "rewind": self.rewind,
            "over": self.over,
            "result": None if self.result is None else result_to_json(self.result),
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> SeatUpdate:
        prompt, result, log = data.get("prompt"), data.get("result"), data.get("log", [])
        if not isinstance(log, list):
            raise BadMessage("update.log is a list")
        rewind, seed = data.get("rewind"), data.get("seed")
        return cls(
            seq=_get(data, "seq", int),
            seat=_seat(data.get("seat")),
            view=_get(data, "view", dict),
            deciding=_seat(data.get("deciding")),
            prompt=None if prompt is None else prompt_from_json(prompt),
            log=tuple(LogLine.from_json(line) for line in log),
            rewind=None if rewind is None else _int(rewind, "update.rewind"),
            over=bool(data.get("over", False)),
            result=None if result is None else result_from_json(result),
            seed=None if seed is None else _int(seed, "update.seed"),
        )


@dataclass(frozen=True)
class Notice:
    """News for a seat in words: a refusal, a fault, a bot's failure, a save problem."""

    type: ClassVar[str] = "notice"
    topic: str
    text: str
    seq: int | None = None
    """The position the notice is about (a refused request's), when there is one."""
    final: bool = False
    """The table takes no more moves (the game is over or was ended)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "topic": self.topic,
            "text": self.text,
            "seq": self.seq,
            "final": self.final,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Notice:
        seq = data.get("seq")
        return cls(
            topic=_get(data, "topic", str),
            text=_get(data, "text", str),
            seq=None if seq is None else _int(seq, "notice.seq"),
            final=bool(data.get("final", False)),
        )


@dataclass(frozen=True)
class HintAnswer:
    """What the search would choose at the seat's decision of position ``seq``,
    thought from that seat's information only (never played: a front end shows it)."""

    type: ClassVar[str] = "hint"
    seq: int
    action: str
    lines: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seq": self.seq, "action": self.action, "lines": [*self.lines]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> HintAnswer:
        return cls(
            seq=_get(data, "seq", int),
            action=_get(data, "action", str),
            lines=tuple(_strings(data, "lines")),
        )


SeatMessage: TypeAlias = TableInfo | SeatUpdate | Notice | HintAnswer
_MESSAGES: dict[str, Any] = {
    kind.type: kind for kind in (TableInfo, SeatUpdate, Notice, HintAnswer)
}


def message_from_json(data: Any) -> SeatMessage:
    """A table's message from its JSON form; BadMessage when it is not one."""
    if not isinstance(data, Mapping):
        raise BadMessage("a message is a JSON object")
    kind = _MESSAGES.get(str(data.get("type")))
    if kind is None:
        raise BadMessage(f"not a table's message: {str(data.get('type'))[:40]!r}")
    try:
        message: SeatMessage = kind.from_json(data)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, BadMessage):
            raise
        raise BadMessage(f"a malformed {kind.type} message: {exc}") from None
    return message


# Seat to table -------------------------------------------------------------------------


@dataclass(frozen=True)
class Move:
    """Answer the decision of position ``seq`` with ``action`` (one of its choices)."""

    type: ClassVar[str] = "move"
    seq: int
    action: str


@dataclass(frozen=True)
class AskHint:
    """What would the search choose at this seat's decision of position ``seq``?"""

    type: ClassVar[str] = "hint"
    seq: int


@dataclass(frozen=True)
class Undo:
    """Take back this seat's last decision (with the bot moves after it, where the
    rules of undo allow: ``GameSession.undo``). ``seq``: the position the seat saw."""

    type: ClassVar[str] = "undo"
    seq: int


@dataclass(frozen=True)
class Retry:
    """Let a bot that failed try its decision again."""

    type: ClassVar[str] = "retry"


@dataclass(frozen=True)
class Leave:
    """This front end leaves its seat (the game waits for it)."""

    type: ClassVar[str] = "leave"


SeatRequest: TypeAlias = Move | AskHint | Undo | Retry | Leave
_REQUESTS: dict[str, Any] = {kind.type: kind for kind in (Move, AskHint, Undo, Retry, Leave)}
#: The fields of each request (besides ``type``) and their types.
REQUEST_FIELDS: dict[str, dict[str, type]] = {
    "move": {"seq": int, "action": str},
    "hint": {"seq": int},
    "undo": {"seq": int},
    "retry": {},
    "leave": {},
}


def request_to_json(request: SeatRequest) -> dict[str, Any]:
    body: dict[str, Any] = {"type": request.type}
    for name in REQUEST_FIELDS[request.type]:
        body[name] = getattr(request, name)
    return body


def request_from_json(data: Any) -> SeatRequest:
    """A seat's request from its JSON form, checked field by field (types, sizes, no
    unknown field): BadMessage saying what is wrong."""
    if not isinstance(data, Mapping):
        raise BadMessage("a request is a JSON object")
    kind = str(data.get("type"))
    if kind not in _REQUESTS:
        raise BadMessage(f"unknown request {kind[:40]!r} (known: {', '.join(_REQUESTS)})")
    fields = REQUEST_FIELDS[kind]
    for key in data:
        if key != "type" and key not in fields:
            raise BadMessage(f"a {kind} request has no field {str(key)[:40]!r}")
    values: dict[str, Any] = {}
    for key, want in fields.items():
        if key not in data:
            raise BadMessage(f"a {kind} request needs {key!r}")
        value = data[key]
        if not isinstance(value, want) or (want is int and isinstance(value, bool)):
            raise BadMessage(f"{kind}.{key} has the wrong type")
        if isinstance(value, str) and len(value) > MAX_REQUEST_FIELD:
            raise BadMessage(f"{kind}.{key} is too long")
        if isinstance(value, int) and not 0 <= value < 2**53:
            raise BadMessage(f"{kind}.{key} is out of range")
        values[key] = value
    request: SeatRequest = _REQUESTS[kind](**values)
    return request


# Building what a seat is told ----------------------------------------------------------


@dataclass
class Cursor:
    """How far a seat has been told a game: actions and history entries (for
    ``Engine.story`` to resume from)."""

    actions: int = 0
    events: int = 0

    @classmethod
    def after(cls, engine: Engine, seen: int) -> Cursor:
        """The cursor just after action ``seen`` (0: nothing told yet), so that a seat
        that comes back is told only what it has not been told."""
        seen = max(0, min(seen, len(engine.log)))
        if seen == 0:
            return cls(0, 0)
        events = 0
        for index, (turn, _) in enumerate(engine.history):
            if turn > seen:
                return cls(seen, index)
            events = index + 1
        return cls(seen, events)

    def rewound(self, engine: Engine) -> bool:
        """Bring the cursor back after an undo took told actions back; whether it had
        to move (the seat must then forget the lines after ``engine``'s position)."""
        if self.actions <= len(engine.log) and self.events <= len(engine.history):
            return False
        self.actions = min(self.actions, len(engine.log))
        self.events = min(self.events, len(engine.history))
        return True


def seat_update(
    engine: Engine, seat: int | None, cursor: Cursor, *, rewind: int | None = None
) -> SeatUpdate:
    """What ``seat`` (None: a spectator) is told now: its view, the explained prompt
    when it decides (only who decides otherwise: never a secret), the log lines from
    ``cursor`` on, and the result once over. Moves ``cursor`` past what it tells.

    This is the one function that builds a seat's message, for every front end."""
    prompt = engine.prompt
    over = prompt is None
    shown = engine.explained_prompt if prompt is not None and prompt.seat == seat else None
    log = engine.log
    lines = tuple(
        LogLine(
            line.action,
            line.text,
            line.event,
            log[line.action - 1].seat if line.event is None and line.action else None,
        )
        for line in engine.story(seat, actions=cursor.actions, events=cursor.events)
    )
    cursor.actions, cursor.events = len(log), len(engine.history)
    result: Result | None = None
    if over:
        try:
            result = engine.result
        except Exception:  # the game's result() failed: the end is still the end
            result = None
    try:
        view = engine.view(seat)
    except Exception as exc:  # a view() that raises must not stop the game
        view = {"error": f"the game could not show its table: {type(exc).__name__}: {exc}"}
    return SeatUpdate(
        seq=len(log),
        seat=seat,
        view=view,
        deciding=None if prompt is None else prompt.seat,
        prompt=shown,
        log=lines,
        rewind=rewind,
        over=over,
        result=result,
        seed=engine.seed if over else None,
    )


# JSON of the game's own types -------------------------------------------------------------


def prompt_to_json(prompt: Prompt) -> dict[str, Any]:
    """A prompt as its seat receives it: seat, text, rule, and each choice's action,
    label, detail, consequence, key and public mark."""
    return {
        "seat": prompt.seat,
        "text": prompt.text,
        "rule": prompt.rule,
        "public": prompt.public,
        "choices": [
            {
                "action": c.action,
                "label": c.label,
                "detail": c.detail,
                "consequence": c.consequence,
                "key": c.key,
                "public": c.public,
            }
            for c in prompt.choices
        ],
    }


def prompt_from_json(data: Any) -> Prompt:
    if not isinstance(data, Mapping):
        raise BadMessage("a prompt is an object")
    choices = data.get("choices")
    if not isinstance(choices, list):
        raise BadMessage("prompt.choices is a list")
    rule = data.get("rule")
    return Prompt(
        _get(data, "seat", int),
        _get(data, "text", str),
        tuple(
            Choice(
                _get(c, "action", str),
                _get(c, "label", str),
                str(c.get("detail", "")),
                str(c.get("consequence", "")),
                str(c.get("key", "")),
                bool(c.get("public", False)),
            )
            for c in choices
            if isinstance(c, Mapping) or _bad("a choice is an object")
        ),
        None if rule is None else str(rule),
        bool(data.get("public", False)),
    )


def result_to_json(result: Result) -> dict[str, Any]:
    """Every field of a result (a game's sides too), tuples as lists."""
    return {
        spec.name: list(value) if isinstance(value, tuple) else value
        for spec in fields(Result)
        for value in (getattr(result, spec.name),)
    }


def result_from_json(data: Any) -> Result:
    if not isinstance(data, Mapping):
        raise BadMessage("a result is an object")
    values: dict[str, Any] = {}
    for spec in fields(Result):
        if spec.name not in data:
            continue
        value = data[spec.name]
        if spec.name == "winners":
            if not isinstance(value, list):
                raise BadMessage("result.winners is a list")
            value = tuple(_int(w, "result.winners") for w in value)
        elif spec.name == "scores":
            if not isinstance(value, list):
                raise BadMessage("result.scores is a list")
            value = tuple(float(x) for x in value if isinstance(x, int | float) or _bad("a score"))
        elif isinstance(value, list):
            value = tuple(str(item) for item in value)
        elif not isinstance(value, str | int | float | bool) and value is not None:
            raise BadMessage(f"result.{spec.name} has the wrong type")
        values[spec.name] = value
    if "winners" not in values:
        raise BadMessage("a result needs its winners")
    return Result(**values)


def event_from_json(data: Any) -> Event:
    if not isinstance(data, Mapping):
        raise BadMessage("an event is an object")
    seats = data.get("seats")
    extra = data.get("data") or {}
    if not isinstance(extra, Mapping):
        raise BadMessage("event.data is an object")
    return Event(
        _get(data, "kind", str),
        _get(data, "text", str),
        extra,
        None if seats is None else [_int(s, "event.seats") for s in seats],
        _seat(data.get("actor")),
        _opt_int(data.get("about"), "event.about"),
    )


def _bad(what: str) -> bool:
    raise BadMessage(f"{what} has the wrong type")


def _get(data: Mapping[str, Any], key: str, kind: type) -> Any:
    value = data.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise BadMessage(f"{key!r} is missing or has the wrong type")
    return value


def _int(value: Any, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadMessage(f"{what} has the wrong type")
    return value


def _opt_int(value: Any, what: str) -> int | None:
    return None if value is None else _int(value, what)


def _seat(value: Any) -> int | None:
    return _opt_int(value, "a seat")


def _strings(data: Mapping[str, Any], key: str) -> Sequence[str]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise BadMessage(f"{key!r} is a list")
    return [str(item) for item in value]


# A front end's end of the line ---------------------------------------------------------


class SeatState:
    """What one seat's front end knows of its game: only what its table told it, in
    order (the welcome, then each update: its view, prompt and the whole log so far,
    undone lines forgotten)."""

    def __init__(self) -> None:
        self.info: TableInfo | None = None
        self.update: SeatUpdate | None = None
        self.lines: list[LogLine] = []

    def take(self, message: SeatMessage) -> list[LogLine]:
        """Learn ``message``; for an update, return the lines it adds."""
        if isinstance(message, TableInfo):
            self.info = message
            return []
        if not isinstance(message, SeatUpdate):
            return []
        if message.rewind is not None:
            while self.lines and self.lines[-1].action > message.rewind:
                self.lines.pop()
        self.lines.extend(message.log)
        self.update = message
        return list(message.log)

    @property
    def seq(self) -> int:
        return 0 if self.update is None else self.update.seq

    @property
    def prompt(self) -> Prompt | None:
        return None if self.update is None else self.update.prompt

    @property
    def over(self) -> bool:
        return self.update is not None and self.update.over


class SeatConnection(ABC):
    """A front end's line to its table, whatever carries it (the transport): an
    in-process table (``table.LocalConnection``) or a server (the websocket client).

    ``open`` starts it: the table's messages then reach ``receive``, in order, on
    whatever thread the transport uses (a front end hands them to its own). ``send``
    never blocks: a request's answer comes back as a message. A front end reads the game
    only through these: the same screen plays a local seat and a remote one."""

    info: TableInfo | None = None
    #: Whether ``save_copy`` can work here (the player holds the game).
    can_save = False

    @abstractmethod
    def open(self, receive: Callable[[SeatMessage], None]) -> None:
        """Start the line: every message of the table reaches ``receive`` from now on."""

    @abstractmethod
    def send(self, request: SeatRequest) -> None:
        """Hand ``request`` to the table without waiting for its answer."""

    def save_copy(self, name: str) -> str:
        """Keep a copy of the game so far under ``name`` (where the player holds the
        game); returns the name it was saved as. Raises ``Unsupported`` saying why not."""
        raise Unsupported("the game is held elsewhere: it cannot be saved from here")

    @abstractmethod
    def close(self) -> None:
        """Leave the seat (the game waits for it); nothing more is received."""
