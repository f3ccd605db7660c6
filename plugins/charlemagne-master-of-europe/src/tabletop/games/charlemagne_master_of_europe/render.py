"""The board as text, drawn from the view only (never the state): the map by Region
with each stack top unit first, Charlemagne and the Marquis, the Churches, the tracks
and this turn's thresholds, diplomacy, the cups' counts and, during a battle, the
Battle Display with its staggered lines. The Textual widget shows this text; keeping
it free of Textual lets the headless tests check it."""

from __future__ import annotations

from typing import Any

from .data import (
    BOXES,
    ENEMY_BATTLE_UNITS,
    FRIENDLY_FACTORS,
    LAST_TURN,
    REGION_ORDER,
    REGIONS,
    minimum_army_strength,
    vp_threshold,
    wealth_threshold,
)

#: Width of one Battle Display space; your line sits half a space to the right, so
#: your space j lies between enemy spaces j and j+1, the two it touches.
CELL = 9
WINGS = (("left", "Left"), ("right", "Right"))
#: How the view's box contents name your own pieces (they come before the stack).
PIECES = ("Charlemagne", "Marquis of ")


def render_board(view: dict[str, Any]) -> str:
    lines = [str(view.get("status", ""))]
    lines += _tracks(view)
    if view.get("battle"):
        lines += _battle(view)  # above the map, where a short screen still shows it
    lines += _map(view)
    return "\n".join(lines)


def _zone(view: dict[str, Any], name: str) -> dict[str, Any]:
    for entry in view.get("zones", ()):
        if entry.get("name") == name:
            found: dict[str, Any] = entry
            return found
    return {}


def _tracks(view: dict[str, Any]) -> list[str]:
    numbers = view.get("numbers", {})
    turn = min(int(numbers.get("turn", 1)), LAST_TURN)
    realm = view.get("you") or view.get("realm") or {}
    army = next((t["value"] for t in view.get("tracks", ()) if t["name"] == "Army Strength"), 0)
    cups = _zone(view, "Cups").get("counts", {})
    title = "Holy Roman Emperor" if numbers.get("hre") else "King of the Franks"
    if numbers.get("iron_crown"):
        title += ", King of the Lombards (Iron Crown)"
    # Short lines: the board shares the screen with the decision and the log.
    return [
        f"Turn {turn}/{LAST_TURN}  VP {numbers.get('vp', 0)} (threshold {vp_threshold(turn)})  "
        f"Army {army} (minimum {minimum_army_strength(turn)})",
        f"Treasury {numbers.get('treasury', 0)}/20  Taxes {numbers.get('taxes', 0)} "
        f"(Wealth {wealth_threshold(turn)})  EVP {numbers.get('evp', 0)}  "
        f"PAM {int(numbers.get('pam', 0)):+d}",
        title,
        f"Al-Andalus: {realm.get('Al-Andalus', '?')}  Byzantium: {realm.get('Byzantium', '?')}",
        "Cups: " + "  ".join(f"{cup} {count}" for cup, count in cups.items() if cup != "Battle"),
        f"Battle Cup {cups.get('Battle', 0)}  Dead Pool {len(view.get('dead_pool', ()))}",
    ]


def _map(view: dict[str, Any]) -> list[str]:
    churches = dict(line.split(": ", 1) for line in _zone(view, "Churches").get("contents", ()))
    vikings = _zone(view, "Vikings").get("counts", {})
    realm = view.get("you") or view.get("realm") or {}
    marquis = realm.get("Marquis")
    roads = (
        {r for r, where in marquis.items() if "Bridges" in where}
        if isinstance(marquis, dict)
        else set()
    )
    lines = ["Map (stacks top first; a number is a Resistance):"]
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
            lines.append(f"   {BOXES[box].name:<18} {words or '-'}")
    return lines


def _friendly(view: dict[str, Any], unit_id: int | None) -> str:
    if unit_id is None:
        return "-"
    for u in view.get("army", ()):
        if u["id"] == unit_id:
            attack, defense = FRIENDLY_FACTORS[(u["kind"], u["level"])]
            return f"{u['kind'][0].upper()}{u['level']} {attack}-{defense}"
    return "?"


def _enemy(slot: dict[str, Any] | None) -> str:
    if not slot:
        return "-"
    e = ENEMY_BATTLE_UNITS[slot["id"]]
    if slot["reduced"]:
        return f"{e.reduced_attack}-{e.reduced_defense}r"
    return f"{e.attack}-{e.defense}"


def _battle(view: dict[str, Any]) -> list[str]:
    b = view["battle"]
    kind = "Ambush" if b.get("ambush") else "Battle"
    placed = {u for w, _ in WINGS for u in b["mine"][w] + b["flank"][w] if u is not None}
    reserve = [u["id"] for u in view.get("army", ()) if u["id"] not in placed]
    lines = [
        f"{kind} in {BOXES[b['box']].name}, round {b['round']}",
        " (I/S = Infantry/Scara and level, Attack-Defense, r = reduced, f = flanking)",
    ]
    for wing, label in WINGS:
        enemy = "".join(f"{k + 1}:{_enemy(s)}".ljust(CELL) for k, s in enumerate(b["enemy"][wing]))
        flank = "".join(
            (f"f:{_friendly(view, u)}" if u is not None else "").ljust(CELL)
            for u in b["flank"][wing]
        )
        mine = " " * (CELL // 2) + "".join(
            f"{j + 1}:{_friendly(view, u)}".ljust(CELL) for j, u in enumerate(b["mine"][wing])
        )
        lines.append(f" Enemy facing your {label} wing, then yours:")
        lines.append(f" {enemy}".rstrip())
        if flank.strip():
            lines.append(f" {flank}".rstrip())
        lines.append(f" {mine}".rstrip())
    lines.append(f" Reserve: {len(reserve)} unit(s)")
    return lines
