"""Charlemagne, Master of Europe as a Tabletop game definition.

The game is solitaire, but it hides information from its one player: the contents of
the three map cups are unknown until a chit is drawn (only their counts show), so the
game declares hidden information and ``determinize`` deals the cups' chits again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from tabletop.framework import (
    Action,
    Context,
    GameDefinition,
    GameInfo,
    OptionSpec,
    Prompt,
    Result,
    State,
    views,
)
from tabletop.framework.packaged import package_text

from . import board
from .board import CUP_NAMES, CUPS
from .bot import battle_estimate
from .data import (
    BOXES,
    COUNTER_GROUPS,
    ENEMY_BATTLE_UNITS,
    EVP_MAX,
    FRIENDLY_FACTORS,
    LAST_TURN,
    MAP_UNITS,
    MARKER_COUNTS,
    REGION_ORDER,
    REGIONS,
    minimum_army_strength,
    vp_threshold,
    wealth_threshold,
)
from .rules.army import army_strength
from .rules.battle_display import WING_NAMES, WINGS, enemy_words, unit_words
from .rules.common import (
    DEFEAT_FINAL_CONDITIONS,
    DEFEAT_FINAL_VP,
    VICTORY,
    VICTORY_EASY,
)
from .rules.setup import new_state
from .rules.table import RULES, start
from .verbs import ACT, order_of

GAME_ID = "charlemagne-master-of-europe"


class CharlemagneMasterOfEurope(GameDefinition):
    info = GameInfo(
        id=GAME_ID,
        title="Charlemagne, Master of Europe",
        min_players=1,
        max_players=1,
        description="Solitaire: hold the Frankish realm together through 16 turns of blind "
        "cups, campaigns and battles, take the Iron Crown and be crowned Emperor.",
        version="0.1.1",  # 0.1.1 (issue 37): the turn's report tells Al-Andalus's answer
        options=(
            OptionSpec(
                "mode",
                "Rules",
                (("standard", "Standard"), ("easy", "Easy Mode")),
                "standard",
                help="Easy Mode ignores the Minimum Army Strength.",
            ),
        ),
        hidden_information=True,
    )

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        return ("Charlemagne",)

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        state = new_state(easy=options.get("mode", "standard") == "easy")
        start(state, ctx)
        return state

    def prompt(self, state: State) -> Prompt | None:
        return RULES.prompt(state)

    def explain(self, state: State, prompt: Prompt) -> Prompt:
        """The decision's texts for a person: the campaign's Actions say their odds,
        costs and forecasts only here (bots never read them), a Battle its estimated
        chance of winning (``bot.battle_estimate``: a lost battle loses the game)."""
        explained = RULES.explain(state, prompt)
        top = RULES.top(state)
        if top is None or top["kind"] != "campaign_action":
            return explained
        choices = []
        for choice in explained.choices:
            if ACT.matches(choice.action) and order_of(choice.action).action == "battle":
                won, played = battle_estimate(self, state, choice.action)
                choice = replace(
                    choice,
                    detail=f"{choice.detail} Chance of winning: about "
                    f"{round(100 * won / played)}% (won {won} of {played} times played out "
                    "with the steward's battle choices, from what you can see).",
                )
            choices.append(choice)
        return replace(explained, choices=tuple(choices))

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        state["rolls"] = []
        state["drawn"] = []
        RULES.apply(state, action, ctx)

    def result(self, state: State) -> Result | None:
        outcome = state["outcome"]
        if outcome is None:
            return None
        return Result(
            winners=(0,) if outcome["won"] else (),
            scores=(float(state["vp"]),),
            summary=("Victory: " if outcome["won"] else "Defeat: ") + outcome["reason"],
            outcome=outcome["category"],
        )

    #: What a fuzz run with the steward (``--seats cme-steward``) must get to: random play
    #: loses within a few turns, so turn 16's scoring and the late titles need the bot.
    must_reach = ("battle", "turn 16 scored")

    def milestones(self, state: State) -> list[str]:
        """The game's notable situations, for ``tabletop fuzz``'s reach report: a battle
        (an ambush), a Siege under way, the titles, Bridges & Roads, the second half
        of the game, turn 16's final scoring and a victory."""
        found = [name for name, flag in _FLAGS if state[flag]]
        battle = state["battle"]
        if battle is not None:
            found.append("ambush" if battle["ambush"] else "battle")
        if any(m["crowned"] for m in state["marquis"].values()):
            found.append("Bridges & Roads")
        if state["turn"] >= 9:
            found.append("turn 9 or later")
        outcome = state["outcome"]
        if outcome is not None and outcome["category"] in FINAL_SCORED:
            found.append("turn 16 scored")
        if outcome is not None and outcome["won"]:
            found.append("victory")
        return found

    def describe(self, state: State) -> str:
        return f"Turn {state['turn']}, {state['phase']}, {state['vp']} VP"

    def rules_summary(self) -> str:
        return package_text(__package__, "rules-summary.md")

    # Hidden information --------------------------------------------------------------

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        """Deal the three map cups' chits again, keeping each cup's count: which chit
        went where in a blind Cup Adjustment is unknown to the player."""
        pooled = [chit for cup in CUPS for chit in state["cups"][cup]]
        ctx.rng.shuffle(pooled)
        start = 0
        for cup in CUPS:
            size = len(state["cups"][cup])
            state["cups"][cup] = sorted(pooled[start : start + size])
            start += size
        return state

    def invariants(self, state: State) -> Sequence[str]:
        broken: list[str] = []
        if state["phase"] == "set-up":
            return broken  # the set-up is still placing counters
        found = board.all_counters(state)
        expected = len(MAP_UNITS) + sum(MARKER_COUNTS.values())
        if len(found) != expected or len(set(found)) != expected:
            broken.append(
                f"{len(found)} map counters in play ({len(set(found))} distinct), "
                f"expected {expected}"
            )
        enemies = list(state["battle_cup"])
        if state["battle"] is not None:
            enemies += [
                s["id"] for w in ("left", "right") for s in state["battle"]["enemy"][w] if s
            ]
        if sorted(enemies) != sorted(ENEMY_BATTLE_UNITS):
            broken.append("the 16 enemy battle units are not all accounted for")
        if not 0 <= state["treasury"] <= 20:
            broken.append(f"treasury {state['treasury']} outside 0-20")
        if state["vp"] < 0 or not 0 <= state["evp"] <= EVP_MAX:
            broken.append("VP or EVP out of range")
        for box, units in state["stacks"].items():
            leaders = [c for c in units if c in state["leader_side"]]
            if len(leaders) > 1 or (leaders and units[-1] != leaders[0]):
                broken.append(f"{box}: a Leader must be alone on top of its stack")
        return broken

    # The view --------------------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        turn = state["turn"]
        status = f"Turn {min(turn, LAST_TURN)} of {LAST_TURN}, {state['phase']} phase"
        if state["outcome"] is not None:
            status = ("Victory: " if state["outcome"]["won"] else "Defeat: ") + state["outcome"][
                "reason"
            ]
        elif state["battle"] is not None:
            kind = "Ambush" if state["battle"]["ambush"] else "Battle"
            status += (
                f": {kind} in {BOXES[state['battle']['box']].name}, round "
                f"{state['battle']['round']}"
            )
        elif state["siege"] is not None:
            status += f": the Siege of {BOXES[state['siege']['box']].name} goes on"
        shown_turn = min(turn, LAST_TURN)
        zones: list[views.Zone] = []
        for region in REGION_ORDER:
            for box in REGIONS[region].boxes:
                here = [
                    board.piece_name(p).replace("the ", "") for p in board.pieces_in(state, box)
                ]
                contents = here + board.describe_stack(state, box)
                zones.append(views.zone(f"{BOXES[box].name} [{region.title()}]", contents))
        zones.append(
            views.zone(
                "Cups",
                counts={CUP_NAMES[c]: len(state["cups"][c]) for c in CUPS}
                | {"Battle": len(state["battle_cup"])},
            )
        )
        zones.append(views.zone("Dead Pool", [board.name(state, c) for c in state["dead_pool"]]))
        zones.append(
            views.zone(
                "Churches",
                [f"{REGIONS[r].name}: {s}" for r, s in sorted(state["churches"].items())],
            )
        )
        zones.append(
            views.zone(
                "Vikings",
                counts={REGIONS[r].name: len(v) for r, v in state["vikings"].items() if v},
            )
        )
        zones.append(views.zone("Army (Reserve)", counts=army_counts(state)))
        zones.append(views.zone("Force Pool (free counters)", counts=force_pool_counts(state)))
        if state["battle"] is not None:
            zones += battle_zones(state)
        rolls = [f"{r['reason']}: {r['face']}" for r in state["rolls"]]
        marquis = {
            REGIONS[r].name: BOXES[m["box"]].name + (" (Bridges & Roads)" if m["crowned"] else "")
            for r, m in sorted(state["marquis"].items())
        }
        realm = {
            "Charlemagne": BOXES[state["charlemagne"]].name,
            "Marquis": marquis or "none",
            "Al-Andalus": state["al_andalus"],
            "Byzantium": state["byzantine"],
            "Last rolls": rolls or "none",
            "Last drawn": ", ".join(state["drawn"]) or "none",
            "Turn End markers": turn_ends_words(state),
            "This turn": f"VP threshold {vp_threshold(shown_turn)}, Wealth "
            f"{wealth_threshold(shown_turn)}, Minimum Army "
            f"{minimum_army_strength(shown_turn)}",
        }
        # The player's own standing: the "You" box for the player, a plain key otherwise.
        mine = {"you": realm} if seat is not None else {"realm": realm}
        return {
            **mine,
            "status": status,
            "seats": views.seats(
                ["Charlemagne"],
                [
                    {
                        "VP": state["vp"],
                        "Treasury": state["treasury"],
                        "Taxes": state["taxes"],
                        "EVP": state["evp"],
                        "PAM": f"{state['pam']:+d}",
                        "Title": title(state),
                    }
                ],
            ),
            "tracks": [
                views.track("Turn", shown_turn, 1, LAST_TURN),
                views.track("Victory Points", state["vp"], 0, 150),
                views.track("Treasury", state["treasury"], 0, 20),
                views.track("Taxes", state["taxes"], 0, 40),
                views.track("Emergency VP", state["evp"], 0, EVP_MAX),
                views.track("Papal Approval", state["pam"], -1, 4),
                views.track("Army Strength", army_strength(state), 0, 100),
            ],
            "zones": zones,
            "map": {
                box: {
                    "stack": list(reversed(state["stacks"][box])),
                    "leader": board.leader_in_box(state, box),
                    "moors": board.moors_in(state, box),
                }
                for box in BOXES
            },
            "cup_counts": {c: len(state["cups"][c]) for c in CUPS},
            "battle_cup": list(state["battle_cup"]),
            "dead_pool": list(state["dead_pool"]),
            "battle": state["battle"],
            "army": [dict(u) for u in state["army"]],
            "numbers": {k: state[k] for k in ("turn", "vp", "treasury", "taxes", "evp", "pam")}
            | {
                "hre": state["hre"],
                "iron_crown": state["iron_crown"],
                "turn_ends_drawn": board.count_in_dead_pool(state, "turn_end"),
            },
            "rolls": list(state["rolls"]),
            "drawn": list(state["drawn"]),
            "phase": state["phase"],
        }


