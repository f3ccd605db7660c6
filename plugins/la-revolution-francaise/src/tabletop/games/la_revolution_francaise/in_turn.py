"""Questions put to the Currents in turn (12.0-12.3 coup offers, 7.5.1 regime change):
a framework ``ResponseWindow`` whose parties are the Currents, each answered by the seat
that plays it. With 4 or 5 players a seat plays two Currents and is asked once for each;
whether a Current may answer is worked out only when its turn comes, and one that cannot
is dropped from the window then."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tabletop.framework import State
from tabletop.framework.decisions import ResponseWindow

from .core import seat_of


def in_turn(state: State, topic: str, currents: list[str], no: str) -> dict[str, Any]:
    """The plain data of a window that asks ``currents`` in this order (the automated
    Marais, with no seat, is never asked); the answer ``no`` passes."""
    asked = [c for c in currents if seat_of(state, c) is not None]
    return ResponseWindow.new(
        [seat_of(state, c) or 0 for c in asked], topic, passes=[no], parties=asked
    )


def reached(window: ResponseWindow, able: Callable[[str], bool]) -> tuple[list[str], str | None]:
    """The Currents still to ask, tried in order: those before the first ``able`` one
    (unable when reached, to drop) and that Current (None: nobody is left)."""
    unable: list[str] = []
    for current in window.parties[len(window.passed_parties) :]:
        if able(current):
            return unable, current
        unable.append(current)
    return unable, None


def answer_in_turn(data: dict[str, Any], able: Callable[[str], bool], action: str) -> str:
    """Record the answer of the first Current able to answer (dropping those before it
    that cannot) and return that Current."""
    window = ResponseWindow(data)
    unable, current = reached(window, able)
    assert current is not None, "a question in turn answered with nobody to ask"
    for other in unable:
        window.drop(party=other)
    window.answer(window.seat_to_ask, action, party=current)
    return current
