"""Choices that name one space (a cube placed, removed or moved there) or one card (kept,
discarded). Their words depend on the verb, the space or card and a note or two only, so
each distinct one is built once (every placement and removal prompt asks for several)."""

from __future__ import annotations

from functools import cache

from tabletop.framework import Choice, State
from tabletop.framework.actions import Verb

from ..data import space_name
from ..viewing import card_detail


@cache
def space_choice(
    verb: Verb, words: str, space: str, detail: str = "", consequence: str = ""
) -> Choice:
    """``verb``'s action in ``space``, labelled ``words`` with the space's name for
    ``{}``."""
    return Choice(verb(space), words.format(space_name(space)), detail, consequence)


@cache
def card_choice(verb: Verb, label: str, card: int, key: str = "") -> Choice:
    """``verb``'s action for ``card``, with the card's full text as the detail (and a
    ``key`` that stays with the card, when given)."""
    return Choice(verb(card), label, card_detail(card), key=key)


#: The keys a card's choices take: the card's place in the hand as dealt chooses them,
#: so a card keeps its keys from one play to the next (issue 37). A card play offers
#: five uses of a card (``card_play.USES_PER_CARD``), a Final Crisis prompt one.
CARD_KEYS = "123456789abcdefghijklmnopqrstuvwxyz"


def card_slots(state: State, seat: int) -> list[tuple[int, int]]:
    """Each card in ``seat``'s hand with its place in the hand as dealt this round (or
    as the Final Crisis hand was taken up): the place does not change as cards leave."""
    dealt = state.get("dealt", [[], []])[seat]
    extra = len(dealt)
    out = []
    for c in state["hands"][seat]:
        if c in dealt:
            out.append((c, dealt.index(c)))
        else:  # not in the dealt record (a state set up by hand): after the dealt ones
            out.append((c, extra))
            extra += 1
    return out
