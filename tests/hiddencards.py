"""Hidden Cards: a small hidden-card game the leak checks were not written against,
correct and in the ways a new author makes it leak (issue 26).

Each seat holds hidden cards dealt from a deck of five kinds. In turn a seat draws a
card (only it sees which) or shows one of its hidden cards face up; the first seat with
no hidden card left wins. The variants: a show that also names the seat's *other*,
still hidden card in public (the blind spot of the old all-or-nothing reveal); a draw
told by a private event and a bare ``ctx.reveal()`` after a peek at the deck; a draw
every seat but the drawer sees (Hanabi's); public decisions, once with a label that
names a hidden card.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from toygames import renamed

from tabletop.framework import (
    Action,
    Choice,
    Context,
    GameDefinition,
    GameInfo,
    Prompt,
    Result,
    State,
)

KINDS = ("Duke", "Captain", "Contessa", "Assassin", "Ambassador")
COPIES = 3
HAND = 2


class HiddenCards(GameDefinition):
    """The correct game: private draws without a reveal, a show that reveals one card."""

    info = GameInfo(
        id="hidden-cards",
        title="Hidden Cards",
        min_players=2,
        max_players=3,
        hidden_information=True,
    )

    def setup(self, players: int, options: Mapping[str, str], ctx: Context) -> State:
        deck = [kind for kind in KINDS for _ in range(COPIES)]
        state: State = {
            "deck": deck,
            "hands": [[] for _ in range(players)],
            "blind": [[] for _ in range(players)],
            "shown": [[] for _ in range(players)],
            "turn": 0,
            "winner": None,
        }
        for seat in range(players):
            state["hands"][seat] = ctx.draw(deck, HAND, reason="deal", about=seat, seats=[seat])
        return state

    # What the variants change -------------------------------------------------------

    def draw_card(self, state: State, seat: int, ctx: Context) -> None:
        """A private draw: the seat learns its card, the others that it drew one."""
        state["hands"][seat] += ctx.draw(state["deck"], 1, reason="draw", seats=[seat])

    def show_card(self, state: State, seat: int, card: str, ctx: Context) -> None:
        state["hands"][seat].remove(card)
        state["shown"][seat].append(card)
        ctx.reveal(f"shows {card}", card=card)

    def choices(self, state: State, seat: int) -> list[Choice]:
        offered = [
            Choice(f"show:{card}", f"Show {card}") for card in sorted(set(state["hands"][seat]))
        ]
        if state["deck"]:
            offered.append(Choice("draw", "Draw a card"))
        return offered

    # Rules --------------------------------------------------------------------------

    def prompt(self, state: State) -> Prompt | None:
        if state["winner"] is not None:
            return None
        seat = state["turn"]
        return Prompt(seat, "Draw a card or show one", tuple(self.choices(state, seat)), rule="§1")

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "draw":
            self.draw_card(state, seat, ctx)
        else:
            self.show_card(state, seat, action.split(":", 1)[1], ctx)
            if not state["hands"][seat]:
                state["winner"] = seat
                return
        state["turn"] = (seat + 1) % len(state["hands"])

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "status": f"{len(state['deck'])} cards in the deck",
            "hand": [] if seat is None else list(state["hands"][seat]),  # as drawn
            "held": [len(hand) for hand in state["hands"]],
            "blind": [
                list(cards) if seat is not None and other != seat else len(cards)
                for other, cards in enumerate(state["blind"])
            ],
            "shown": [list(cards) for cards in state["shown"]],
            "deck": len(state["deck"]),
            "turn": state["turn"],
        }

    def result(self, state: State) -> Result | None:
        if state["winner"] is None:
            return None
        return Result((state["winner"],), summary="the first seat with no hidden card")

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        """The deck, the other seats' hands and the seat's own blind cards are unknown
        to ``seat``: pool them, shuffle, deal them back in the same numbers."""
        others = [other for other in range(len(state["hands"])) if other != seat]
        pool = list(state["deck"]) + list(state["blind"][seat])
        pool += [card for other in others for card in state["hands"][other]]
        pool.sort()
        ctx.rng.shuffle(pool)
        for other in others:
            count = len(state["hands"][other])
            state["hands"][other], pool = pool[:count], pool[count:]
        count = len(state["blind"][seat])
        state["blind"][seat], state["deck"] = pool[:count], pool[count:]
        return state


class KeepsCards(HiddenCards):
    """Leak: showing a card also names, in public, the card the seat keeps hidden."""

    info = renamed(HiddenCards.info, "hidden-cards-keeps", "Leaky")

    def show_card(self, state: State, seat: int, card: str, ctx: Context) -> None:
        super().show_card(state, seat, card, ctx)
        if state["hands"][seat]:
            ctx.emit("keep", f"keeps {state['hands'][seat][0]}")


def draw_by_hand(state: State, seat: int, ctx: Context) -> None:
    """The top card of the deck to ``seat``, told by a private event and a public one
    without the card: whether the action also says it reveals the card is the
    difference between the correct game and the leaky one."""
    card = state["deck"].pop()
    state["hands"][seat].append(card)
    ctx.emit("draw", f"you draw {card}", seats=[seat])
    ctx.emit("draw", "draws a card")


class HandDrawnCards(HiddenCards):
    """Correct, in the older idiom: the top card drawn by hand, told by a private event,
    and a ``ctx.reveal()`` without words (the seat learned a card)."""

    info = renamed(HiddenCards.info, "hidden-cards-hand-drawn", "Hand drawn")

    def draw_card(self, state: State, seat: int, ctx: Context) -> None:
        draw_by_hand(state, seat, ctx)
        ctx.reveal()


class UntoldDrawCards(HandDrawnCards):
    """Leak, told privately: the hand-drawn card is told to its seat without saying
    that the action reveals it (no ``ctx.reveal``)."""

    info = renamed(HiddenCards.info, "hidden-cards-untold", "Leaky")

    def draw_card(self, state: State, seat: int, ctx: Context) -> None:
        draw_by_hand(state, seat, ctx)


class PeekCards(HandDrawnCards):
    """Leak: after a hand-drawn card (revealed to its seat), a public event names the
    next hidden card of the deck; the bare reveal does not cover a public event."""

    info = renamed(HiddenCards.info, "hidden-cards-peek", "Leaky")

    def draw_card(self, state: State, seat: int, ctx: Context) -> None:
        super().draw_card(state, seat, ctx)
        if state["deck"]:
            ctx.emit("peek", f"the deck shows {state['deck'][-1]} next")


class BlindCards(HiddenCards):
    """A draw every seat sees but the drawer (Hanabi's): the card goes face out into
    the drawer's blind row; written correctly with ``hidden_from``."""

    info = renamed(HiddenCards.info, "hidden-cards-blind", "Blind")

    def draw_card(self, state: State, seat: int, ctx: Context) -> None:
        state["blind"][seat] += ctx.draw(state["deck"], 1, reason="draw", hidden_from=[seat])


class PublicCards(HiddenCards):
    """Every decision is public: the others' log reads the choice's label."""

    info = renamed(HiddenCards.info, "hidden-cards-public", "Public")

    def prompt(self, state: State) -> Prompt | None:
        asked = super().prompt(state)
        if asked is None:
            return None
        return Prompt(asked.seat, asked.text, asked.choices, rule=asked.rule, public=True)


class TellingLabelCards(HiddenCards):
    """Leak: the public choice "draw" is labelled with the seat's hidden hand."""

    info = renamed(HiddenCards.info, "hidden-cards-telling", "Leaky")

    def choices(self, state: State, seat: int) -> list[Choice]:
        offered = [c for c in super().choices(state, seat) if c.action != "draw"]
        if state["deck"]:
            hand = ", ".join(sorted(state["hands"][seat]))
            offered.append(Choice("draw", f"Draw a card (holding {hand})", public=True))
        return offered


class OpenHandCards(HiddenCards):
    """Leak: the view shows every seat's hand."""

    info = renamed(HiddenCards.info, "hidden-cards-open", "Leaky")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        seen = super().view(state, seat)
        seen["hands"] = [sorted(hand) for hand in state["hands"]]
        return seen


class SortedCards(HiddenCards):
    """Correct: the view sorts the hand while the deal's private event lists the cards
    in the order drawn; what a private draw tells its seat is a reveal to it, so the
    perturbed-chance check does not hold its words to the view."""

    info = renamed(HiddenCards.info, "hidden-cards-sorted", "Sorted")

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        seen = super().view(state, seat)
        seen["hand"] = sorted(seen["hand"])
        return seen


class WhisperCards(HiddenCards):
    """Leak, told privately: a drawing seat is also told a lucky number drawn with
    ``ctx.rng``, kept in the state but in no view, and not told as a reveal."""

    info = renamed(HiddenCards.info, "hidden-cards-whisper", "Leaky")

    def draw_card(self, state: State, seat: int, ctx: Context) -> None:
        super().draw_card(state, seat, ctx)
        state["luck"] = ctx.rng.randint(1, 6)
        ctx.emit("whisper", f"your lucky number is {state['luck']}", seats=[seat])
