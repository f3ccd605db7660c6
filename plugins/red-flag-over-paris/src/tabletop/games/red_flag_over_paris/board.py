"""Reading and changing the board part of the state: pieces, control, tracks, VP.

Everything here is a plain function of the JSON state so that the game definition, the
event effects, the view and the tests share one statement of each rule.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from tabletop.framework import Context, State

from .data import (
    BOARD,
    COMMUNE,
    COMMUNE_POOL,
    CUBE_LIMIT,
    DIM_SPACES,
    DIMENSIONS,
    DISCS_PER_SIDE,
    FINAL_ZONE,
    HQ,
    MOMENTUM_DIM,
    MOMENTUM_MAX,
    MOMENTUM_NAMES,
    POT,
    SIDE_NOUNS,
    SPACES,
    VERSAILLES,
    VP_CAP,
    ZONES,
    space_name,
)
from .rules import tasks
from .rules.tasks import Assessment, MomentumPlacement

#: The opponent of a seat: a tuple's own lookup, no Python call (asked all the time).
other: Callable[[int], int] = (COMMUNE, VERSAILLES).__getitem__


# Pieces, presence and control (§3) --------------------------------------------------
#
# These run many times for every action (each prompt and each automatic step asks about
# several spaces), so they read the state's lists directly instead of calling one
# another, and the fixed facts of the map are looked up in the tables below.

#: Each space in map order: (id, holds pieces, the side always present there or None).
_SPACE_ROWS: tuple[tuple[str, bool, int | None], ...] = tuple(
    (s, space.dimension is not None, space.always_present) for s, space in SPACES.items()
)
#: The spaces that hold no pieces (Versailles HQ, Prussian Occupied Territory); whether
#: the map lists them after every board space; the board spaces where each side is
#: always present (§3.1).
_OFF_BOARD = tuple(s for s in SPACES if s not in BOARD)
_BOARD_FIRST = tuple(SPACES) == BOARD + _OFF_BOARD and set(_OFF_BOARD) == {HQ, POT}
#: The spaces off the board that Versailles controls (``controls``), in map order:
#: without, then with Prussian Collaboration at its top step.
_VERSAILLES_OFF_BOARD = (tuple(s for s in _OFF_BOARD if s == HQ), _OFF_BOARD)
_ALWAYS_PRESENT = tuple(
    frozenset(s for s in BOARD if SPACES[s].always_present == seat) for seat in (0, 1)
)
#: For each side, each board space in map order with whether the side is always present.
_BOARD_ALWAYS = tuple(tuple((s, s in _ALWAYS_PRESENT[seat]) for s in BOARD) for seat in (0, 1))
#: The board spaces of each kind, in map order, with the spaces whose control opens
#: each one (its printed adjacency list, §7.2).
_OF_KIND: dict[str, tuple[tuple[str, tuple[str, ...]], ...]] = {
    kind: tuple((s, SPACES[s].adjacent) for s in BOARD if SPACES[s].kind == kind)
    for kind in ("political", "military")
}


def cubes(state: State, space: str, seat: int) -> int:
    counts = state["cubes"].get(space)
    count: int = 0 if counts is None else counts[seat]
    return count


def pieces(state: State, space: str, seat: int) -> int:
    """Cubes plus a Fortification/Barricade disc (§1.2: discs count for control)."""
    counts = state["cubes"].get(space)
    count: int = 0 if counts is None else counts[seat]
    return count + 1 if state["discs"].get(space) == seat else count


def present(state: State, space: str, seat: int) -> bool:
    """§3.1: one piece, or permanent presence (Père Lachaise, Social Movements, Royalists)."""
    return SPACES[space].always_present == seat or pieces(state, space, seat) > 0


def piece_lead(state: State, space: str, seat: int) -> int:
    """``seat``'s pieces in a board space minus its opponent's (§3.2: it controls the
    space when this is above 0)."""
    counts = state["cubes"].get(space)
    lead: int = 0 if counts is None else counts[seat] - counts[1 - seat]
    disc = state["discs"].get(space)
    if disc is not None:
        lead += 1 if disc == seat else 0
        lead -= 1 if disc == 1 - seat else 0
    return lead


def controls(state: State, space: str, seat: int) -> bool:
    """§3.2: more pieces than the opponent; Versailles HQ and (at PC 3) the Prussian zone."""
    if space == HQ:
        return seat == VERSAILLES
    if space == POT:
        return seat == VERSAILLES and state["momentum"][VERSAILLES] == MOMENTUM_MAX
    return piece_lead(state, space, seat) > 0


def controller(state: State, space: str) -> int | None:
    counts = state["cubes"].get(space)
    if counts is None:  # off the board: only Versailles controls anything there
        return VERSAILLES if controls(state, space, VERSAILLES) else None
    lead: int = counts[VERSAILLES] - counts[COMMUNE]  # the Commune's lead is its opposite
    disc = state["discs"].get(space)
    if disc is not None:
        lead += 1 if disc == VERSAILLES else -1
    return VERSAILLES if lead > 0 else COMMUNE if lead < 0 else None


def controllers(state: State) -> dict[str, int | None]:
    """``controller`` of every space at once, each space's pieces counted once (every
    view asks for all of them)."""
    owners: dict[str, int | None] = {}
    for s in SPACES:
        if s in (HQ, POT):
            owners[s] = controller(state, s)
            continue
        lead = piece_lead(state, s, VERSAILLES)
        owners[s] = VERSAILLES if lead > 0 else COMMUNE if lead < 0 else None
    return owners


def controls_dimension(state: State, dim: str, seat: int) -> bool:
    return all(piece_lead(state, s, seat) > 0 for s in DIM_SPACES[dim])


def dimension_controller(state: State, dim: str) -> int | None:
    """The side that controls every space of ``dim`` (§10.2), or None: both sides asked
    at once, each space's pieces counted once."""
    counts_of, discs = state["cubes"], state["discs"]
    versailles = commune = True
    for s in DIM_SPACES[dim]:
        counts = counts_of[s]
        lead: int = counts[VERSAILLES] - counts[COMMUNE]
        disc = discs.get(s)
        if disc is not None:
            lead += 1 if disc == VERSAILLES else -1
        if lead <= 0:
            versailles = False
        if lead >= 0:
            commune = False
    return VERSAILLES if versailles else COMMUNE if commune else None


