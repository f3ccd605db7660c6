"""The steward: a planning bot for the solitaire, and the search bot's hints.

``policy`` answers any prompt of the game from a full state. The steward (``cme-steward``)
is a search bot only in name: it draws one sample of its information set (the hidden
cups dealt again by ``determinize``, so it never reads what the player cannot see) and
asks ``policy``. Before a Battle it plays that battle out a few times on copies of the
sample (``battle_odds``), because a lost battle loses the game.

The plan follows the win conditions (rules: Winning and Losing): Marquis first (Taxes,
VP every turn, more recruits), Churches behind them (Taxes, VP, the PAM), the Iron
Crown by Battle in Lombardy, Rome at the end of the campaign once the PAM allows the
coronation, Bridges & Roads in the four Church Regions, and enemies cleared where the
odds are good, so that Regions score as free. ``CmeHints`` gives the same policy to the
tree search as its rollout, with a short playout and ``evaluate``.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from tabletop.framework import Action, Context, GameDefinition, Prompt, RandomSource, State
from tabletop.framework.actions import split
from tabletop.framework.bots import SearchBot
from tabletop.framework.chance import SeededDice
from tabletop.framework.game import clone
from tabletop.framework.search import BotHints, InformationSet

from . import board
from .board import PIECE_CHARLEMAGNE
from .data import (
    BOXES,
    CORONATION_PAM,
    COSTS,
    DESIDERIUS,
    DIE_SIDES,
    FRIENDLY_FACTORS,
    LAST_TURN,
    MOORS_PATH,
    REGION_ORDER,
    REGIONS,
    minimum_army_strength,
    vp_threshold,
)
from .rules.battle_display import enemy_factors, factors, occupant, reserve, unit
from .rules.campaign_menu import suppress_modifier
from .rules.common import DEFEAT_ROUTED, DEFEAT_STALLED
from .verbs import (
    ACT,
    BUY_OFF,
    BUY_UNIT,
    DONE,
    END,
    FLANK,
    FREE,
    KEEP,
    LINE,
    MARQUIS,
    NEGOTIATE,
    NEXT,
    NONE,
    PROMOTE_UNIT,
    START,
    TARGET,
    maneuver_of,
    order_of,
)

#: The Regions whose Churches, Marquis and Bridges & Roads the steward builds, in order
#: (a Pagan Church can only be the last one, so the four are the Christian Regions).
PLAN_REGIONS = ("purple", "blue", "green", "yellow")
#: A Battle is fought only when it is won at least this often in ``battle_odds``.
SAFE_BATTLE = 0.97
#: How many times ``battle_odds`` plays a battle out.
BATTLE_RUNS = 24
#: What a Hostile Reaction costs, in the policy's VP-like units: the Campaign Phase
#: ends after a fairly fixed number of draws, so each one is a share of the turn.
REACTION = 0.6
#: What a point of Army Strength is worth: the Minimum Army Strength takes a VP for
#: each point short, every turn.
STRENGTH = 0.5


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
        if victim == DESIDERIUS:
            value += 25
    if frees_region(state, box, len(victims)):
        value += 3
        if roads_pending(state, board.region_of(box)):
            value += 6  # Bridges & Roads can be built there this turn
    return value


def roads_pending(state: State, region: str) -> bool:
    """The Region has its Marquis and a Finished Church but no Bridges & Roads yet: the
    enemies and Vikings there are all that stand in the way (rules: Bridges & Roads)."""
    marquis = state["marquis"].get(region)
    return bool(marquis and not marquis["crowned"] and state["churches"].get(region) == "finished")


def odds_above(need: int) -> float:
    return max(0.0, min(1.0, (DIE_SIDES - need) / DIE_SIDES))


# Campaign actions -------------------------------------------------------------------


def parse(action: str) -> tuple[str, str, str, str | None]:
    """``act:<piece>:<box>:<verb>[:<extra>]`` as (piece, box, verb, extra)."""
    order = order_of(action)
    return order.piece, order.box, order.action, order.extra


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
    if church is not None and (best is None or best[0] < 4):
        return church
    return None if best is None else best[1]


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


def campaign_value(
    game: GameDefinition,
    state: State,
    action: str,
    rng: RandomSource,
    search: bool,
    goal: str | None = None,
) -> float:
    """What ``action`` is worth now; ``goal`` is Charlemagne's ``goal_box`` (worked
    out once per decision by the caller)."""
    if END.matches(action):
        if state["charlemagne"] == "rome" and coronation_due(state):
            return 50
        return -3 * REACTION + 0.5
    piece, box, verb, extra = parse(action)
    here = board.piece_box(state, piece)
    charlemagne = piece == PIECE_CHARLEMAGNE
    units = board.stack(state, box)
    region = board.region_of(box)
    value = 0.0
    if verb == "marquis":
        # Bridges & Roads need a Marquis and a Church in the same Region.
        value = 18 if region in PLAN_REGIONS else -50
        value -= REACTION
    elif verb == "suppress":
        top = board.top_unit(state, box)
        assert top is not None
        need = board.resistance(top) + board.best_region_bonus(state, region)
        need -= _suppress_bonus(state, piece, box)
        victims = list(units) if charlemagne else [units[-1]]
        value = odds_above(need) * removal_value(state, box, victims) - 2 * REACTION
    elif verb == "battle":
        if len(state["army"]) < 8:
            return -100
        gain = battle_ceiling(state, action)
        if not search:
            odds, cost = (0.98 if len(state["army"]) >= 16 else 0.5), 8.0
        else:
            odds, cost = battle_odds(game, state, action, rng)
        if odds < SAFE_BATTLE:
            return -100
        after = strength_margin(state) - cost
        value = gain - 2 * REACTION - (1 - odds) * 60 - STRENGTH * cost
        if after < 0 and not state["easy"]:
            value += 1.5 * after  # every point short costs a VP each turn
    elif verb == "siege":
        leader = board.leader_in_box(state, box)
        assert leader is not None
        bonus = board.leader_bonus(leader)
        p = odds_above((2 if charlemagne else 3) * bonus)
        if p < 0.5 and not state["siege"]:
            return -20
        value = p * (removal_value(state, box, units[-2:]) + bonus * 0.3) - REACTION
        value -= (1 - p) * 2
    elif verb == "raid":
        top = board.top_unit(state, box)
        assert top is not None
        cost = math.ceil(board.resistance(top) / 2)
        if state["treasury"] - cost < coins_kept(state):
            return -10
        value = removal_value(state, box, [top]) - 0.35 * cost - 2 * REACTION
    elif verb == "forced_conversion":
        return -30
    elif verb == "forced_march":
        value = -REACTION - 0.2
        assert extra is not None
        value += _closer(state, piece, here, extra, goal)
        if charlemagne:
            value -= ambush_risk(state, extra)
        return value
    if box != here:
        value += 0.3 * _closer(state, piece, here, box, goal)
    if charlemagne and verb != "forced_march":
        value -= ambush_risk(state, box)
    return value


def next_moors_box(state: State) -> str | None:
    return next((b for b in MOORS_PATH if not board.moors_in(state, b)), None)


def ambush_risk(state: State, box: str) -> float:
    """Charlemagne standing where the next Moors piece would go risks an Ambush, a
    battle fought Defense Round first (rules: Ambush)."""
    return 8.0 if box == next_moors_box(state) else 0.0


def battle_ceiling(state: State, action: str) -> float:
    """A Battle's worth if it were won at no cost: the box cleared (Moors too: none may
    be left at the end), two promotions."""
    _, box, _, _ = parse(action)
    moors = board.moors_in(state, box) * (3 + (5 if state["turn"] >= 12 else 0))
    return removal_value(state, box, list(board.stack(state, box))) + 2.5 + moors


def _suppress_bonus(state: State, piece: str, box: str) -> int:
    return suppress_modifier(state, piece, box)


def _closer(state: State, piece: str, here: str, there: str, goal: str | None) -> float:
    """How much nearer ``there`` is to Charlemagne's goal than ``here``."""
    if piece != PIECE_CHARLEMAGNE:
        return 0.0
    if goal is None:
        return 0.0
    before = distances(state, here).get(goal, 9)
    after = distances(state, there).get(goal, 9)
    return 1.5 * (before - after)


