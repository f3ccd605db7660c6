"""Plugin discovery: find installed games through the ``tabletop`` entry-point group.

A plugin that fails to import or register is recorded with its reason and skipped, so
one broken game never keeps the others (or the app) from starting: a ``SystemExit`` at
import counts as failing (only the user's Ctrl+C is let through). Plugins are loaded
oldest installation first, and a game id or bot name already taken is refused for the
newcomer (reported as its failure): a plugin cannot take over an installed game or the
``random`` bot by sorting first. An import slower than SLOW_IMPORT_SECONDS is recorded
(``GameRegistry.slow``) so that front ends can say which plugin slows them down.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import Any

import pluggy

from tabletop.framework import hookspecs
from tabletop.framework.bots import BotFactory, RandomBot
from tabletop.framework.errors import PLUGIN_ESCAPES, UnknownGame
from tabletop.framework.game import GameDefinition, GameInfo
from tabletop.framework.search import BotHints

ENTRY_POINT_GROUP = "tabletop"
#: An import slower than this is reported (it slows every command).
SLOW_IMPORT_SECONDS = 1.0
#: Who provides the bot kinds the framework itself brings.
BUILT_IN = "tabletop"


@dataclass(frozen=True)
class PluginFailure:
    plugin: str
    reason: str


@dataclass(frozen=True)
class InstalledGame:
    definition: GameDefinition
    plugin: str
    distribution: str
    version: str

    @property
    def info(self) -> GameInfo:
        return self.definition.info


@dataclass
class GameRegistry:
    """The games, bot kinds and failures found at start-up."""

    games: dict[str, InstalledGame] = field(default_factory=dict)
    bots: dict[str, tuple[BotFactory, str]] = field(default_factory=dict)
    failures: list[PluginFailure] = field(default_factory=list)
    slow: list[tuple[str, float]] = field(default_factory=list)
    """Plugins whose import took over SLOW_IMPORT_SECONDS, with the seconds it took."""
    bot_owners: dict[str, str] = field(default_factory=dict)
    """Which plugin registered each bot kind (``BUILT_IN`` for the framework's)."""
    hints: dict[str, BotHints] = field(default_factory=dict)
    """Each game's advice to search bots (``tabletop_register_bot_hints``), by game id."""
    manager: pluggy.PluginManager | None = None
    """The plugin manager, for front ends that add hooks of their own."""

    def get(self, game_id: str) -> InstalledGame:
        try:
            return self.games[game_id]
        except KeyError:
            known = ", ".join(sorted(self.games)) or "none installed"
            raise UnknownGame(f"no game {game_id!r} is installed (installed: {known})") from None

    def bot_kinds(self, game_id: str) -> list[str]:
        """Bot kinds usable for ``game_id``: generic ones and the game's own."""
        return [name for name, (_, only) in self.bots.items() if only in ("", game_id)]

    def hints_for(self, game_id: str) -> BotHints:
        """The game's advice to search bots; neutral advice when it gave none."""
        return self.hints.get(game_id) or BotHints()


def _installed_at(ep: EntryPoint) -> float:
    """When the plugin's distribution was installed (its metadata's change time), for
    "the first installed stays"; 0 when unknown (sorted first, then by name)."""
    where = getattr(ep.dist, "_path", None)
    try:
        return Path(where).stat().st_mtime if where is not None else 0.0
    except (OSError, TypeError):
        return 0.0


def _dist_of(ep: EntryPoint) -> tuple[str, str]:
    dist = ep.dist
    if dist is None:
        return ("", "")
    return (dist.name, dist.version)


def load_registry(
    *,
    plugins: Iterable[tuple[str, object]] = (),
    use_entry_points: bool = True,
    allow: set[str] | None = None,
) -> GameRegistry:
    """Build the registry from entry points and/or explicit ``(name, module)`` pairs.

    ``allow`` restricts entry points to those names (like datasette's
    DATASETTE_LOAD_PLUGINS); tests pass explicit plugins and no entry points.
    """
    registry = GameRegistry()
    manager = pluggy.PluginManager(hookspecs.PROJECT)
    manager.add_hookspecs(hookspecs)
    registry.manager = manager
    origins: dict[str, tuple[str, str]] = {}

    candidates: list[tuple[str, Any, tuple[str, str]]] = []
    if use_entry_points:
        found = [
            ep for ep in entry_points(group=ENTRY_POINT_GROUP) if allow is None or ep.name in allow
        ]
        for ep in sorted(found, key=lambda e: (_installed_at(e), e.name)):
            started = time.perf_counter()
            try:
                module = ep.load()
            except PLUGIN_ESCAPES as exc:  # a broken plugin must not stop the app
                registry.failures.append(
                    PluginFailure(ep.name, f"failed to import: {type(exc).__name__}: {exc}")
                )
                continue
            finally:
                took = time.perf_counter() - started
                if took > SLOW_IMPORT_SECONDS:
                    registry.slow.append((ep.name, round(took, 1)))
            candidates.append((ep.name, module, _dist_of(ep)))
    candidates.extend((name, module, ("", "")) for name, module in plugins)

    for name, module, origin in candidates:
        try:
            manager.register(module, name=name)
        except PLUGIN_ESCAPES as exc:
            registry.failures.append(
                PluginFailure(name, f"failed to register: {type(exc).__name__}: {exc}")
            )
            continue
        origins[name] = origin

    registry.bots["random"] = (lambda game: RandomBot(), "")
    registry.bot_owners["random"] = BUILT_IN
    for impl in manager.hook.tabletop_register_games.get_hookimpls():
        _collect_games(registry, impl.plugin_name, impl.function, origins)
    for impl in manager.hook.tabletop_register_bots.get_hookimpls():
        _collect_bots(registry, impl.plugin_name, impl.function)
    for impl in manager.hook.tabletop_register_bot_hints.get_hookimpls():
        _collect_hints(registry, impl.plugin_name, impl.function)
    return registry


def _collect_games(
    registry: GameRegistry, plugin: str, hook: Any, origins: dict[str, tuple[str, str]]
) -> None:
    found: list[GameDefinition] = []
    try:
        hook(register=found.append)
    except PLUGIN_ESCAPES as exc:
        registry.failures.append(
            PluginFailure(plugin, f"failed to register games: {type(exc).__name__}: {exc}")
        )
        return
    dist, version = origins.get(plugin, ("", ""))
    for game in found:
        problem = _check_game(game)
        if problem is None and game.info.id in registry.games:
            other = registry.games[game.info.id].plugin
            problem = f"game id {game.info.id!r} is already provided by plugin {other!r}"
        if problem is not None:
            registry.failures.append(PluginFailure(plugin, problem))
            continue
        registry.games[game.info.id] = InstalledGame(
            game, plugin, dist, version or game.info.version
        )


def _check_game(game: object) -> str | None:
    if not isinstance(game, GameDefinition):
        return f"registered {type(game).__name__}, which is not a GameDefinition"
    info = getattr(game, "info", None)
    if not isinstance(info, GameInfo):
        return f"{type(game).__name__} has no GameInfo in .info"
    if not info.id or not 1 <= info.min_players <= info.max_players:
        return f"{info.id or type(game).__name__}: bad id or player counts"
    return None


def _collect_bots(registry: GameRegistry, plugin: str, hook: Any) -> None:
    def register(name: str, factory: BotFactory, game_id: str = "") -> None:
        if name in registry.bots:  # would silently change every game it plays
            owner = registry.bot_owners.get(name, "another plugin")
            registry.failures.append(
                PluginFailure(
                    plugin,
                    f"bot kind {name!r} is already provided by {owner!r}; "
                    "this plugin's bot was not loaded",
                )
            )
            return
        registry.bots[name] = (factory, game_id)
        registry.bot_owners[name] = plugin

    try:
        hook(register=register)
    except PLUGIN_ESCAPES as exc:
        registry.failures.append(
            PluginFailure(plugin, f"failed to register bots: {type(exc).__name__}: {exc}")
        )


def _collect_hints(registry: GameRegistry, plugin: str, hook: Any) -> None:
    """A game's bot hints; anything but a ``BotHints`` is refused as the plugin's fault."""

    def register(game_id: str, hints: BotHints) -> None:
        if not isinstance(hints, BotHints):
            raise TypeError(f"hints for {game_id!r} are a {type(hints).__name__}, not BotHints")
        registry.hints[game_id] = hints

    try:
        hook(register=register)
    except PLUGIN_ESCAPES as exc:
        registry.failures.append(
            PluginFailure(plugin, f"failed to register bot hints: {type(exc).__name__}: {exc}")
        )
