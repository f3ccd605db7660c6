"""``tabletop games`` from its cache: used while nothing changed, never once a plugin is
installed, removed, edited or broken, and ignored when damaged."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from fakesite import install
from sessions import CliRun

from tabletop.app import catalogue

PLUGIN = (
    "from tabletop.framework import GameInfo, hookimpl\n"
    "import toygames\n"
    "class Listed(toygames.HighCard):\n"
    "    info = GameInfo(id='listed', title={title!r}, min_players=2, max_players=2)\n"
    "@hookimpl\n"
    "def tabletop_register_games(register):\n"
    "    register(Listed())\n"
)


@pytest.fixture
def games(cli: CliRun, monkeypatch: pytest.MonkeyPatch) -> Callable[[], dict[str, str]]:
    """``games()``: the ids and titles ``tabletop games --json`` lists now. The test
    plugin's module is imported afresh by each command that loads plugins."""

    def run() -> dict[str, str]:
        monkeypatch.delitem(sys.modules, "listed_plugin", raising=False)
        code, out, err = cli("games", "--json")
        assert code == 0, err
        return {game["id"]: game["title"] for game in json.loads(out)["games"]}

    return run


def test_a_warm_cache_lists_the_games_without_importing_them(isolated_env: Path) -> None:
    """The second command reads the listing the first one kept: no game and not even
    the framework is imported."""
    script = (
        "import sys; from tabletop.app.cli import main; main(['games', '--json']);"
        "print(sorted(m for m in sys.modules if m.startswith('tabletop.')), file=sys.stderr)"
    )
    runs = [
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
        for _ in range(2)
    ]
    assert runs[0].stdout == runs[1].stdout and '"id": "pig"' in runs[0].stdout
    assert "tabletop.games.pig" in runs[0].stderr
    assert "tabletop.framework" not in runs[1].stderr and "tabletop.games" not in runs[1].stderr
    assert catalogue.cache_file().exists()
    assert catalogue.cache_file().parent == isolated_env


def test_an_installed_plugin_appears_and_a_removed_one_goes_at_once(
    site: Path, games: Callable[[], dict[str, str]]
) -> None:
    assert "listed" not in games()  # the cache is warm now
    install(site, "listed", PLUGIN.format(title="Listed"))
    assert games()["listed"] == "Listed"
    assert games()["listed"] == "Listed"  # from the cache
    shutil.rmtree(site / "listed-1.0.dist-info")  # pip uninstall
    listed = games()
    assert "listed" not in listed and "pig" in listed


def test_an_edited_plugin_is_read_again(site: Path, games: Callable[[], dict[str, str]]) -> None:
    """An editable install changes no metadata when its code is edited."""
    install(site, "listed", PLUGIN.format(title="Old title"))
    assert games()["listed"] == "Old title"
    (site / "listed_plugin.py").write_text(PLUGIN.format(title="A new and longer title"))
    assert games()["listed"] == "A new and longer title"


def test_the_allow_list_is_part_of_what_the_cache_was_made_from(
    games: Callable[[], dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "pig" in games()
    monkeypatch.setenv("TABLETOP_LOAD_PLUGINS", "council")
    assert list(games()) == ["council"]
    monkeypatch.delenv("TABLETOP_LOAD_PLUGINS")
    assert "pig" in games()


def test_a_failing_plugin_is_reported_every_time(site: Path, cli: CliRun) -> None:
    install(site, "listed", "raise ImportError('a missing dependency')\n")
    for _ in range(2):
        code, out, _ = cli("games", "--json")
        failures = json.loads(out)["failures"]
        assert code == 0 and [f["plugin"] for f in failures] == ["listed"]
        assert "a missing dependency" in failures[0]["reason"]


@pytest.mark.parametrize(
    "damage",
    ["", "{", "[]", '{"environment": 1}', "\x00\xff", '{"games": [{"id": 3}]}'],
)
def test_a_damaged_cache_is_ignored_and_written_again(
    isolated_env: Path, games: Callable[[], dict[str, str]], damage: str
) -> None:
    expected = games()
    cache = catalogue.cache_file()
    cache.write_text(damage, encoding="utf-8", errors="surrogateescape")
    assert games() == expected
    assert catalogue.read(cache) is not None


def test_a_cache_with_a_listing_of_the_wrong_shape_is_not_used(
    isolated_env: Path, games: Callable[[], dict[str, str]]
) -> None:
    """The environment and files match, but a game lacks a field: read again."""
    expected = games()
    cache = catalogue.cache_file()
    data = json.loads(cache.read_text())
    del data["games"][0]["title"]
    cache.write_text(json.dumps(data))
    assert catalogue.read(cache) is None
    assert games() == expected


def test_an_unwritable_cache_is_no_error(
    isolated_env: Path, games: Callable[[], dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = isolated_env / "not-a-dir"
    blocked.write_text("a file where the cache's folder should be")
    monkeypatch.setenv("TABLETOP_CACHE_DIR", str(blocked))
    assert "pig" in games()
    assert blocked.is_file()
