"""Choices that name one space (a cube placed, removed or moved there) or one card (kept,
discarded). Their words depend on the verb, the space or card and a note or two only, so
each distinct one is built once (every placement and removal prompt asks for several)."""

from __future__ import annotations

from functools import cache

from tabletop.framework import Choice
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
def card_choice(verb: Verb, label: str, card: int) -> Choice:
    """``verb``'s action for ``card``, with the card's full text as the detail."""
    return Choice(verb(card), label, card_detail(card))
