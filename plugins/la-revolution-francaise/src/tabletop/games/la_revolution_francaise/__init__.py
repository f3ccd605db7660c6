"""La Révolution française 1791-1795 (La patrie en danger) for Tabletop.

Registered through the ``tabletop`` entry point. The board widget is imported only
inside its hook so that headless commands never load Textual.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import GameRegistrar, hookimpl
from tabletop.framework.hookspecs import BotHintsRegistrar

from .bot import RevolutionHints
from .game import LaRevolutionFrancaise

__all__ = ["LaRevolutionFrancaise", "RevolutionHints", "tabletop_register_bot_hints"]


@hookimpl
def tabletop_register_games(register: GameRegistrar) -> None:
    register(LaRevolutionFrancaise())


@hookimpl
def tabletop_register_bot_hints(register: BotHintsRegistrar) -> None:
    register("la-revolution-francaise", RevolutionHints())


@hookimpl
def tabletop_board_widget(game_id: str) -> Any:
    if game_id != "la-revolution-francaise":
        return None
    from .widget import board_widget_class

    return board_widget_class()
