"""The map, the cups and the Dead Pool: questions about a state and the few changes
that several decisions share (eliminating a counter, moving chits between cups,
resolving the Dead Pool).

A state is plain JSON. ``stacks`` maps each box to its enemy map units, bottom first
(the top of a stack is the last entry); ``leader_side`` lists the counters showing
their Leader. Cups are kept sorted, so a cup is a multiset and its list order carries
no information.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import NOBODY, Context, State

from .data import (
    BOXES,
    DESIDERIUS,
    MAP_UNITS,
    MARKER_NAMES,
    REGIONS,
    TREASURY_MAX,
    counter_name,
    marker_kind,
)
from .verbs import PIECE_MARQUIS

CUPS = ("friendly", "unfriendly", "hostile")
CUP_NAMES = {"friendly": "Friendly", "unfriendly": "Unfriendly", "hostile": "Hostile"}
PIECE_CHARLEMAGNE = "charlemagne"


def tell(ctx: Context, kind: str, text: str) -> None:
    """An event about the world rather than about the player (no seat is named)."""
    ctx.emit(kind, text[:1].upper() + text[1:], about=NOBODY)


# Questions about the map --------------------------------------------------------------


def region_of(box: str) -> str:
    return BOXES[box].region


def is_leader(state: State, counter: str) -> bool:
    return counter in state["leader_side"]


def name(state: State, counter: str) -> str:
    return counter_name(counter, is_leader(state, counter))


def stack(state: State, box: str) -> list[str]:
    result: list[str] = state["stacks"][box]
    return result


def leader_in_box(state: State, box: str) -> str | None:
    for counter in stack(state, box):
        if is_leader(state, counter):
            return counter
    return None


def leader_bonus(counter: str) -> int:
    bonus = MAP_UNITS[counter].leader
    return 0 if bonus is None else bonus


def region_leaders(state: State, region: str) -> list[str]:
    return [
        leader for box in REGIONS[region].boxes if (leader := leader_in_box(state, box)) is not None
    ]


def best_region_bonus(state: State, region: str) -> int:
    return max((leader_bonus(c) for c in region_leaders(state, region)), default=0)


def top_unit(state: State, box: str) -> str | None:
    """The topmost counter on its unit side (the Leader, when alone, stands for it)."""
    units = stack(state, box)
    for counter in reversed(units):
        if not is_leader(state, counter):
            return counter
    return units[-1] if units else None


def resistance(counter: str) -> int:
    return MAP_UNITS[counter].resistance


def moors_in(state: State, box: str) -> int:
    return len(state["moors"].get(box, []))


def moors_on_map(state: State) -> int:
    return sum(len(ids) for ids in state["moors"].values())


def moors_boxes(state: State) -> int:
    return sum(1 for ids in state["moors"].values() if ids)


def vikings_in(state: State, region: str) -> int:
    return len(state["vikings"].get(region, []))


def vikings_on_map(state: State) -> int:
    return sum(len(ids) for ids in state["vikings"].values())


def leaders_on_map(state: State) -> int:
    return sum(1 for box in BOXES if leader_in_box(state, box) is not None)


def region_has_enemies(state: State, region: str) -> bool:
    """Enemy units, Moors or Vikings anywhere in the Region."""
    if vikings_in(state, region):
        return True
    return any(stack(state, box) or moors_in(state, box) for box in REGIONS[region].boxes)


def pieces_in(state: State, box: str) -> list[str]:
    """Charlemagne and the Marquis standing in ``box`` (piece ids)."""
    found = [PIECE_CHARLEMAGNE] if state["charlemagne"] == box else []
    found += [PIECE_MARQUIS(r) for r, m in sorted(state["marquis"].items()) if m["box"] == box]
    return found


def piece_box(state: State, piece: str) -> str:
    if piece == PIECE_CHARLEMAGNE:
        box: str = state["charlemagne"]
        return box
    where: str = state["marquis"][PIECE_MARQUIS.arg(piece)]["box"]
    return where


def piece_name(piece: str) -> str:
    if piece == PIECE_CHARLEMAGNE:
        return "Charlemagne"
    return f"the Marquis of {REGIONS[PIECE_MARQUIS.arg(piece)].name}"


def friendly_presence(state: State, region: str) -> bool:
    """Charlemagne, a Marquis or a Finished Church in the Region (Dead Pool rule)."""
    if region_of(state["charlemagne"]) == region or region in state["marquis"]:
        return True
    return bool(state["churches"].get(region) == "finished")


def roads_regions(state: State) -> list[str]:
    return sorted(r for r, m in state["marquis"].items() if m["crowned"])


def finished_churches(state: State, *, viking_free: bool = False) -> int:
    return sum(
        1
        for region, status in state["churches"].items()
        if status == "finished" and not (viking_free and vikings_in(state, region))
    )


def reachable(state: State, box: str) -> list[str]:
    """Boxes a piece in ``box`` may move to before acting: the adjacent ones, and with
    Bridges & Roads every box within or adjacent to the connected Roads Regions that
    ``box`` lies in or touches (rules: Actions; Bridges & Roads)."""
    near = set(BOXES[box].adjacent)
    roads = set(roads_regions(state))
    if roads:
        touching = {region_of(b) for b in (box, *BOXES[box].adjacent)} & roads
        network: set[str] = set()
        frontier = list(touching)
        while frontier:
            region = frontier.pop()
            if region in network:
                continue
            network.add(region)
            for inside in REGIONS[region].boxes:
                for other in BOXES[inside].adjacent:
                    if region_of(other) in roads and region_of(other) not in network:
                        frontier.append(region_of(other))
        for region in network:
            for inside in REGIONS[region].boxes:
                near.add(inside)
                near.update(BOXES[inside].adjacent)
    near.discard(box)
    return sorted(near, key=list(BOXES).index)


# Money and points -------------------------------------------------------------------


def gain_coins(state: State, coins: int) -> None:
    state["treasury"] = min(TREASURY_MAX, state["treasury"] + coins)


def lose_vp(state: State, points: int) -> None:
    state["vp"] = max(0, state["vp"] - points)


# Cups ---------------------------------------------------------------------------------


def put_in_cup(state: State, cup: str, counter: str) -> None:
    bag: list[str] = state["cups"][cup]
    bag.append(counter)
    bag.sort()


def cup_adjustment(
    state: State, source: str, target: str, count: int, ctx: Context, *, edge_case: bool = True
) -> None:
    """Move ``count`` chits blind from one cup to another, one at a time (A30).

    An empty Friendly Cup turns a Friendly>Unfriendly move into Unfriendly>Hostile; an
    empty Unfriendly Cup skips the move (rules: What happens if a Cup is Empty?).
    ``edge_case=False`` (the Turn End's adjustments) simply skips what cannot be made.
    The chit is not shown: the event says only which cups.
    """
    for _ in range(count):
        src, dst = source, target
        if not state["cups"][src] and edge_case and src == "friendly":
            src, dst = "unfriendly", "hostile"
        bag: list[str] = state["cups"][src]
        if not bag:
            tell(ctx, "cup", f"{CUP_NAMES[src]} Cup is empty: no chit moves")
            continue
        chit = bag.pop(ctx.rng.randbelow(len(bag)))
        put_in_cup(state, dst, chit)
        tell(
            ctx, "cup", f"a chit moves blind from the {CUP_NAMES[src]} to the {CUP_NAMES[dst]} Cup"
        )


def draw_from_cup(state: State, cup: str, ctx: Context) -> str | None:
    """Draw one chit blind and show it: the player learns which counter it is (its
    data names it, since counters of one name may differ on their back: Gascony's
    Leaders are +1 or +2), and what follows from it is told in the open."""
    bag: list[str] = state["cups"][cup]
    if not bag:
        return None
    chit = bag.pop(ctx.rng.randbelow(len(bag)))
    ctx.reveal(f"draws {counter_name(chit)} from the {CUP_NAMES[cup]} Cup", counter=chit)
    state["drawn"].append(counter_name(chit))  # the view shows what came out, in order
    return chit


# Eliminations ---------------------------------------------------------------------------


def eliminate(state: State, counter: str, ctx: Context) -> None:
    """Take an enemy map unit off the map: to the Friendly Cup in a Bridges & Roads
    Region, else to the Dead Pool. Desiderius becomes the Iron Crown (rules: The Iron
    Crown; A11: his +3 coins are on top of any ransom)."""
    for box, units in state["stacks"].items():
        if counter in units:
            units.remove(counter)
            where = box
            break
    else:  # pragma: no cover - a caller's mistake
        raise ValueError(f"{counter} is not on the map")
    shown = name(state, counter)
    if counter in state["leader_side"] and counter != DESIDERIUS:
        state["leader_side"].remove(counter)
    if counter == DESIDERIUS:
        state["leader_side"].remove(counter)
        state["removed"].append(counter)
        crown_king_of_lombards(state, ctx)
        return
    region = region_of(where)
    if region in roads_regions(state):
        put_in_cup(state, "friendly", counter)
        tell(ctx, "eliminate", f"{shown} is eliminated into the Friendly Cup (Bridges & Roads)")
    else:
        state["dead_pool"].append(counter)
        tell(ctx, "eliminate", f"{shown} is eliminated to the Dead Pool")


def crown_king_of_lombards(state: State, ctx: Context) -> None:
    state["iron_crown"] = True
    state["taxes"] += 3
    gain_coins(state, 3)
    ctx.emit(
        "iron_crown",
        "takes the Iron Crown of Lombardy: King of the Lombards, Taxes +3, Treasury +3",
    )
    raise_pam(state, ctx, "the Iron Crown")


def raise_pam(state: State, ctx: Context, why: str) -> None:
    """The PAM improves by one and scores 1 VP (rules: The Vatican)."""
    state["pam"] += 1
    state["vp"] += 1
    ctx.emit("pam", f"the Papal Approval Modifier rises to {state['pam']:+d} ({why}): +1 VP")


def eliminate_moors(state: State, box: str, ctx: Context) -> None:
    for chit in state["moors"].get(box, []):
        state["dead_pool"].append(chit)
    if state["moors"].get(box):
        tell(ctx, "eliminate", f"the Moors in {BOXES[box].name} go to the Dead Pool")
    state["moors"][box] = []


# The Dead Pool --------------------------------------------------------------------------


def resolve_dead_pool(state: State, ctx: Context) -> None:
    """Send the Dead Pool's counters back to the cups (rules: Resolve the Dead Pool).

    Intrigue markers stay. Units go by their Region: no enemies there -> Friendly; no
    Friendly Presence -> Hostile; otherwise Unfriendly, except Blue (Friendly) and the
    Pagan Regions (Hostile).
    """
    keep: list[str] = []
    moved: dict[str, int] = {cup: 0 for cup in CUPS}
    for counter in state["dead_pool"]:
        kind = marker_kind(counter)
        if kind == "intrigue":
            keep.append(counter)
            continue
        if kind == "viking" or kind == "turn_end":
            cup = "hostile"
        elif kind == "moors":
            cup = "hostile" if state["al_andalus"] == "tension" else "friendly"
        elif kind == "byzantium":
            cup = "unfriendly" if state["byzantine"] == "tension" else "friendly"
        else:
            region = region_of(MAP_UNITS[counter].box)
            if not region_has_enemies(state, region):
                cup = "friendly"
            elif not friendly_presence(state, region):
                cup = "hostile"
            elif region == "blue":
                cup = "friendly"
            elif REGIONS[region].pagan:
                cup = "hostile"
            else:
                cup = "unfriendly"
        put_in_cup(state, cup, counter)
        moved[cup] += 1
    state["dead_pool"] = keep
    words = ", ".join(f"{n} to the {CUP_NAMES[c]} Cup" for c, n in moved.items() if n)
    tell(ctx, "dead_pool", f"the Dead Pool is resolved: {words or 'nothing moves'}")


def count_in_dead_pool(state: State, kind: str) -> int:
    return sum(1 for c in state["dead_pool"] if marker_kind(c) == kind)


def describe_stack(state: State, box: str) -> list[str]:
    """A box's contents, top first, in words."""
    words = [name(state, c) for c in reversed(stack(state, box))]
    words += [MARKER_NAMES["moors"]] * moors_in(state, box)
    return words


def all_counters(state: State) -> list[str]:
    """Every counter the state holds anywhere (for the conservation invariant)."""
    found: list[str] = []
    for units in state["stacks"].values():
        found += units
    for cup in CUPS:
        found += state["cups"][cup]
    for ids in state["moors"].values():
        found += ids
    for ids in state["vikings"].values():
        found += ids
    found += state["dead_pool"] + state["removed"] + state["turn_end_track"]
    if state["battle"] is not None and state["battle"]["moors_chit"] is not None:
        found.append(state["battle"]["moors_chit"])  # an ambushing Moors chit in battle
    return found


def summary_numbers(state: State) -> dict[str, Any]:
    return {k: state[k] for k in ("turn", "vp", "treasury", "taxes", "evp", "pam")}
