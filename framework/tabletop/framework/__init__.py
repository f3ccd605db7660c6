"""Tabletop's framework: the API a game author writes against, on one page.

Everything a game's rules, views, bots and registration need is importable from here:

- the game: ``GameDefinition``, ``GameInfo``, ``OptionSpec``, ``State``, ``Action``,
  ``Prompt``, ``Choice``, ``Event``, ``Result``, ``Sides``, ``clone`` and the marks ``NOBODY``,
  ``HEADING``, ``SUMMARY``, ``PASS_KEY``;
- chance and events: ``Context`` (the only way to randomness and the log);
- rules as a decision stack (``stack``: ``Decision``, ``Step``, ``Stack``, ``Tasks``) and
  typed actions (``actions``: ``Verb``, ``Verbs``; the argument types ``Int``, ``Seat``,
  ``Name``, ``Member``, ``Text`` in the module);
- decisions several seats make (``decisions``: ``SecretChoices``, ``OrderedVote``,
  ``Agreement``, ``ResponseWindow``) and the view schema (``views``);
- bots: ``Bot``, ``BotFactory``, ``RandomSource`` (what a bot draws from), ``BotHints``;
- registration: ``hookimpl``, ``GameRegistrar``, ``BotRegistrar``, ``BotHintsRegistrar``;
- errors a game raises: ``TabletopError``, ``IllegalAction``, ``Unsupported``.

Engine internals live in their submodules and are imported from there by front ends,
the app and tests: ``engine`` (Engine, LogEntry, PartialReplay, replay_partial),
``record`` (GameRecord), ``ports`` (SaveStore, SaveInfo, UserInterface, Dice),
``bots`` (RandomBot, bot_move), ``errors`` (the engine's own errors). Rules tests use
``tabletop.framework.testing`` (``new_engine``, ``engine_from_state``, the conformance
kit). The old names still import from here for a deprecation period, with a
``DeprecationWarning`` naming the submodule (docs/architecture.md, "The author API").

Nothing in this package does I/O.
"""

from __future__ import annotations

import importlib
import warnings
from typing import TYPE_CHECKING, Any

from tabletop.framework import actions, decisions, stack, views
from tabletop.framework.actions import Verb, Verbs
from tabletop.framework.bots import Bot, BotFactory
from tabletop.framework.context import Context
from tabletop.framework.decisions import Agreement, OrderedVote, ResponseWindow, SecretChoices
from tabletop.framework.errors import IllegalAction, TabletopError, Unsupported
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
    Sides,
    State,
    clone,
)
from tabletop.framework.hookspecs import (
    BotHintsRegistrar,
    BotRegistrar,
    GameRegistrar,
    hookimpl,
)
from tabletop.framework.ports import RandomSource
from tabletop.framework.search import BotHints
from tabletop.framework.stack import Decision, Stack, Step, Tasks

if TYPE_CHECKING:  # the moved names, typed for code not yet updated (see __getattr__)
    from tabletop.framework.bots import RandomBot as RandomBot
    from tabletop.framework.bots import bot_move as bot_move
    from tabletop.framework.engine import Engine as Engine
    from tabletop.framework.engine import LogEntry as LogEntry
    from tabletop.framework.engine import PartialReplay as PartialReplay
    from tabletop.framework.engine import replay_partial as replay_partial
    from tabletop.framework.errors import GameOver as GameOver
    from tabletop.framework.errors import PluginFault as PluginFault
    from tabletop.framework.errors import ReplayMismatch as ReplayMismatch
    from tabletop.framework.errors import SaveError as SaveError
    from tabletop.framework.errors import UndoRefused as UndoRefused
    from tabletop.framework.errors import UnknownGame as UnknownGame
    from tabletop.framework.ports import Dice as Dice
    from tabletop.framework.ports import SaveInfo as SaveInfo
    from tabletop.framework.ports import SaveStore as SaveStore
    from tabletop.framework.ports import UserInterface as UserInterface
    from tabletop.framework.record import GameRecord as GameRecord

__all__ = [
    "HEADING",
    "NOBODY",
    "PASS_KEY",
    "SUMMARY",
    "Action",
    "Agreement",
    "Bot",
    "BotFactory",
    "BotHints",
    "BotHintsRegistrar",
    "BotRegistrar",
    "Choice",
    "Context",
    "Decision",
    "Event",
    "GameDefinition",
    "GameInfo",
    "GameRegistrar",
    "IllegalAction",
    "OptionSpec",
    "OrderedVote",
    "Prompt",
    "RandomSource",
    "ResponseWindow",
    "Result",
    "SecretChoices",
    "Sides",
    "Stack",
    "State",
    "Step",
    "TabletopError",
    "Tasks",
    "Unsupported",
    "Verb",
    "Verbs",
    "actions",
    "clone",
    "decisions",
    "hookimpl",
    "stack",
    "views",
]

#: Names that used to be exported here and now live in a submodule (engine internals),
#: with that submodule. Importing one from here still works, with a warning.
MOVED = {
    "Engine": "engine",
    "LogEntry": "engine",
    "PartialReplay": "engine",
    "replay_partial": "engine",
    "GameRecord": "record",
    "SaveStore": "ports",
    "SaveInfo": "ports",
    "UserInterface": "ports",
    "Dice": "ports",
    "RandomBot": "bots",
    "bot_move": "bots",
    "GameOver": "errors",
    "PluginFault": "errors",
    "ReplayMismatch": "errors",
    "SaveError": "errors",
    "UndoRefused": "errors",
    "UnknownGame": "errors",
}


def __getattr__(name: str) -> Any:
    """The moved names, for a deprecation period: the object, and a warning that says
    where to import it from now."""
    home = MOVED.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"import {name} from tabletop.framework.{home}: tabletop.framework exports "
        "the author API only",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(importlib.import_module(f"{__name__}.{home}"), name)
