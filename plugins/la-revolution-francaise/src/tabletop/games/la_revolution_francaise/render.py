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


def _wrap(text: str, indent: str = "") -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent=indent) or [""]


def _seat_lines(row: dict[str, Any]) -> list[str]:
    parts = []
    for label, value in row["fields"].items():
        if value == "":
            continue
        prefix, _, word = label.rpartition(" ")
        short = LABELS.get(word, word)
        parts.append(f"{prefix + ' ' if prefix else ''}{short}{'' if short == '$' else ' '}{value}")
    return _wrap(f"{row['name']}: " + "  ".join(parts), "   ")


def _region_lines(view: dict[str, Any], region: str) -> list[str]:
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
    return _wrap(head + "  " + ", ".join(people), " " * 12)


def render_board(view: dict[str, Any]) -> str:
    """Status, the Currents and the Government, the tracks, France by region, the
    Paris box and the Assembly by wing, then what only the viewer knows."""
    lines = _wrap(view["status"])
    lines.append("")
    for row in view["seats"]:
        lines.extend(_seat_lines(row))
    gov = view["government"]
    partner = f" + {CURRENT_NAMES[gov['partner']]}" if gov.get("partner") else ""
    lines.extend(
        _wrap(
            f"Government ({CURRENT_NAMES[gov['controller']]}{partner}): "
            f"fame {gov['fame']}  ${gov['money']}",
            "   ",
        )
    )
    lines.append("")
    tracks = []
    for t in view["tracks"][7:]:
        name = t["name"].split(" ")[0]
        level = 1 if t["value"] <= 8 else 2 if t["value"] <= 16 else 3
        tracks.append(f"{name} {t['value']} ({LEVEL[level]})")
    lines.extend(_wrap("  ".join(tracks)))
    lines.append("")
    lines.append(" Region      Inc Ctl RC Armies, people")
    lines.append(" (* hot, R revolt, C Coalition)")
    for region in REGION_NAMES:
        lines.extend(_region_lines(view, region))
    commune = view["commune"]
    box = "Commune raised" if commune["raised"] else "Commune calm"
    if commune["raised"]:
        leader = commune["controller"]
        box += f" under the {CURRENT_NAMES[leader]}" if leader else ", leaderless"
    lines.append("")
    lines.extend(_wrap(f"Paris box: {box}"))
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
        lines.extend(_wrap("Temple (+ guillotined): " + ", ".join(marked), "   "))
    if view.get("you"):
        lines.extend(_wrap("You: " + "; ".join(f"{k}: {v}" for k, v in view["you"].items()), "   "))
    return "\n".join(lines)
