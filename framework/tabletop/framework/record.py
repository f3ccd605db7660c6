"""A game record: everything needed to rebuild a game, as plain data.

A record is the seed, the options, the seats and the log of actions, plus the digest
of the state they lead to so that a replay can be verified. It never holds the state
itself: the state is always rebuilt by replaying, so a save cannot disagree with the
rules that produced it.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from tabletop.framework.errors import SaveError

#: The record format this code writes. Older formats are migrated on load.
FORMAT_VERSION = 1
#: Marks a file as ours: a JSON file without it is foreign.
FORMAT_NAME = "tabletop-game-record"
#: Deepest nesting of lists and objects a record may hold (the record itself uses 3;
#: the rest is room for ``meta``). Readers and writers share the limit, so nothing this
#: code writes is refused on reading, and no crafted file can exhaust the stack of the
#: JSON codec, the digest or the UI.
MAX_DEPTH = 32
#: Longest integer (in decimal digits) a record may hold: seeds and seats are far
#: shorter, and Python refuses to read integers of more than 4,300 digits anyway.
MAX_INT_DIGITS = 40
#: Most seats a record may name: far above any board game, small enough to allocate.
MAX_PLAYERS = 1000
_HEX_DIGEST = re.compile(r"^[0-9a-f]{64}$")
_INT_LIMIT = 10**MAX_INT_DIGITS


def canonical_json(data: Any) -> str:
    """JSON with sorted keys and no spaces: one byte string per value, on any machine."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def digest_of(data: Any) -> str:
    """sha256 of the canonical JSON of ``data``."""
    return hashlib.sha256(canonical_json(data).encode("ascii")).hexdigest()


@dataclass
class GameRecord:
    game: str
    seed: int
    players: int
    options: dict[str, str]
    actions: list[tuple[int, str]] = field(default_factory=list)
    digest: str = ""
    game_version: str = ""
    rng: str = ""
    """Name of the random algorithm that produced the game (replay must use the same)."""
    seats: list[str] = field(default_factory=list)
    """Who controls each seat in the app ("human", "random"...); not used by the rules."""
    progress: str = ""
    finished: bool = False
    meta: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT_NAME,
            "version": FORMAT_VERSION,
            "game": self.game,
            "game_version": self.game_version,
            "rng": self.rng,
            "seed": self.seed,
            "players": self.players,
            "options": dict(self.options),
            "seats": list(self.seats),
            "actions": [[seat, action] for seat, action in self.actions],
            "digest": self.digest,
            "progress": self.progress,
            "finished": self.finished,
            "meta": dict(self.meta),
        }

    @classmethod
    def from_json(cls, data: Any) -> GameRecord:
        """Validate and build a record; raise SaveError naming the first problem."""
        if not isinstance(data, dict):
            raise SaveError("not a Tabletop save (the file is not a JSON object)")
        if data.get("format") != FORMAT_NAME:
            raise SaveError("not a Tabletop save (no 'format: tabletop-game-record' marker)")
        version = data.get("version")
        if not isinstance(version, int) or isinstance(version, bool):
            raise SaveError("save has no valid format version")
        if version > FORMAT_VERSION:
            raise SaveError(
                f"save format version {version} is newer than this Tabletop reads "
                f"({FORMAT_VERSION}); upgrade Tabletop to open it"
            )
        data = migrate(data, version)
        try:
            actions_raw = data["actions"]
            if not isinstance(actions_raw, list):
                raise TypeError("actions is not a list")
            actions: list[tuple[int, str]] = []
            for entry in actions_raw:
                if (
                    not isinstance(entry, list)
                    or len(entry) != 2
                    or not is_int(entry[0])
                    or not isinstance(entry[1], str)
                ):
                    raise TypeError(f"bad action entry {entry!r:.60}")
                actions.append((entry[0], entry[1]))
            options = data.get("options", {})
            if not isinstance(options, dict) or not all(
                isinstance(k, str) and isinstance(v, str) for k, v in options.items()
            ):
                raise TypeError("options must map names to strings")
            seats = data.get("seats", [])
            if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
                raise TypeError("seats must be a list of strings")
            meta = data.get("meta", {})
            if not isinstance(meta, dict):
                raise TypeError("meta must be an object")
            players = _typed(data, "players", int)
            if not 1 <= players <= MAX_PLAYERS:
                raise TypeError(f"players must be between 1 and {MAX_PLAYERS}, not {players}")
            if seats and len(seats) != players:
                raise TypeError(f"seats names {len(seats)} controllers for {players} players")
            if any(not 0 <= seat < players for seat, _ in actions):
                raise TypeError("an action names a seat that does not exist")
            digest = _typed(data, "digest", str)
            if not _HEX_DIGEST.match(digest) and (digest or actions):
                # only a game whose setup failed (no actions, no state) has no digest
                raise TypeError("digest must be 64 hexadecimal digits (it was emptied or edited)")
            record = cls(
                game=_typed(data, "game", str),
                seed=_typed(data, "seed", int),
                players=players,
                options=dict(options),
                actions=actions,
                digest=digest,
                game_version=_optional(data, "game_version", str, ""),
                rng=_optional(data, "rng", str, ""),
                seats=list(seats),
                progress=_optional(data, "progress", str, ""),
                finished=_optional(data, "finished", bool, False),
                meta=meta,
            )
        except (KeyError, TypeError) as exc:
            raise SaveError(f"damaged save: {_reason(exc)}") from None
        return record


