"""Parts of a seat's view that let a person decide from the screen alone.

VP read from the viewer's side, initiative levels, the map with its directed adjacency
and where each side may operate now, and the cards the viewer may read in full.
Everything here reads public facts or the viewer's own cards only.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from tabletop.framework import State
from tabletop.framework import views as schema

from . import board, solo
from .data import (
    CARDS,
    COMMUNE,
    FINAL_CRISIS_CARD,
    MOMENTUM_MAX,
    MOMENTUM_NAMES,
    SIDE_NAMES,
    SPACES,
    VERSAILLES,
    VP_CAP,
    card_name,
    space_name,
)

#: "Versailles' Final Crisis card", "The Commune's Final Crisis card".
_POSSESSIVE = ("Versailles'", "The Commune's")


@cache
def card_label(card: int) -> str:
    """A card's name with its operations value and colour: "Jules Favre (2 OP, Versailles)"."""
    c = CARDS[card]
    side = "gray" if c.faction is None else SIDE_NAMES[c.faction]
    return f"{c.title} ({c.ops} OP, {side})"


@cache
def card_detail(card: int) -> str:
    """A card's full text, shown before a choice that involves it is committed (cached:
    the data never changes while the game runs, and views and prompts ask often)."""
    c = CARDS[card]
    text = c.event.get("text", "")
    if c.kind == "objective":
        space = c.space or ""
        return (
            f"Objective {c.title}: whoever controls {space_name(space)} when objectives "
            f"are revealed scores 1 {SPACES[space].kind} VP; if it is you, you may "
            f"perform its event: {text} (§11)"
        )
    side = "gray" if c.faction is None else SIDE_NAMES[c.faction]
    kind = "Final Crisis card" if c.kind == "final_crisis" else f"{side} card"
    return f"{c.title}: {c.ops} OP, {kind}. Event: {text}"


@cache
def objective_name(card: int) -> str:
    """An objective with its space: "Pius IX (Catholic Church)"."""
    return f"{card_name(card)} ({space_name(CARDS[card].space or '')})"


def initiative_level(state: State, seat: int) -> int:
    """§6.1: a side's Political VP minus its own Player Momentum."""
    return board.vp_of(state, seat, "political") - int(state["momentum"][seat])


def vp_by_side(state: State) -> list[dict[str, int]]:
    """Each side's VP read from its own side of the shared tracks (§2.5): no signs to flip."""
    return [
        {
            "political": board.vp_of(state, s, "political"),
            "military": board.vp_of(state, s, "military"),
        }
        for s in (VERSAILLES, COMMUNE)
    ]


def tracks(state: State, seat: int | None) -> list[schema.Track]:
    """The VP tracks from the viewer's side (Versailles' for a spectator), then momentum."""
    side = VERSAILLES if seat is None else seat
    name = SIDE_NAMES[side]
    return [
        schema.track(
            f"Political VP ({name})", board.vp_of(state, side, "political"), -VP_CAP, VP_CAP
        ),
        schema.track(
            f"Military VP ({name})", board.vp_of(state, side, "military"), -VP_CAP, VP_CAP
        ),
        *(schema.track(MOMENTUM_NAMES[s], state["momentum"][s], 0, MOMENTUM_MAX) for s in (0, 1)),
    ]


#: For each space, the names of the spaces whose control opens it (its printed
#: adjacency list) and of the spaces it opens when controlled: fixed data.
_OPENED_BY: dict[str, tuple[str, ...]] = {
    s: tuple(space_name(a) for a in SPACES[s].adjacent) for s in SPACES
}
_OPENS: dict[str, tuple[str, ...]] = {
    s: tuple(t.name for t in SPACES.values() if s in t.adjacent) for s in SPACES
}


def map_rows(state: State, owner: dict[str, int | None]) -> list[dict[str, Any]]:
    """Every space, Versailles HQ and Prussian Occupied Territory included: its control,
    the directed adjacency (§2.2) and which side may operate there now (§7.2: presence,
    or control of a space in its adjacency list; the same test as ``board.eligible``,
    done once for both sides since every view asks). ``owner``: ``board.controllers``."""
    sides = (VERSAILLES, COMMUNE)
    controlled = [{s for s, o in owner.items() if o == seat} for seat in sides]
    rows: list[dict[str, Any]] = []
    for s, space in SPACES.items():
        ctl = owner[s]
        open_to = []
        if space.kind is not None:
            for seat in sides:
                if board.present(state, s, seat) or any(
                    a in controlled[seat] for a in space.adjacent
                ):
                    open_to.append(SIDE_NAMES[seat])
        rows.append(
            {
                "id": s,
                "name": space.name,
                "dimension": space.dimension,
                "control": None if ctl is None else SIDE_NAMES[ctl],
                "opened_by": list(_OPENED_BY[s]),
                "opens": list(_OPENS[s]),
                "open_to": open_to,
            }
        )
    return rows


def visible_cards(state: State, seat: int | None) -> list[schema.Card]:
    """The cards ``seat`` may read in full (the schema's ``cards``): its own cards and
    objectives, the face-up Final Crisis cards, revealed and fulfilled objectives, the
    solo opponent's objective (the player handed it over) and the top of the discard
    pile, which §7.6 lets the opponent use."""
    shown: list[schema.Card] = []
    seen: set[int] = set()

    def add(card: int, where: str) -> None:
        if card in seen:
            return
        seen.add(card)
        name = objective_name(card) if CARDS[card].kind == "objective" else card_label(card)
        shown.append(schema.card(name, card_detail(card), where))

    if seat is not None:
        kept = state["objective"][seat]
        for c in state["hands"][seat]:
            add(c, "hand")
        for c in state["aside"][seat]:
            add(c, "set aside for the Final Crisis (§5.3)")
        for c in state["obj_hand"][seat]:
            add(c, "objective to choose (§5.2)")
        if kept is not None:
            add(kept, "your objective")
    bot = solo.seat_of(state)
    if bot is not None and state["objective"][bot] is not None and seat != bot:
        add(state["objective"][bot], "the solo opponent's objective")
    for s in (VERSAILLES, COMMUNE):
        if state["fc_card"][s]:
            add(FINAL_CRISIS_CARD[s], f"{_POSSESSIVE[s]} Final Crisis card, face up (§7.8)")
    for s in (VERSAILLES, COMMUNE):
        for c in state["fulfilled"][s]:
            add(c, f"fulfilled by {SIDE_NAMES[s]} (§11)")
    for c in state["revealed"]:
        add(c, "revealed objective (§11)")
    if state["discard"]:
        add(state["discard"][-1][0], "top of the discard pile (§7.6)")
    return shown
