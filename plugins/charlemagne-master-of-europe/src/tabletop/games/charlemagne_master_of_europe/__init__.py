"""Charlemagne, Master of Europe for Tabletop: a solitaire game of cups and campaigns.

Registered through the ``tabletop`` entry point.
"""

from __future__ import annotations

from tabletop.framework import GameRegistrar, hookimpl

from .game import CharlemagneMasterOfEurope

__all__ = ["CharlemagneMasterOfEurope"]


@hookimpl
def tabletop_register_games(register: GameRegistrar) -> None:
    register(CharlemagneMasterOfEurope())