def snapshot(state: State, seat: int) -> Assessment:
    """§3.3: presence and control frozen once, before removals and again before placing.

    The same tests as ``controls`` and ``present``, in map order. Most of the time no
    disc is on the map, and the map lists the board spaces first: then cubes alone
    decide, in one loop."""
    if state["discs"] or not _BOARD_FIRST:
        return _snapshot_by_space(state, seat)
    counts_of = state["cubes"]
    opp = 1 - seat
    controlled: list[str] = []
    present: list[str] = []
    for s, always in _BOARD_ALWAYS[seat]:
        counts = counts_of[s]
        mine = counts[seat]
        if mine > counts[opp]:
            controlled.append(s)
        if mine > 0 or always:
            present.append(s)
    if seat == VERSAILLES:
        controlled += _VERSAILLES_OFF_BOARD[state["momentum"][VERSAILLES] == MOMENTUM_MAX]
    return {"controlled": controlled, "present": present}


def _snapshot_by_space(state: State, seat: int) -> Assessment:
    """``snapshot`` in one pass over the map in its order, discs counted."""
    counts_of, discs = state["cubes"], state["discs"]
    opp = 1 - seat
    controlled: list[str] = []
    present: list[str] = []
    for s, on_board, always in _SPACE_ROWS:
        if not on_board:
            if controls(state, s, seat):
                controlled.append(s)
            continue
        counts = counts_of[s]
        mine, theirs = counts[seat], counts[opp]
        disc = discs.get(s)
        if disc is not None:
            mine += 1 if disc == seat else 0
            theirs += 1 if disc == opp else 0
        if mine > theirs:
            controlled.append(s)
        if always == seat or mine > 0:
            present.append(s)
    return {"controlled": controlled, "present": present}


def eligible(assessment: Assessment, kind: str) -> list[str]:
    """§7.2: spaces of ``kind`` where the seat is present, or adjacent to one it controls.

    "T adjacent to S" means S is in T's printed adjacency list: controlling Royalists
    opens National Assembly, but controlling National Assembly does not open Royalists.
    """
    return list(eligible_for(kind, tuple(assessment["controlled"]), tuple(assessment["present"])))


@lru_cache(maxsize=16384)
def eligible_for(
    kind: str, controlled: tuple[str, ...], present: tuple[str, ...]
) -> tuple[str, ...]:
    """``eligible`` from the assessment's lists, worked out once for each distinct pair
    (few recur: a side holds a handful of spaces at a time)."""
    controlled_set = set(controlled)
    present_set = set(present)
    return tuple(
        s
        for s, adjacent in _OF_KIND.get(kind, ())
        if s in present_set or not controlled_set.isdisjoint(adjacent)
    )


def military_strength(assessment: Assessment, space: str, extra: bool) -> int:
    """§7.4: +1 per controlled adjacent space, +1 presence, +1 control, +1 extra point."""
    controlled = assessment["controlled"]
    strength = 0
    for a in SPACES[space].adjacent:
        if a in controlled:
            strength += 1
    strength += 1 if space in assessment["present"] else 0
    strength += 1 if space in controlled else 0
    return strength + (1 if extra else 0)


