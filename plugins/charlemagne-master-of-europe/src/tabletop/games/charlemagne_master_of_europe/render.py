"""The board as text, drawn from the view only (never the state): the map by Region
with each stack top unit first, Charlemagne and the Marquis, the Churches, the tracks
and this turn's thresholds, diplomacy, the cups' counts, the army by unit type and
level, the Game Turn Record Track for every turn, each box's movement lines and,
during a battle, the Battle Display with its staggered lines. Lines are fitted to the
width the board is given (a long stack continues under itself, never at the left
edge). The Textual widget shows this text; keeping it free of Textual lets the
headless tests check it."""

from __future__ import annotations

import textwrap
from typing import Any

from .data import (
    BOXES,
    COUNTER_GROUPS,
    ENEMY_BATTLE_UNITS,
    FRIENDLY_FACTORS,
    LAST_TURN,
    REGION_ORDER,
    REGIONS,
    minimum_army_strength,
    vp_threshold,
    wealth_threshold,
)

#: The width the board is drawn for when none is given: an 80-column terminal's table.
WIDTH = 42
#: Turns per row of the Game Turn Record Track, and the width of one turn's column.
TRACK_ROW, TRACK_CELL = 8, 4

#: Width of one Battle Display space; your line sits half a space to the right, so
#: your space j lies between enemy spaces j and j+1, the two it touches.
CELL = 9
WINGS = (("left", "Left"), ("right", "Right"))
#: How the view's box contents name your own pieces (they come before the stack).
PIECES = ("Charlemagne", "Marquis of ")


def render_board(view: dict[str, Any], width: int = WIDTH) -> str:
    width = max(width, 30)
    lines = _fit(str(view.get("status", "")), width)
    if view.get("battle"):
        lines += _battle(view, width)  # first, where a short screen still shows it
    lines += _tracks(view, width)
    lines += _army(view, width)
    lines += _map(view, width)
    lines += _turn_track(view)
    lines += _movement(width)
    return "\n".join(lines)


def _fit(text: str, width: int, hang: int = 2) -> list[str]:
    """``text`` wrapped at ``width``, its continuation lines indented by ``hang`` more
    than its own indent (so they never start at the left edge)."""
    if len(text) <= width:
        return [text]
    indent = len(text) - len(text.lstrip(" "))
    return textwrap.wrap(
        text.strip(),
        width,
        initial_indent=" " * indent,
        subsequent_indent=" " * (indent + hang),
        break_on_hyphens=False,
    ) or [text]


def _pack(fields: list[str], width: int, indent: str = "") -> list[str]:
    """Fields joined by two spaces, a new line where the next would not fit; a field is
    never split (so "Army 44 (minimum 30)" stays whole)."""
    lines: list[str] = []
    line = indent
    for field in fields:
        if line.strip() and len(line) + 2 + len(field) > width:
            lines.append(line)
            line = indent
        line += ("  " if line.strip() else "") + field
    if line.strip():
        lines.append(line)
    return lines


def _zone(view: dict[str, Any], name: str) -> dict[str, Any]:
    for entry in view.get("zones", ()):
        if entry.get("name") == name:
            found: dict[str, Any] = entry
            return found
    return {}


def _tracks(view: dict[str, Any], width: int) -> list[str]:
    numbers = view.get("numbers", {})
    turn = min(int(numbers.get("turn", 1)), LAST_TURN)
    realm = view.get("you") or view.get("realm") or {}
    army = next((t["value"] for t in view.get("tracks", ()) if t["name"] == "Army Strength"), 0)
    cups = _zone(view, "Cups").get("counts", {})
    title = "Holy Roman Emperor" if numbers.get("hre") else "King of the Franks"
    if numbers.get("iron_crown"):
        title += ", King of the Lombards (Iron Crown)"
    # Short lines: the board shares the screen with the decision and the log.
    fields = [
        f"Turn {turn}/{LAST_TURN}",
        f"VP {numbers.get('vp', 0)} (threshold {vp_threshold(turn)})",
        f"Army {army} (minimum {minimum_army_strength(turn)})",
        f"Treasury {numbers.get('treasury', 0)}/20",
        f"Taxes {numbers.get('taxes', 0)} (Wealth {wealth_threshold(turn)})",
        f"EVP {numbers.get('evp', 0)}",
        f"PAM {int(numbers.get('pam', 0)):+d}",
    ]
    lines = _pack(fields, width)
    lines += _fit(title, width)
    lines += _pack(
        [
            f"Al-Andalus: {realm.get('Al-Andalus', '?')}",
            f"Byzantium: {realm.get('Byzantium', '?')}",
        ],
        width,
    )
    sizes = [f"{cup} {count}" for cup, count in cups.items() if cup != "Battle"]
    if sizes:
        sizes[0] = "Cups: " + sizes[0]  # the chits in each, never their contents
    lines += _pack(sizes, width)
    lines += _pack(
        [f"Battle Cup {cups.get('Battle', 0)}", f"Dead Pool {len(view.get('dead_pool', ()))}"],
        width,
    )
    drawn = int(numbers.get("turn_ends_drawn", 0))
    lines += _fit(f"Turn End markers: {drawn} of 2 drawn (the second ends the campaign)", width)
    return lines


