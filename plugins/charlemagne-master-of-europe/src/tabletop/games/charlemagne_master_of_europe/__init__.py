"""Charlemagne, Master of Europe for Tabletop: a solitaire game of cups and campaigns.

Registered through the ``tabletop`` entry point. The board widget is imported only
from its hook, so headless commands never load Textual.
"""

from __future__ import annotations

from typing import Any

from tabletop.framework import BotRegistrar, GameRegistrar, hookimpl
from tabletop.framework.hookspecs import BotHintsRegistrar

from .bot import StewardBot
from .game import CharlemagneMasterOfEurope
from .hints import CmeHints

__all__ = ["CharlemagneMasterOfEurope", "CmeHints", "StewardBot"]


@hookimpl
def tabletop_register_games(register: GameRegistrar) -> None:
    register(CharlemagneMasterOfEurope())


@hookimpl
def tabletop_register_bots(register: BotRegistrar) -> None:
    register("cme-steward", lambda game: StewardBot(), "charlemagne-master-of-europe")


@hookimpl
def tabletop_register_bot_hints(register: BotHintsRegistrar) -> None:
    register("charlemagne-master-of-europe", CmeHints())


@hookimpl
def tabletop_board_widget(game_id: str) -> Any:
    if game_id != "charlemagne-master-of-europe":
        return None
    from .widget import board_widget_class

    return board_widget_class()
