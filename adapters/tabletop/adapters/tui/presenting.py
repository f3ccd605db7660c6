"""Turning game data into words and Rich renderables, apart from any widget.

Kept free of Textual so that the rules for showing views, events and saves can be
tested directly and shared by every screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeGuard

from rich.text import Text
from rich.tree import Tree

from tabletop.framework.game import Event, GameInfo
from tabletop.framework.ports import SaveInfo

#: Bot speeds the player cycles through: seconds a bot waits before each move.
BOT_SPEEDS: tuple[tuple[str, float], ...] = (("fast", 0.05), ("normal", 0.4), ("slow", 1.2))
#: View keys whose integer value names a seat ("active": 1 reads "Player 2").
SEAT_KEYS = frozenset({"active", "seat", "current", "player", "winner", "dealer", "leader"})
#: Plain values in a list are written on one line up to this many.
INLINE_ITEMS = 12
DIE_FACES = "⚀⚁⚂⚃⚄⚅"


@dataclass
class NewGameSpec:
    """Everything the new-game dialog collects; enough to start and reproduce a game."""

    game_id: str
    players: int
    options: dict[str, str]
    controllers: list[str]
    seed: int


def next_bot_speed(delay: float) -> tuple[str, float]:
    """The speed after the one closest to ``delay`` (wrapping), so any start value cycles."""
    closest = min(range(len(BOT_SPEEDS)), key=lambda i: abs(BOT_SPEEDS[i][1] - delay))
    return BOT_SPEEDS[(closest + 1) % len(BOT_SPEEDS)]


def speed_name(delay: float) -> str:
    if delay <= 0:
        return "instant"
    for name, value in BOT_SPEEDS:
        if abs(value - delay) < 1e-9:
            return name
    return f"{delay:g} s"


def players_text(info: GameInfo) -> str:
    if info.min_players == info.max_players:
        return str(info.min_players)
    return f"{info.min_players}-{info.max_players}"


def label_of_key(key: str) -> str:
    """``turn_total`` reads ``Turn total``."""
    words = key.replace("_", " ").replace("-", " ").strip()
    return words[:1].upper() + words[1:] if words else key


def seat_label(seat: int, seat_names: Sequence[str]) -> str:
    return seat_names[seat] if 0 <= seat < len(seat_names) else f"seat {seat}"


def _is_int(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def scalar_text(value: Any) -> Text:
    """One plain value; ``None`` (unknown, hidden or unset) is a dim dash."""
    if value is None:
        return Text("—", style="dim")
    if isinstance(value, bool):
        return Text("yes" if value else "no")
    if isinstance(value, float) and value.is_integer():
        return Text(str(int(value)))
    return Text(str(value))


def _is_scalar(value: Any) -> bool:
    return value is None or isinstance(value, str | int | float | bool)


def _item_title(item: Mapping[str, Any], index: int) -> str:
    for key in ("name", "title", "label", "id"):
        if isinstance(item.get(key), str | int) and not isinstance(item.get(key), bool):
            return str(item[key])
    return f"#{index + 1}"


def render_view(
    view: Mapping[str, Any], seat_names: Sequence[str], viewer: int | None, title: str = "Table"
) -> Tree:
    """A readable tree of any game's view dict: keys as words, seat lists by seat name.

    Games without a board widget still show everything the view holds; a list with one
    entry per seat (banks, hands, scores) is labelled with the seats' names.
    """
    tree = Tree(Text(title, style="bold"), guide_style="dim")
    _fill(tree, view, seat_names, viewer)
    return tree


def _fill(
    node: Tree, data: Mapping[str, Any], seat_names: Sequence[str], viewer: int | None
) -> None:
    for key, value in data.items():
        label = label_of_key(str(key))
        if _is_scalar(value):
            text = Text.assemble((f"{label}: ", "bold"), scalar_text(value))
            if key in SEAT_KEYS and _is_int(value) and 0 <= value < len(seat_names):
                text = Text.assemble((f"{label}: ", "bold"), seat_names[value])
            node.add(text)
        elif isinstance(value, Mapping):
            _fill(node.add(Text(label, style="bold")), value, seat_names, viewer)
        elif isinstance(value, list | tuple):
            _add_list(node, label, list(value), seat_names, viewer)
        else:
            node.add(Text.assemble((f"{label}: ", "bold"), str(value)))


def _add_list(
    node: Tree, label: str, items: list[Any], seat_names: Sequence[str], viewer: int | None
) -> None:
    # One entry per seat (banks, hands, scores)... unless it reads like a list of names
    # or cards: a two-card hand in a two-player game is not one card per seat.
    per_seat = (
        len(seat_names) > 1
        and len(items) == len(seat_names)
        and (any(item is None for item in items) or not any(isinstance(i, str) for i in items))
    )
    if per_seat:
        branch = node.add(Text(label, style="bold"))
        for seat, item in enumerate(items):
            name = seat_names[seat] + (" (you)" if seat == viewer else "")
            _add_item(branch, name, item, seat_names, viewer)
        return
    if all(_is_scalar(item) for item in items) and len(items) <= INLINE_ITEMS:
        words = Text(", ").join(scalar_text(item) for item in items) if items else Text(
            "none", style="dim"
        )
        node.add(Text.assemble((f"{label}: ", "bold"), words))
        return
    branch = node.add(Text(f"{label} ({len(items)})", style="bold"))
    for index, item in enumerate(items):
        title = _item_title(item, index) if isinstance(item, Mapping) else f"#{index + 1}"
        _add_item(branch, title, item, seat_names, viewer)


def _add_item(
    node: Tree, name: str, item: Any, seat_names: Sequence[str], viewer: int | None
) -> None:
    if _is_scalar(item):
        node.add(Text.assemble((f"{name}: ", "bold"), scalar_text(item)))
    elif isinstance(item, Mapping):
        _fill(node.add(Text(name, style="bold")), item, seat_names, viewer)
    elif isinstance(item, list | tuple):
        _add_list(node, name, list(item), seat_names, viewer)
    else:
        node.add(Text.assemble((f"{name}: ", "bold"), str(item)))


def event_text(event: Event, seat_names: Sequence[str]) -> Text:
    """An event in words, led by who did it; dice show their faces; private ones say so."""
    data = event.data
    who = data.get("seat")
    text = Text()
    if _is_int(who):
        text.append(seat_label(who, seat_names), style="bold")
        text.append(" ")
    if event.kind == "dice":
        faces = data.get("faces") or []
        sides = data.get("sides")
        for face in faces:
            if sides == 6 and _is_int(face) and 1 <= face <= 6:
                text.append(f"{DIE_FACES[face - 1]} ", style="bold yellow")
            else:
                text.append(f"[{face}] ", style="bold yellow")
    text.append(event.text)
    if event.seats is not None:
        text.append("  (private)", style="dim italic")
    return text


def saved_at_text(saved_at: str) -> str:
    """``2026-01-02T10:30:00Z`` reads ``2026-01-02 10:30``."""
    return saved_at.replace("T", " ").rstrip("Z")[:16]


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def save_row(info: SaveInfo, titles: Mapping[str, str]) -> tuple[str, str, str, str, str]:
    """Columns of a save on the home screen: name, game, saved, progress, seats."""
    if info.error is not None:
        error = shorten(info.error, 48)
        return (info.save_id, "unreadable", saved_at_text(info.saved_at), error, "")
    progress = info.progress or f"{info.actions} moves"
    if info.finished:
        progress = f"finished ({progress})"
    seats = ", ".join(info.seats) if info.seats else f"{info.players} players"
    return (
        info.save_id,
        titles.get(info.game, info.game),
        saved_at_text(info.saved_at),
        progress,
        shorten(seats, 32),
    )
