"""Hints at a table (``Table(hinter=...)``): the search of ``hint.prepare``, answered in
the seat protocol's words (``seats.HintAnswer``), for the local screen and the server
alike: both ask the same search from the seat's information only."""

from __future__ import annotations

from collections.abc import Callable

from tabletop.adapters.bots.hint import prepare
from tabletop.framework.engine import Engine
from tabletop.framework.plugins import GameRegistry
from tabletop.framework.seats import HintAnswer


def hinter_for(registry: GameRegistry) -> Callable[[Engine], Callable[[], HintAnswer]]:
    """A table's hinter: the search for the engine's current decision, with the game's
    own bot hints, made now (the state copied) and thought later on a worker."""

    def hinter(engine: Engine) -> Callable[[], HintAnswer]:
        think = prepare(engine, registry.hints_for(engine.game.info.id))

        def answer() -> HintAnswer:
            hint = think()
            return HintAnswer(hint.moment, hint.action, tuple(hint.lines()))

        return answer

    return hinter
