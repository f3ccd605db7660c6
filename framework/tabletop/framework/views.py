"""The view schema: how a game lays out a seat's view for a screen it did not draw.

A view is plain JSON data, for bots and for front ends alike. A game with its own board
widget may shape it freely. A game without one reads well on the generic screen when it
uses these documented top-level keys (all optional); the screen draws each kind in its
own way and shows every other key as a plain tree, so nothing is guessed from a key's
name or a list's length:

``status``
    One line on where the game stands ("Round 2, Versailles to play").
``seats``
    One entry per seat, in seat order: ``{"name": str, "fields": {label: value}}``; the
    screen draws them as a table with a row per seat. Only public facts belong here;
    a hidden value is simply left out (or shown as ``"?"``).
``you``
    What only the viewing seat knows (its hand, its secret objective): a mapping of
    label to value. Absent for spectators.
``tracks``
    Numbered tracks: ``{"name": str, "value": int, "min": int, "max": int}``.
``zones``
    Places with contents: ``{"name": str, "contents": [str, ...]}`` or, for counts,
    ``{"name": str, "counts": {label: int}}``.
``cards``
    Cards the viewer can see, each ``{"name": str, "text": str}``: a hand, a display,
    the top of a discard pile. ``"where"`` may say which.

The helpers below build these pieces with the right shape (and are typed, so mypy
catches a misspelt field). Checked by ``check_view_schema``, which the conformance kit
and the fuzzer run on every view.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any, NotRequired, TypedDict

#: The top-level keys the generic screen draws in its own way.
SCHEMA_KEYS = ("status", "seats", "you", "tracks", "zones", "cards")


class SeatEntry(TypedDict):
    name: str
    fields: dict[str, Any]


class Track(TypedDict):
    name: str
    value: int
    min: int
    max: int


class Zone(TypedDict):
    name: str
    contents: NotRequired[list[str]]
    counts: NotRequired[dict[str, int]]


class Card(TypedDict):
    name: str
    text: str
    where: NotRequired[str]


def seats(names: Sequence[str], fields: Sequence[Mapping[str, Any]]) -> list[SeatEntry]:
    """One table row per seat: ``names[i]`` with ``fields[i]`` (public facts only)."""
    if len(names) != len(fields):
        raise ValueError("seats(): one fields mapping per seat name")
    return [{"name": name, "fields": dict(row)} for name, row in zip(names, fields, strict=True)]


def track(name: str, value: int, low: int, high: int) -> Track:
    return {"name": name, "value": value, "min": low, "max": high}


def zone(
    name: str, contents: Iterable[str] | None = None, counts: Mapping[str, int] | None = None
) -> Zone:
    """A place with items listed (``contents``) or counted (``counts``)."""
    entry: Zone = {"name": name}
    if contents is not None:
        entry["contents"] = list(contents)
    if counts is not None:
        entry["counts"] = dict(counts)
    return entry


def card(name: str, text: str = "", where: str = "") -> Card:
    entry: Card = {"name": name, "text": text}
    if where:
        entry["where"] = where
    return entry


def check_view_schema(view: Mapping[str, Any], players: int) -> str | None:
    """Why ``view`` misuses a schema key (None when it is sound). The message names the
    key as reserved: a game that meant its own data under ``cards`` learns to choose
    another key, or to give the schema's shape."""
    problem, key = _schema_problem(view, players)
    if problem is None:
        return None
    return (
        f"{problem} ({key!r} is one of the view schema's reserved keys, "
        f"{', '.join(SCHEMA_KEYS)}, which the generic screen draws in its own way: give "
        "it that shape, or keep your own data under another key)"
    )


def _schema_problem(view: Mapping[str, Any], players: int) -> tuple[str | None, str]:
    if "status" in view and not isinstance(view["status"], str):
        return "view['status'] must be a string", "status"
    if "seats" in view:
        rows = view["seats"]
        if not isinstance(rows, list) or len(rows) != players:
            return f"view['seats'] must be a list with one entry per seat ({players})", "seats"
        for index, row in enumerate(rows):
            if not isinstance(row, dict) or not isinstance(row.get("name"), str):
                return f"view['seats'][{index}] needs a 'name' string", "seats"
            if not isinstance(row.get("fields", {}), dict):
                return f"view['seats'][{index}]['fields'] must be a mapping", "seats"
    if "you" in view and not isinstance(view["you"], dict):
        return "view['you'] must be a mapping of label to value", "you"
    for key, needed in (("tracks", ("name", "value")), ("zones", ("name",)), ("cards", ("name",))):
        if key not in view:
            continue
        items = view[key]
        if not isinstance(items, list):
            return f"view[{key!r}] must be a list", key
        for index, item in enumerate(items):
            if not isinstance(item, dict) or any(field not in item for field in needed):
                return f"view[{key!r}][{index}] needs {', '.join(needed)}", key
    return None, ""


def _containers(data: Any, path: str, into: dict[int, str]) -> None:
    """Every list and dict inside ``data`` by id, with the path to it."""
    kind = type(data)
    if kind is dict:
        into.setdefault(id(data), path)
        for key, value in data.items():
            _containers(value, f"{path}[{key!r}]", into)
    elif kind is list:
        into.setdefault(id(data), path)
        for index, value in enumerate(data):
            _containers(value, f"{path}[{index}]", into)


def shared_part(view: Any, *others: Any) -> str | None:
    """The path of a list or dict in ``view`` that is also inside one of ``others``
    (the state, another view), or None: what a game's ``fresh_views`` promises never
    happens. A shared list would let whoever holds the view change the game through
    it, or later read a secret the game adds to it."""
    seen: dict[int, str] = {}
    for other in others:
        _containers(other, "", seen)
    mine: dict[int, str] = {}
    _containers(view, "view", mine)
    for ident, path in mine.items():
        if ident in seen:
            return path
    return None
