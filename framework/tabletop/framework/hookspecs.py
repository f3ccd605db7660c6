"""The hooks a Tabletop plugin may implement (entry-point group ``tabletop``).

Hooks are for discovery and registration only, never on the per-move path: a pluggy
call costs about 20 times a plain method call. A front end may declare hooks of its own
under the same project marker (the Textual UI's board widget hook lives in
``tabletop.adapters.tui.hookspecs``): the core knows nothing of any front end.
"""

from __future__ import annotations

from collections.abc import Callable

import pluggy

from tabletop.framework.bots import BotFactory
from tabletop.framework.game import GameDefinition
from tabletop.framework.search import BotHints

PROJECT = "tabletop"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


#: What ``tabletop_register_games`` receives: call it once per game definition.
GameRegistrar = Callable[[GameDefinition], None]
#: What ``tabletop_register_bots`` receives: ``register(name, factory, game_id)``, with
#: ``game_id`` "" for a bot kind that plays any game.
BotRegistrar = Callable[[str, BotFactory, str], None]
#: What ``tabletop_register_bot_hints`` receives: ``register(game_id, hints)``.
BotHintsRegistrar = Callable[[str, BotHints], None]


@hookspec
def tabletop_register_games(register: GameRegistrar) -> None:
    """Register game definitions by calling ``register(game)`` for each.

    Type your implementation ``def tabletop_register_games(register: GameRegistrar)
    -> None`` and mypy --strict checks what you register.
    """


@hookspec
def tabletop_register_bots(register: BotRegistrar) -> None:
    """Register bot kinds: ``register(name, factory, game_id_or_empty_for_any)``."""


@hookspec
def tabletop_register_bot_hints(register: BotHintsRegistrar) -> None:
    """Give search bots a game's advice: ``register(game_id, hints)`` with a
    ``tabletop.framework.search.BotHints`` whose rollout policy, evaluation of unfinished
    games or choice ordering and pruning make every search bot stronger at that game.

    Optional: without it the bots play random playouts to the end of the game. Read
    once at start-up; the bots call the hints' methods, never this hook, per move.
    """
