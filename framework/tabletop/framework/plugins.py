"""Plugin discovery: find installed games through the ``tabletop`` entry-point group.

A plugin that fails to import or register is recorded with its reason and skipped, so
one broken game never keeps the others (or the app) from starting: a ``SystemExit`` at
import counts as failing (only the user's Ctrl+C is let through). An import slower than
SLOW_IMPORT_SECONDS is recorded (``GameRegistry.slow``) so that front ends can say which
plugin slows them down.

Who owns a name does not depend on any order a plugin could influence (its name, when
it was installed or reinstalled, pluggy's ``tryfirst``/``trylast``): every claim is
collected first, then settled (``_settle``). A game id or bot kind claimed once is the
claimant's. Claimed by several, it goes to the one plugin it belongs to, and the others
are refused (reported as their failure, naming the owner): a game id belongs to the
plugin whose entry point or distribution is named after it (``pig``, ``tabletop-pig``);
a bot kind made for one game belongs to the plugin that owns that game, and so do a
game's bot hints (a plugin's ``tryfirst`` hints for Red Flag replaced its own, and
changed every search bot's play). When no single claimant owns it, every claimant is
refused, each failure naming them all: a name taken twice is never silently one or the
other. The framework's ``random`` bot is always its own.

What a plugin registers is checked before it counts: a game id is a name the saves and
the terminal can carry (the scaffold's rule: lower case letters, digits and dashes,
starting with a letter), a bot kind is a short printable name with a callable factory;
anything else is the plugin's failure, reported with the name escaped.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from importlib.metadata import EntryPoint, entry_points
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
#: What a game id may be (as ``tabletop new-game`` makes them): it names save files,
#: log lines and terminal rows, so nothing else gets in.
GAME_ID = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_GAME_ID = 40
#: What a bot kind may be: a short printable name, typed in ``--seats`` lists.
BOT_KIND = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,39}")


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
        for ep in sorted(found, key=lambda e: e.name):  # loading order only: see _settle
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
    candidates = _one_per_name(registry, candidates)

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
    games: list[tuple[str, GameDefinition]] = []
    for impl in manager.hook.tabletop_register_games.get_hookimpls():
        _collect_games(registry, impl.plugin_name, impl.function, games)
    _settle_games(registry, games, origins)
    bots: list[tuple[str, str, BotFactory, str]] = []
    for impl in manager.hook.tabletop_register_bots.get_hookimpls():
        _collect_bots(registry, impl.plugin_name, impl.function, bots)
    _settle_bots(registry, bots)
    hints: list[tuple[str, str, BotHints]] = []
    for impl in manager.hook.tabletop_register_bot_hints.get_hookimpls():
        _collect_hints(registry, impl.plugin_name, impl.function, hints)
    _settle_hints(registry, hints)
    return registry


def _normal(name: str) -> str:
    """A plugin, distribution or game name compared as packaging does (case, ``_``, ``.``)."""
    return name.lower().replace("_", "-").replace(".", "-")


def _named_after(name: str, plugin: str, origin: tuple[str, str]) -> bool:
    """Whether ``plugin`` (its entry point, its distribution) is named after ``name``."""
    wanted = _normal(name)
    dist = _normal(origin[0])
    return _normal(plugin) == wanted or dist in (wanted, f"tabletop-{wanted}")


def _one_per_name(
    registry: GameRegistry, candidates: list[tuple[str, Any, tuple[str, str]]]
) -> list[tuple[str, Any, tuple[str, str]]]:
    """One plugin per entry-point name: two distributions declaring the same name keep
    the one whose distribution is named after it, else neither (pluggy would keep
    whichever came first)."""
    by_name: dict[str, list[tuple[str, Any, tuple[str, str]]]] = {}
    for candidate in candidates:
        by_name.setdefault(candidate[0], []).append(candidate)
    kept = []
    for name, claims in by_name.items():
        if len(claims) == 1:
            kept.append(claims[0])
            continue
        owners = [claim for claim in claims if _named_after(name, "", claim[2])]
        dists = ", ".join(sorted(repr(claim[2][0] or "?") for claim in claims))
        for claim in claims:
            if len(owners) == 1 and claim is owners[0]:
                kept.append(claim)
                continue
            registry.failures.append(
                PluginFailure(
                    name,
                    f"the plugin name {name!r} is declared by {dists}; "
                    + ("the one named after it is loaded" if len(owners) == 1 else "none is loaded")
                    + f" (this one: {claim[2][0] or '?'!r})",
                )
            )
    return kept


def _settle(claimants: list[str], owners: list[str]) -> str | None:
    """The one claimant a name goes to (None: nobody). A single claim is granted; of
    several, the only one of ``owners`` (the claimants the name belongs to) wins, and
    if none or more than one claim does, nobody does."""
    if len(claimants) == 1:
        return claimants[0]
    return owners[0] if len(owners) == 1 else None


def _refusal(what: str, winner: str | None, claimants: list[str]) -> str:
    if winner is not None:
        return f"{what} is already provided by plugin {winner!r}; this plugin's was not loaded"
    names = " and ".join(repr(plugin) for plugin in sorted(set(claimants)))
    return (
        f"{what} is claimed by plugins {names}, none of them named after it: none is "
        "loaded (uninstall all but one)"
    )


def _collect_games(
    registry: GameRegistry, plugin: str, hook: Any, claims: list[tuple[str, GameDefinition]]
) -> None:
    found: list[GameDefinition] = []
    try:
        hook(register=found.append)
    except PLUGIN_ESCAPES as exc:
        registry.failures.append(
            PluginFailure(plugin, f"failed to register games: {type(exc).__name__}: {exc}")
        )
        return
    for game in found:
        problem = _check_game(game)
        if problem is not None:
            registry.failures.append(PluginFailure(plugin, problem))
            continue
        claims.append((plugin, game))


def _settle_games(
    registry: GameRegistry,
    claims: list[tuple[str, GameDefinition]],
    origins: dict[str, tuple[str, str]],
) -> None:
    """Each game id to its one claimant, or its owner among several (see the module)."""
    by_id: dict[str, list[tuple[str, GameDefinition]]] = {}
    for plugin, game in claims:
        by_id.setdefault(game.info.id, []).append((plugin, game))
    for game_id, claimed in by_id.items():
        claimants = [plugin for plugin, _ in claimed]
        owners = [
            plugin
            for plugin in claimants
            if _named_after(game_id, plugin, origins.get(plugin, ("", "")))
        ]
        winner = _settle(claimants, owners)
        if winner is not None and claimants.count(winner) > 1:
            winner = None  # one plugin registering the id twice: which one?
        for plugin, game in claimed:
            if plugin != winner:
                what = f"game id {game_id!r}"
                registry.failures.append(PluginFailure(plugin, _refusal(what, winner, claimants)))
                continue
            dist, version = origins.get(plugin, ("", ""))
            registry.games[game_id] = InstalledGame(
                game, plugin, dist, version or game.info.version
            )


def _check_game(game: object) -> str | None:
    if not isinstance(game, GameDefinition):
        return f"registered {type(game).__name__}, which is not a GameDefinition"
    info = getattr(game, "info", None)
    if not isinstance(info, GameInfo):
        return f"{type(game).__name__} has no GameInfo in .info"
    if not isinstance(info.id, str) or len(info.id) > MAX_GAME_ID or not GAME_ID.fullmatch(info.id):
        return (
            f"{type(game).__name__}: the game id {str(info.id)[:60]!r} is not one: lower "
            f"case letters, digits and dashes, starting with a letter, at most "
            f"{MAX_GAME_ID} characters (it names saves and log lines)"
        )
    if not 1 <= info.min_players <= info.max_players:
        return f"{info.id}: bad player counts"
    return None


def _collect_bots(
    registry: GameRegistry,
    plugin: str,
    hook: Any,
    claims: list[tuple[str, str, BotFactory, str]],
) -> None:
    def register(name: str, factory: BotFactory, game_id: str = "") -> None:
        problem = _bot_problem(name, factory, game_id)
        if problem is not None:  # this registration only: the plugin's others count
            registry.failures.append(PluginFailure(plugin, problem))
            return
        claims.append((plugin, name, factory, game_id))

    try:
        hook(register=register)
    except PLUGIN_ESCAPES as exc:
        registry.failures.append(
            PluginFailure(plugin, f"failed to register bots: {type(exc).__name__}: {exc}")
        )


def _bot_problem(name: object, factory: object, game_id: object) -> str | None:
    """Why a bot registration cannot count (None: it can)."""
    if not isinstance(name, str) or not BOT_KIND.fullmatch(name):
        return (
            f"the bot kind {str(name)[:60]!r} is not one: up to 40 letters, digits, dots, "
            "dashes and underscores; not loaded"
        )
    if not callable(factory):
        return f"bot kind {name!r}: its factory is a {type(factory).__name__}, not callable"
    if not isinstance(game_id, str):
        return f"bot kind {name!r}: the game it is for is a {type(game_id).__name__}, not an id"
    return None


def _settle_bots(registry: GameRegistry, claims: list[tuple[str, str, BotFactory, str]]) -> None:
    """Each bot kind to its one claimant, or among several to the one that owns the
    game it is made for (a newcomer's ``rfop-greedy`` never replaces Red Flag's)."""
    by_name: dict[str, list[tuple[str, str, BotFactory, str]]] = {}
    for claim in claims:
        by_name.setdefault(claim[1], []).append(claim)
    for name, claimed in by_name.items():
        claimants = [plugin for plugin, *_ in claimed]
        if name in registry.bots:  # the framework's own: would change every game it plays
            winner: str | None = registry.bot_owners.get(name, BUILT_IN)
        else:
            owners = [
                plugin
                for plugin, _, _, game_id in claimed
                if game_id and plugin == getattr(registry.games.get(game_id), "plugin", None)
            ]
            winner = _settle(claimants, owners)
            if winner is not None and claimants.count(winner) > 1:
                winner = None
        for plugin, _, factory, game_id in claimed:
            if plugin == winner and name not in registry.bots:
                registry.bots[name] = (factory, game_id)
                registry.bot_owners[name] = plugin
                continue
            what = f"bot kind {name!r}"
            if winner == BUILT_IN:
                reason = (
                    f"{what} is already provided by {BUILT_IN!r}; this plugin's bot was not loaded"
                )
            else:
                reason = _refusal(what, winner, claimants)
            registry.failures.append(PluginFailure(plugin, reason))


def _collect_hints(
    registry: GameRegistry, plugin: str, hook: Any, claims: list[tuple[str, str, BotHints]]
) -> None:
    """A game's bot hints; anything but a ``BotHints`` is refused as the plugin's fault."""

    def register(game_id: str, hints: BotHints) -> None:
        if not isinstance(hints, BotHints):
            raise TypeError(f"hints for {game_id!r} are a {type(hints).__name__}, not BotHints")
        claims.append((plugin, game_id, hints))

    try:
        hook(register=register)
    except PLUGIN_ESCAPES as exc:
        registry.failures.append(
            PluginFailure(plugin, f"failed to register bot hints: {type(exc).__name__}: {exc}")
        )


def _settle_hints(registry: GameRegistry, claims: list[tuple[str, str, BotHints]]) -> None:
    """Each game's hints to their one claimant, or among several to the plugin that
    owns the game: another plugin never replaces a game's own advice to the search."""
    by_game: dict[str, list[tuple[str, str, BotHints]]] = {}
    for claim in claims:
        by_game.setdefault(claim[1], []).append(claim)
    for game_id, claimed in by_game.items():
        claimants = [plugin for plugin, *_ in claimed]
        owner = getattr(registry.games.get(game_id), "plugin", None)
        winner = _settle(claimants, [plugin for plugin in claimants if plugin == owner])
        if winner is not None and claimants.count(winner) > 1:
            winner = None
        for plugin, _, hints in claimed:
            if plugin == winner:
                registry.hints[game_id] = hints
                continue
            what = f"bot hints for {game_id!r}"
            registry.failures.append(PluginFailure(plugin, _refusal(what, winner, claimants)))
