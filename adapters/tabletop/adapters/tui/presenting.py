"""Turning game data into words and Rich renderables, apart from any widget.

Kept free of Textual so that the rules for showing views, events and saves can be
tested directly and shared by every screen.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.padding import Padding
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from tabletop.framework.game import GameInfo
from tabletop.framework.ports import SaveInfo
from tabletop.framework.views import SCHEMA_KEYS, check_view_schema

#: Bot speeds the player cycles through, in the order the key gives them: seconds a
#: bot's turn stays on screen, for reading, before the next seat's move is shown (a bot
#: moves as soon as it has decided). The default is first: its first press is faster.
BOT_SPEEDS: tuple[tuple[str, float], ...] = (("normal", 0.4), ("fast", 0.05), ("slow", 1.2))
#: Plain values in a list are written on one line up to this many.
INLINE_ITEMS = 12
#: Widest a track's bar gets; a longer track is scaled down to it.
TRACK_WIDTH = 20


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


def value_text(value: Any) -> Text:
    """Any value on one line: lists joined with commas, mappings as ``label value``."""
    if _is_scalar(value):
        return scalar_text(value)
    if isinstance(value, Mapping):
        if not value:
            return Text("none", style="dim")
        return Text(", ").join(
            Text.assemble(f"{label_of_key(str(key))} ", value_text(item))
            for key, item in value.items()
        )
    if isinstance(value, list | tuple):
        if not value:
            return Text("none", style="dim")
        return Text(", ").join(value_text(item) for item in value)
    return Text(str(value))


def render_view(
    view: Mapping[str, Any],
    seat_names: Sequence[str],
    viewer: int | None,
    title: str = "Table",
    *,
    with_cards: bool = True,
) -> RenderableType:
    """Any game's view, drawn by the view schema (``tabletop.framework.views``).

    The documented keys each get their own drawing, in the schema's order; every other
    key is shown as a plain tree. Nothing is inferred from a key's name or a list's
    length. A schema key whose value does not have the documented shape is shown in the
    tree like any other key, so a game's mistake never hides its data. The game screen
    lists the cards itself (a card's text in the details pane): ``with_cards=False``.
    """
    players = len(seat_names)
    drawn = {
        key: view[key]
        for key in SCHEMA_KEYS
        if key in view and check_view_schema({key: view[key]}, players) is None
    }
    parts: list[RenderableType] = []
    if "status" in drawn:
        parts.append(Text(drawn["status"], style="bold"))
    if "seats" in drawn:
        parts.append(seats_table(drawn["seats"], viewer))
    if "you" in drawn:
        parts.append(you_panel(drawn["you"]))
    if "tracks" in drawn:
        parts.append(_section("Tracks", tracks_grid(drawn["tracks"])))
    if "zones" in drawn:
        parts.append(_section("Zones", zones_grid(drawn["zones"])))
    if "cards" in drawn and with_cards:
        parts.append(_section("Cards", cards_list(drawn["cards"])))
    rest = {key: value for key, value in view.items() if key not in drawn}
    if rest or not parts:
        tree = Tree(Text("More" if parts else title, style="bold"), guide_style="dim")
        _fill(tree, rest)
        parts.append(tree)
    return Group(*_spaced(parts))


def rows_width(
    view: Mapping[str, Any], seat_names: Sequence[str], viewer: int | None, console: Console
) -> int:
    """Cells the view's seats table needs so that none of its rows wraps (0: no table)."""
    rows = view.get("seats")
    if rows is None or check_view_schema({"seats": rows}, len(seat_names)) is not None:
        return 0
    return Measurement.get(console, console.options, seats_table(rows, viewer)).maximum


def _spaced(parts: list[RenderableType]) -> list[RenderableType]:
    """A blank line between sections, none after the last."""
    spaced: list[RenderableType] = []
    for index, part in enumerate(parts):
        if index:
            spaced.append(Text(""))
        spaced.append(part)
    return spaced


def _section(heading: str, body: RenderableType) -> RenderableType:
    return Group(Text(heading, style="bold underline"), body)


def seats_table(rows: Sequence[Mapping[str, Any]], viewer: int | None) -> Table:
    """A row per seat (the schema keeps seat order, so row ``i`` is seat ``i``); the
    columns are every field label, in the order they first appear."""
    labels: list[str] = []
    for row in rows:
        for label in row.get("fields", {}):
            if label not in labels:
                labels.append(label)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False, expand=False)
    table.add_column("Seat", no_wrap=True)
    for label in labels:
        numeric = all(_is_number(row.get("fields", {}).get(label)) for row in rows)
        table.add_column(str(label), justify="right" if numeric else "left")
    for seat, row in enumerate(rows):
        fields = row.get("fields", {})
        name = Text(str(row["name"]))
        if seat == viewer:
            name.append(" (you)", style="bold")
            name.stylize("bold")
        cells = [value_text(fields[label]) if label in fields else Text("") for label in labels]
        table.add_row(name, *cells)
    return table


