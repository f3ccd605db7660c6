"""Charlemagne, Master of Europe for Tabletop: a solitaire game of cups and campaigns.

Registered through the ``tabletop`` entry point.
"""

from __future__ import annotations

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
