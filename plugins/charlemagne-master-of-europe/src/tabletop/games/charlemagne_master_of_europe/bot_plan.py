"""The steward's reading of the board and its plan (rules: Winning and Losing): what
removing enemies is worth, where Charlemagne heads, what each coin is kept for, and the
dangers of a box (the Moors' next landing). ``bot.py`` turns these into choices."""

from collections import deque
from collections.abc import Sequence
from functools import lru_cache

from tabletop.framework import State

from . import board
from .board import PIECE_CHARLEMAGNE
from .data import (
    BOXES,
    CORONATION_PAM,
    COSTS,
    DESIDERIUS,
    DIE_SIDES,
    EVP_VALUES,
    LAST_TURN,
    MOORS_PATH,
    REGIONS,
    minimum_army_strength,
)
from .rules.campaign_menu import suppress_modifier
from .verbs import (
    order_of,
)

#: The Regions whose Churches, Marquis and Bridges & Roads the steward builds, in order
#: (a Pagan Church can only be the last one, so the four are the Christian Regions).
PLAN_REGIONS = ("purple", "yellow", "blue", "green")
#: A Battle is fought only when it is won at least this often in ``battle_odds``.
SAFE_BATTLE = 0.97
#: How many times ``battle_odds`` plays a battle out.
BATTLE_RUNS = 24
#: What a Hostile Reaction costs, in the policy's VP-like units: the Campaign Phase
#: ends after a fairly fixed number of draws, so each one is a share of the turn.
REACTION = 0.6
#: What a point of Army Strength is worth: the Minimum Army Strength takes a VP for
#: each point short, every turn. The army starts at 44 and the minimum climbs to 54
#: (reconstructed), so a point a Battle costs is short at most later Turn Ends unless
#: the Levy buys it back, at 2 coins a point that Marquis and Churches need (1.5
#: before: 5 wins in 20 tuning games; 2.5: 9 in the same 20).
STRENGTH = 2.5
#: A Level 3 unit is promoted to retire (1 VP) only with this much Army Strength to
#: spare over the next four turns' minimum: it takes 3 Strength with it.
RETIRE_MARGIN = 8
#: What standing where the next Moors piece would land costs: an Ambush is a Battle
#: fought Defense Round first, and a lost Battle loses the game.
AMBUSH = 30.0
#: What a Leader left on the map costs a turn: a coin of Taxes at every Turn End.
LEADER_TURN = 1.0
#: What clearing the Moors is worth when three of their four boxes are held.
MOORS_DANGER = 30.0
#: What Charlemagne standing outside the Region of the next Church costs.
CHURCH_PULL = 2.0
#: What ending the Campaign Phase early is worth while the Vikings' Region could build
#: this turn: every further Hostile Reaction may land a Viking there, and the Build
#: Phase skips a Region with Vikings (rules: Build Phase).
VIKING_RISK = 3.0
#: How many turns of Minimum Army Strength the Levy recruits for.
LEVY_AHEAD = 2


# Reading the board ---------------------------------------------------------------------


def distances(state: State, start: str) -> dict[str, int]:
    """Moves from ``start`` to every box (Bridges & Roads count, as for a move)."""
    return _distances(start, tuple(board.roads_regions(state)))


@lru_cache(maxsize=4096)
def _distances(start: str, roads: tuple[str, ...]) -> dict[str, int]:
    """``distances`` for a given set of Bridges & Roads Regions (all a move depends
    on), remembered: playouts ask the same questions thousands of times."""
    state: State = {"marquis": {region: {"crowned": True} for region in roads}}
    seen = {start: 0}
    queue = deque([start])
    while queue:
        box = queue.popleft()
        for other in board.reachable(state, box):
            if other not in seen:
                seen[other] = seen[box] + 1
                queue.append(other)
    return seen


def region_units(state: State, region: str) -> int:
    return sum(len(board.stack(state, b)) for b in REGIONS[region].boxes)


def frees_region(state: State, box: str, removed: int) -> bool:
    """Removing ``removed`` units from ``box`` leaves its Region free of enemies."""
    region = board.region_of(box)
    if board.vikings_in(state, region):
        return False
    if any(board.moors_in(state, b) for b in REGIONS[region].boxes):
        return False
    return region_units(state, region) == removed


def coronation_due(state: State) -> bool:
    return not state["hre"] and state["pam"] >= CORONATION_PAM


