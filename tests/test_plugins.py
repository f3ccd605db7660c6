"""Plugin discovery: entry points, broken plugins, bad registrations."""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from toygames import HighCard

from tabletop.framework import UnknownGame, hookimpl
from tabletop.framework.plugins import load_registry


def _plugin(**hooks: object) -> types.SimpleNamespace:
    return types.SimpleNamespace(**hooks)


def _registering(*games: object) -> types.SimpleNamespace:
    @hookimpl
    def tabletop_register_games(register):  # type: ignore[no-untyped-def]
        for game in games:
            register(game)

    return _plugin(tabletop_register_games=tabletop_register_games)


def test_installed_example_game_is_found_through_its_entry_point() -> None:
    registry = load_registry()
    pig = registry.get("pig")
    assert pig.distribution == "tabletop-pig"
    assert pig.plugin == "pig"
    assert pig.info.min_players == 2


def _fake_distribution(root: Path, name: str, entry: str) -> None:
    """What pip leaves in site-packages for a plugin: metadata with an entry point."""
    info = root / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tabletop]\n{name} = {entry}\n")


def test_an_installed_plugin_appears_and_an_uninstalled_one_is_gone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "toy_highcard_plugin.py"
    package.write_text(
        "from tabletop.framework import hookimpl\n"
        "import toygames\n"
        "@hookimpl\n"
        "def tabletop_register_games(register):\n"
        "    register(toygames.HighCard())\n"
    )
    _fake_distribution(tmp_path, "toy-highcard", "toy_highcard_plugin")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = load_registry()
    assert registry.get("highcard").distribution == "toy-highcard"
    assert "pig" in registry.games
    monkeypatch.undo()  # "uninstall": its metadata leaves the path
    assert "highcard" not in load_registry().games


def test_a_plugin_that_fails_to_import_is_reported_and_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_distribution(tmp_path, "broken-game", "no_such_module_anywhere")
    monkeypatch.syspath_prepend(str(tmp_path))
    registry = load_registry()
    failure = next(f for f in registry.failures if f.plugin == "broken-game")
    assert "failed to import" in failure.reason and "no_such_module_anywhere" in failure.reason
    assert "pig" in registry.games


def test_a_hook_that_raises_is_reported_and_others_still_load() -> None:
    @hookimpl
    def tabletop_register_games(register):  # type: ignore[no-untyped-def]
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
    reasons = sorted(f.reason for f in registry.failures)
    assert reasons == [
        "game id 'highcard' is already provided by plugin 'first'",
        "registered str, which is not a GameDefinition",
    ]
    assert registry.get("highcard").plugin == "first"


def test_allow_list_and_unknown_games() -> None:
    registry = load_registry(allow=set())
    assert registry.games == {}
    with pytest.raises(UnknownGame, match="no game 'pig' is installed"):
        registry.get("pig")


def test_bot_kinds_include_random_and_game_specific_ones() -> None:
    @hookimpl
    def tabletop_register_bots(register):  # type: ignore[no-untyped-def]
        register("greedy", lambda game: None, "highcard")

    registry = load_registry(
        plugins=[("bots", _plugin(tabletop_register_bots=tabletop_register_bots))],
        use_entry_points=False,
    )
    assert registry.bot_kinds("highcard") == ["random", "greedy"]
    assert registry.bot_kinds("pig") == ["random"]
