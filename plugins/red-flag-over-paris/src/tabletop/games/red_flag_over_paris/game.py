"""Red Flag Over Paris as a Tabletop game definition.

The state holds a *decision stack*: every pending decision (a card play, one cube of an
event, the next step of an operation, a bonus action) is a typed task on
``state["stack"]`` (``rules/tasks.py``), scheduled and finished through its ``TASKS``
and never edited by hand. The rules live by decision in ``rules/``: each
module holds one decision's prompt, the handler of its answer and the automatic steps
around it; ``rules/table.py`` lists them all in one framework ``Stack``, which after
every answer runs everything that needs no decision and the round's fixed sequence
(``rules/round_sequence.py``) up to the next real decision. Long chains of
sub-decisions stay plain data, so saves, undo and replays need nothing special. This
module holds what concerns the whole game: setup, views, the result, invariants and
determinization.

Seat 0 is Versailles and seat 1 the Commune, the order the rulebook introduces them.
Section numbers (§) refer to rules-summary.md beside this module, which numbers the
rulebook's headings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop.framework import (
    Context,
    GameDefinition,
    GameInfo,
    OptionSpec,
    Result,
    Sides,
    State,
    clone,
)
from tabletop.framework import views as schema

from . import board, reference, solo, viewing
from .board import other
from .data import (
    BOARD,
    CARDS,
    COMMUNE,
    CUBE_LIMIT,
    CUBES_PER_SIDE,
    DIM_SPACES,
    DIMENSIONS,
    DISCS_PER_SIDE,
    FINAL_CRISIS_CARD,
    HAND_SIZE,
    MOMENTUM_MAX,
    OBJECTIVE_IDS,
    PRUSSIAN_CUBES,
    ROUNDS,
    SIDE_NAMES,
    SPACES,
    STRATEGY_IDS,
    TRACKS,
    VERSAILLES,
    VP_CAP,
    ZONES,
    card_name,
    space_name,
)
from .rules import final_crisis, initiative_order, table
from .rules.tasks import TASKS
from .viewing import card_label

#: Tables every view carries that never change: built once, copied into each view.
_CARD_NAMES: dict[str, str] = {str(c): CARDS[c].title for c in CARDS}
_SPACE_FACTS: dict[str, tuple[str, str | None, bool]] = {
    s: (SPACES[s].name, SPACES[s].dimension, SPACES[s].pivotal) for s in BOARD
}
#: The two sides, one seat each (§13: one of them wins, never both, never neither).
_SIDES = Sides.fixed(*SIDE_NAMES)


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
        # 3.0: the state's tasks are typed, with full names (saves made before replay
        # their actions, but their digest no longer matches: the engine says so and
        # names both versions). 2.0: every VP change is recorded in the state. 3.0.1:
        # the state keeps each hand as dealt (``dealt``), which gives a card its keys.
        version="3.0.1",
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

    def sides(self, players: int, options: Mapping[str, str]) -> Sides:
        """Versailles (seat 0) against the Commune (seat 1), in solitaire too, where the
        solo opponent plays one of them: reports count wins by side."""
        return _SIDES

    def automated_seats(self, players: int, options: Mapping[str, str]) -> frozenset[int]:
        """Solitaire: the solo opponent's seat, which the game plays itself (``solo``)."""
        bot = solo.SIDES.get(options.get(solo.OPTION, "off"))
        return frozenset() if bot is None else frozenset((bot,))

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
        table.run(state, ctx)
        return state

    # Prompts ---------------------------------------------------------------------------

    # The decision stack answers both directly: one call less on every decision.
    prompt = staticmethod(table.RULES.prompt)
    apply = staticmethod(table.answer)

    def initiative_leader(self, state: State) -> int:
        """§6.1: the side with the higher initiative level; the Commune wins ties."""
        return initiative_order.leader(state)

    def decide_winner(self, state: State) -> tuple[int, str]:
        """§13: the winner and a sentence saying why (the result's summary)."""
        winner, reason = final_crisis.victory(state)
        return winner, f"{final_crisis.WINNER_NAMES[winner]} wins: {reason}"

    # Views, results, checks ------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        spaces = {}
        owners = board.controllers(state)
        for s, (name, dimension, pivotal) in _SPACE_FACTS.items():
            owner = board.disc_owner(state, s)
            ctl = owners[s]
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
            "map": viewing.map_rows(state, owners),
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
        top = TASKS.top(state)
        return None if top is None else int(top["seat"])

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
        summary = "\n".join([res["summary"], *final_crisis.final_account(state)])
        winner = res["winner"]
        return Result(winners=(winner,), scores=scores, summary=summary, side=SIDE_NAMES[winner])

    def describe(self, state: State) -> str:
        if state["result"] is not None:
            return f"Game over: {SIDE_NAMES[state['result']['winner']]} won"
        top = self._to_act(state)
        when = "Final Crisis" if state["fc"] else f"Round {state['round']}"
        return when if top is None else f"{when}, {SIDE_NAMES[top]} to play"

    def rules_summary(self) -> str:
        return reference.rules_with_reference()

    def invariants(self, state: State) -> Sequence[str]:
        """What no legal play can break: each side's 18 cubes, the limits of tracks, pools,
        spaces and VP, and every card in exactly one place (checked by fuzzing)."""
        problems: list[str] = []
        for seat in (VERSAILLES, COMMUNE):
            problems += _side_problems(state, seat)
        problems += _board_problems(state)
        problems += _card_problems(state)
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
        held = list(new["hands"][opp])
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
        if "dealt" in new:  # the resampled hand keeps the dealt places of the real one
            swapped = dict(zip(held, new["hands"][opp], strict=True))
            new["dealt"][opp] = [swapped.get(c, c) for c in new["dealt"][opp]]
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


# Invariants, by what they check ------------------------------------------------------


def _side_problems(state: State, seat: int) -> list[str]:
    """One side's cubes (§1.1: 18, wherever they are), pool, momentum, discs and hand."""
    problems: list[str] = []
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
    if len(state["hands"][seat]) > HAND_SIZE:
        problems.append(f"{SIDE_NAMES[seat]} holds {len(state['hands'][seat])} cards")
    return problems


def _board_problems(state: State) -> list[str]:
    """The cube limit (§1.1), discs in military spaces only (§1.2), the VP tracks' ends
    (§2.5) and the round."""
    problems: list[str] = []
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
    return problems


def _card_problems(state: State) -> list[str]:
    """Every Strategy and Objective card in exactly one place."""
    problems: list[str] = []
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
