"""Plain-text drawing of a view, shared by the Textual board widget and by tests.

Kept free of Textual so that it can be tested (and used by a text UI) without loading it.
"""

from __future__ import annotations

from typing import Any

from .data import DIMENSIONS, MOMENTUM_NAMES, SIDE_NAMES, card_name

_SHORT = {"Versailles": "V", "Commune": "C"}
_DISC = {"Versailles": "Fort", "Commune": "Barr"}


def _space_line(info: dict[str, Any]) -> str:
    """One space in under 50 columns, so the board fits half of a 100-column terminal."""
    v, c = info["cubes"]
    star = "*" if info["pivotal"] else " "
    disc = _DISC.get(info["disc"] or "", "")
    ctl = _SHORT.get(info["control"] or "", "-")
    return f" {star}{info['name']:<21} V{'#' * v:<4} C{'#' * c:<4} {disc:<4} {ctl}"


def render_board(view: dict[str, Any]) -> str:
    """The map by dimension, Crisis Tracks, pools, momentum, VP, round and initiative.

    What the viewer holds (hand, objective) comes first: it is what a player looks at
    most, and it must be visible without scrolling.
    """
    lines: list[str] = []
    when = "Final Crisis" if view["final_crisis"] else f"Round {view['round']}/3"
    vp = view["vp"]
    lines.append(f"{when}  Initiative: {view['initiative']}  To act: {view['to_act'] or '-'}")
    lines.append(
        f"VP (+Versailles/-Commune): Political {vp['political']:+d}  Military {vp['military']:+d}"
    )
    if view.get("hand"):
        lines.append("Your hand: " + ", ".join(card_name(c) for c in view["hand"]))
    if view.get("objective"):
        lines.append(f"Your objective: {card_name(view['objective'])}")
    lines.append("  (* pivotal; # a cube; Fort/Barr discs; last column: control)")
    for dim, spaces in view["dimensions"].items():
        meta = DIMENSIONS[dim]
        lines.append(f"{meta['name']} ({meta['kind']})")
        lines.extend(_space_line(view["spaces"][s]) for s in spaces)
    for seat, name in enumerate(SIDE_NAMES):
        track = view["crisis"][seat]
        lines.append(f"{name} Crisis Track (cubes+bonus, x breached):")
        zones = []
        for z, zone in enumerate(view["crisis_zones"]):
            mark = "x" if track["breached"][z] else " "
            zones.append(f"{zone[:5]}[{mark}]{track['cubes'][z]}+{track['bonus'][z]}")
        lines.append("  " + " ".join(zones))
    cap = view["pool_capacity"][1]
    lines.append(
        f"Pools: Versailles {view['pool'][0]}  Commune {view['pool'][1]}/{cap}  "
        f"out of play V{view['out_of_play'][0]} C{view['out_of_play'][1]}"
    )
    lines.append(
        f"{MOMENTUM_NAMES[0]} {view['momentum'][0]}/3 "
        f"(cubes left {'/'.join(str(n) for n in view['prussian_cubes'])})"
    )
    lines.append(f"{MOMENTUM_NAMES[1]} {view['momentum'][1]}/3")
    lines.append(
        f"Cards: deck {view['deck']}  hands V{view['hand_sizes'][0]} C{view['hand_sizes'][1]}  "
        f"fulfilled V{len(view['fulfilled'][0])} C{len(view['fulfilled'][1])}"
    )
    if view.get("result"):
        lines.append(view["result"]["summary"])
    return "\n".join(lines)