# Battles -------------------------------------------------------------------------------


def battle_odds(
    game: GameDefinition, state: State, action: str, rng: RandomSource
) -> tuple[float, float]:
    """How often the battle ``action`` starts is won, and the Army Strength it costs on
    average, played out ``BATTLE_RUNS`` times on copies of ``state`` with the policy's
    battle decisions."""
    won = 0
    lost_strength = 0
    before = sum(int(u["level"]) for u in state["army"])
    for run in range(BATTLE_RUNS):
        copy = clone(state)
        ctx = Context(rng, SeededDice(rng), actor=0)
        game.apply(copy, 0, action, ctx)
        while copy["outcome"] is None and copy["battle"] is not None:
            prompt = game.prompt(copy)
            assert prompt is not None
            game.apply(copy, 0, policy(game, copy, prompt, rng, search=False), ctx)
        lost = copy["outcome"] is not None and copy["outcome"]["category"] in (
            DEFEAT_ROUTED,
            DEFEAT_STALLED,
        )
        won += not lost
        lost_strength += before - sum(int(u["level"]) for u in copy["army"])
        if (won + BATTLE_RUNS - run - 1) / BATTLE_RUNS < SAFE_BATTLE:
            # Safe is out of reach even if every run left is won: the battle will not be
            # fought, so the runs left would only cost time (most battles weighed end here).
            return won / BATTLE_RUNS, lost_strength / (run + 1)
    return won / BATTLE_RUNS, lost_strength / BATTLE_RUNS