def _is_number(value: Any) -> bool:
    """Numbers, and the blanks a numeric column may hold (absent, hidden, unknown)."""
    return (
        value is None
        or value == "?"
        or (isinstance(value, int | float) and not isinstance(value, bool))
    )


def you_panel(facts: Mapping[str, Any]) -> Panel:
    """What only the viewer knows, boxed so that it reads as private."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for label, value in facts.items():
        grid.add_row(f"{label}:", value_text(value))
    if not facts:
        grid.add_row(Text("nothing", style="dim"))
    return Panel(grid, title="You", title_align="left", box=box.ROUNDED, expand=False)


def track_bar(value: int, low: int, high: int, width: int = TRACK_WIDTH) -> Text:
    """``value`` within ``low``-``high`` as a bar, one cell per step on short tracks."""
    steps = high - low
    if steps <= 0:
        return Text("")
    cells = min(steps, width)
    filled = round((min(max(value, low), high) - low) * cells / steps)
    return Text.assemble(("█" * filled, "bold"), ("░" * (cells - filled), "dim"))


def tracks_grid(tracks: Sequence[Mapping[str, Any]]) -> Table:
    """Name, bar and number of each track; a track without bounds shows its value."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(no_wrap=True)
    grid.add_column()
    for track in tracks:
        value, low, high = track["value"], track.get("min"), track.get("max")
        if type(value) is int and type(low) is int and type(high) is int:
            bar = track_bar(value, low, high)
            grid.add_row(str(track["name"]), bar, f"{value} ({low} to {high})")
        else:
            grid.add_row(str(track["name"]), value_text(value), "")
    return grid


def zones_grid(zones: Sequence[Mapping[str, Any]]) -> Table:
    """Each zone on a line: what it holds, listed or counted."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    for zone in zones:
        contents: list[Text] = []
        if isinstance(zone.get("contents"), list):
            contents += [value_text(item) for item in zone["contents"]]
        if isinstance(zone.get("counts"), Mapping):
            contents += [Text(f"{label} {count}") for label, count in zone["counts"].items()]
        words = Text(", ").join(contents) if contents else Text("empty", style="dim")
        grid.add_row(f"{zone['name']}:", words)
    return grid


def cards_list(cards: Sequence[Mapping[str, Any]]) -> RenderableType:
    """Each card's name (and where it is), its text indented below."""
    lines: list[RenderableType] = []
    for card in cards:
        head = Text(str(card["name"]), style="bold")
        if card.get("where"):
            head.append(f" ({card['where']})", style="dim")
        lines.append(head)
        if card.get("text"):
            lines.append(Padding(Text(str(card["text"])), (0, 0, 0, 2)))
    return Group(*lines)


def _fill(node: Tree, data: Mapping[str, Any]) -> None:
    for key, value in data.items():
        _add_item(node, label_of_key(str(key)), value)


def _add_list(node: Tree, label: str, items: list[Any]) -> None:
    if all(_is_scalar(item) for item in items) and len(items) <= INLINE_ITEMS:
        node.add(Text.assemble((f"{label}: ", "bold"), value_text(items)))
        return
    branch = node.add(Text(f"{label} ({len(items)})", style="bold"))
    for index, item in enumerate(items):
        title = _item_title(item, index) if isinstance(item, Mapping) else f"#{index + 1}"
        _add_item(branch, title, item)


def _add_item(node: Tree, name: str, item: Any) -> None:
    if _is_scalar(item):
        node.add(Text.assemble((f"{name}: ", "bold"), scalar_text(item)))
    elif isinstance(item, Mapping):
        _fill(node.add(Text(name, style="bold")), item)
    elif isinstance(item, list | tuple):
        _add_list(node, name, list(item))
    else:
        node.add(Text.assemble((f"{name}: ", "bold"), str(item)))


def saved_at_text(saved_at: str) -> str:
    """``2026-01-02T10:30:00Z`` reads ``2026-01-02 10:30``."""
    return saved_at.replace("T", " ").rstrip("Z")[:16]


