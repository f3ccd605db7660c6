"""Red Flag Over Paris as a Tabletop game definition.

The state holds a *decision stack*: every pending decision (a card play, one cube of an
event, the next step of an operation, a bonus action) is a small dict on
``state["stack"]``. ``prompt`` reads the top task; ``apply`` resolves it and then runs
every task that needs no decision (event steps, end-of-play breach checks) and the
round's fixed sequence (``_flow``) until the next real decision. This keeps long chains
of sub-decisions as plain data, so saves, undo and replays need nothing special.

Seat 0 is Versailles and seat 1 the Commune, the order the rulebook introduces them.
Section numbers (§) refer to rules-summary.md beside this module, which
numbers the rulebook's headings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop.framework import (
    NOBODY,
    PASS_KEY,
    Action,
    Choice,
    Context,
    GameDefinition,
    GameInfo,
    OptionSpec,
    Prompt,
    Result,
    State,
    clone,
)
from tabletop.framework import views as schema

from . import board, events, reference, solo, viewing
from .board import other
from .data import (
    BOARD,
    CARDS,
    COMMUNE,
    COMMUNE_POOL,
    CUBE_LIMIT,
    CUBES_PER_SIDE,
    DIM_SPACES,
    DIMENSIONS,
    DISC_NAMES,
    DISCS_PER_SIDE,
    FINAL_CRISIS_CARD,
    FINAL_ZONE,
    HAND_SIZE,
    MOMENTUM_MAX,
    MOMENTUM_NAMES,
    MOMENTUM_VP,
    OBJECTIVE_IDS,
    PIVOT_OF,
    PIVOTALS,
    PLAYS,
    PRUSSIAN_CUBES,
    ROUNDS,
    SIDE_NAMES,
    SIDE_NOUNS,
    SPACES,
    STRATEGY_IDS,
    TRACKS,
    VERSAILLES,
    VP_CAP,
    ZONES,
    card_name,
    space_name,
)
from .viewing import card_detail, card_label

Task = dict[str, Any]
#: How a result's summary names the winner.
_WINNER_NAMES = ("Versailles", "The Commune")


#: Tables every view carries that never change: built once, copied into each view.
_CARD_NAMES: dict[str, str] = {str(c): CARDS[c].title for c in CARDS}
_SPACE_FACTS: dict[str, tuple[str, str | None, bool]] = {
    s: (SPACES[s].name, SPACES[s].dimension, SPACES[s].pivotal) for s in BOARD
}


def final_account(state: State) -> list[str]:
    """The final score in words: each side's VP, what the result's scores are, and every
    VP change of the game with its reason (the game-over screen shows these lines)."""
    lines = [
        "Scores: Versailles' Military VP and the Commune's Political VP, the two numbers "
        "§13.1 compares.",
    ]
    for seat in (VERSAILLES, COMMUNE):
        lines.append(
            f"{SIDE_NAMES[seat]}: Political VP {board.vp_of(state, seat, 'political'):+d}, "
            f"Military VP {board.vp_of(state, seat, 'military'):+d}, "
            f"objectives fulfilled {len(state['fulfilled'][seat])}."
        )
    log = state.get("vp_log", [])
    if not log:
        lines.append("No VP changed hands during the game.")
    for when, seat, kind, amount, moved, why in log:
        change = f"{moved:+d} {kind} VP"
        if moved != amount:
            change += f" (of {amount:+d}: the track stops at {VP_CAP})"
        lines.append(f"{when}: {SIDE_NAMES[seat]} {change}, {why}.")
    return lines


def _join(notes: Sequence[str]) -> str:
    return "; ".join(note for note in notes if note)


class RedFlagOverParis(GameDefinition):
    info = GameInfo(
        id="red-flag-over-paris",
        title="Red Flag Over Paris",
        min_players=2,
        max_players=2,
        description=(
            "Paris, 1871: Versailles and the Commune use cards to win political and "
            "military control over three rounds and a Final Crisis."
        ),
        version="2.0.0",
        hidden_information=True,
        options=(
            OptionSpec(
                solo.OPTION,
                "Solitaire",
                (
                    ("off", "Two players"),
                    ("versailles", "Solitaire: the solo opponent plays Versailles"),
                    ("commune", "Solitaire: the solo opponent plays the Commune"),
                ),
                "off",
                help="The rulebook's solitaire mode: one side is played by the game itself "
                "by the solo opponent's procedure; you play the other seat.",
            ),
        ),
    )
    #: ``view`` builds every list and dict anew (checked by the fuzzer and the kit), so
    #: the engine need not deep-copy it.
    fresh_views = True

    # Setup (§4) ------------------------------------------------------------------------

    def seat_names(self, players: int, options: Mapping[str, str]) -> tuple[str, ...]:
        bot = solo.SIDES.get(options.get(solo.OPTION, "off"))
        if bot is None:
            return SIDE_NAMES
        return tuple(
            f"{name} (solo opponent)" if seat == bot else name
            for seat, name in enumerate(SIDE_NAMES)
        )

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        setup_map = TRACKS["setup_map"]["value"]
        bot = solo.SIDES.get(options.get(solo.OPTION, "off"))
        deck = [c for c in STRATEGY_IDS if bot is None or c not in solo.REMOVED_CARDS]
        ctx.rng.shuffle(deck)
        objectives = list(OBJECTIVE_IDS)
        ctx.rng.shuffle(objectives)
        crisis = TRACKS["crisis_track"]
        state: State = {
            "round": 1,
            "fc": False,
            "step": "deal",
            "cubes": {s: list(setup_map.get(s, [0, 0])) for s in BOARD},
            "discs": {},
            "track": [list(crisis["versailles"]["cubes"]), list(crisis["commune"]["cubes"])],
            "bonus": [list(crisis["versailles"]["bonus"]), list(crisis["commune"]["bonus"])],
            "breached": [[False] * len(ZONES), [False] * len(ZONES)],
            "breach_queue": [],
            "fc_first": None,
            "pool": [0, 0],
            "out": [0, 0],
            "prussian": list(PRUSSIAN_CUBES),
            "momentum": [0, 0],
            "vp": {"political": 0, "military": 0},
            "deck": deck,
            "discard": [],
            "removed": [] if bot is None else list(solo.REMOVED_CARDS),
            "hands": [[], []],
            "fc_card": [True, True],
            "aside": [[], []],
            "obj_deck": objectives,
            "obj_hand": [[], []],
            "objective": [None, None],
            "obj_discarded": [[], []],
            "fulfilled": [[], []],
            "obj_removed": [],
            "revealed": [],
            "initiative": COMMUNE,
            "active": COMMUNE,
            "plays": [0, 0],
            "stack": [],
            "result": None,
            "vp_log": [],
        }
        if bot is not None:
            state["solo"] = bot
        self._run(state, ctx)
        return state

    # Prompts ---------------------------------------------------------------------------

    def prompt(self, state: State) -> Prompt | None:
        if not state["stack"]:
            return None
        task: Task = state["stack"][-1]
        builder = getattr(self, "_prompt_" + task["t"])
        result: Prompt = builder(state, task)
        return result

    def _prompt_objective(self, state: State, task: Task) -> Prompt:
        seat = task["seat"]
        choices = tuple(
            Choice(
                f"keep:{c}",
                f"Keep {card_name(c)} ({space_name(CARDS[c].space or '')})",
                card_detail(c),
            )
            for c in state["obj_hand"][seat]
        )
        return Prompt(
            seat,
            "Choose the objective to keep this round (the other is removed unseen)",
            choices,
            "§5.2",
        )

    def _prompt_init(self, state: State, task: Task) -> Prompt:
        return Prompt(
            task["seat"],
            "You have the higher initiative level: play first or second?",
            (
                Choice(
                    "first",
                    "Play first (become Initiative Player)",
                    "The Initiative Player plays first, orders the end-of-round steps when "
                    "both sides score, and leads the last tiebreak test (§6.2, §13.2)",
                ),
                Choice("second", "Play second", "Your opponent becomes the Initiative Player"),
            ),
            "§6.2",
        )

    def _prompt_play(self, state: State, task: Task) -> Prompt:
        seat = task["seat"]
        hand = state["hands"][seat]
        choices: list[Choice] = []
        if state["fc"]:
            for c in hand:
                choices.append(
                    Choice(
                        f"ev:{c}",
                        f"Event: {card_label(c)}",
                        card_detail(c),
                        self._final_crisis_event_notes(state, seat, c),
                    )
                )
            return Prompt(seat, "Final Crisis: play a card for its event", tuple(choices), "§12.3")
        top = self._reusable_top(state, seat)
        mom_detail, mom_notes = self._momentum_notes(state, seat)
        fc = FINAL_CRISIS_CARD[seat]
        for c in hand:
            card = CARDS[c]
            detail = card_detail(c)
            gift = self._gift_note(state, seat, c)
            why_not = events.unplayable_reason(state, seat, c)
            if not why_not:
                notes = events.forecast(state, seat, events.event_steps(c, []))
                choices.append(Choice(f"ev:{c}", f"Event: {card_label(c)}", detail, _join(notes)))
            ops_label = f"Operations ({card.ops}): {card.title}"
            if why_not and card.faction in (seat, None):
                ops_label += " (event not playable now)"
            choices.append(
                Choice(
                    f"ops:{c}",
                    ops_label,
                    (f"Event not playable now: {why_not} (§7.1). " if why_not else "")
                    + f"Spend {card.ops} OP in Political or Military spaces "
                    "(§7.2). " + detail,
                    gift,
                )
            )
            if state["momentum"][seat] < MOMENTUM_MAX:
                choices.append(
                    Choice(
                        f"mom:{c}",
                        f"Advance {MOMENTUM_NAMES[seat]}: remove {card.title}",
                        f"{card.title} leaves the game (§7.7); {mom_detail}. {detail}",
                        mom_notes,
                    )
                )
            if top is not None and card.ops >= CARDS[top].ops:
                choices.append(
                    Choice(
                        f"reuse:{c}",
                        f"Use discarded {card_name(top)}: discard {card.title}",
                        card_detail(top) + f" (§7.6). Discards {card.title}.",
                        _join([*events.forecast(state, seat, events.event_steps(top, [])), gift]),
                    )
                )
            if state["fc_card"][seat]:
                choices.append(
                    Choice(
                        f"fc:{c}",
                        f"Final Crisis card {card_name(fc)} for 4 OP: discard {card.title}",
                        f"Spend {card_name(fc)}'s {CARDS[fc].ops} OP as operations and "
                        f"discard {card.title} (§7.8). " + detail,
                        _join(
                            [
                                f"{card_name(fc)} then leaves the game: it will not join "
                                "your Final Crisis hand (§12.2)",
                                gift,
                            ]
                        ),
                    )
                )
        return Prompt(seat, f"Round {state['round']}: play a Strategy Card", tuple(choices), "§7")

    def _final_crisis_event_notes(self, state: State, seat: int, card: int) -> str:
        """§12.3: who decides, and whether the event can do anything at all."""
        owner = CARDS[card].faction
        actor = seat if owner is None else owner
        if not events.playable(state, actor, card):
            return "its condition does not hold now: it will have no effect (§7.1)"
        notes: list[str] = []
        if owner == other(seat):
            notes.append(f"{SIDE_NOUNS[owner]} decides whether it applies (§12.3)")
        notes.extend(events.forecast(state, actor, events.event_steps(card, [])))
        return _join(notes)

    def _momentum_notes(self, state: State, seat: int) -> tuple[str, str]:
        """What advancing ``seat``'s momentum by one does (§7.7, §9): detail, consequence."""
        level = state["momentum"][seat]
        parts = [f"{MOMENTUM_NAMES[seat]} {level} -> {level + 1}"]
        if seat == VERSAILLES and level < MOMENTUM_MAX:
            gained = state["prussian"][level]
            if gained:
                parts.append(f"{gained} Prussian cube(s) join your pool for good (§9.1)")
        if seat == COMMUNE and level < MOMENTUM_MAX:
            parts.append(f"pool spaces {COMMUNE_POOL[level]} -> {COMMUNE_POOL[level + 1]} (§9.2)")
        if level + 1 == MOMENTUM_MAX:
            parts.append(
                f"at {MOMENTUM_MAX} it is worth 1 {MOMENTUM_VP[seat]} VP at the end (§9.4)"
            )
        notes = board.momentum_forecast(list(state["momentum"]), seat, 1, state["pool"][COMMUNE])
        return "; ".join(parts), _join(notes)

    def _gift_note(self, state: State, seat: int, card: int) -> str:
        """§7.6: discarding the opponent's colour may hand it that event this round."""
        opp = other(seat)
        if state["fc"] or CARDS[card].faction != opp:
            return ""
        if state["plays"][opp] >= PLAYS or not state["hands"][opp]:
            return ""
        return (
            f"{SIDE_NOUNS[opp]} may then use {card_name(card)}'s event from the discard "
            "pile this round (§7.6)"
        )

    def _breach_notes(self, state: State, seat: int) -> tuple[str, str]:
        """What taking ``seat``'s next cube does to its Crisis Track (§8.2-§8.3, §12.1).

        Returns (detail, consequence); ``board.resolve_breaches`` carries it out at the end
        of the card play or bonus action, so the two must agree (tested)."""
        zone = board.next_breach(state, seat)
        if zone is None:
            return "", ""
        bonus = state["bonus"][seat][zone]
        later = "when this card play or bonus action ends"
        if board.pool_capacity(state, seat) is not None:
            later += ", room permitting"
        if zone != FINAL_ZONE:
            return (
                f"This cube is the first from your {ZONES[zone]} zone: a breach; its "
                f"{bonus} bonus cube(s) reach your pool {later} (§8.2)"
            ), ""
        notes: list[str] = []
        if state["fc_first"] is None:
            detail = f"Its {bonus} bonus cube(s) reach your pool {later} (§8.3)"
            if board.vp_of(state, seat, "political") > -VP_CAP:
                notes.append("breaches your Final Crisis zone first: -1 Political VP (§8.3)")
            else:
                notes.append(
                    "breaches your Final Crisis zone first: Political VP already at "
                    "the bottom, nothing more to lose (§8.3)"
                )
        else:
            detail = ""
            notes.append(
                "breaches your Final Crisis zone second: its bonus cubes leave play (§8.3)"
            )
        if (
            not state["fc"]
            and state["breached"][other(seat)][FINAL_ZONE]
            and state["round"] < ROUNDS
        ):
            notes.append(
                "both Final Crisis zones are then breached: the Final Crisis follows "
                "this round (§12.1)"
            )
        return detail, _join(notes)

    def _reusable_top(self, state: State, seat: int) -> int | None:
        """§7.6: the top discard, placed this round by the opponent, of this seat's colour."""
        if not state["discard"]:
            return None
        card, by, rnd = state["discard"][-1]
        if by != other(seat) or rnd != state["round"] or CARDS[card].faction != seat:
            return None
        return int(card) if events.playable(state, seat, card) else None

    def _prompt_choose(self, state: State, task: Task) -> Prompt:
        step = events.event_steps(task["card"], [])[task["i"]]
        detail = card_detail(task["card"])
        choices = tuple(
            Choice(
                f"opt:{k}",
                option["text"],
                detail,
                _join(events.forecast(state, task["seat"], option["steps"])),
            )
            for k, option in enumerate(step["options"])
        )
        return Prompt(task["seat"], f"{card_name(task['card'])}: choose one", choices, "§7.1")

    def _prompt_consent(self, state: State, task: Task) -> Prompt:
        name = card_name(task["card"])
        return Prompt(
            task["seat"],
            f"Your opponent played your event {name}: apply it?",
            (
                Choice(
                    "apply",
                    f"Apply {name}",
                    card_detail(task["card"]),
                    _join(
                        events.forecast(state, task["seat"], events.event_steps(task["card"], []))
                    ),
                ),
                Choice(
                    "decline",
                    "Do not apply it",
                    f"{name} is discarded with no effect",
                    key=PASS_KEY,
                ),
            ),
            "§12.3",
        )

    def _place_targets(self, state: State, task: Task) -> list[str]:
        seat = task["seat"]
        per = task["per"]
        return [
            s
            for s in task["spaces"]
            if board.can_place(state, s, seat) and (per is None or task["done"].get(s, 0) < per)
        ]

    def _prompt_place(self, state: State, task: Task) -> Prompt:
        detail, cost = self._breach_notes(state, task["seat"])
        choices = [
            Choice(f"put:{s}", f"Place a cube in {space_name(s)}", detail, cost)
            for s in self._place_targets(state, task)
        ]
        choices.append(Choice("stop", "Place no more", key=PASS_KEY))
        return Prompt(
            task["seat"],
            f"{card_name(task['card'])}: place up to {task['left']} more cube(s)",
            tuple(choices),
            "§7.1",
        )

    def _remove_targets(self, state: State, task: Task) -> list[str]:
        opp = other(task["seat"])
        return [s for s in task["spaces"] if board.cubes(state, s, opp) > 0]

    def _prompt_remove(self, state: State, task: Task) -> Prompt:
        choices = [
            Choice(
                f"take:{s}", f"Remove a {SIDE_NAMES[other(task['seat'])]} cube from {space_name(s)}"
            )
            for s in self._remove_targets(state, task)
        ]
        choices.append(Choice("stop", "Remove no more", key=PASS_KEY))
        return Prompt(
            task["seat"],
            f"{card_name(task['card'])}: remove up to {task['left']} more cube(s)",
            tuple(choices),
            "§7.1",
        )

    def _disc_choices(self, state: State, task: Task) -> list[Choice]:
        seat = task["seat"]
        free = [s for s in task["spaces"] if board.disc_owner(state, s) is None]
        name = DISC_NAMES[seat]
        if board.discs_off_map(state, seat) > 0:
            return [Choice(f"disc:{s}", f"Place a {name} in {space_name(s)}") for s in free]
        mine = sorted(s for s, owner in state["discs"].items() if owner == seat)
        return [
            Choice(f"move:{a}:{b}", f"Move a {name} from {space_name(a)} to {space_name(b)}")
            for a in mine
            for b in free
        ]

    def _prompt_disc(self, state: State, task: Task) -> Prompt:
        choices = self._disc_choices(state, task)
        choices.append(Choice("stop", f"No {DISC_NAMES[task['seat']]}", key=PASS_KEY))
        return Prompt(task["seat"], f"Place a {DISC_NAMES[task['seat']]}", tuple(choices), "§1.2")

    def _ops_remove_choices(self, state: State, task: Task) -> list[Choice]:
        opp, pts = other(task["seat"]), task["pts"]
        out: list[Choice] = []
        for s in task["snap"]["elig"]:
            opp_cubes = board.cubes(state, s, opp)
            opp_disc = board.disc_owner(state, s) == opp
            if not opp_cubes and not opp_disc:
                continue
            what = "cube" if opp_cubes else DISC_NAMES[opp]
            if task["kind"] == "political":
                if pts >= 1:
                    out.append(Choice(f"rm:{s}", f"Remove a cube from {space_name(s)} (1 OP)"))
                continue
            cost = 2 if opp_disc else 1
            strength = board.military_strength(task["snap"], s, False)
            if pts >= cost:
                out.append(
                    Choice(
                        f"rm:{s}",
                        f"Attack the {what} in {space_name(s)} ({cost} OP, strength {strength})",
                        self._attack_detail(strength),
                    )
                )
            if strength < 3 and pts >= cost + 1:
                out.append(
                    Choice(
                        f"rmx:{s}",
                        f"Attack the {what} in {space_name(s)} "
                        f"({cost + 1} OP, strength {strength + 1})",
                        self._attack_detail(strength + 1),
                    )
                )
        return out

    @staticmethod
    def _unspent_note(points: int) -> str:
        """Operations Points are not kept: finishing early throws the rest away (§7.2)."""
        return f"{points} Operations Point(s) left unspent are lost" if points else ""

    @staticmethod
    def _attack_detail(strength: int) -> str:
        if strength >= 3:
            return f"Strength {strength}: the attack succeeds without a draw (§7.4)"
        return (
            f"Strength {strength}: a card is drawn from the deck and leaves the game; the "
            f"attack succeeds if the card is worth {strength} OP or less (§7.4)"
        )

    def _ops_place_choices(self, state: State, task: Task) -> list[Choice]:
        seat, pts = task["seat"], task["pts"]
        out: list[Choice] = []
        detail, breach = self._breach_notes(state, seat)
        for s in task["snap"]["elig"]:
            cost = 2 if board.disc_owner(state, s) == other(seat) else 1
            if pts >= cost and board.can_place(state, s, seat):
                out.append(
                    Choice(
                        f"pl:{s}", f"Place a cube in {space_name(s)} ({cost} OP)", detail, breach
                    )
                )
        return out

    def _prompt_ops(self, state: State, task: Task) -> Prompt:
        seat, pts = task["seat"], task["pts"]
        if task["stage"] == "kind":
            snap = board.snapshot(state, seat)
            kinds = tuple(
                Choice(
                    f"kind:{kind}",
                    f"{kind.capitalize()} spaces",
                    "Open to you now: "
                    + (board.where_text(board.eligible(snap, kind)) or "no space")
                    + " (§7.2)",
                )
                for kind in ("political", "military")
            )
            return Prompt(
                seat, f"Operations with {pts} OP: Political or Military spaces?", kinds, "§7.2"
            )
        if task["stage"] == "remove":
            choices = self._ops_remove_choices(state, task)
            choices.append(Choice("toplace", "Stop removing; go on to placing cubes", key=PASS_KEY))
            rule = "§7.3" if task["kind"] == "political" else "§7.4"
            return Prompt(
                seat,
                f"Operations ({task['kind']}, {pts} OP left): remove first",
                tuple(choices),
                rule,
            )
        choices = self._ops_place_choices(state, task)
        choices.append(
            Choice("done", "Finish operations", consequence=self._unspent_note(pts), key=PASS_KEY)
        )
        return Prompt(
            seat, f"Operations ({task['kind']}, {pts} OP left): place cubes", tuple(choices), "§7.5"
        )

    def _prompt_mplace(self, state: State, task: Task) -> Prompt:
        seat = task["seat"]
        detail, cost = self._breach_notes(state, seat)
        choices = [
            Choice(f"put:{s}", f"Place a cube in {space_name(s)}", detail, cost)
            for s in DIM_SPACES[task["dim"]]
            if board.can_place(state, s, seat)
        ]
        choices.append(Choice("stop", "Decline", key=PASS_KEY))
        return Prompt(
            seat,
            f"Your opponent's momentum rose: you may place 1 cube in "
            f"{DIMENSIONS[task['dim']]['name']}",
            tuple(choices),
            "§9.3",
        )

    def _prompt_pivot(self, state: State, task: Task) -> Prompt:
        choices = tuple(
            Choice(
                f"pivot:{s}",
                f"Next: {space_name(s)} ({SIDE_NAMES[board.controller(state, s) or 0]})",
                f"A bonus action in {DIMENSIONS[SPACES[s].dimension or '']['name']}, "
                f"by {SIDE_NOUNS[board.controller(state, s) or 0]} (§10.1)",
            )
            for s in task["left"]
        )
        return Prompt(
            task["seat"], "Order of Pivotal Space bonus actions: which next?", choices, "§10.1"
        )

    def _bonus_choices(self, state: State, task: Task) -> list[Choice]:
        seat, opp = task["seat"], other(task["seat"])
        spaces = DIM_SPACES[task["dim"]]
        out: list[Choice] = []
        if any(board.cubes(state, s, seat) for s in spaces):
            out.append(
                Choice(
                    "deesc", "De-escalate: remove up to 2 own cubes, or 1 own + 1 enemy", key="d"
                )
            )
            if self._spread_sources(state, seat, spaces):
                out.append(Choice("spread", "Spread Influence: move up to 2 own cubes", key="s"))
        detail, cost = self._breach_notes(state, seat)
        swap = (
            f"An enemy cube goes back to {SIDE_NOUNS[opp]}'s pool and one of your cubes "
            "takes its place (§10.1)"
        )
        out.extend(
            Choice(f"turn:{s}", f"Turncoat in {space_name(s)}", _join([swap, detail]), cost)
            for s in spaces
            if board.cubes(state, s, opp) and board.can_place(state, s, seat)
        )
        out.append(Choice("pass", "No bonus action", key=PASS_KEY))
        return out

    def _spread_sources(self, state: State, seat: int, spaces: Sequence[str]) -> list[str]:
        return [
            s
            for s in spaces
            if board.cubes(state, s, seat)
            and any(t != s and board.cubes(state, t, seat) < CUBE_LIMIT for t in spaces)
        ]

    def _prompt_bonus(self, state: State, task: Task) -> Prompt:
        dim = DIMENSIONS[task["dim"]]["name"]
        pivot = space_name(PIVOT_OF[task["dim"]])
        return Prompt(
            task["seat"],
            f"Bonus action in {dim} (you control {pivot})",
            tuple(self._bonus_choices(state, task)),
            "§10.1",
        )

    def _deesc_choices(self, state: State, task: Task) -> list[Choice]:
        seat, opp = task["seat"], other(task["seat"])
        spaces = DIM_SPACES[task["dim"]]
        cap = board.pool_capacity(state, seat)
        full = cap is not None and state["pool"][seat] >= cap
        lost = "your pool has no free space: this cube leaves play (§8.4)" if full else ""
        out = [
            Choice(f"own:{s}", f"Remove your cube from {space_name(s)}", consequence=lost)
            for s in spaces
            if board.cubes(state, s, seat)
        ]
        if task["n"] == 1:
            out.extend(
                Choice(f"opp:{s}", f"Remove an enemy cube from {space_name(s)}")
                for s in spaces
                if board.cubes(state, s, opp)
            )
        return out

    def _prompt_deesc(self, state: State, task: Task) -> Prompt:
        choices = self._deesc_choices(state, task)
        choices.append(Choice("stop", "Stop", key=PASS_KEY))
        return Prompt(task["seat"], "De-escalate", tuple(choices), "§10.1")

    def _prompt_spread(self, state: State, task: Task) -> Prompt:
        seat = task["seat"]
        spaces = DIM_SPACES[task["dim"]]
        if task["from"] is None:
            choices = [
                Choice(f"from:{s}", f"Move a cube out of {space_name(s)}")
                for s in self._spread_sources(state, seat, spaces)
            ]
            choices.append(Choice("stop", "Stop", key=PASS_KEY))
        else:
            choices = [
                Choice(f"to:{s}", f"Move it to {space_name(s)}")
                for s in spaces
                if s != task["from"] and board.cubes(state, s, seat) < CUBE_LIMIT
            ]
        return Prompt(seat, "Spread Influence", tuple(choices), "§10.1")

    def _prompt_order(self, state: State, task: Task) -> Prompt:
        what = {
            "dim": ("Crisis Dimension scoring", "§10.2"),
            "objvp": ("objective VP scoring", "§11"),
            "objev": ("objective events", "§11"),
        }[task["what"]]
        return Prompt(
            task["seat"],
            f"Order of {what[0]}: who goes first?",
            (Choice("first:0", "Versailles first"), Choice("first:1", "Commune first")),
            what[1],
        )

    def _prompt_objev(self, state: State, task: Task) -> Prompt:
        name = card_name(task["card"])
        notes = events.forecast(state, task["seat"], events.event_steps(task["card"], []))
        return Prompt(
            task["seat"],
            f"You fulfilled {name}: perform its event?",
            (
                Choice("perform", f"Perform {name}", card_detail(task["card"]), _join(notes)),
                Choice(
                    "skip", "Skip the event", "The objective is fulfilled either way", key=PASS_KEY
                ),
            ),
            "§11",
        )

    def _prompt_fc_discard(self, state: State, task: Task) -> Prompt:
        seat = task["seat"]
        choices = tuple(
            Choice(f"drop:{c}", f"Discard {card_label(c)}", card_detail(c))
            for c in state["hands"][seat]
        )
        return Prompt(
            seat, f"Final Crisis: discard down to {state['round']} card(s)", choices, "§12.2"
        )

    # Applying --------------------------------------------------------------------------

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        task: Task = state["stack"][-1]
        handler = getattr(self, "_apply_" + task["t"])
        handler(state, task, action, ctx)
        self._run(state, ctx)

    def _apply_objective(self, state: State, task: Task, action: str, ctx: Context) -> None:
        seat = task["seat"]
        keep = int(action.split(":")[1])
        hand = list(state["obj_hand"][seat])
        state["objective"][seat] = keep
        bot = solo.seat_of(state)
        if bot is not None:  # solitaire: the other objective goes to the solo opponent
            given = next((c for c in hand if c != keep), None)
            state["objective"][bot] = given
            if given is not None:
                ctx.reveal(
                    f"gives {card_name(given)} ({space_name(CARDS[given].space or '')}) "
                    "to the solo opponent (solitaire)",
                    card=given,
                )
        else:
            state["obj_discarded"][seat].extend(c for c in hand if c != keep)
        state["obj_hand"][seat] = []
        state["stack"].pop()
        ctx.emit("objective", "keeps one objective, face down (§5.2)")
        dropped = [card_name(c) for c in hand if c != keep]
        fate = "leaves the game unseen" if bot is None else "goes to the solo opponent"
        ctx.emit(
            "objective",
            f"keeps {card_name(keep)} ({space_name(CARDS[keep].space or '')})"
            + (f"; {', '.join(dropped)} {fate}" if dropped else ""),
            seats=[seat],
            card=keep,
        )

    def _apply_init(self, state: State, task: Task, action: str, ctx: Context) -> None:
        leader = task["seat"]
        first = leader if action == "first" else other(leader)
        state["initiative"] = first
        state["active"] = first
        state["plays"] = [0, 0]
        state["stack"].pop()
        chose = "first" if action == "first" else "second"
        ctx.emit(
            "initiative",
            f"is the Initiative Player ({SIDE_NOUNS[leader]} chose to play {chose}) (§6.2)",
            about=first,
        )

    def _apply_play(self, state: State, task: Task, action: str, ctx: Context) -> None:
        seat = task["seat"]
        use, _, num = action.partition(":")
        card = int(num)
        state["hands"][seat].remove(card)
        state["stack"].pop()
        rnd = state["round"]
        if use == "ev":
            state["discard"].append([card, seat, rnd])
            owner = CARDS[card].faction
            ctx.emit("play", f"plays {card_name(card)} for its event", card=card)
            actor = seat if owner is None else owner
            if state["fc"] and not events.playable(state, actor, card):
                ctx.emit(
                    "event",
                    f"{card_name(card)}: its condition does not hold, no effect (§7.1)",
                    card=card,
                )
            elif state["fc"] and owner == other(seat):
                state["stack"].append({"t": "consent", "seat": owner, "card": card})
            else:
                events.start_event(state, seat, card)
        elif use == "ops":
            state["discard"].append([card, seat, rnd])
            ctx.emit("play", f"plays {card_name(card)} for {CARDS[card].ops} OP (§7.2)", card=card)
            state["stack"].append(self._ops_task(seat, CARDS[card].ops))
        elif use == "mom":
            state["removed"].append(card)
            ctx.emit(
                "play",
                f"removes {card_name(card)} from the game to advance {MOMENTUM_NAMES[seat]} (§7.7)",
                card=card,
            )
            tasks = board.shift_momentum(state, seat, 1, ctx)
            state["stack"].extend(reversed(tasks))
        elif use == "reuse":
            top = self._reusable_top(state, seat)
            assert top is not None
            state["discard"].append([card, seat, rnd])
            ctx.emit(
                "play",
                f"discards {card_name(card)} to use the event of "
                f"{card_name(top)} from the discard pile (§7.6)",
                card=card,
                used=top,
            )
            events.start_event(state, seat, top)
        elif use == "fc":
            fc = FINAL_CRISIS_CARD[seat]
            state["discard"].append([card, seat, rnd])
            state["fc_card"][seat] = False
            state["removed"].append(fc)
            ctx.emit(
                "play",
                f"discards {card_name(card)} and spends {card_name(fc)}'s "
                f"{CARDS[fc].ops} OP (§7.8)",
                card=card,
                used=fc,
            )
            state["stack"].append(self._ops_task(seat, CARDS[fc].ops))

    @staticmethod
    def _ops_task(seat: int, points: int) -> Task:
        return {
            "t": "ops",
            "seat": seat,
            "pts": points,
            "kind": None,
            "stage": "kind",
            "snap": None,
        }

    def _apply_choose(self, state: State, task: Task, action: str, ctx: Context) -> None:
        state["stack"].pop()
        option = int(action.split(":")[1])
        events.start_event(state, task["seat"], task["card"], [task["i"], option])

    def _apply_consent(self, state: State, task: Task, action: str, ctx: Context) -> None:
        state["stack"].pop()
        if action == "apply":
            ctx.emit("event", f"applies {card_name(task['card'])} (§12.3)", card=task["card"])
            events.start_event(state, task["seat"], task["card"])
        else:
            ctx.emit(
                "event", f"declines {card_name(task['card'])}: no effect (§12.3)", card=task["card"]
            )

    def _apply_place(self, state: State, task: Task, action: str, ctx: Context) -> None:
        if action == "stop":
            state["stack"].pop()
            return
        space = action.split(":")[1]
        board.place_cube(state, space, task["seat"])
        task["left"] -= 1
        task["done"][space] = task["done"].get(space, 0) + 1
        ctx.emit("place", f"places a cube in {space_name(space)}", space=space)

    def _apply_remove(self, state: State, task: Task, action: str, ctx: Context) -> None:
        if action == "stop":
            state["stack"].pop()
            return
        space = action.split(":")[1]
        board.remove_cube(state, space, other(task["seat"]))
        task["left"] -= 1
        ctx.emit(
            "remove",
            f"removes a {SIDE_NAMES[other(task['seat'])]} cube from {space_name(space)}",
            space=space,
        )

    def _apply_disc(self, state: State, task: Task, action: str, ctx: Context) -> None:
        state["stack"].pop()
        seat = task["seat"]
        parts = action.split(":")
        if parts[0] == "disc":
            state["discs"][parts[1]] = seat
            ctx.emit(
                "disc", f"places a {DISC_NAMES[seat]} in {space_name(parts[1])}", space=parts[1]
            )
        elif parts[0] == "move":
            del state["discs"][parts[1]]
            state["discs"][parts[2]] = seat
            ctx.emit(
                "disc",
                f"moves a {DISC_NAMES[seat]} from {space_name(parts[1])} to {space_name(parts[2])}",
                space=parts[2],
            )

    def _apply_ops(self, state: State, task: Task, action: str, ctx: Context) -> None:
        seat = task["seat"]
        verb, _, space = action.partition(":")
        if verb == "kind":
            task["kind"] = space
            task["stage"] = "remove"
            task["snap"] = None
        elif verb == "toplace":
            task["stage"] = "place"
            task["snap"] = None
        elif verb == "done":
            state["stack"].pop()
        elif verb == "pl":
            task["pts"] -= 2 if board.disc_owner(state, space) == other(seat) else 1
            board.place_cube(state, space, seat)
            ctx.emit("place", f"places a cube in {space_name(space)}", space=space)
        else:
            self._attack(state, task, space, verb == "rmx", ctx)

    def _attack(self, state: State, task: Task, space: str, extra: bool, ctx: Context) -> None:
        """§7.3/§7.4: a political removal always works; a military one may need a draw."""
        seat = task["seat"]
        opp = other(seat)
        has_cube = board.cubes(state, space, opp) > 0
        if task["kind"] == "political":
            task["pts"] -= 1
            board.remove_cube(state, space, opp)
            ctx.emit(
                "remove",
                f"removes a {SIDE_NAMES[opp]} cube from {space_name(space)} (§7.3)",
                space=space,
            )
            return
        task["pts"] -= (2 if board.disc_owner(state, space) == opp else 1) + (1 if extra else 0)
        strength = board.military_strength(task["snap"], space, extra)
        success = strength >= 3
        detail = f"strength {strength}"
        if not success:
            drawn = self._draw(state, ctx)
            if drawn is not None:
                state["removed"].append(drawn)
                success = strength >= CARDS[drawn].ops
                detail += f" against {card_name(drawn)}'s {CARDS[drawn].ops} OP"
                ctx.reveal(
                    f"draws {card_name(drawn)} ({CARDS[drawn].ops} OP) from the deck for "
                    "the attack; it leaves the game (§7.4)",
                    card=drawn,
                )
            else:
                detail += ", no card left to draw"
        if success and has_cube:
            board.remove_cube(state, space, opp)
        elif success:
            del state["discs"][space]
        target = "cube" if has_cube else DISC_NAMES[opp]
        ctx.emit(
            "attack",
            f"attacks the {SIDE_NAMES[opp]} {target} in {space_name(space)}: "
            f"{'success' if success else 'failure'} ({detail}) (§7.4)",
            space=space,
            success=success,
            strength=strength,
        )

    def _draw(self, state: State, ctx: Context) -> int | None:
        """Top card of the strategy deck; an empty deck takes the reshuffled discards."""
        if not state["deck"] and state["discard"]:
            state["deck"] = [entry[0] for entry in state["discard"]]
            state["discard"] = []
            # Which cards went into this deck is public; determinize needs it (see there).
            state.setdefault("reshuffles", []).append(sorted(state["deck"]))
            ctx.rng.shuffle(state["deck"])
            ctx.emit(
                "deck",
                f"the discard pile ({len(state['deck'])} cards) is shuffled into a new deck",
                about=NOBODY,
            )
        if not state["deck"]:
            return None
        card: int = state["deck"].pop()
        return card

    def _apply_mplace(self, state: State, task: Task, action: str, ctx: Context) -> None:
        state["stack"].pop()
        if action != "stop":
            space = action.split(":")[1]
            board.place_cube(state, space, task["seat"])
            ctx.emit("place", f"places a cube in {space_name(space)} (§9.3)", space=space)

    def _apply_pivot(self, state: State, task: Task, action: str, ctx: Context) -> None:
        self._start_bonus(state, task, action.split(":")[1])

    def _start_bonus(self, state: State, task: Task, space: str) -> None:
        task["left"].remove(space)
        owner = board.controller(state, space)
        if owner is None:
            return
        state["stack"].append({"t": "end_bonus"})
        state["stack"].append({"t": "bonus", "seat": owner, "dim": SPACES[space].dimension})

    def _apply_bonus(self, state: State, task: Task, action: str, ctx: Context) -> None:
        state["stack"].pop()
        seat = task["seat"]
        if action == "deesc":
            state["stack"].append({"t": "deesc", "seat": seat, "dim": task["dim"], "n": 0})
        elif action == "spread":
            state["stack"].append(
                {"t": "spread", "seat": seat, "dim": task["dim"], "n": 0, "from": None}
            )
        elif action.startswith("turn:"):
            space = action.split(":")[1]
            board.remove_cube(state, space, other(seat))
            board.place_cube(state, space, seat)
            ctx.emit(
                "bonus",
                f"Turncoat: replaces a {SIDE_NAMES[other(seat)]} cube in "
                f"{space_name(space)} with its own (§10.1)",
                space=space,
            )

    def _apply_deesc(self, state: State, task: Task, action: str, ctx: Context) -> None:
        if action == "stop":
            state["stack"].pop()
            return
        verb, _, space = action.partition(":")
        seat = task["seat"]
        victim = seat if verb == "own" else other(seat)
        board.remove_cube(state, space, victim)
        whose = "its own" if victim == seat else f"a {SIDE_NAMES[victim]}"
        ctx.emit(
            "bonus",
            f"De-escalate: removes {whose} cube from {space_name(space)} (§10.1)",
            space=space,
        )
        task["n"] += 1
        if task["n"] >= 2 or verb == "opp":
            state["stack"].pop()

    def _apply_spread(self, state: State, task: Task, action: str, ctx: Context) -> None:
        if action == "stop":
            state["stack"].pop()
            return
        verb, _, space = action.partition(":")
        if verb == "from":
            task["from"] = space
            return
        seat = task["seat"]
        state["cubes"][task["from"]][seat] -= 1
        state["cubes"][space][seat] += 1
        ctx.emit(
            "bonus",
            f"Spread Influence: moves a cube from {space_name(task['from'])} to "
            f"{space_name(space)} (§10.1)",
            space=space,
        )
        task["from"] = None
        task["n"] += 1
        if task["n"] >= 2:
            state["stack"].pop()

    def _apply_order(self, state: State, task: Task, action: str, ctx: Context) -> None:
        state["stack"].pop()
        first = int(action.split(":")[1])
        order = (first, other(first))
        if task["what"] == "dim":
            self._score_dimensions(state, order, ctx)
        elif task["what"] == "objvp":
            self._score_objectives(state, order, ctx)
        else:
            for seat in reversed(order):
                state["stack"].append({"t": "objev", "seat": seat, "card": task["cards"][seat]})

    def _apply_objev(self, state: State, task: Task, action: str, ctx: Context) -> None:
        state["stack"].pop()
        seat, card = task["seat"], task["card"]
        state["fulfilled"][seat].append(card)
        state["objective"][seat] = None
        ctx.emit(
            "objective",
            f"fulfils {card_name(card)}"
            + ("" if action == "perform" else " and skips its event")
            + " (§11)",
            card=card,
        )
        if action == "perform":
            state["stack"].append({"t": "end_bonus"})
            events.start_event(state, seat, card)

    def _apply_fc_discard(self, state: State, task: Task, action: str, ctx: Context) -> None:
        seat = task["seat"]
        card = int(action.split(":")[1])
        state["hands"][seat].remove(card)
        state["discard"].append([card, seat, state["round"]])
        ctx.emit("discard", f"discards {card_name(card)} (§12.2)", card=card)
        if len(state["hands"][seat]) <= state["round"]:
            state["stack"].pop()

    # Automatic tasks and the round sequence -------------------------------------------

    def _run(self, state: State, ctx: Context) -> None:
        """Resolve everything that needs no decision, up to the next real prompt."""
        stack = state["stack"]
        while True:
            if stack:
                if not self._auto(state, stack[-1], ctx):
                    if stack[-1].get("seat") is None or solo.seat_of(state) != stack[-1]["seat"]:
                        return
                    solo.act(self, state, stack[-1], ctx)  # the solo opponent decides
                continue
            if state["step"] == "over":
                return
            self._flow(state, ctx)

    def _auto(self, state: State, task: Task, ctx: Context) -> bool:
        """Handle ``task`` if it needs no decision; True when something was done."""
        kind = task["t"]
        stack = state["stack"]
        if kind == "event":
            events.run_next_step(state, task, ctx)
            return True
        if kind == "end_play":
            stack.pop()
            board.resolve_breaches(state, ctx)
            seat = task["seat"]
            state["plays"][seat] += 1
            state["active"] = other(seat)
            return True
        if kind == "end_bonus":
            stack.pop()
            board.resolve_breaches(state, ctx)
            return True
        if kind == "place":
            if task["left"] <= 0 or not self._place_targets(state, task):
                stack.pop()
                return True
            return False
        if kind == "remove":
            if task["left"] <= 0 or not self._remove_targets(state, task):
                stack.pop()
                return True
            return False
        if kind == "disc":
            if not self._disc_choices(state, task):
                stack.pop()
                return True
            return False
        if kind == "ops":
            return self._auto_ops(state, task)
        if kind == "mplace":
            if not any(board.can_place(state, s, task["seat"]) for s in DIM_SPACES[task["dim"]]):
                stack.pop()
                return True
            return False
        if kind == "pivot":
            if not task["left"]:
                stack.pop()
                return True
            if len(task["left"]) == 1:
                self._start_bonus(state, task, task["left"][0])
                return True
            return False
        if kind == "bonus":
            if len(self._bonus_choices(state, task)) == 1:
                stack.pop()
                return True
            return False
        if kind == "deesc":
            if not self._deesc_choices(state, task):
                stack.pop()
                return True
            return False
        if kind == "spread":
            if task["from"] is None and not self._spread_sources(
                state, task["seat"], DIM_SPACES[task["dim"]]
            ):
                stack.pop()
                return True
            return False
        return False

    def _auto_ops(self, state: State, task: Task) -> bool:
        if task["stage"] == "kind":
            return False
        if task["snap"] is None:
            snap: dict[str, Any] = board.snapshot(state, task["seat"])
            snap["elig"] = board.eligible(snap, task["kind"])
            task["snap"] = snap
        if task["pts"] <= 0:
            state["stack"].pop()
            return True
        if task["stage"] == "remove" and not self._ops_remove_choices(state, task):
            task["stage"] = "place"
            task["snap"] = None
            return True
        if task["stage"] == "place" and not self._ops_place_choices(state, task):
            state["stack"].pop()
            return True
        return False

    def _flow(self, state: State, ctx: Context) -> None:
        """The fixed sequence of a round (§5) and of the Final Crisis (§12)."""
        step = state["step"]
        stack = state["stack"]
        if step == "deal":
            self._deal(state, ctx)
            state["step"] = "initiative"
        elif step == "initiative":
            stack.append({"t": "init", "seat": self.initiative_leader(state)})
            state["step"] = "plays"
        elif step == "plays":
            seat = state["active"]
            if not self._may_play(state, seat):
                seat = other(seat)
            if not self._may_play(state, seat):
                state["step"] = "bonus" if state["fc"] else "aside"
                return
            state["active"] = seat
            stack.append({"t": "end_play", "seat": seat})
            stack.append({"t": "play", "seat": seat})
        elif step == "aside":
            for seat in (VERSAILLES, COMMUNE):
                kept = state["hands"][seat]
                if kept:
                    ctx.emit(
                        "aside",
                        f"sets aside {len(kept)} card(s) face down for the Final Crisis (§5.3)",
                        about=seat,
                        count=len(kept),
                    )
                    ctx.emit(
                        "aside",
                        "sets aside " + ", ".join(card_name(c) for c in kept),
                        seats=[seat],
                        about=seat,
                        cards=kept,
                    )
                state["aside"][seat].extend(kept)
                state["hands"][seat] = []
            state["step"] = "bonus"
        elif step == "bonus":
            when = "Final Crisis" if state["fc"] else f"Round {state['round']}"
            ctx.heading(f"End of {when}: Pivotal Space bonus actions (§10.1)")
            held = [p for p in PIVOTALS if board.controller(state, p) is not None]
            if held:
                stack.append({"t": "pivot", "seat": state["initiative"], "left": held})
            state["step"] = "dims"
        elif step == "dims":
            when = "Final Crisis" if state["fc"] else f"Round {state['round']}"
            ctx.heading(f"End of {when}: scoring (§10.2, §11)")
            self._ordered(state, "dim", self._dimension_gains(state), ctx)
            state["step"] = "fc_end" if state["fc"] else "objectives"
        elif step == "objectives":
            self._reveal_objectives(state, ctx)
            state["step"] = "objective_events"
        elif step == "objective_events":
            self._objective_events(state, ctx)
            state["step"] = "check"
        elif step == "check":
            if state["round"] >= ROUNDS or board.final_crisis_due(state):
                state["step"] = "fc_gather"
            else:
                state["round"] += 1
                state["step"] = "deal"
        elif step == "fc_gather":
            self._gather_final_crisis(state, ctx)
            state["step"] = "initiative"
        elif step == "fc_end":
            self._finish(state, ctx)
            state["step"] = "over"

    def _may_play(self, state: State, seat: int) -> bool:
        if seat == solo.seat_of(state):
            return solo.may_play(state, seat)
        if state["fc"]:
            return bool(state["hands"][seat])
        return bool(state["plays"][seat] < PLAYS and state["hands"][seat])

    def _deal(self, state: State, ctx: Context) -> None:
        """§5.1-5.2: four strategy and two objective cards each, then keep one objective.

        The deck was shuffled at setup, so dealing draws no chance: ``reveal`` makes the
        deal an undo barrier, since each side has now seen its cards. Only the counts
        are public; each side alone is told its cards."""
        ctx.heading(f"Round {state['round']} of {ROUNDS}")
        bot = solo.seat_of(state)
        for seat in (VERSAILLES, COMMUNE):
            if seat == bot:
                continue  # the solo opponent holds no cards: it reveals the deck's top card
            for _ in range(HAND_SIZE):
                card = self._draw(state, ctx)
                if card is not None:
                    state["hands"][seat].append(card)
            for _ in range(2):
                if state["obj_deck"]:
                    state["obj_hand"][seat].append(state["obj_deck"].pop())
            if bot is not None:
                self._solo_redraw(state, seat)
            hand, objs = state["hands"][seat], state["obj_hand"][seat]
            ctx.emit(
                "deal",
                f"is dealt {len(hand)} Strategy and {len(objs)} Objective cards (§5.1)",
                about=seat,
                cards=len(hand),
                objectives=len(objs),
            )
            ctx.emit(
                "deal",
                "receives "
                + ", ".join(card_name(c) for c in hand)
                + "; objectives "
                + ", ".join(f"{card_name(c)} ({space_name(CARDS[c].space or '')})" for c in objs),
                seats=[seat],
                about=seat,
                hand=hand,
                objectives=objs,
            )
        ctx.reveal()
        state["revealed"] = []
        for seat in (COMMUNE, VERSAILLES):
            if state["obj_hand"][seat]:
                state["stack"].append({"t": "objective", "seat": seat})

    @staticmethod
    def _solo_redraw(state: State, seat: int) -> None:
        """Solitaire setup: two objectives of one dimension are redrawn; the second goes
        to the bottom of the objective deck until one of another dimension comes up."""
        objs, deck = state["obj_hand"][seat], state["obj_deck"]

        def dim(card: int) -> str | None:
            return SPACES[CARDS[card].space or ""].dimension

        for _ in range(len(deck)):
            if len(objs) < 2 or dim(objs[0]) != dim(objs[1]):
                return
            deck.insert(0, objs.pop())
            objs.append(deck.pop())

    def initiative_leader(self, state: State) -> int:
        """§6.1: Political VP minus own momentum; the Commune wins ties."""
        levels = [board.vp_of(state, s, "political") - state["momentum"][s] for s in (0, 1)]
        return VERSAILLES if levels[VERSAILLES] > levels[COMMUNE] else COMMUNE

    def _dimension_gains(self, state: State) -> list[list[str]]:
        return [
            [d for d in DIMENSIONS if board.controls_dimension(state, d, seat)]
            for seat in (VERSAILLES, COMMUNE)
        ]

    def _ordered(self, state: State, what: str, gains: list[list[Any]], ctx: Context) -> None:
        """Score now, or let the Initiative Player order it when both sides score."""
        if gains[0] and gains[1]:
            state["stack"].append({"t": "order", "seat": state["initiative"], "what": what})
            return
        order = (VERSAILLES, COMMUNE)
        if what == "dim":
            self._score_dimensions(state, order, ctx)
        else:
            self._score_objectives(state, order, ctx)

    def _score_dimensions(self, state: State, order: Sequence[int], ctx: Context) -> None:
        """§10.2: 1 VP of the dimension's type for each fully controlled dimension."""
        for seat in order:
            for dim in DIMENSIONS:
                if board.controls_dimension(state, dim, seat):
                    board.add_vp(
                        state,
                        seat,
                        DIMENSIONS[dim]["kind"],
                        1,
                        f"controls all of {DIMENSIONS[dim]['name']} (§10.2)",
                    )
                    ctx.emit(
                        "score",
                        f"controls {DIMENSIONS[dim]['name']}: "
                        f"+1 {DIMENSIONS[dim]['kind']} VP (§10.2)",
                        about=seat,
                    )

    def _objective_gains(self, state: State) -> list[list[int]]:
        gains: list[list[int]] = [[], []]
        bot = solo.seat_of(state)
        for card in state["revealed"]:
            owner = board.controller(state, CARDS[card].space or "")
            if owner is None:
                continue
            if bot is not None and owner != bot and card != state["objective"][owner]:
                continue  # solitaire: the player scores only its own objective
            gains[owner].append(card)
        return gains

    def _score_objectives(self, state: State, order: Sequence[int], ctx: Context) -> None:
        """§11: whoever controls either objective's space gains 1 VP of its type."""
        gains = self._objective_gains(state)
        for seat in order:
            for card in gains[seat]:
                kind = SPACES[CARDS[card].space or ""].kind or "political"
                board.add_vp(
                    state,
                    seat,
                    kind,
                    1,
                    f"controls {space_name(CARDS[card].space or '')}, the space of objective "
                    f"{card_name(card)} (§11)",
                )
                where = space_name(CARDS[card].space or "")
                ctx.emit(
                    "score", f"controls {where} ({card_name(card)}): +1 {kind} VP (§11)", about=seat
                )

    def _reveal_objectives(self, state: State, ctx: Context) -> None:
        kept = state["objective"]
        state["revealed"] = [c for c in kept if c is not None]
        state["obj_ok"] = [
            kept[s] is not None and board.controls(state, CARDS[kept[s]].space or "", s)
            for s in (VERSAILLES, COMMUNE)
        ]
        for seat, card in enumerate(kept):
            if card is not None:
                ctx.reveal(
                    f"reveals its objective {card_name(card)} "
                    f"({space_name(CARDS[card].space or '')}) (§11)",
                    about=seat,
                    card=card,
                )
        self._ordered(state, "objvp", self._objective_gains(state), ctx)

    def _objective_events(self, state: State, ctx: Context) -> None:
        """§11: fulfilled objectives may fire their event, in the Initiative Player's order."""
        kept = state["objective"]
        ok = state.pop("obj_ok")
        cards = list(kept)
        for seat in (VERSAILLES, COMMUNE):
            if kept[seat] is not None and not ok[seat]:
                state["obj_removed"].append(kept[seat])
                kept[seat] = None
                where = space_name(CARDS[cards[seat]].space or "")
                ctx.emit(
                    "objective",
                    f"does not control {where}: {card_name(cards[seat])} leaves the game (§11)",
                    about=seat,
                    card=cards[seat],
                )
        if ok[0] and ok[1]:
            state["stack"].append(
                {"t": "order", "seat": state["initiative"], "what": "objev", "cards": cards}
            )
            return
        for seat in (VERSAILLES, COMMUNE):
            if ok[seat]:
                state["stack"].append({"t": "objev", "seat": seat, "card": cards[seat]})

    def _gather_final_crisis(self, state: State, ctx: Context) -> None:
        """§12.2: set-aside cards plus the Final Crisis card, cut to the rounds played."""
        state["fc"] = True
        ctx.heading("The Final Crisis (§12)")
        for seat in (COMMUNE, VERSAILLES):
            hand = state["aside"][seat]
            state["aside"][seat] = []
            parts = [f"takes up its {len(hand)} set-aside card(s)"]
            if state["fc_card"][seat]:
                hand.append(FINAL_CRISIS_CARD[seat])
                state["fc_card"][seat] = False
                parts.append(f"its Final Crisis card {card_name(FINAL_CRISIS_CARD[seat])}")
            state["hands"][seat] = hand
            ctx.emit("final_crisis", " and ".join(parts) + " (§12.2)", about=seat)
            ctx.emit(
                "final_crisis",
                "Final Crisis hand: " + ", ".join(card_name(c) for c in hand),
                seats=[seat],
                about=seat,
                hand=hand,
            )
            if len(hand) > state["round"] and seat != solo.seat_of(state):
                state["stack"].append({"t": "fc_discard", "seat": seat})
        if solo.seat_of(state) is not None:  # one play per round played, the last its card
            state["solo_fc_plays"] = state["round"]

    def _finish(self, state: State, ctx: Context) -> None:
        """§9.4 momentum VP, then §13 victory and the tiebreak chain."""
        ctx.heading("End of the game: momentum VP and victory (§9.4, §13)")
        for seat in (VERSAILLES, COMMUNE):
            if state["momentum"][seat] == MOMENTUM_MAX:
                board.add_vp(
                    state,
                    seat,
                    MOMENTUM_VP[seat],
                    1,
                    f"{MOMENTUM_NAMES[seat]} at {MOMENTUM_MAX} (§9.4)",
                )
                ctx.emit(
                    "score",
                    f"{MOMENTUM_NAMES[seat]} is at {MOMENTUM_MAX}: "
                    f"+1 {MOMENTUM_VP[seat]} VP (§9.4)",
                    about=seat,
                )
        winner, reason = self._victory(state)
        state["result"] = {"winner": winner, "summary": f"{_WINNER_NAMES[winner]} wins: {reason}"}
        ctx.emit("end", f"wins: {reason}", about=winner)

    def decide_winner(self, state: State) -> tuple[int, str]:
        """§13: the winner and a sentence saying why (the result's summary)."""
        winner, reason = self._victory(state)
        return winner, f"{_WINNER_NAMES[winner]} wins: {reason}"

    def _victory(self, state: State) -> tuple[int, str]:
        """§13: military vs political VP; else the four tiebreak tests; else the Commune.

        The reason is worded to follow "<side> wins: ", so that the result's summary and
        the log's last line (which names the winner itself) share it."""
        v_mil = board.vp_of(state, VERSAILLES, "military")
        c_pol = board.vp_of(state, COMMUNE, "political")
        if v_mil >= 0 and v_mil > c_pol:
            return VERSAILLES, (
                f"{v_mil} Military VP against the Commune's {c_pol} Political VP (§13.1)"
            )
        if c_pol >= 0 and c_pol > v_mil:
            return COMMUNE, (
                f"{c_pol} Political VP against Versailles' {v_mil} Military VP (§13.1)"
            )
        bot = solo.seat_of(state)
        if bot is not None:
            return bot, (
                "no side ahead, and the solo opponent wins every tie that would go "
                "to the tiebreak (solitaire)"
            )
        met = [0, 0]
        notes: list[str] = []
        tests = [
            (
                "most combined VP",
                [
                    board.vp_of(state, s, "political") + board.vp_of(state, s, "military")
                    for s in (0, 1)
                ],
            ),
            ("most objectives fulfilled", [len(state["fulfilled"][s]) for s in (0, 1)]),
            (
                "most Pivotal Spaces controlled",
                [sum(1 for p in PIVOTALS if board.controls(state, p, s)) for s in (0, 1)],
            ),
            ("final Initiative Player", [int(state["initiative"] == s) for s in (0, 1)]),
        ]
        for label, values in tests:
            if values[0] != values[1]:
                best = 0 if values[0] > values[1] else 1
                met[best] += 1
                notes.append(f"{label}: {SIDE_NAMES[best]}")
            else:
                notes.append(f"{label}: even")
        detail = "; ".join(notes)
        if met[0] > met[1]:
            return VERSAILLES, f"tiebreak {met[0]}-{met[1]} ({detail}) (§13.2)"
        if met[1] > met[0]:
            return COMMUNE, f"tiebreak {met[1]}-{met[0]} ({detail}) (§13.2)"
        return COMMUNE, (
            f"tiebreak level {met[0]}-{met[1]}, which goes to the Commune ({detail}) (§13.2)"
        )

    # Views, results, checks ------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        spaces = {}
        for s, (name, dimension, pivotal) in _SPACE_FACTS.items():
            owner = board.disc_owner(state, s)
            ctl = board.controller(state, s)
            spaces[s] = {
                "name": name,
                "dimension": dimension,
                "pivotal": pivotal,
                "cubes": list(state["cubes"][s]),
                "disc": None if owner is None else SIDE_NAMES[owner],
                "control": None if ctl is None else SIDE_NAMES[ctl],
            }
        top = self._to_act(state)
        hands = state["hands"]
        view: dict[str, Any] = {
            "status": self._status(state, top),
            "seats": schema.seats(SIDE_NAMES, [self._public_row(state, s) for s in (0, 1)]),
            "tracks": viewing.tracks(state, seat),
            "seat": seat,
            "round": state["round"],
            "final_crisis": state["fc"],
            "initiative": SIDE_NAMES[state["initiative"]],
            "to_act": None if top is None else SIDE_NAMES[top],
            "plays": list(state["plays"]),
            "spaces": spaces,
            "dimensions": {d: list(DIM_SPACES[d]) for d in DIMENSIONS},
            "crisis": [
                {
                    "cubes": list(state["track"][s]),
                    "bonus": list(state["bonus"][s]),
                    "breached": list(state["breached"][s]),
                }
                for s in (0, 1)
            ],
            "crisis_zones": list(ZONES),
            "pool": list(state["pool"]),
            "pool_capacity": [board.pool_capacity(state, s) for s in (0, 1)],
            "out_of_play": list(state["out"]),
            "prussian_cubes": list(state["prussian"]),
            "momentum": list(state["momentum"]),
            "vp": viewing.vp_by_side(state),
            "initiative_levels": [viewing.initiative_level(state, s) for s in (0, 1)],
            "map": viewing.map_rows(state),
            "deck": len(state["deck"]),
            "discard": [[c, SIDE_NAMES[by]] for c, by, _ in state["discard"][-5:]],
            "removed": list(state["removed"]),
            "hand_sizes": [len(h) for h in hands],
            "hand": list(hands[seat]) if seat is not None else None,
            "set_aside": list(state["aside"][seat]) if seat is not None else None,
            "set_aside_sizes": [len(a) for a in state["aside"]],
            "final_crisis_card": list(state["fc_card"]),
            "objective": state["objective"][seat] if seat is not None else None,
            "objective_choices": list(state["obj_hand"][seat]) if seat is not None else None,
            "revealed_objectives": list(state["revealed"]),
            "fulfilled": [list(f) for f in state["fulfilled"]],
            "card_names": dict(_CARD_NAMES),
            "cards": viewing.visible_cards(state, seat),
            "result": clone(state["result"]),
        }
        if seat is not None:
            view["you"] = self._private_row(state, seat)
        return view

    @staticmethod
    def _to_act(state: State) -> int | None:
        """The seat whose decision is due: every task that waits for one names it."""
        stack = state["stack"]
        return int(stack[-1]["seat"]) if stack else None

    @staticmethod
    def _status(state: State, top: int | None) -> str:
        if state["result"] is not None:
            return f"Game over. {state['result']['summary']}"
        when = "Final Crisis" if state["fc"] else f"Round {state['round']} of {ROUNDS}"
        who = "" if top is None else f", {SIDE_NAMES[top]} to decide"
        return f"{when}{who}; Initiative Player: {SIDE_NAMES[state['initiative']]}"

    @staticmethod
    def _public_row(state: State, seat: int) -> dict[str, Any]:
        """What everyone may know about a side, for the schema's table of seats."""
        cap = board.pool_capacity(state, seat)
        return {
            "Political VP": board.vp_of(state, seat, "political"),
            "Military VP": board.vp_of(state, seat, "military"),
            "initiative level": viewing.initiative_level(state, seat),
            "cards in hand": len(state["hands"][seat]),
            "set aside": len(state["aside"][seat]),
            "Final Crisis card": RedFlagOverParis._final_crisis_card_status(state, seat),
            "pool": state["pool"][seat] if cap is None else f"{state['pool'][seat]}/{cap}",
            "out of play": state["out"][seat],
            "zones breached": sum(state["breached"][seat][1:]),
            "objectives fulfilled": len(state["fulfilled"][seat]),
            **RedFlagOverParis._solo_row(state, seat),
        }

    @staticmethod
    def _solo_row(state: State, seat: int) -> dict[str, Any]:
        """Solitaire: the player gave the solo opponent its objective, so it is public."""
        card = state["objective"][seat] if seat == solo.seat_of(state) else None
        if card is None:
            return {}
        return {"objective": f"{card_name(card)} ({space_name(CARDS[card].space or '')})"}

    @staticmethod
    def _final_crisis_card_status(state: State, seat: int) -> str:
        """Where a side's Final Crisis card is: it is face up until used, so this is public."""
        card = FINAL_CRISIS_CARD[seat]
        if state["fc_card"][seat]:
            return "face up, unused"
        if card in state["removed"]:
            return "spent for operations (§7.8)"
        if card in state["hands"][seat]:
            return "in the Final Crisis hand (§12.2)"
        return "played"

    @staticmethod
    def _private_row(state: State, seat: int) -> dict[str, Any]:
        """What only ``seat`` knows: its cards and its objective (the schema's ``you``)."""
        kept = state["objective"][seat]

        def objective(card: int) -> str:
            return f"{card_name(card)} ({space_name(CARDS[card].space or '')})"

        return {
            "hand": [card_label(c) for c in state["hands"][seat]],
            "set aside": [card_label(c) for c in state["aside"][seat]],
            "objective": None if kept is None else objective(kept),
            "objectives to choose from": [objective(c) for c in state["obj_hand"][seat]],
        }

    def result(self, state: State) -> Result | None:
        res = state["result"]
        if res is None:
            return None
        scores = (
            float(board.vp_of(state, VERSAILLES, "military")),
            float(board.vp_of(state, COMMUNE, "political")),
        )
        summary = "\n".join([res["summary"], *final_account(state)])
        return Result(winners=(res["winner"],), scores=scores, summary=summary)

    def describe(self, state: State) -> str:
        if state["result"] is not None:
            return f"Game over: {SIDE_NAMES[state['result']['winner']]} won"
        top = self._to_act(state)
        when = "Final Crisis" if state["fc"] else f"Round {state['round']}"
        return when if top is None else f"{when}, {SIDE_NAMES[top]} to play"

    def rules_summary(self) -> str:
        return reference.rules_with_reference()

    def invariants(self, state: State) -> Sequence[str]:
        problems: list[str] = []
        for seat in (VERSAILLES, COMMUNE):
            on_map = sum(state["cubes"][s][seat] for s in BOARD)
            total = (
                on_map
                + sum(state["track"][seat])
                + sum(state["bonus"][seat])
                + state["pool"][seat]
                + state["out"][seat]
            )
            if seat == VERSAILLES:
                total += sum(state["prussian"])
            if total != CUBES_PER_SIDE:
                problems.append(f"{SIDE_NAMES[seat]} has {total} cubes, not {CUBES_PER_SIDE}")
            if any(v < 0 for v in state["track"][seat] + state["bonus"][seat]):
                problems.append("negative Crisis Track count")
            if state["pool"][seat] < 0 or state["out"][seat] < 0:
                problems.append("negative pool")
            cap = board.pool_capacity(state, seat)
            if cap is not None and state["pool"][seat] > cap:
                problems.append("Commune pool over its momentum spaces")
            if not 0 <= state["momentum"][seat] <= MOMENTUM_MAX:
                problems.append("momentum out of range")
            if board.discs_off_map(state, seat) < 0:
                problems.append(f"{SIDE_NAMES[seat]} has more than {DISCS_PER_SIDE} discs out")
            limit = HAND_SIZE
            if len(state["hands"][seat]) > limit:
                problems.append(f"{SIDE_NAMES[seat]} holds {len(state['hands'][seat])} cards")
        for s in BOARD:
            for seat in (0, 1):
                if not 0 <= state["cubes"][s][seat] <= CUBE_LIMIT:
                    problems.append(f"{space_name(s)} breaks the cube limit")
        for s in state["discs"]:
            if SPACES[s].kind != "military":
                problems.append(f"disc in non-military space {s}")
        for kind in ("political", "military"):
            if not -VP_CAP <= state["vp"][kind] <= VP_CAP:
                problems.append(f"{kind} VP out of range")
        if not 1 <= state["round"] <= ROUNDS:
            problems.append("round out of range")
        cards = (
            state["deck"]
            + [e[0] for e in state["discard"]]
            + state["removed"]
            + state["hands"][0]
            + state["hands"][1]
            + state["aside"][0]
            + state["aside"][1]
            + [FINAL_CRISIS_CARD[s] for s in (0, 1) if state["fc_card"][s]]
        )
        if sorted(cards) != sorted([*STRATEGY_IDS, *FINAL_CRISIS_CARD]):
            problems.append("strategy cards are not all accounted for")
        objs = (
            state["obj_deck"]
            + state["obj_hand"][0]
            + state["obj_hand"][1]
            + [c for c in state["objective"] if c is not None]
            + state["obj_discarded"][0]
            + state["obj_discarded"][1]
            + state["fulfilled"][0]
            + state["fulfilled"][1]
            + state["obj_removed"]
        )
        if sorted(objs) != list(OBJECTIVE_IDS):
            problems.append("objective cards are not all accounted for")
        return problems

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        """A state ``seat`` cannot tell from the real one: what it has not seen, resampled.

        Hidden from ``seat``: the opponent's hand and set-aside cards, the deck's order,
        the opponent's objective cards (in hand, kept, or dropped unseen) and the
        objective deck. Everything else is public or its own, and stays. Two things
        ``seat`` does know about the hidden cards are kept too:

        * an opponent's Final Crisis card in its hand: everyone saw it join (§12.2);
        * which deck each hidden card was drawn from. A reshuffle (``reshuffles``) makes
          a new deck of known cards, so a card drawn before it cannot be in the deck now,
          and one drawn after it is one of those known cards. Cards are therefore swapped
          only with cards drawn from the same deck.
        """
        new: State = clone(state)
        opp = other(seat)
        generation: dict[int, int] = {}
        for number, cards in enumerate(state.get("reshuffles", []), start=1):
            generation.update((card, number) for card in cards)
        places: dict[int, list[tuple[list[int], int]]] = {}
        for pile in (new["hands"][opp], new["aside"][opp], new["deck"]):
            for index, card in enumerate(pile):
                if card not in FINAL_CRISIS_CARD:
                    places.setdefault(generation.get(card, 0), []).append((pile, index))
        for number in sorted(places):
            spots = places[number]
            # Sorted first: the sample must depend on what ``seat`` knows only, never on
            # where the hidden cards really are (a search bot's decision must not either).
            cards = sorted(pile[index] for pile, index in spots)
            ctx.rng.shuffle(cards)
            for (pile, index), card in zip(spots, cards, strict=True):
                pile[index] = card
        kept = new["objective"][opp]
        if kept in new["revealed"] or opp == solo.seat_of(state):
            kept = None  # known: revealed, or handed to the solo opponent by this seat
        objs = new["obj_hand"][opp] + ([kept] if kept is not None else [])
        objs += new["obj_discarded"][opp] + new["obj_deck"]
        objs.sort()
        ctx.rng.shuffle(objs)
        n_hand, n_disc = len(new["obj_hand"][opp]), len(new["obj_discarded"][opp])
        new["obj_hand"][opp] = objs[:n_hand]
        rest = objs[n_hand:]
        if kept is not None:
            new["objective"][opp] = rest.pop()
        new["obj_discarded"][opp] = rest[:n_disc]
        new["obj_deck"] = rest[n_disc:]
        return new