def _army(view: dict[str, Any], width: int) -> list[str]:
    """Your army by unit type and level: how many of each you have, how many stand on
    the Battle Display during a battle, and the counters still free in the Force Pool
    (what the Levy and promotions can still use)."""
    army = list(view.get("army", ()))
    b = view.get("battle")
    placed = (
        {u for w, _ in WINGS for u in b["mine"][w] + b["flank"][w] if u is not None} if b else set()
    )
    strength = sum(int(u["level"]) for u in army)
    head = f"Army: {len(army)} units, strength {strength}"
    if placed:
        head += f" ({len(placed)} in battle, {len(army) - len(placed)} in Reserve)"
    lines = _fit(head, width)
    kinds: tuple[tuple[str, tuple[int, ...]], ...] = (
        ("infantry", (1, 2, 3, 4)),
        ("scara", (2, 3, 4)),
    )
    for kind, ranks in kinds:
        counts = [
            f"L{level} {sum(1 for u in army if u['kind'] == kind and u['level'] == level)}"
            for level in ranks
        ]
        lines += _fit(f"  {kind.title()} " + ", ".join(counts), width)
    free = ["Force Pool, counters free:"]
    for kind, levels, count in COUNTER_GROUPS:
        used = sum(1 for u in army if u["kind"] == kind and u["level"] in levels)
        span = str(levels[0]) if len(levels) == 1 else f"{levels[0]}-{levels[-1]}"
        free.append(f"{kind.title()} L{span} {count - used}")
    lines += _pack(free, width, indent="  ")
    return lines


def _turn_track(view: dict[str, Any]) -> list[str]:
    """The Game Turn Record Track: every turn's VP threshold, Wealth threshold and
    Minimum Army Strength, this turn in brackets (the turns before it are past)."""
    turn = min(int(view.get("numbers", {}).get("turn", 1)), LAST_TURN)
    lines = ["Turn track ([n] is now, earlier is past):"]
    rows = (
        ("VP", vp_threshold),
        ("Wealth", wealth_threshold),
        ("Army", minimum_army_strength),
    )
    for first in range(1, LAST_TURN + 1, TRACK_ROW):
        turns = range(first, min(first + TRACK_ROW, LAST_TURN + 1))
        cells = "".join((f"[{t}]" if t == turn else str(t)).rjust(TRACK_CELL) for t in turns)
        lines.append(f"  {'Turn':<7}{cells}")
        for label, value in rows:
            lines.append(f"  {label:<7}" + "".join(str(value(t)).rjust(TRACK_CELL) for t in turns))
    return lines


def _movement(width: int) -> list[str]:
    """Each box and the boxes its movement lines join it to (one move apart)."""
    lines = _fit("Movement lines (a box: its neighbours; Bridges & Roads add more):", width)
    for region in REGION_ORDER:
        for box in REGIONS[region].boxes:
            near = ", ".join(BOXES[b].name for b in BOXES[box].adjacent)
            lines += _fit(f"  {BOXES[box].name}: {near}", width, hang=4)
    return lines


