"""Red Flag Over Paris (GMT, 2021) for Tabletop: Versailles against the Paris Commune.

Registered through the ``tabletop`` entry point. The board widget is imported only
inside its hook so that headless commands never load Textual.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import BotRegistrar, GameRegistrar, hookimpl
from tabletop.framework.hookspecs import BotHintsRegistrar

from .bot import GreedyBot, RfopHints
from .game import RedFlagOverParis

__all__ = ["GreedyBot", "RedFlagOverParis", "RfopHints"]


@hookimpl
def tabletop_register_games(register: GameRegistrar) -> None:
    register(RedFlagOverParis())


@hookimpl
def tabletop_register_bots(register: BotRegistrar) -> None:
    register("rfop-greedy", lambda game: GreedyBot(), "red-flag-over-paris")


@hookimpl
def tabletop_register_bot_hints(register: BotHintsRegistrar) -> None:
    register("red-flag-over-paris", RfopHints())


@hookimpl
def tabletop_board_widget(game_id: str) -> Any:
    if game_id != "red-flag-over-paris":
        return None
    from .widget import board_widget_class

    return board_widget_class()
