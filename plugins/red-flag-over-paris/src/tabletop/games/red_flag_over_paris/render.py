"""Plain-text drawing of a view, shared by the Textual board widget and by tests.

Kept free of Textual so that it can be tested (and used by a text UI) without loading it.
"""

from __future__ import annotations

from typing import Any

from .data import DIMENSIONS, MOMENTUM_NAMES, SIDE_NAMES


def _space_line(info: dict[str, Any]) -> str:
    v, c = info["cubes"]
    star = "*" if info["pivotal"] else " "
    disc = ""
    if info["disc"] == "Versailles":
        disc = " [Fort]"
    elif info["disc"] == "Commune":
        disc = " [Barr]"
    ctl = info["control"] or "-"
    return f" {star}{info['name']:<22} V{'#' * v:<4} C{'#' * c:<4}{disc:<7} ctl {ctl}"


def render_board(view: dict[str, Any]) -> str:
    """The map by dimension, Crisis Tracks, pools, momentum, VP, round and initiative."""
    lines: list[str] = []
    when = "Final Crisis" if view["final_crisis"] else f"Round {view['round']}/3"
    vp = view["vp"]
    lines.append(
        f"{when}   Initiative: {view['initiative']}   To act: {view['to_act'] or '-'}"
    )
    lines.append(
        f"VP (+ Versailles / - Commune): Political {vp['political']:+d}  "
        f"Military {vp['military']:+d}"
    )
    for dim, spaces in view["dimensions"].items():
        meta = DIMENSIONS[dim]
        lines.append(f"{meta['name']} ({meta['kind']})")
        lines.extend(_space_line(view["spaces"][s]) for s in spaces)
    for seat, name in enumerate(SIDE_NAMES):
        track = view["crisis"][seat]
        zones = []
        for z, zone in enumerate(view["zones"]):
            mark = "x" if track["breached"][z] else " "
            zones.append(f"{zone}[{mark}] {track['cubes'][z]}+{track['bonus'][z]}b")
        lines.append(f"{name} Crisis Track: " + " | ".join(zones))
    cap = view["pool_capacity"][1]
    lines.append(
        f"Pools: Versailles {view['pool'][0]}   Commune {view['pool'][1]}/{cap}   "
        f"out of play V{view['out_of_play'][0]} C{view['out_of_play'][1]}"
    )
    lines.append(
        f"{MOMENTUM_NAMES[0]} {view['momentum'][0]}/3 (cubes left {view['prussian_cubes']})   "
        f"{MOMENTUM_NAMES[1]} {view['momentum'][1]}/3"
    )
    lines.append(
        f"Cards: deck {view['deck']}  hands V{view['hand_sizes'][0]} C{view['hand_sizes'][1]}  "
        f"fulfilled V{len(view['fulfilled'][0])} C{len(view['fulfilled'][1])}"
    )
    if view.get("hand"):
        names = view["cards"]
        lines.append("Your hand: " + ", ".join(names[str(c)] for c in view["hand"]))
    if view.get("objective"):
        lines.append(f"Your objective: {view['cards'][str(view['objective'])]}")
    if view.get("result"):
        lines.append(view["result"]["summary"])
    return "\n".join(lines)