def _unit_worth(kind: str, level: int) -> float:
    attack, defense = FRIENDLY_FACTORS[(kind, level)]
    return float(attack + 0.5 * defense + (1.5 if kind == "scara" else 0))


def _best_type(choices: Sequence[str]) -> str:
    """Of ``<prefix>:<kind>:<level>`` choices, the strongest unit."""

    def worth(action: str) -> float:
        *_, kind, level = split(action)[1]
        return _unit_worth(kind, int(level))

    return max(choices, key=worth)


def _attack_target(state: State, task: dict[str, Any], actions: Sequence[str]) -> str:
    b = state["battle"]
    wing = task["slot"][1]
    unit_id = occupant(b, task["slot"])
    attack = factors(state, unit_id)[0] if unit_id is not None else 0
    scara = unit_id is not None and unit(state, unit_id)["kind"] == "scara"
    first = b["attack_rounds"] == 0 and not b["ambush"]

    def worth(action: str) -> float:
        enemy = b["enemy"][wing][TARGET.number(action)]
        hit = odds_above(enemy_factors(enemy)[1] - attack)
        kills = enemy["reduced"] or (scara and first)
        return hit * (2 if kills else 1) + enemy_factors(enemy)[0] / 20

    return max(actions, key=worth)


def _counter_target(state: State, task: dict[str, Any], actions: Sequence[str]) -> str:
    b = state["battle"]
    wing = task["slot"][1]
    return max(actions, key=lambda a: enemy_factors(b["enemy"][wing][TARGET.number(a)])[0])


def _maneuver(actions: Sequence[str]) -> str:
    """Fill the line first (a Flanking space opens only once it is full), then flank:
    a Flanking unit attacks without defending."""
    moves = [(a, maneuver_of(a)[1][0]) for a in actions if not DONE.matches(a)]
    line = [a for a, to in moves if to == LINE.name]
    flank = [a for a, to in moves if to == FLANK.name]
    return (line or flank or [DONE()])[0]


