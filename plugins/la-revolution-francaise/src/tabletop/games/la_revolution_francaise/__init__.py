"""La Révolution française 1791-1795 (La patrie en danger) for Tabletop."""

from __future__ import annotations

from tabletop.framework import GameRegistrar, hookimpl

from .game import LaRevolutionFrancaise

__all__ = ["LaRevolutionFrancaise"]


@hookimpl
def tabletop_register_games(register: GameRegistrar) -> None:
    register(LaRevolutionFrancaise())
