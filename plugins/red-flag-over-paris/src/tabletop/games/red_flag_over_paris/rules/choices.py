"""Choices that name one space: a cube placed, removed or moved there. Their words
depend on the verb, the space and a note or two only, so each distinct one is built
once (every placement and removal prompt asks for several)."""

from __future__ import annotations

from functools import cache

from tabletop.framework import Choice
from tabletop.framework.actions import Verb

from ..data import space_name


@cache
def space_choice(
    verb: Verb, words: str, space: str, detail: str = "", consequence: str = ""
) -> Choice:
    """``verb``'s action in ``space``, labelled ``words`` with the space's name for
    ``{}``."""
    return Choice(verb(space), words.format(space_name(space)), detail, consequence)
