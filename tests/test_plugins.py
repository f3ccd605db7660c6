"""Plugin discovery: entry points, broken plugins, bad registrations."""

from __future__ import annotations

import types
from collections.abc import Callable
from pathlib import Path

import pytest
from fakesite import add_distribution, install_games
from toygames import HighCard

from tabletop.framework import BotRegistrar, GameRegistrar, hookimpl
from tabletop.framework.bots import RandomBot
from tabletop.framework.errors import UnknownGame
from tabletop.framework.plugins import load_registry


def _plugin(**hooks: object) -> types.SimpleNamespace:
    return types.SimpleNamespace(**hooks)


def _registering(*games: object) -> types.SimpleNamespace:
    @hookimpl
    def tabletop_register_games(register: Callable[[object], None]) -> None:
        # object, not GameRegistrar: the point is that anything may be registered
        for game in games:
            register(game)

    return _plugin(tabletop_register_games=tabletop_register_games)


def test_installed_example_game_is_found_through_its_entry_point() -> None:
    registry = load_registry()
    pig = registry.get("pig")
    assert pig.distribution == "tabletop-pig"
    assert pig.plugin == "pig"
    assert pig.info.min_players == 2


def test_an_installed_plugin_appears_and_an_uninstalled_one_is_gone(
    site: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install_games(site, "toy-highcard", "toygames:HighCard")
    registry = load_registry()
    assert registry.get("highcard").distribution == "toy-highcard"
    assert "pig" in registry.games
    monkeypatch.undo()  # "uninstall": its metadata leaves the path
    assert "highcard" not in load_registry().games


def test_a_plugin_that_fails_to_import_is_reported_and_skipped(site: Path) -> None:
    add_distribution(site, "broken-game", "no_such_module_anywhere")
    registry = load_registry()
    failure = next(f for f in registry.failures if f.plugin == "broken-game")
    assert "failed to import" in failure.reason and "no_such_module_anywhere" in failure.reason
    assert "pig" in registry.games


def test_a_hook_that_raises_is_reported_and_others_still_load() -> None:
    @hookimpl
    def tabletop_register_games(register: GameRegistrar) -> None:
        raise RuntimeError("data file missing")

    registry = load_registry(
        plugins=[
            ("bad", _plugin(tabletop_register_games=tabletop_register_games)),
            ("good", _registering(HighCard())),
        ],
        use_entry_points=False,
    )
    assert "highcard" in registry.games
    assert [(f.plugin, f.reason) for f in registry.failures] == [
        ("bad", "failed to register games: RuntimeError: data file missing")
    ]


def test_bad_registrations_are_refused() -> None:
    registry = load_registry(
        plugins=[
            ("first", _registering(HighCard())),
            ("second", _registering(HighCard(), "not a game")),
        ],
        use_entry_points=False,
    )
    reasons = sorted((f.plugin, f.reason) for f in registry.failures)
    taken = (  # neither is named after the game: both refused, each naming both
        "game id 'highcard' is claimed by plugins 'first' and 'second', none of them "
        "named after it: none is loaded (uninstall all but one)"
    )
    assert reasons == [
        ("first", taken),
        ("second", taken),
        ("second", "registered str, which is not a GameDefinition"),
    ]
    assert "highcard" not in registry.games


def test_a_game_id_goes_to_the_plugin_named_after_it_whatever_the_order() -> None:
    for order in ([0, 1], [1, 0]):
        plugins = [("highcard", _registering(HighCard())), ("other", _registering(HighCard()))]
        registry = load_registry(plugins=[plugins[i] for i in order], use_entry_points=False)
        assert registry.get("highcard").plugin == "highcard"
        assert [(f.plugin, f.reason) for f in registry.failures] == [
            (
                "other",
                "game id 'highcard' is already provided by plugin 'highcard'; "
                "this plugin's was not loaded",
            )
        ]


def test_allow_list_and_unknown_games() -> None:
    registry = load_registry(allow=set())
    assert registry.games == {}
    with pytest.raises(UnknownGame, match="no game 'pig' is installed"):
        registry.get("pig")


def test_bot_kinds_include_random_and_game_specific_ones() -> None:
    @hookimpl
    def tabletop_register_bots(register: BotRegistrar) -> None:
        register("greedy", lambda game: RandomBot(), "highcard")

    registry = load_registry(
        plugins=[("bots", _plugin(tabletop_register_bots=tabletop_register_bots))],
        use_entry_points=False,
    )
    assert registry.bot_kinds("highcard") == ["random", "greedy"]
    assert registry.bot_kinds("pig") == ["random"]
