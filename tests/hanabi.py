"""A small cooperative card game in the manner of Hanabi, for the tests of scores and
cooperative play (issue 27): the seats are one team, every seat sees the others' cards
but never its own, and the team shares one score.

Three colours of cards ranked 1 to 3 (three 1s, two 2s and one 3 of each colour). A
seat on its turn plays a card from its hand (it must be the next rank of its colour's
firework, or a fuse burns), discards one (a hint token comes back), or spends a hint
token to tell another seat which of its cards have one colour or one rank. A completed
firework gives a token back. The game ends when every firework is complete, when the
last fuse burns (the team then scores nothing), or a round after the deck runs out.
The score is the fireworks' total height; the team wins with a perfect score.

The choices are listed plays first, so a player that always takes the first choice
plays its first card blind: the baseline the search must beat clearly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tabletop.framework.bots import Bot
from tabletop.framework.context import Context
from tabletop.framework.game import (
    Action,
    Choice,
    GameDefinition,
    GameInfo,
    Prompt,
    Result,
    State,
)
from tabletop.framework.ports import RandomSource
from tabletop.framework.search import BotHints

COLOURS = ("R", "G", "B")
COLOUR_NAMES = {"R": "red", "G": "green", "B": "blue"}
RANKS = (1, 2, 3)
COPIES = {1: 3, 2: 2, 3: 1}
HAND = 3
TOKENS = 4
FUSES = 2
PERFECT = len(COLOURS) * len(RANKS)


def full_deck() -> list[str]:
    """Every card once per copy, sorted: "R1" is a red 1."""
    return sorted(
        f"{colour}{rank}" for colour in COLOURS for rank in RANKS for _ in range(COPIES[rank])
    )


def playable(state: State, card: str) -> bool:
    return bool(state["fireworks"][card[0]] == int(card[1]) - 1)


def fits(card: str, known: Sequence[Any]) -> bool:
    """Whether ``card`` agrees with what its holder was told of it ([colour, rank])."""
    colour, rank = known
    return (not colour or card[0] == colour) and (not rank or int(card[1]) == rank)


def score(state: State) -> int:
    return 0 if state["fuses"] == 0 else sum(state["fireworks"].values())


class MiniHanabi(GameDefinition):
    info = GameInfo(
        id="mini-hanabi",
        title="Mini Hanabi",
        min_players=2,
        max_players=3,
        description="A cooperative test game: hints, plays and one shared score.",
        hidden_information=True,
        cooperative=True,
    )

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        deck = full_deck()
        ctx.shuffle(deck, reason="the deck")
        hands = [[deck.pop() for _ in range(HAND)] for _ in range(players)]
        return {
            "hands": hands,
            "known": [[["", 0] for _ in hand] for hand in hands],
            "deck": deck,
            "fireworks": dict.fromkeys(COLOURS, 0),
            "discards": [],
            "tokens": TOKENS,
            "fuses": FUSES,
            "turn": 0,
            "last_turns": None,
        }

    def over(self, state: State) -> bool:
        return bool(
            state["fuses"] == 0
            or sum(state["fireworks"].values()) == PERFECT
            or state["last_turns"] == 0
        )

    def prompt(self, state: State) -> Prompt | None:
        if self.over(state):
            return None
        seat = state["turn"]
        hand = state["hands"][seat]
        choices = [Choice(f"play:{i}", f"Play card {i + 1}") for i in range(len(hand))]
        if state["tokens"] < TOKENS:
            choices += [Choice(f"discard:{i}", f"Discard card {i + 1}") for i in range(len(hand))]
        if state["tokens"] > 0:
            choices += self._hints(state, seat)
        return Prompt(seat, "Play, discard or give a hint", tuple(choices), rule="§2")

    def _hints(self, state: State, seat: int) -> list[Choice]:
        hints = []
        players = len(state["hands"])
        for step in range(1, players):
            other = (seat + step) % players
            cards = state["hands"][other]
            for colour in COLOURS:
                if any(card[0] == colour for card in cards):
                    name = COLOUR_NAMES[colour]
                    hints.append(
                        Choice(f"hint:{other}:{colour}", f"Tell Player {other + 1}: {name}")
                    )
            for rank in RANKS:
                if any(int(card[1]) == rank for card in cards):
                    hints.append(
                        Choice(f"hint:{other}:{rank}", f"Tell Player {other + 1}: {rank}s")
                    )
        return hints

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        verb, *args = action.split(":")
        if verb == "hint":
            self._hint(state, int(args[0]), args[1], ctx)
        else:
            self._spend(state, seat, int(args[0]), verb == "play", ctx)
        if state["last_turns"] is not None:
            state["last_turns"] -= 1
        elif not state["deck"]:
            state["last_turns"] = len(state["hands"])
        state["turn"] = (seat + 1) % len(state["hands"])

    def _hint(self, state: State, other: int, told: str, ctx: Context) -> None:
        state["tokens"] -= 1
        part = 1 if told.isdigit() else 0
        value: str | int = int(told) if part else told
        slots = []
        for slot, card in enumerate(state["hands"][other]):
            if (int(card[1]) if part else card[0]) == value:
                state["known"][other][slot][part] = value
                slots.append(slot + 1)
        words = f"{told}s" if part else COLOUR_NAMES[told]
        # a public hint: it tells the hinted seat about its own hidden cards
        ctx.reveal(f"tells Player {other + 1}: {words} (cards {slots})", about=other)

    def _spend(self, state: State, seat: int, slot: int, play: bool, ctx: Context) -> None:
        card = state["hands"][seat].pop(slot)
        state["known"][seat].pop(slot)
        if not play:
            state["tokens"] = min(TOKENS, state["tokens"] + 1)
            state["discards"].append(card)
            ctx.reveal(f"discards {card}", card=card)
        elif playable(state, card):
            state["fireworks"][card[0]] += 1
            if card[1] == str(RANKS[-1]):
                state["tokens"] = min(TOKENS, state["tokens"] + 1)
            ctx.reveal(f"plays {card}", card=card)
        else:
            state["fuses"] -= 1
            state["discards"].append(card)
            ctx.reveal(f"plays {card}: a fuse burns", card=card)
        if state["deck"]:
            state["hands"][seat].append(state["deck"].pop())
            state["known"][seat].append(["", 0])
            ctx.emit("draw", "draws a card")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        hands = [
            ["?" if other == seat or seat is None else card for card in state["hands"][other]]
            for other in range(len(state["hands"]))
        ]
        return {
            "status": f"score {sum(state['fireworks'].values())}, "
            f"{state['tokens']} hints, {state['fuses']} fuses",
            "hands": hands,
            "known": [[list(k) for k in known] for known in state["known"]],
            "fireworks": dict(state["fireworks"]),
            "discards": list(state["discards"]),
            "deck": len(state["deck"]),
            "tokens": state["tokens"],
            "fuses": state["fuses"],
            "turn": state["turn"],
        }

    def result(self, state: State) -> Result | None:
        if not self.over(state):
            return None
        points = score(state)
        players = len(state["hands"])
        winners = tuple(range(players)) if points == PERFECT else ()
        if state["fuses"] == 0:
            how = "a fuse too many"
        else:
            how = "a perfect show" if points == PERFECT else "the deck ran out"
        summary = f"{how}: {points} of {PERFECT}"
        return Result(winners, (float(points),) * players, summary=summary, outcome=how)

    def determinize(self, state: State, seat: int | None, ctx: Context) -> State:
        """What ``seat`` cannot see is drawn again: its own hand and the deck (every
        hand and the deck for a spectator), each card agreeing with what its holder was
        told. The pool is sorted first, so the sample depends on what the seat knows,
        never on where the hidden cards are."""
        if self.over(state):
            return state
        hidden = [other for other in range(len(state["hands"])) if seat is None or other == seat]
        pool = sorted(state["deck"] + [card for o in hidden for card in state["hands"][o]])
        for _attempt in range(20):
            ctx.rng.shuffle(pool)
            left = list(pool)
            dealt: dict[int, list[str]] = {}
            for other in hidden:
                hand = []
                for known in state["known"][other]:
                    card = next((c for c in left if fits(c, known)), None)
                    if card is None:
                        break
                    left.remove(card)
                    hand.append(card)
                dealt[other] = hand
            if all(len(dealt[o]) == len(state["hands"][o]) for o in hidden):
                for other in hidden:
                    state["hands"][other] = dealt[other]
                state["deck"] = left
                return state
        return state  # not reached in practice: the real deal always fits


def rule_move(state: State, seat: int) -> Action:
    """A simple rule-based player, reading only what ``seat`` knows: play a card known
    to be playable, else hint another seat's playable card, else discard the card it
    knows least about (or, with every token in hand, hint at random)."""
    known = state["known"][seat]
    for slot, (colour, rank) in enumerate(known):
        if rank and (
            (colour and state["fireworks"][colour] == rank - 1)
            or all(height == rank - 1 for height in state["fireworks"].values())
        ):
            return f"play:{slot}"
    players = len(state["hands"])
    if state["tokens"] > 0:
        for step in range(1, players):
            other = (seat + step) % players
            for slot, card in enumerate(state["hands"][other]):
                told = state["known"][other][slot]
                if playable(state, card) and not told[1]:
                    return f"hint:{other}:{card[1]}"
                if playable(state, card) and not told[0]:
                    return f"hint:{other}:{card[0]}"
    if state["tokens"] < TOKENS:
        slot = min(range(len(known)), key=lambda s: (bool(known[s][0]) + bool(known[s][1]), s))
        return f"discard:{slot}"
    other = (seat + 1) % players
    return f"hint:{other}:{state['hands'][other][0][1]}"


class HanabiHints(BotHints):
    """Playouts by the rule-based player, and the score's range for the reward."""

    score_range = (0.0, float(PERFECT))

    def rollout(
        self, game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource
    ) -> Action:
        action = rule_move(state, prompt.seat)
        return action if action in prompt.actions() else rng.choice(prompt.choices).action


class FirstChoiceBot(Bot):
    """Always the first listed choice: what a search that cannot tell choices apart
    played before issue 27 (a blind play of its first card)."""

    name = "first-choice"
    reads_view = False

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        return prompt.choices[0].action


class RuleBot(Bot):
    """The rule-based player (``rule_move``) on its seat's view: the view holds all it
    reads (the other hands, what each seat was told, the fireworks, the tokens)."""

    name = "hanabi-rules"

    def choose(
        self, game: GameDefinition, view: dict[str, Any], prompt: Prompt, rng: RandomSource
    ) -> Action:
        action = rule_move(view, prompt.seat)
        return action if action in prompt.actions() else rng.choice(prompt.choices).action
