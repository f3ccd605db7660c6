"""Plain-text drawing of a view for the board widget, kept free of Textual so that
tests (and any text front end) can use it without loading the UI. Lines stay within
44 columns: the board sits in half of a 100-column terminal, inside a border."""

from __future__ import annotations

import textwrap
from typing import Any

from .data import CURRENT_NAMES, REGION_NAMES, REGIONS

WIDTH = 44
SHORT = {"R": "Roy", "F": "Feu", "M": "Mar", "G": "Gir", "MT": "Mon", "SC": "S-C", None: "-"}
SIDE = {"rev": "Rev", "allied": "All", "catholic": "Cat"}
LABELS = {"Fame": "fame", "Money": "$", "Regions": "reg", "Deputies": "dep", "Order": "#"}
LEVEL = {1: "I", 2: "II", 3: "III"}


def _wrap(text: str, indent: str = "", width: int = WIDTH) -> list[str]:
    return textwrap.wrap(text, width, subsequent_indent=indent) or [""]


def _seat_lines(row: dict[str, Any]) -> list[str]:
    parts = []
    for label, value in row["fields"].items():
        if value == "":
            continue
        prefix, _, word = label.rpartition(" ")
        short = LABELS.get(word, word)
        parts.append(f"{prefix + ' ' if prefix else ''}{short}{'' if short == '$' else ' '}{value}")
    return _wrap(f"{row['name']}: " + "  ".join(parts), "   ")


def _current_lines(view: dict[str, Any]) -> list[str]:
    """The Currents as a table, one row each (the automated Marais included), then the
    Government: fame, money, regions held, deputies, place in the turn order (# , 6.3).
    Rows are 37 columns, so that no field breaks at 80 columns."""
    lines = [" Current        Fame     $ Reg  Dep  #"]
    for code, row in view["currents"].items():
        label = CURRENT_NAMES[code] + (" (auto)" if row["automated"] else "")
        if row["automated"] and code != "M":
            continue
        dep = "hid" if row["deputies"] == "hidden" else str(row["deputies"])
        order = "-" if row["order"] is None else str(row["order"])
        lines.append(
            f" {label:<14}{row['fame']:>4}{row['money']:>6}{row['regions']:>4}{dep:>5}{order:>3}"
        )
    gov = view["government"]
    lines.append(f" {'Government':<14}{gov['fame']:>4}{gov['money']:>6}")
    return lines


#: An objective's standing on the board (``interphase.objective_status``).
STATUS_WORDS = {
    "met": "met",
    "missed": "missed",
    "open": "open",
    "void": "void: the Government changed hands",
}


def _objective_lines(view: dict[str, Any], width: int) -> list[str]:
    """This turn's declared objectives in words (6.4), public once revealed; before
    that only who has sealed one."""
    declared = view.get("declared_words") or {}
    status = view.get("declared_status") or {}
    if declared:
        out = ["Objectives this turn (6.4):"]
        for who, words in declared.items():
            owner = "Government" if who == "gov" else CURRENT_NAMES[who]
            standing = f" ({STATUS_WORDS[status[who]]})" if who in status else ""
            out.extend(_wrap(f"  {owner}: {words}{standing}", "    ", width))
        return out
    sealed = view.get("objectives") or {}
    if view.get("phase") == "objectives" and sealed:
        done = sum(1 for s in sealed.values() if s.get("answered"))
        return _wrap(f"Objectives (6.4): {done} of {len(sealed)} sealed", "   ", width)
    return []


def _region_lines(view: dict[str, Any], region: str, width: int = WIDTH) -> list[str]:
    info = view["regions"][region]
    marks = ("R" if info["revolt"] else "") + ("C" if info["coalition"] else "")
    hot = "*" if REGIONS[region]["hot"] else " "
    armies: dict[str, int] = {}
    for a in view["armies"]:
        if a["where"] == region:
            armies[SIDE[a["side"]]] = armies.get(SIDE[a["side"]], 0) + 1
    army_text = " ".join(f"{k}{v}" for k, v in armies.items())
    income = REGIONS[region]["income"]
    head = f"{hot}{region:<11}{income:>4} {SHORT[info['control']]:<3} {marks:<2} {army_text}"
    head = head.rstrip()
    people = [
        n for n, p in view["persons"].items() if p["status"] == "free" and p["where"] == region
    ]
    if not people:
        return [head.rstrip()]
    return _wrap(head + "  " + ", ".join(people), " " * 12, width)


def render_board(view: dict[str, Any], width: int = WIDTH) -> str:
    """Status, the Currents and the Government, the tracks, the objectives, France by
    region, the Paris box and the Assembly by wing, then what only the viewer knows.
    ``width``: the columns to fill (at least 38; the board widget passes its own)."""
    width = max(38, width)
    lines = _wrap(view["status"], width=width)
    lines.append("")
    if "currents" in view:
        lines.extend(_current_lines(view))
    else:  # an older view (a save from before the table)
        for row in view["seats"]:
            lines.extend(_seat_lines(row))
    lines.append("")
    tracks = []
    for t in view["tracks"][7:]:
        name = t["name"].split(" ")[0]
        level = 1 if t["value"] <= 8 else 2 if t["value"] <= 16 else 3
        tracks.append(f"{name} {t['value']} ({LEVEL[level]})")
    lines.extend(_wrap("  ".join(tracks), width=width))
    objectives = _objective_lines(view, width)
    if objectives:
        lines.append("")
        lines.extend(objectives)
    lines.append("")
    lines.append(" Region      Inc Ctl RC Armies, people")
    lines.append(" (* hot, R revolt, C Coalition; Ctl:")
    lines.append("  Roy Feu Mar Gir Mon S-C, - neutral;")
    lines.append("  armies: Rev, All(ied), Cat(holic))")
    for region in REGION_NAMES:
        lines.extend(_region_lines(view, region, width))
    commune = view["commune"]
    box = "Commune calm"
    if commune["raised"]:
        leader = commune["controller"]
        box = "Commune raised" + (
            f" under the {CURRENT_NAMES[leader]}" if leader else ", leaderless"
        )
    lines.append("")
    lines.extend(_wrap(f"Paris box: {box}", width=width))
    lines.append("Assembly:")
    for wing in ("right", "center", "left"):
        counts = view["assembly"][wing]
        words = ", ".join(
            f"{'hidden' if k == 'hidden' else SHORT.get(k, k)} {v}" for k, v in counts.items()
        )
        lines.append(f"  {wing:<7}{words or '-'}")
    gone = [n for n, p in view["persons"].items() if p["status"] in ("prison", "dead")]
    if gone:
        marked = [f"{n}{' +' if view['persons'][n]['status'] == 'dead' else ''}" for n in gone]
        lines.extend(_wrap("Temple (+ guillotined): " + ", ".join(marked), "   ", width))
    if view.get("you"):
        lines.append("You (only you see this):")
        for k, v in view["you"].items():
            lines.extend(_wrap(f"  {k}: {v}", "    ", width))
    return "\n".join(lines)
