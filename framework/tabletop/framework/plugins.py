"""Plugin discovery: find installed games through the ``tabletop`` entry-point group.

A plugin that fails to import or register is recorded with its reason and skipped, so
one broken game never keeps the others (or the app) from starting.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
from typing import Any

import pluggy

from tabletop.framework import hookspecs
from tabletop.framework.bots import BotFactory, RandomBot
from tabletop.framework.errors import UnknownGame
from tabletop.framework.game import GameDefinition, GameInfo
from tabletop.framework.search import BotHints

ENTRY_POINT_GROUP = "tabletop"


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
        for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
            if allow is not None and ep.name not in allow:
                continue
            try:
                module = ep.load()
            except Exception as exc:  # a broken plugin must not stop the app
                registry.failures.append(
                    PluginFailure(ep.name, f"failed to import: {type(exc).__name__}: {exc}")
                )
                continue
            candidates.append((ep.name, module, _dist_of(ep)))
    candidates.extend((name, module, ("", "")) for name, module in plugins)

    for name, module, origin in candidates:
        try:
            manager.register(module, name=name)
        except Exception as exc:
            registry.failures.append(
                PluginFailure(name, f"failed to register: {type(exc).__name__}: {exc}")
            )
            continue
        origins[name] = origin

    registry.bots["random"] = (lambda game: RandomBot(), "")
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
    except Exception as exc:
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
        registry.bots[name] = (factory, game_id)

    try:
        hook(register=register)
    except Exception as exc:
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
    except Exception as exc:
        registry.failures.append(
            PluginFailure(plugin, f"failed to register bot hints: {type(exc).__name__}: {exc}")
        )