def disc_owner(state: State, space: str) -> int | None:
    owner = state["discs"].get(space)
    return None if owner is None else int(owner)


def discs_off_map(state: State, seat: int) -> int:
    return int(DISCS_PER_SIDE - sum(1 for owner in state["discs"].values() if owner == seat))


# Cubes: pools, Crisis Track, breaches (§8) -------------------------------------------


def pool_capacity(state: State, seat: int) -> int | None:
    """§8.4: Versailles' pool never fills; the Commune's has spaces from its momentum."""
    if seat == VERSAILLES:
        return None
    level: int = state["momentum"][COMMUNE]
    return COMMUNE_POOL[level]


def available(state: State, seat: int) -> int:
    """Cubes a seat can bring onto the map: its pool, then its Crisis Track (§8.1)."""
    count: int = state["pool"][seat] + sum(state["track"][seat])
    return count


def to_pool(state: State, seat: int, count: int) -> int:
    """Put cubes in the pool; Commune cubes beyond its pool spaces leave play. Returns lost."""
    cap = pool_capacity(state, seat)
    room = count if cap is None else max(0, min(count, cap - state["pool"][seat]))
    state["pool"][seat] += room
    state["out"][seat] += count - room
    return count - room


def next_breach(state: State, seat: int) -> int | None:
    """The zone that ``seat``'s next new cube would breach, or None (§8.1-§8.2).

    Mirrors ``take_cube`` without changing anything, so that a choice can announce the
    breach (and its cost) before the player commits to it.
    """
    if state["pool"][seat] > 0:
        return None
    for zone, count in enumerate(state["track"][seat]):
        if count > 0:
            return zone if zone > 0 and not state["breached"][seat][zone] else None
    return None


def take_cube(state: State, seat: int) -> bool:
    """Take one cube for the map: pool first, then the track from the middle outward.

    Taking the first cube of a zone breaches it (§8.2); bonus cubes wait in
    ``breach_queue`` until the end of the card play or bonus action.
    """
    if state["pool"][seat] > 0:
        state["pool"][seat] -= 1
        return True
    track = state["track"][seat]
    for zone, count in enumerate(track):
        if count > 0:
            track[zone] -= 1
            if zone > 0 and not state["breached"][seat][zone]:
                state["breached"][seat][zone] = True
                state["breach_queue"].append([seat, zone])
                if zone == FINAL_ZONE and state["fc_first"] is None:
                    state["fc_first"] = seat
            return True
    return False


def resolve_breaches(state: State, ctx: Context) -> None:
    """§8.2-8.3: at the end of a card play or bonus action, release breached zones' bonus.

    The first side to breach its Final Crisis zone loses 1 Political VP and takes the
    bonus; the second takes nothing (its Final Crisis bonus cubes leave play).
    """
    queue = state["breach_queue"]
    if not queue:  # the usual case: nothing to release, the state stays as it is
        return
    state["breach_queue"] = []
    for seat, zone in queue:
        bonus = state["bonus"][seat][zone]
        state["bonus"][seat][zone] = 0
        if zone == FINAL_ZONE and state["fc_first"] != seat:
            state["out"][seat] += bonus
            ctx.emit(
                "breach",
                "breached its Final Crisis zone second: no bonus cubes (§8.3)",
                about=seat,
                zone=zone,
            )
            continue
        if zone == FINAL_ZONE:
            before = vp_of(state, seat, "political")
            add_vp(state, seat, "political", -1, "breached its Final Crisis zone first")
            loss = before - vp_of(state, seat, "political")
            ctx.emit(
                "breach",
                "breached its Final Crisis zone first: "
                + (f"-{loss} Political VP" if loss else "Political VP already at the bottom")
                + " (§8.3)",
                about=seat,
                zone=zone,
                vp=-loss,
            )
        lost = to_pool(state, seat, bonus)
        ctx.emit(
            "breach",
            f"breached {ZONES[zone]}: {bonus - lost} bonus cube(s) to the pool"
            + (f", {lost} out of play" if lost else "")
            + " (§8.2)",
            about=seat,
            zone=zone,
        )


def place_cube(state: State, space: str, seat: int) -> bool:
    """Add one of ``seat``'s cubes to ``space`` if the limit and the supply allow (§1.1)."""
    counts = state["cubes"][space]
    if counts[seat] >= CUBE_LIMIT or not take_cube(state, seat):
        return False
    counts[seat] += 1
    return True


def can_place(state: State, space: str, seat: int) -> bool:
    counts = state["cubes"].get(space)
    if counts is not None and counts[seat] >= CUBE_LIMIT:
        return False
    return bool(state["pool"][seat] + sum(state["track"][seat]) > 0)


