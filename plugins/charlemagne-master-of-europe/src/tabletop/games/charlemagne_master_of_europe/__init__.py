"""Charlemagne, Master of Europe for Tabletop: a solitaire game of cups and campaigns.

Registered through the ``tabletop`` entry point. The board widget is imported only
from its hook, so headless commands never load Textual.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import BotRegistrar, GameRegistrar, hookimpl

from .bot import StewardBot
from .game import CharlemagneMasterOfEurope

__all__ = ["CharlemagneMasterOfEurope", "StewardBot"]


@hookimpl
def tabletop_register_games(register: GameRegistrar) -> None:
    register(CharlemagneMasterOfEurope())


@hookimpl
def tabletop_register_bots(register: BotRegistrar) -> None:
    register("cme-steward", lambda game: StewardBot(), "charlemagne-master-of-europe")


@hookimpl
def tabletop_board_widget(game_id: str) -> Any:
    if game_id != "charlemagne-master-of-europe":
        return None
    from .widget import board_widget_class

    return board_widget_class()
