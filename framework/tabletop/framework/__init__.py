"""Tabletop's framework core: the game API, the engine and the ports.

Game authors import from here; nothing in this package does I/O.
"""

from tabletop.framework import views
from tabletop.framework.bots import Bot, BotFactory, RandomBot, bot_move
from tabletop.framework.context import Context
from tabletop.framework.engine import Engine, LogEntry, PartialReplay, replay_partial
from tabletop.framework.errors import (
    GameOver,
    IllegalAction,
    PluginFault,
    ReplayMismatch,
    SaveError,
    TabletopError,
    UndoRefused,
    UnknownGame,
    Unsupported,
)
from tabletop.framework.game import (
    HEADING,
    NOBODY,
    PASS_KEY,
    SUMMARY,
    Action,
    Choice,
    Event,
    GameDefinition,
    GameInfo,
    OptionSpec,
    Prompt,
    Result,
    State,
    clone,
)
from tabletop.framework.hookspecs import BotRegistrar, GameRegistrar, hookimpl
from tabletop.framework.ports import Dice, RandomSource, SaveInfo, SaveStore, UserInterface
from tabletop.framework.record import GameRecord

__all__ = [
    "HEADING",
    "NOBODY",
    "PASS_KEY",
    "SUMMARY",
    "Action",
    "Bot",
    "BotFactory",
    "BotRegistrar",
    "Choice",
    "Context",
    "Dice",
    "Engine",
    "Event",
    "GameDefinition",
    "GameInfo",
    "GameOver",
    "GameRecord",
    "GameRegistrar",
    "IllegalAction",
    "LogEntry",
    "OptionSpec",
    "PartialReplay",
    "PluginFault",
    "Prompt",
    "RandomBot",
    "RandomSource",
    "ReplayMismatch",
    "Result",
    "SaveError",
    "SaveInfo",
    "SaveStore",
    "State",
    "TabletopError",
    "UndoRefused",
    "UnknownGame",
    "Unsupported",
    "UserInterface",
    "bot_move",
    "clone",
    "hookimpl",
    "replay_partial",
    "views",
]
