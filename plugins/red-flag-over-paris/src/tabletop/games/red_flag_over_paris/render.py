"""Plain-text drawing of a view, shared by the Textual board widget and by tests.

Kept free of Textual so that it can be tested (and used by a text UI) without loading it.
"""

from __future__ import annotations

from typing import Any

from .data import CARDS, DIMENSIONS, MOMENTUM_NAMES, SIDE_NAMES, card_name

_SHORT = {"Versailles": "V", "Commune": "C"}
_DISC = {"Versailles": "F", "Commune": "B"}


def _space_line(info: dict[str, Any], open_to: list[str]) -> str:
    """One space in 42 columns or fewer, so the board fits half of a 100-column terminal."""
    v, c = info["cubes"]
    star = "*" if info["pivotal"] else " "
    disc = _DISC.get(info["disc"] or "", "")
    ctl = _SHORT.get(info["control"] or "", "-")
    ops = "".join(_SHORT[side] for side in open_to) or "-"
    return f" {star}{info['name']:<20} V{'#' * v:<4} C{'#' * c:<4} {disc:<1} {ctl} {ops}"


def _vp_lines(view: dict[str, Any]) -> list[str]:
    """Each side's VP read from its own side, the viewer's first (no signs to flip)."""
    seat = view.get("seat")
    order = [0, 1] if seat in (None, 0) else [1, 0]
    lines = ["VP, each side's own:  Political  Military"]
    for s in order:
        vp = view["vp"][s]
        name = SIDE_NAMES[s] + (" (you)" if s == seat else "")
        lines.append(f"  {name:<18} {vp['political']:>+10d} {vp['military']:>+9d}")
    return lines


def _names(view: dict[str, Any], where: str) -> list[str]:
    return [card["name"] for card in view.get("cards", []) if card.get("where") == where]


def _own_card_lines(view: dict[str, Any]) -> list[str]:
    """The viewer's hand (titles and OP) and kept objective; the full texts, and the
    objectives still to choose from, are in ``cards`` (the screen's card list)."""
    lines = []
    hand = view.get("hand") or []
    if hand:
        lines.append("Your hand: " + ", ".join(f"{card_name(c)} ({CARDS[c].ops})" for c in hand))
    for name in _names(view, "your objective"):
        lines.append(f"Your objective: {name}")
    return lines


def _other_card_lines(view: dict[str, Any]) -> list[str]:
    """Every other card the viewer may read, grouped by where it is."""
    shown = {"hand", "your objective"}
    groups: dict[str, list[str]] = {}
    for card in view.get("cards", []):
        where = card.get("where", "")
        if where not in shown:
            groups.setdefault(where, []).append(card["name"])
    return [
        f"{where[:1].upper()}{where[1:]}: " + "; ".join(names) for where, names in groups.items()
    ]


def _map_lines(view: dict[str, Any]) -> list[str]:
    """The directed adjacency (§2.2): what opens each space to operations (§7.2)."""
    lines = [
        "Adjacency: a space opens to operations when a space after its arrow is controlled (§7.2)"
    ]
    for row in view["map"]:
        if row["dimension"] is None:
            ctl = row["control"] or "nobody"
            lines.append(f"  {row['name']} (controlled by {ctl}) opens " + ", ".join(row["opens"]))
        else:
            lines.append(f"  {row['name']} <- " + ", ".join(row["opened_by"]))
    return lines


def _track_lines(view: dict[str, Any]) -> list[str]:
    """Crisis Tracks, pools, momentum and the deck, each line 42 columns or fewer."""
    lines = ["Crisis Tracks (cubes+bonus, * breached):"]
    for seat, name in enumerate(SIDE_NAMES):
        track = view["crisis"][seat]
        zones = [
            f"{zone[:3]}{'*' if breached else ' '}{cubes}+{bonus}"
            for zone, breached, cubes, bonus in zip(
                view["crisis_zones"], track["breached"], track["cubes"], track["bonus"], strict=True
            )
        ]
        lines.append(f"{name:<10} " + " ".join(zones))
    pool, out = view["pool"], view["out_of_play"]
    cap = view["pool_capacity"][1]
    lines.append(f"Pools V {pool[0]}, C {pool[1]}/{cap}; out of play V {out[0]}, C {out[1]}")
    lines.append(
        f"{MOMENTUM_NAMES[0]} {view['momentum'][0]}/3 "
        f"(left {'/'.join(str(n) for n in view['prussian_cubes'])})"
    )
    lines.append(f"{MOMENTUM_NAMES[1]} {view['momentum'][1]}/3")
    lines.append(
        f"Deck {view['deck']}, hands V{view['hand_sizes'][0]} C{view['hand_sizes'][1]}, "
        f"fulfilled V{len(view['fulfilled'][0])} C{len(view['fulfilled'][1])}"
    )
    return lines


def render_board(view: dict[str, Any]) -> str:
    """The map by dimension, Crisis Tracks, pools, momentum, VP, round and initiative.

    What the viewer holds (hand, objective) comes first: it is what a player looks at
    most, and it must be visible without scrolling.
    """
    lines: list[str] = []
    when = "Final Crisis" if view["final_crisis"] else f"Round {view['round']}/3"
    levels = view["initiative_levels"]
    lines.append(f"{when}, {view['to_act'] or 'nobody'} to act")
    lines.append(f"Initiative: {view['initiative']} (levels V {levels[0]:+d}, C {levels[1]:+d})")
    lines.extend(_vp_lines(view))
    lines.extend(_own_card_lines(view))
    lines.extend(_track_lines(view))
    open_to = {row["id"]: row["open_to"] for row in view["map"]}
    lines.append("Map (§7.2 last column: who may operate):")
    lines.append("* pivotal, # cube, F/B disc, then control")
    for dim, spaces in view["dimensions"].items():
        meta = DIMENSIONS[dim]
        lines.append(f"{meta['name']} ({meta['kind']})")
        lines.extend(_space_line(view["spaces"][s], open_to[s]) for s in spaces)
    lines.extend(_other_card_lines(view))
    lines.extend(_map_lines(view))
    if view.get("result"):
        lines.append(view["result"]["summary"])
    return "\n".join(lines)
