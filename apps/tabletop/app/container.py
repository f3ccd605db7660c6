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
    from tabletop.adapters.server.hall import Hall
    from tabletop.adapters.server.seats import RememberedServerGames
    from tabletop.adapters.server.server import Server
    from tabletop.adapters.server.store import SqlGameStore
    from tabletop.adapters.tui.app import TabletopApp
    from tabletop.framework.plugins import GameRegistry


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


#: The server's database file, beside the saves in the user data directory.
SERVER_DB_NAME = "server.sqlite3"


def default_server_db() -> Path:
    """Where ``tabletop serve`` keeps its games by default: beside the saves."""
    return default_save_dir().parent / SERVER_DB_NAME


def open_server_store(db: str | None) -> SqlGameStore:
    """The game server's store for ``--db``: PostgreSQL for a ``postgresql://`` URL,
    else a SQLite file (by default ``default_server_db()``). A store that cannot be
    opened is one line saying where and why, never with a password."""
    from tabletop.adapters.server.store import SqliteGameStore

    if db and db.startswith(("postgres://", "postgresql://")):
        from tabletop.adapters.server.pgstore import PostgresGameStore

        try:
            return PostgresGameStore(db)
        except ImportError:
            raise TabletopError(
                "--db postgresql://... needs psycopg: tabletop install 'tabletop-app[postgres]'"
            ) from None
        except Exception as exc:  # psycopg.Error: say where, never the password
            where = db.split("@")[-1]
            raise TabletopError(f"cannot open the PostgreSQL database at {where}: {exc}") from None
    try:
        path = Path(db) if db else default_server_db()
    except RuntimeError:  # platformdirs: no HOME and no passwd entry
        raise TabletopError(
            "there is no home directory (HOME is unset and this user has no passwd entry) "
            "to keep the server's games in: give tabletop serve --db PATH"
        ) from None
    try:
        return SqliteGameStore(path)
    except Exception as exc:  # sqlite3.Error, OSError: say which file and why
        raise TabletopError(f"cannot open the server's database {path}: {exc}") from None


def _server_workers(threads: int | None) -> ThreadWorkers:
    """The server's workers: bots (of games people play, and of games nobody plays,
    each a core but one by default), one hint search at a time, people's requests and
    opening games (replays) on lanes of their own."""
    from tabletop.adapters.server.hall import BOT_GAMES, OPENING
    from tabletop.adapters.workers import DEFAULT_SIZES
    from tabletop.framework.ports import Workers

    bots = threads or DEFAULT_SIZES[Workers.BOTS]
    return ThreadWorkers(
        sizes={Workers.BOTS: bots, BOT_GAMES: bots, Workers.MOVES: 4, OPENING: 2},
        queues={Workers.MOVES: 4096, OPENING: 256, BOT_GAMES: None},
    )


def _server_registry(registry: GameRegistry, seconds: float | None) -> GameRegistry:
    """The games and bot kinds a server plays: the app's, with every search bot's
    decision capped at ``seconds`` of wall-clock time (a copy: local play keeps
    bots whose moves depend only on the seed)."""
    from dataclasses import replace

    from tabletop.adapters.server.limits import BOT_SECONDS

    capped = replace(registry, bots=dict(registry.bots))
    return register_search_bots(capped, seconds=seconds or BOT_SECONDS)


def _hall(
    store: Any,
    sessions: SessionStarter,
    workers: Any,
    bot_games: int | None,
    bot_games_per_client: int | None,
    limits: dict[str, Any] | None = None,
    lease_seconds: float | None = None,
) -> Hall:
    """The hall, with ``serve``'s limits (``limits``: the other ``Limits`` fields)."""
    from tabletop.adapters.server.hall import Hall
    from tabletop.adapters.server.limits import LEASE_SECONDS, Limits

    chosen = dict(limits or {})
    if bot_games is not None:
        chosen["bot_games"] = bot_games
    if bot_games_per_client is not None:
        chosen["bot_games_per_client"] = bot_games_per_client
    return Hall(
        store,
        sessions,
        workers,
        limits=Limits(**chosen),
        lease_seconds=lease_seconds or LEASE_SECONDS,
    )


def _game_server(hall: Hall) -> Server:
    from tabletop.adapters.server.server import Server

    return Server(hall)


def _server_games() -> RememberedServerGames:
    """The home screen's server games (the UI's ``ServerGames``), raising the UI's own
    error for a list that cannot be read: the UI and the server never import each
    other, the composition root joins them."""
    from tabletop.adapters.server.seats import RememberedServerGames
    from tabletop.adapters.tui.services import ServerGamesError

    return RememberedServerGames(error=ServerGamesError)


def _textual_app(sessions: SessionStarter, **settings: Any) -> TabletopApp:
    """The terminal UI (imports Textual, which only ``tabletop play`` should pay for)."""
    from tabletop.adapters.tui.app import TabletopApp

    return TabletopApp(sessions, **settings)


def _seat_app(
    sessions: SessionStarter,
    server_games: RememberedServerGames,
    url: str,
    token: str | None = None,
    watch: str | None = None,
    **settings: Any,
) -> TabletopApp:
    """``tabletop join``'s app: the seat screen every front end shares, on a line to a
    server's table: a seat's (``token``; remembered for the home screen once welcomed)
    or a spectator's (``watch``: the game's id). The app ends when the screen is left."""
    from tabletop.adapters.server.client import RemoteConnection
    from tabletop.adapters.server.seats import ServerSeat
    from tabletop.adapters.tui.app import TabletopApp
    from tabletop.adapters.tui.screens.seat import SeatScreen

    if watch is not None:
        screen = SeatScreen([], spectator=RemoteConnection(url, watch_game=watch))
    else:
        screen = SeatScreen([server_games.connect(ServerSeat("", url, token or "", "", ""))])
    return TabletopApp(sessions, server_games=server_games, first=screen, **settings)


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
    server_games = providers.Singleton(_server_games)
    """The server games a person joined, for the home screen (the UI's ServerGames)."""
    tui = providers.Factory(
        _textual_app, sessions=session_starter, workers=workers, server_games=server_games
    )
    seat_app = providers.Factory(
        _seat_app, sessions=session_starter, server_games=server_games, workers=workers
    )
    """A server seat's screen alone (``tabletop join``): ``seat_app(url=, token=)``, or
    ``watch=`` a game's id."""

    # The game server (tabletop serve): websockets and the server package are imported
    # only when these are made.
    server_store = providers.Singleton(open_server_store, db=config.server_db)
    """The server's games (``--db``: a SQLite file or PostgreSQL)."""
    server_workers = providers.Singleton(_server_workers, threads=config.bot_threads)
    server_registry = providers.Singleton(
        _server_registry, registry=registry, seconds=config.bot_seconds
    )
    """The games and bots a server plays: search bots capped in wall-clock time."""
    server_session_log = providers.Factory(SessionLog, logger=logger, secret_seed=True)
    server_sessions = providers.Factory(
        SessionStarter,
        registry=server_registry,
        rng_factory=rng_factory,
        dice_factory=dice_factory,
        store=None,
        observer=server_session_log.provider,
    )
    """Sessions of server games: no autosave (the hall's store keeps every action), the
    session log without an unfinished game's seed."""
    hall = providers.Singleton(
        _hall,
        store=server_store,
        sessions=server_sessions,
        workers=server_workers,
        bot_games=config.bot_games,
        bot_games_per_client=config.bot_games_per_client,
        limits=config.server_limits,
        lease_seconds=config.lease_seconds,
    )
    game_server = providers.Singleton(_game_server, hall=hall)


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
