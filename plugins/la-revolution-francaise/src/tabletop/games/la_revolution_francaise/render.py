"""Plain-text drawing of a view for the board widget, kept free of Textual so that
tests (and any text front end) can use it without loading the UI."""

from __future__ import annotations

from typing import Any

from .data import CURRENT_NAMES, REGION_NAMES, REGIONS

SHORT = {"R": "Roy", "F": "Feu", "M": "Mar", "G": "Gir", "MT": "Mon", "SC": "S-C", None: "-"}
SIDE = {"rev": "Rev", "allied": "All", "catholic": "Cat"}


def _region_line(view: dict[str, Any], region: str) -> str:
    info = view["regions"][region]
    marks = ("R" if info["revolt"] else " ") + ("C" if info["coalition"] else " ")
    hot = "*" if REGIONS[region]["hot"] else " "
    armies = [a for a in view["armies"] if a["where"] == region]
    army_text = " ".join(f"{SIDE[a['side']]}" for a in armies)
    people = [
        n for n, p in view["persons"].items() if p["status"] == "free" and p["where"] == region
    ]
    return (
        f"{hot}{region:<12}{REGIONS[region]['income']:>4} {SHORT[info['control']]:<4}{marks} "
        f"{army_text:<12} {', '.join(people)}"
    )


def render_board(view: dict[str, Any]) -> str:
    """Status, the Currents, the tracks, France by region, the Paris box, the Assembly."""
    lines = [view["status"], ""]
    for row in view["seats"]:
        fields = "  ".join(f"{k} {v}" for k, v in row["fields"].items() if v != "")
        lines.append(f"{row['name']:<28} {fields}")
    gov = view["government"]
    lines.append(
        f"{'Government':<28} Held by {CURRENT_NAMES[gov['controller']]}  Fame {gov['fame']}  "
        f"Money {gov['money']}"
    )
    lines.append("")
    lines.append("  ".join(f"{t['name']} {t['value']}" for t in view["tracks"][7:]))
    lines.append("")
    lines.append(
        " Region      Inc. Ctl  RC Armies       Personalities   (*hot, R revolt, C Coalition)"
    )
    lines.extend(_region_line(view, r) for r in REGION_NAMES)
    commune = view["commune"]
    box = "Commune raised" if commune["raised"] else "Commune calm"
    if commune["raised"]:
        box += (
            f" under {CURRENT_NAMES[commune['controller']]}"
            if commune["controller"]
            else ", leaderless"
        )
    lines.append("")
    lines.append(f"Paris box: {box}")
    parts = []
    for wing in ("right", "center", "left"):
        counts = view["assembly"][wing]
        words = ", ".join(
            f"{SHORT.get(k, k) if k != 'hidden' else 'hidden'} {v}" for k, v in counts.items()
        )
        parts.append(f"{wing}: {words or '-'}")
    lines.append("Assembly  " + " | ".join(parts))
    gone = [n for n, p in view["persons"].items() if p["status"] in ("prison", "dead")]
    if gone:
        lines.append(
            "Temple / guillotine: "
            + ", ".join(
                f"{n}{' (dead)' if view['persons'][n]['status'] == 'dead' else ''}" for n in gone
            )
        )
    if view.get("you"):
        lines.append("You: " + "; ".join(f"{k}: {v}" for k, v in view["you"].items()))
    return "\n".join(lines)