def shorten(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def shorten_middle(text: str, width: int) -> str:
    """``text`` cut in its middle to ``width``: a save's name keeps its game at the
    start and its date and tag at the end, which tell two saves apart."""
    if len(text) <= width:
        return text
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head) :]


#: The widest each column of the save list may be: at 120 columns the whole row of a
#: save with the longest names (a dated save of Charlemagne, Master of Europe) fits,
#: its progress included.
SAVE_NAME_WIDTH, SAVE_GAME_WIDTH, SAVE_PROGRESS_WIDTH, SAVE_SEATS_WIDTH = 28, 24, 30, 24
#: The same columns under 100 terminal columns: the five of them, their cell padding
#: and the table's border fit in 80 (the date without its year).
NARROW_WIDTHS = (14, 12, 17, 12)


def save_row(
    info: SaveInfo, titles: Mapping[str, str], result: str = "", *, narrow: bool = False
) -> tuple[str, str, str, str, str]:
    """Columns of a save on the home screen: name, game, saved, progress, seats. A
    finished game's progress says who won when its ``result`` is known. ``narrow``:
    each column shortened so that the five fit in 80 terminal columns."""
    name_w, game_w, progress_w, seats_w = (
        NARROW_WIDTHS
        if narrow
        else (SAVE_NAME_WIDTH, SAVE_GAME_WIDTH, SAVE_PROGRESS_WIDTH, SAVE_SEATS_WIDTH)
    )
    saved = saved_at_text(info.saved_at)
    if narrow:
        saved = saved[5:]  # "01-02 10:30": the year of a save is rarely in doubt
    if info.error is not None:
        error = shorten(info.error, progress_w + seats_w if narrow else 48)
        return (shorten_middle(info.save_id, name_w), "unreadable", saved, error, "")
    progress = info.progress or f"{info.actions} moves"
    if info.finished:
        progress = f"finished: {result}" if result else f"finished ({progress})"
    seats = ", ".join(info.seats) if info.seats else f"{info.players} players"
    return (
        shorten_middle(info.save_id, name_w),
        shorten(titles.get(info.game, info.game), game_w),
        saved,
        shorten(progress, progress_w),
        shorten(seats, seats_w),
    )


@dataclass(frozen=True)
class RulesSection:
    """A heading of a rules summary and the text under it (the heading included)."""

    number: str
    """The heading's section number ("7.2" for "## §7.2 Operations"); "" if none."""
    title: str
    markdown: str


_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_SECTION_NUMBER = re.compile(r"^(?:§\s*|([A-Za-z]{1,3})\.)?(\d+(?:\.\d+)*)\b")


def _section_number(text: str) -> str | None:
    """The section number ``text`` starts with, its letter prefix kept ("R.7.2" for a
    regime rule, "7.2" for "§7.2"): a rulebook's lettered appendix numbers its own
    sections, and R.7.2 is not chapter 7's section 2. None when there is none."""
    found = _SECTION_NUMBER.match(text.strip())
    if found is None:
        return None
    prefix, number = found.groups()
    return f"{prefix.upper()}.{number}" if prefix else number


def rules_sections(markdown: str) -> list[RulesSection]:
    """A rules summary cut at its headings, so the screen can open at any of them.
    Lines inside a fenced code block are never taken for headings."""
    sections: list[RulesSection] = []
    lines: list[str] = []
    number, title, fenced = "", "", False

    def close() -> None:
        if lines and (title or any(line.strip() for line in lines)):
            sections.append(RulesSection(number, title, "\n".join(lines).strip("\n")))

    for line in markdown.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        heading = None if fenced else _HEADING.match(line)
        if heading is not None:
            close()
            lines = []
            title = heading.group(2).strip()
            number = _section_number(title) or ""
        lines.append(line)
    close()
    return sections


def cited_section(sections: Sequence[RulesSection], rule: str | None) -> int | None:
    """The index of the section a prompt's ``rule`` cites ("§7.2", "7.2.1", "R.7.2"):
    the heading whose number is the longest leading part of the cited number; None
    when no heading is numbered so."""
    if not rule:
        return None
    number = _section_number(rule)
    if number is None:
        return None
    cited = number.split(".")
    best, best_depth = None, 0
    for index, section in enumerate(sections):
        if not section.number:
            continue
        parts = section.number.split(".")
        if len(parts) > best_depth and cited[: len(parts)] == parts:
            best, best_depth = index, len(parts)
    return best