def is_int(value: Any) -> TypeGuard[int]:
    """Whether ``value`` is an integer from JSON: ``True`` and ``False`` are not, although
    Python counts them as ints (a seat, a count or a die face read from a save or a view)."""
    return isinstance(value, int) and not isinstance(value, bool)


def _typed(data: dict[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise KeyError(key)
    value = data[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise TypeError(f"{key} must be {kind.__name__}")
    return value


def _optional(data: dict[str, Any], key: str, kind: type, default: Any) -> Any:
    """A field that may be absent but, when present, has exactly its type: a forged
    ``"finished": "no"`` is damage, not a finished game."""
    if key not in data:
        return default
    return _typed(data, key, kind)


def check_plain_data(data: Any, *, skip: tuple[str, ...] = ()) -> None:
    """Refuse data a save may not hold: nesting deeper than MAX_DEPTH, integers longer
    than MAX_INT_DIGITS, non-finite numbers, or anything that is not JSON.

    Iterative, so the check itself cannot overflow the stack it protects. Writers call
    it before writing and readers after parsing, with the same limits. ``skip`` names
    top-level keys checked elsewhere (a record's ``actions``, whose every entry
    ``GameRecord.from_json`` checks for shape anyway: a long log walks once, not twice).
    """
    if skip and isinstance(data, dict):
        data = {key: value for key, value in data.items() if key not in skip}
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, dict):
            items: Any = value.values()
            if not all(isinstance(key, str) for key in value):
                raise SaveError("not JSON data: an object key is not a string")
        elif isinstance(value, list | tuple):
            items = value
        elif isinstance(value, bool) or value is None or isinstance(value, str):
            continue
        elif isinstance(value, int):
            if not -_INT_LIMIT < value < _INT_LIMIT:
                raise SaveError(f"an integer longer than {MAX_INT_DIGITS} digits")
            continue
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise SaveError("a number that is not finite")
            continue
        else:
            raise SaveError(f"not JSON data: holds a {type(value).__name__}")
        if depth >= MAX_DEPTH and len(items):
            raise SaveError(f"nested deeper than {MAX_DEPTH} levels")
        stack.extend((item, depth + 1) for item in items)


def _reason(exc: Exception) -> str:
    if isinstance(exc, KeyError):
        return f"missing field {exc.args[0]!r}"
    return str(exc)


#: Migrations from format N to N+1, applied in order on load. Each takes and returns
#: the raw JSON object. Format 1 is the first, so the table is empty for now.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {}


def migrate(data: dict[str, Any], version: int) -> dict[str, Any]:
    """Bring a raw record from ``version`` up to FORMAT_VERSION."""
    while version < FORMAT_VERSION:
        step = MIGRATIONS.get(version)
        if step is None:
            raise SaveError(f"save format version {version} is too old to migrate")
        data = step(dict(data))
        version += 1
    return data
