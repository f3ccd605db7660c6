"""The hooks a Tabletop plugin may implement (entry-point group ``tabletop``).

Hooks are for discovery and registration only, never on the per-move path: a pluggy
call costs about 20 times a plain method call.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pluggy

from tabletop.framework.bots import BotFactory
from tabletop.framework.game import GameDefinition

PROJECT = "tabletop"
hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


#: What ``tabletop_register_games`` receives: call it once per game definition.
GameRegistrar = Callable[[GameDefinition], None]
#: What ``tabletop_register_bots`` receives: ``register(name, factory, game_id)``, with
#: ``game_id`` "" for a bot kind that plays any game.
BotRegistrar = Callable[[str, BotFactory, str], None]


@hookspec
def tabletop_register_games(register: GameRegistrar) -> None:
    """Register game definitions by calling ``register(game)`` for each.

    Type your implementation ``def tabletop_register_games(register: GameRegistrar)
    -> None`` and mypy --strict checks what you register.
    """


@hookspec
def tabletop_register_bots(register: BotRegistrar) -> None:
    """Register bot kinds: ``register(name, factory, game_id_or_empty_for_any)``."""


@hookspec(firstresult=True)
def tabletop_board_widget(game_id: str) -> Any:
    """Return a Textual widget class that draws ``game_id``'s view, or None.

    The class is built as ``cls(view=dict)`` and updated with ``widget.update_view(view)``.
    Import Textual inside the hook so that headless commands never load it.
    """