def removal_value(state: State, box: str, victims: Sequence[str]) -> float:
    """What clearing ``victims`` from ``box`` is worth."""
    value = 1.0 * len(victims)
    for victim in victims:
        if board.is_leader(state, victim):
            value += 2 + board.leader_bonus(victim)
            if lingers(state, box, victim):
                value += LEADER_TURN * (LAST_TURN + 1 - state["turn"])
        if victim == DESIDERIUS:
            value += 25
    if frees_region(state, box, len(victims)):
        value += 3
        if roads_pending(state, board.region_of(box)):
            value += 6  # Bridges & Roads can be built there this turn
    return value


def lingers(state: State, box: str, leader: str) -> bool:
    """The Leader would stay past this Turn End's De-escalation, which removes only the
    small Leaders of Christian Regions (rules: De-Escalation), taxing every turn."""
    if REGIONS[board.region_of(box)].pagan or leader == DESIDERIUS:
        return True
    return board.leader_bonus(leader) > (2 if state["hre"] else 1)


def roads_pending(state: State, region: str) -> bool:
    """The Region has its Marquis and a Finished Church but no Bridges & Roads yet: the
    enemies and Vikings there are all that stand in the way (rules: Bridges & Roads)."""
    marquis = state["marquis"].get(region)
    return bool(marquis and not marquis["crowned"] and state["churches"].get(region) == "finished")


def build_waiting(state: State, region: str) -> bool:
    """Something of the plan is waiting for a Build Phase in ``region``: a Started
    Church to finish, or Bridges & Roads."""
    return state["churches"].get(region) == "started" or roads_pending(state, region)


def viking_exposure(state: State) -> float:
    """What ending the campaign now saves: the Vikings' first Region (Purple) is free
    of them and could build this turn, which any further Viking drawn would stop."""
    region = PLAN_REGIONS[0]
    if board.vikings_in(state, region) or state["treasury"] < COSTS["church_finish"]:
        return 0.0
    ready = roads_pending(state, region) and not board.region_has_enemies(state, region)
    finish = state["churches"].get(region) == "started" and (
        board.finished_churches(state) < len(state["marquis"]) + 2
    )
    return VIKING_RISK if ready or finish else 0.0


def odds_above(need: int) -> float:
    return max(0.0, min(1.0, (DIE_SIDES - need) / DIE_SIDES))


# Campaign actions -------------------------------------------------------------------


def parse(action: str) -> tuple[str, str, str, str | None]:
    """``act:<piece>:<box>:<verb>[:<extra>]`` as (piece, box, verb, extra)."""
    order = order_of(action)
    return order.piece, order.box, order.action, order.extra


def marquis_due(state: State) -> bool:
    """Another Marquis may be placed (at most four, and Finished Churches + 2, A4)."""
    placed = len(state["marquis"])
    return placed < 4 and placed < board.finished_churches(state) + 2


def coins_kept(state: State) -> int:
    """Coins the steward keeps for the next Marquis and Build Phase: Churches and
    Marquis raise the Taxes and score every turn."""
    kept = 0
    if len(state["marquis"]) < 4 and len(state["marquis"]) < board.finished_churches(state) + 2:
        kept += COSTS["marquis"]
    started = sum(1 for s in state["churches"].values() if s == "started")
    kept += COSTS["church_finish"] * started
    if len(state["churches"]) < 4:
        kept += COSTS["church_start"]
    if any(board.finished_churches(state) and not m["crowned"] for m in state["marquis"].values()):
        kept += COSTS["bridges_and_roads"]
    return int(kept)


def goal_box(state: State) -> str | None:
    """Where Charlemagne should head when nothing good is in reach."""
    if coronation_due(state):
        return "rome"
    if not state["iron_crown"] and len(state["army"]) >= 14:
        return "lombardy"
    if state["turn"] >= 11 and state["al_andalus"] == "tension" and len(state["army"]) >= 12:
        moors = [b for b in reversed(MOORS_PATH) if board.moors_in(state, b)]
        if moors:
            return moors[0]
    church = church_goal(state)
    best: tuple[float, str] | None = None
    here = distances(state, state["charlemagne"])
    for box in BOXES:
        units = board.stack(state, box)
        if not units or box not in here:
            continue
        region = board.region_of(box)
        worth = 2.0 + (3 if region in PLAN_REGIONS else 0) - len(units)
        worth += siege_worth(state, box)
        worth -= 0.7 * here[box]
        if best is None or worth > best[0]:
            best = (worth, box)
    if (
        len(state["marquis"]) < 4
        and state["treasury"] >= COSTS["marquis"] - 2
        and len(state["marquis"]) < board.finished_churches(state) + 2
    ):
        for region in PLAN_REGIONS:
            if region in state["marquis"] or board.region_leaders(state, region):
                continue
            for box in REGIONS[region].boxes:
                if box in here and not board.stack(state, box) and not board.moors_in(state, box):
                    worth = 8.0 - 0.7 * here[box]
                    if best is None or worth > best[0]:
                        best = (worth, box)
    if church is not None and (best is None or best[0] < 4 + 2 * len(state["churches"])):
        return church
    return None if best is None else best[1]