def turn_ends_words(state: State) -> str:
    """How many Turn End markers this campaign has drawn (they wait in the Dead Pool
    until the Turn End): the second ends the Campaign Phase (§5.8)."""
    drawn = board.count_in_dead_pool(state, "turn_end")
    if drawn >= 2:
        return "2 of 2 drawn: the campaign is over"
    return f"{drawn} of 2 drawn this campaign (the second ends it, §5.8)"


#: Milestones read straight from a state flag.
_FLAGS = (
    ("Siege under way", "siege"),
    ("King of the Lombards", "iron_crown"),
    ("Holy Roman Emperor", "hre"),
)
#: The outcomes that only turn 16's final scoring gives.
FINAL_SCORED = (VICTORY, VICTORY_EASY, DEFEAT_FINAL_VP, DEFEAT_FINAL_CONDITIONS)


def title(state: State) -> str:
    words = ["Holy Roman Emperor" if state["hre"] else "King of the Franks"]
    if state["iron_crown"]:
        words.append("King of the Lombards")
    return ", ".join(words)


def army_counts(state: State) -> dict[str, int]:
    counts: dict[str, int] = {}
    for u in sorted(state["army"], key=lambda u: (u["kind"], u["level"])):
        attack, defense = FRIENDLY_FACTORS[(u["kind"], u["level"])]
        label = f"{u['kind'].title()} L{u['level']} ({attack}-{defense})"
        counts[label] = counts.get(label, 0) + 1
    return counts


