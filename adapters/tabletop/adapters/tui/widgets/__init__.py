"""Widgets shared by the game screens: choices, log and the generic view."""

from tabletop.adapters.tui.widgets.cards import CardList
from tabletop.adapters.tui.widgets.choices import ChoiceList
from tabletop.adapters.tui.widgets.log import GameLog
from tabletop.adapters.tui.widgets.view import ViewPanel

__all__ = ["CardList", "ChoiceList", "GameLog", "ViewPanel"]