def siege_worth(state: State, box: str) -> float:
    """What Charlemagne's Siege of ``box`` is worth if its Leader would stay on the map:
    the Taxes he would take for the rest of the game, times the Siege's odds."""
    leader = board.leader_in_box(state, box)
    if leader is None or leader == DESIDERIUS or not lingers(state, box, leader):
        return 0.0
    bonus = board.leader_bonus(leader)
    turns = LAST_TURN + 1 - int(state["turn"])
    return odds_above(2 * bonus) * (LEADER_TURN * turns + bonus)


def church_pull(state: State, box: str) -> float:
    """What Charlemagne standing in ``box`` costs while a Church waits to be started: a
    Church is started only in his Region at the Campaign Phase's end, whenever that
    comes, and the four Churches are the way to the four Bridges & Roads."""
    church = church_goal(state)
    if not state["iron_crown"] or church is None or board.region_of(box) == board.region_of(church):
        return 0.0
    return CHURCH_PULL


def church_goal(state: State) -> str | None:
    """A box of the next Region that needs a Church started, if one can be afforded:
    a Church is started where Charlemagne stands when the Campaign Phase ends."""
    if len(state["churches"]) >= 4 or state["treasury"] < COSTS["church_start"]:
        return None
    for region in PLAN_REGIONS:
        if region not in state["churches"] and not board.vikings_in(state, region):
            first: str = REGIONS[region].boxes[0]
            return first
    return None


def next_moors_box(state: State) -> str | None:
    return next((b for b in MOORS_PATH if not board.moors_in(state, b)), None)


def ambush_risk(state: State, box: str) -> float:
    """Charlemagne standing where the next Moors piece would go risks an Ambush, a
    battle fought Defense Round first (rules: Ambush)."""
    return AMBUSH if box == next_moors_box(state) else 0.0


def moors_worth(state: State) -> float:
    """What driving the Moors out of a box is worth: a little early, much when none may
    be left at the end, and most when the next Moors piece would go beyond Poitiers
    (a lost game) or land on the last free box of their path."""
    worth = 3.0 + (5 if state["turn"] >= 12 else 0) + (10 if state["turn"] >= 15 else 0)
    if board.moors_boxes(state) >= len(MOORS_PATH) - 1:
        worth += MOORS_DANGER
    return worth


def battle_ceiling(state: State, action: str) -> float:
    """A Battle's worth if it were won at no cost: the box cleared (Moors too: none may
    be left at the end), two promotions."""
    _, box, _, _ = parse(action)
    moors = board.moors_in(state, box) * moors_worth(state)
    return removal_value(state, box, list(board.stack(state, box))) + 2.5 + moors


def suppress_bonus(state: State, piece: str, box: str) -> int:
    return suppress_modifier(state, piece, box)


def closer(state: State, piece: str, here: str, there: str, goal: str | None) -> float:
    """How much nearer ``there`` is to Charlemagne's goal than ``here``."""
    if piece != PIECE_CHARLEMAGNE:
        return 0.0
    if goal is None:
        return 0.0
    before = distances(state, here).get(goal, 9)
    after = distances(state, there).get(goal, 9)
    return 1.5 * (before - after)


def evp_worth(state: State) -> int:
    """The VP the Extra Victory Points held would give at the end (rules: EVP), read
    from the EVP track's data."""
    return sum(EVP_VALUES[1 : int(state["evp"]) + 1])


def strength_margin(state: State, turns: int = 4) -> int:
    """Army Strength left over the highest Minimum Army Strength of the next ``turns``
    turns once this turn's Level 4 units have retired (rules: Minimum Army Strength)."""
    staying = sum(int(u["level"]) for u in state["army"] if u["level"] < 4)
    turn = state["turn"]
    ahead = [minimum_army_strength(min(t, LAST_TURN)) for t in range(turn, turn + turns)]
    return int(staying - max(ahead))