# The policy -------------------------------------------------------------------------------


def policy(
    game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource, search: bool = True
) -> Action:
    """The steward's answer to ``prompt`` in ``state`` (a full, sampled state).

    ``search`` lets it play battles out before choosing one (the steward); without it
    (inside playouts) it judges them by the army's size alone."""
    actions = list(prompt.actions())
    if len(actions) == 1:
        return actions[0]
    task = state["tasks"][-1]
    kind = task["kind"]
    if kind == "campaign_action":
        return _campaign_choice(game, state, actions, rng, search)
    if kind == "marquis_start":
        return MARQUIS("breton_march") if MARQUIS("breton_march") in actions else actions[0]
    if kind == "levy_buy":
        return _levy(state, actions)
    if kind == "levy_promote":
        return max(actions)  # the Level 2 Infantry, nearer to Level 4
    if kind in ("build_bridges", "build_finish"):
        return next((a for a in actions if not NEXT.matches(a)), NEXT())
    if kind == "build_start":
        start = [a for a in actions if START.matches(a)]
        if start and START.arg(start[0]) in PLAN_REGIONS:
            return start[0]
        return NEXT()
    if kind == "diplomacy_vikings":
        free = [a for a in actions if FREE.matches(a)]
        if free:
            return free[0]
        buy = [
            a
            for a in actions
            if BUY_OFF.matches(a)
            and (
                roads_pending(state, BUY_OFF.arg(a))
                or (
                    board.vikings_in(state, BUY_OFF.arg(a)) <= 3
                    and state["treasury"] - board.vikings_in(state, BUY_OFF.arg(a)) >= 2
                )
            )
        ]
        return buy[0] if buy else DONE()
    if kind == "diplomacy_al_andalus":
        return NEGOTIATE()
    if kind == "evp_voluntary":
        return KEEP()
    if kind in ("battle_deploy", "battle_reserve"):
        return _best_type(actions)
    if kind == "battle_reserve_optional":
        placed = [a for a in actions if not NONE.matches(a)]
        if len(reserve(state, state["battle"])) >= 4 and placed:
            return _best_type(placed)
        return NONE()
    if kind == "battle_attack":
        return _attack_target(state, dict(task), actions)
    if kind == "battle_counterattack":
        return _counter_target(state, dict(task), actions)
    if kind == "battle_maneuver":
        return _maneuver(actions)
    if kind == "battle_promote":
        return _battle_promotion(state, actions)
    return actions[0]


def strength_margin(state: State) -> int:
    """Army Strength left over this turn's Minimum Army Strength once this turn's
    Level 4 units have retired (rules: Minimum Army Strength)."""
    staying = sum(int(u["level"]) for u in state["army"] if u["level"] < 4)
    turn = state["turn"]
    ahead = [minimum_army_strength(min(t, LAST_TURN)) for t in range(turn, turn + 4)]
    return int(staying - max(ahead))


def _battle_promotion(state: State, actions: Sequence[str]) -> str:
    """A Level 3 to Level 4 retires for 1 VP but costs 3 Strength; keep the army
    above its minimum first."""
    retiring = [a for a in actions if PROMOTE_UNIT.args(a)[1] == "3"]
    if retiring and (strength_margin(state) >= 4 or state["easy"]):
        return retiring[0]
    others = [a for a in actions if PROMOTE_UNIT.args(a)[1] != "3"] or retiring

    def order(action: str) -> tuple[int, bool]:
        kind, level = PROMOTE_UNIT.args(action)
        return int(level), kind != "scara"

    return min(others, key=order)