def _map(view: dict[str, Any], width: int) -> list[str]:
    churches = dict(line.split(": ", 1) for line in _zone(view, "Churches").get("contents", ()))
    vikings = _zone(view, "Vikings").get("counts", {})
    realm = view.get("you") or view.get("realm") or {}
    marquis = realm.get("Marquis")
    roads = (
        {r for r, where in marquis.items() if "Bridges" in where}
        if isinstance(marquis, dict)
        else set()
    )
    lines = _fit("Map (stacks top first; a number is a Resistance):", width)
    for region in REGION_ORDER:
        name = REGIONS[region].name
        notes = [f"Church {churches[name]}"] if name in churches else []
        if name in roads:
            notes.append("Bridges & Roads")
        if vikings.get(name):
            notes.append(f"Vikings {vikings[name]}")
        lines.append(f" {name}" + (": " + ", ".join(notes) if notes else ""))
        for box in REGIONS[region].boxes:
            contents = _zone(view, f"{BOXES[box].name} [{region.title()}]").get("contents", [])
            pieces = [f"[{c}]" for c in contents if c.startswith(PIECES)]
            # A unit always stands in its home box: its number (Resistance) suffices.
            home = f"{BOXES[box].name} "
            stack = [c.removeprefix(home) for c in contents if not c.startswith(PIECES)]
            words = " ".join(pieces) + (" " if pieces and stack else "") + " | ".join(stack)
            lines += _stack_line(f"   {BOXES[box].name:<18} ", words or "-", width)
    return lines


def _stack_line(head: str, words: str, width: int) -> list[str]:
    """A box's row: a stack too long for the line goes on under itself, aligned after
    the box's name (the counters are split between, never inside, " | ")."""
    room = max(width - len(head), 12)
    rows: list[str] = []
    row = ""
    for part in words.split(" | "):
        piece = part if not row else f"{row} | {part}"
        if row and len(piece) + 2 > room:  # room for the " |" that says "more below"
            rows.append(row + " |")
            row = part
        else:
            row = piece
    rows.append(row)
    fitted = [line for r in rows for line in (textwrap.wrap(r, room) if len(r) > room else [r])]
    pad = " " * len(head)
    return [head + fitted[0]] + [pad + r for r in fitted[1:]]


def _friendly(view: dict[str, Any], unit_id: int | None, factors: bool = True) -> str:
    if unit_id is None:
        return "-"
    for u in view.get("army", ()):
        if u["id"] == unit_id:
            attack, defense = FRIENDLY_FACTORS[(u["kind"], u["level"])]
            short = f"{u['kind'][0].upper()}{u['level']}"
            return f"{short} {attack}-{defense}" if factors else short
    return "?"


def _enemy(slot: dict[str, Any] | None) -> str:
    if not slot:
        return "-"
    e = ENEMY_BATTLE_UNITS[slot["id"]]
    if slot["reduced"]:
        return f"{e.reduced_attack}-{e.reduced_defense}r"
    return f"{e.attack}-{e.defense}"


#: Narrower than this, the Battle Display drops your units' factors (a legend gives
#: them) so that a wing's six enemy spaces fit on one line.
WIDE_BATTLE = 56
NARROW_CELL = 7


def _battle(view: dict[str, Any], width: int = WIDTH) -> list[str]:
    b = view["battle"]
    placed = {u for w, _ in WINGS for u in b["mine"][w] + b["flank"][w] if u is not None}
    reserve = [u["id"] for u in view.get("army", ()) if u["id"] not in placed]
    wide = width >= WIDE_BATTLE
    cell = CELL if wide else NARROW_CELL
    lines: list[str] = []  # the status line above names the battle and its round
    if wide:
        lines += _fit(
            " (I/S = Infantry/Scara and level, Attack-Defense, r = reduced, f = flanking)", width
        )
    else:
        factors = ", ".join(
            f"{k[0].upper()}{level} {a}-{d}" for (k, level), (a, d) in FRIENDLY_FACTORS.items()
        )
        lines += _fit(
            " (enemy Attack-Defense, r = reduced; yours: I/S = Infantry/Scara and level, "
            f"f = flanking; {factors})",
            width,
        )
    for wing, label in WINGS:
        enemy = "".join(f"{k + 1}:{_enemy(s)}".ljust(cell) for k, s in enumerate(b["enemy"][wing]))
        flank = "".join(
            (f"f:{_friendly(view, u, wide)}" if u is not None else "").ljust(cell)
            for u in b["flank"][wing]
        )
        mine = " " * (cell // 2) + "".join(
            f"{j + 1}:{_friendly(view, u, wide)}".ljust(cell) for j, u in enumerate(b["mine"][wing])
        )
        lines.append(f" {label} wing: the enemy's line, then yours:")
        lines.append((f" {enemy}" if wide else enemy).rstrip())
        if flank.strip():
            lines.append((f" {flank}" if wide else flank).rstrip())
        lines.append((f" {mine}" if wide else mine).rstrip())
    lines.append(f" Reserve: {len(reserve)} unit{'s' if len(reserve) != 1 else ''}")
    return lines