def remove_cube(state: State, space: str, seat: int) -> None:
    """Take one of ``seat``'s cubes off the map into its pool (§8.4)."""
    state["cubes"][space][seat] -= 1
    to_pool(state, seat, 1)


# Momentum (§9) and VP (§2.5) ---------------------------------------------------------


def vp_of(state: State, seat: int, kind: str) -> int:
    """A seat's VP of ``kind``: the shared track read from its side (§2.5)."""
    value: int = state["vp"][kind]
    return value if seat == VERSAILLES else -value


def add_vp(state: State, seat: int, kind: str, amount: int, why: str = "") -> None:
    """Move the shared marker toward ``seat`` by ``amount``; neither type passes 5 (§2.5).

    With ``why``, the change is recorded in ``state["vp_log"]`` as
    ``[when, seat, kind, amount, moved, why]`` (``moved``: how far the marker really
    went), from which the result explains the final score."""
    delta = amount if seat == VERSAILLES else -amount
    before = state["vp"][kind]
    state["vp"][kind] = max(-VP_CAP, min(VP_CAP, before + delta))
    if why:
        when = "Final Crisis" if state["fc"] else f"Round {state['round']}"
        moved = abs(state["vp"][kind] - before) * (1 if amount >= 0 else -1)
        state.setdefault("vp_log", []).append([when, seat, kind, amount, moved, why])


def shift_momentum(state: State, seat: int, delta: int, ctx: Context) -> list[MomentumPlacement]:
    """Move a momentum track; return the opponent placements it triggers (§9.3).

    Prussian Collaboration hands over the cubes below each new step for good (§9.1);
    Revolutionary Momentum opens pool spaces, and losing a step loses the cubes on the
    spaces below the old step (§9.2).
    """
    placements: list[MomentumPlacement] = []
    step = 1 if delta > 0 else -1
    for _ in range(abs(delta)):
        old = state["momentum"][seat]
        new = old + step
        if not 0 <= new <= MOMENTUM_MAX:
            break
        state["momentum"][seat] = new
        ctx.emit("momentum", f"{MOMENTUM_NAMES[seat]} {old} -> {new} (§9)", about=seat)
        if seat == VERSAILLES and step > 0:
            gained = state["prussian"][new - 1]
            state["prussian"][new - 1] = 0
            state["pool"][VERSAILLES] += gained
            if gained:
                ctx.emit(
                    "momentum", f"takes {gained} Prussian cube(s) for good (§9.1)", about=VERSAILLES
                )
        if seat == COMMUNE and step < 0:
            cap = COMMUNE_POOL[new]
            lost = max(0, state["pool"][COMMUNE] - cap)
            if lost:
                state["pool"][COMMUNE] -= lost
                state["out"][COMMUNE] += lost
                ctx.emit(
                    "momentum", f"loses {lost} pooled cube(s): no pool space (§9.2)", about=COMMUNE
                )
        if step > 0 and new in (2, 3):
            placements.append(tasks.momentum_placement(other(seat), MOMENTUM_DIM[seat]))
    return placements


def momentum_forecast(levels: list[int], seat: int, delta: int, pool: int) -> list[str]:
    """What ``shift_momentum`` would do beyond moving the marker, in words (§9.2-§9.3).

    ``levels`` is updated as the shift would update it, so that several steps of one
    event are forecast in order. Used to announce a choice's side effects before the
    player commits; it only reads public facts.
    """
    notes: list[str] = []
    step = 1 if delta > 0 else -1
    for _ in range(abs(delta)):
        old = levels[seat]
        new = old + step
        if not 0 <= new <= MOMENTUM_MAX:
            notes.append(f"{MOMENTUM_NAMES[seat]} is already at {old}: that part has no effect")
            break
        levels[seat] = new
        if step > 0 and new in (2, 3):
            dim = DIMENSIONS[MOMENTUM_DIM[seat]]["name"]
            notes.append(
                f"{MOMENTUM_NAMES[seat]} reaches {new}: {SIDE_NOUNS[other(seat)]} "
                f"may place 1 cube in {dim} (§9.3)"
            )
        if seat == COMMUNE and step < 0:
            lost = max(0, pool - COMMUNE_POOL[new])
            if lost:
                pool -= lost
                notes.append(f"the Commune loses {lost} pooled cube(s) (§9.2)")
    return notes


def final_crisis_due(state: State) -> bool:
    """§12.1: both Final Crisis zones breached."""
    return bool(state["breached"][0][FINAL_ZONE] and state["breached"][1][FINAL_ZONE])


def where_text(spaces: list[str]) -> str:
    return ", ".join(space_name(s) for s in spaces)