def _campaign_choice(
    game: GameDefinition, state: State, actions: Sequence[str], rng: RandomSource, search: bool
) -> str:
    """The best-valued Action; battles are played out (the dear part) only when their
    best case would beat everything else, best case first."""
    battles = [a for a in actions if ACT.matches(a) and order_of(a).action == "battle"]
    plain = [a for a in actions if a not in battles]
    goal = goal_box(state)
    scored = [(campaign_value(game, state, a, rng, search, goal), a) for a in plain]
    best_value, best = max(scored) if scored else (-1000.0, actions[0])
    for value, action in sorted(((battle_ceiling(state, a), a) for a in battles), reverse=True):
        if value <= best_value:
            break
        found = campaign_value(game, state, action, rng, search, goal)
        if found > best_value:
            best_value, best = found, action
    return best


def _levy(state: State, actions: Sequence[str]) -> str:
    spare = state["treasury"] - coins_kept(state)
    short = strength_margin(state) < 0 and not state["easy"]
    small = len(state["army"]) < 10
    # Late in the game the final check has no floor: every point short is a VP lost.
    if small or (short and (state["treasury"] >= 10 or state["turn"] >= 12)):
        # ...but never the coins of a Bridges & Roads that only waits for them.
        waiting = sum(1 for region in state["marquis"] if roads_pending(state, region))
        spare = state["treasury"] - COSTS["bridges_and_roads"] * waiting
    if (short or small) and BUY_UNIT("scara") in actions and spare >= COSTS["scara_2"]:
        return BUY_UNIT("scara")
    if (short or small) and BUY_UNIT("infantry") in actions and spare >= COSTS["infantry_1"]:
        return BUY_UNIT("infantry")
    return DONE()


# The bot and the hints -------------------------------------------------------------------


class StewardBot(SearchBot):
    """``cme-steward``: one sample of the information set, then ``policy``."""

    name = "cme-steward"
    reads_view = False

    def search(
        self,
        game: GameDefinition,
        view: dict[str, Any],
        prompt: Prompt,
        rng: RandomSource,
        information: InformationSet,
    ) -> Action:
        if len(prompt.choices) == 1:
            return prompt.choices[0].action
        return policy(game, information.sample(rng), prompt, rng)


def evaluate_state(state: State) -> float:
    """A chance of winning in [0, 1] from the VP lead over this turn's threshold and
    what the win still needs (rules: Winning and Losing)."""
    turn = min(state["turn"], LAST_TURN)
    lead = state["vp"] + _evp_total(state) - vp_threshold(turn)
    score = 0.5 + 0.04 * lead
    score += 0.08 * state["iron_crown"] + 0.08 * state["hre"]
    score += 0.03 * len(state["marquis"]) + 0.02 * len(board.roads_regions(state))
    score += 0.02 * board.finished_churches(state)
    score -= 0.03 * board.moors_on_map(state)
    score += 0.01 * sum(1 for r in REGION_ORDER if not board.region_has_enemies(state, r))
    return float(max(0.0, min(1.0, score)))


def _evp_total(state: State) -> int:
    return int(state["evp"]) * (int(state["evp"]) + 1) // 2


class CmeHints(BotHints):
    """The tree search's hints: the steward's policy as the rollout (without its
    battle play-outs), playouts cut after ``rollout_depth`` actions and judged by
    ``evaluate_state``.

    Four actions of the steward are enough for ``evaluate_state``, which reads the VP
    lead and the crowns (they move over a campaign, not within four actions); twelve
    cost three times as much and kept a player watching the bot waiting (issue 25).
    A simulated action costs twelve to fourteen of Red Flag's (every Battle prompt looks
    through the units, and a short playout leaves each sample's cost to fewer actions;
    docs/bots.md), which ``action_cost`` tells the search: about 430 actions, some 80
    iterations, a decision."""

    rollout_depth = 4
    action_cost = 14.0

    def rollout(
        self, game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource
    ) -> Action:
        return policy(game, state, prompt, rng, search=False)

    def evaluate(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        return (evaluate_state(state),)
