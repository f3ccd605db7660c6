"""The composition root: the one place where ports meet their adapters.

A dependency-injector ``DeclarativeContainer`` used as in its own examples: the
configuration is read from the environment by the container (``build_container``),
providers choose the adapters (random source, dice, save store, UI), and factories make
the services from them (the session starter, the simulation runner). The CLI, the
Textual app and the tests get their wiring here and nowhere else: a test overrides a
provider (``container.save_store.override(providers.Object(store))``) instead of
building adapters by hand or patching modules.

Textual is not imported here: ``tui`` imports it only when the terminal UI is made.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from dependency_injector import containers, providers

from tabletop.adapters.bots import register_search_bots
from tabletop.adapters.headless import HeadlessUI
from tabletop.adapters.saves import (
    JsonSaveStore,
    ReplayCheckedStore,
    default_save_dir,
    read_save_file,
)
from tabletop.adapters.workers import ThreadWorkers
from tabletop.app.catalogue import log_file
from tabletop.app.logs import (
    SLOW_SAVE_SECONDS,
    LoggedSaveStore,
    SessionLog,
    configure_logging,
    log_plugin_failures,
)
from tabletop.app.simulate import Simulation
from tabletop.app.tournament import Tournament
from tabletop.framework import chance
from tabletop.framework.errors import TabletopError
from tabletop.framework.plugins import load_registry
from tabletop.framework.session import SessionStarter

if TYPE_CHECKING:
    from tabletop.adapters.tui.app import TabletopApp


#: What a command that needs the default save directory says when there is none.
NO_HOME = (
    "there is no home directory (HOME is unset and this user has no passwd entry) to "
    "keep saves in: set TABLETOP_SAVE_DIR or HOME, or give the command a path"
)


def _save_dir(value: str | None) -> Path | None:
    """TABLETOP_SAVE_DIR, or the per-user data directory when unset or empty; None
    when that needs a home directory and there is none (see ``_save_store``)."""
    if value:
        return Path(value)
    try:
        return default_save_dir()
    except RuntimeError:  # platformdirs: no HOME and no passwd entry
        return None


def _log_file(value: str | None) -> Path | None:
    """TABLETOP_LOG_FILE, or the per-user log directory; None (no log file: the log is
    best effort) when that needs a home directory and there is none."""
    try:
        return log_file(value)
    except RuntimeError:
        return None


def _save_store(directory: Path | None) -> JsonSaveStore:
    """The save store, made when a command first needs it: without a directory (no
    home) that command, and only that one, stops with one clear line."""
    if directory is None:
        raise TabletopError(NO_HOME)
    return JsonSaveStore(directory)


def _allow_list(value: str | None) -> set[str] | None:
    """TABLETOP_LOAD_PLUGINS=a,b loads only those plugins (empty: none; unset: all)."""
    if value is None:
        return None
    return {name.strip() for name in value.split(",") if name.strip()}


def _flag(value: str | None) -> bool:
    return (value or "").strip().lower() not in ("", "0", "false", "no", "off")


def _game_for(registry: Any) -> Any:
    """The game definitions by id, as ``ReplayCheckedStore`` replays them."""
    return lambda game_id: registry.get(game_id).definition


def _textual_app(sessions: SessionStarter, **settings: Any) -> TabletopApp:
    """The terminal UI (imports Textual, which only ``tabletop play`` should pay for)."""
    from tabletop.adapters.tui.app import TabletopApp

    return TabletopApp(sessions, **settings)


class Container(containers.DeclarativeContainer):
    config = providers.Configuration()

    logger = providers.Singleton(
        configure_logging, log_file=config.log_file, console=config.log_console
    )

    # The plugins: games and bot kinds, found once; each failure is logged. The search
    # bots (mcts at every strength, with each game's hints) join the kinds every game has.
    plugins = providers.Singleton(
        register_search_bots,
        registry=providers.Singleton(load_registry, allow=config.load_plugins),
    )
    registry = providers.Singleton(
        log_plugin_failures, registry=plugins, make_logger=logger.provider
    )

    # Adapters, chosen here and nowhere else.
    rng_factory = providers.Object(chance.rng_factory)
    """The random source for a seed: PCG32, the generator saves are made with."""
    dice_factory = providers.Object(chance.dice_factory)
    save_store = providers.Singleton(_save_store, directory=config.save_dir)
    """Where games autosave (override this in tests)."""
    checked_save_store = providers.Singleton(
        ReplayCheckedStore,
        inner=save_store,
        game_for=providers.Callable(_game_for, registry),
        rng_factory=rng_factory,
        dice_factory=dice_factory,
    )
    """The one above, writing only games that load back (a game's view that changes
    its state is refused at the first save, not found when the save will not open)."""
    logged_save_store = providers.Singleton(
        LoggedSaveStore, inner=checked_save_store, logger=logger, slow=config.slow_save_seconds
    )
    """The save store sessions use: the checked one, its failed and slow saves logged."""
    store_in = providers.Factory(JsonSaveStore)
    """A save store in another directory: ``store_in(directory=...)`` (--save-dir)."""
    save_file_reader = providers.Object(read_save_file)
    """Reads a save file given by path (``tabletop replay FILE``)."""
    headless_ui = providers.Factory(HeadlessUI)
    workers = providers.Singleton(ThreadWorkers)
    """Where bots think, hints search and local moves run (a lane of threads each)."""
    session_log = providers.Factory(SessionLog, logger=logger)

    # Services.
    session_starter = providers.Factory(
        SessionStarter,
        registry=registry,
        rng_factory=rng_factory,
        dice_factory=dice_factory,
        store=logged_save_store,
        observer=session_log.provider,
    )
    batch_sessions = providers.Factory(
        session_starter,  # the same starter with these two overridden
        store=None,
        observer=providers.Factory(SessionLog, logger=logger, lifecycle=False).provider,
    )
    """Sessions for batch play: no autosave per action, only incidents logged."""
    simulation = providers.Factory(Simulation, sessions=batch_sessions, ui=headless_ui.provider)
    """Bot games headless (``tabletop simulate``); it saves each finished game, if asked."""
    tournament = providers.Factory(Tournament, sessions=batch_sessions)
    """Bots against each other (``tabletop tournament``)."""
    tui = providers.Factory(_textual_app, sessions=session_starter, workers=workers)


def build_container(*, console: bool = True) -> Container:
    """A container configured from the environment.

    ``console=False`` keeps log lines off the terminal whatever TABLETOP_LOG_CONSOLE
    says (``tabletop play``: the screen belongs to Textual).
    """
    container = Container()
    config = container.config
    config.save_dir.from_env("TABLETOP_SAVE_DIR", default="", as_=_save_dir)
    config.log_file.from_env("TABLETOP_LOG_FILE", default="", as_=_log_file)
    config.load_plugins.from_env("TABLETOP_LOAD_PLUGINS", default=None, as_=_allow_list)
    config.slow_save_seconds.from_value(SLOW_SAVE_SECONDS)
    config.log_console.from_env(
        "TABLETOP_LOG_CONSOLE", default="", as_=lambda value: console and _flag(value)
    )
    return container