def force_pool_counts(state: State) -> dict[str, int]:
    """The counters not in the army, by counter sheet: what the Levy and promotions can
    still turn into units (rules §4.1: only while a counter is free)."""
    counts: dict[str, int] = {}
    for kind, levels, count in COUNTER_GROUPS:
        used = sum(1 for u in state["army"] if u["kind"] == kind and u["level"] in levels)
        span = f"L{levels[0]}" if len(levels) == 1 else f"L{levels[0]}-{levels[-1]}"
        counts[f"{kind.title()} {span}"] = count - used
    return counts


def battle_zones(state: State) -> list[views.Zone]:
    b = state["battle"]
    out = []
    for wing in WINGS:
        enemy = [f"{k + 1}: {enemy_words(s) if s else '-'}" for k, s in enumerate(b["enemy"][wing])]
        mine = [
            f"{j + 1}: {unit_words(state, u) if u is not None else '-'}"
            for j, u in enumerate(b["mine"][wing])
        ]
        flank = [
            f"{k + 1}: {unit_words(state, u)}"
            for k, u in enumerate(b["flank"][wing])
            if u is not None
        ]
        out.append(views.zone(f"Battle: enemy facing your {WING_NAMES[wing]}", enemy))
        out.append(
            views.zone(
                f"Battle: your {WING_NAMES[wing]} wing", mine + [f"flanking {f}" for f in flank]
            )
        )
    return out
