"""``tabletop games`` from its cache: used while nothing changed, never once a plugin is
installed, removed, edited or broken, and ignored when damaged."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tabletop.app import catalogue
from tabletop.app.cli import main

PLUGIN = (
    "from tabletop.framework import GameInfo, hookimpl\n"
    "import toygames\n"
    "class Listed(toygames.HighCard):\n"
    "    info = GameInfo(id='listed', title={title!r}, min_players=2, max_players=2)\n"
    "@hookimpl\n"
    "def tabletop_register_games(register):\n"
    "    register(Listed())\n"
)


def _install(site: Path, title: str = "Listed", source: str = PLUGIN) -> Path:
    """A plugin as pip leaves it: its module and its metadata with the entry point."""
    module = site / "listed_plugin.py"
    module.write_text(source.format(title=title))
    info = site / "listed-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: listed\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text("[tabletop]\nlisted = listed_plugin\n")
    return module


def _games(capsys: pytest.CaptureFixture[str]) -> dict[str, str]:
    assert main(["games", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    return {game["id"]: game["title"] for game in data["games"]}


@pytest.fixture
def site(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty site-packages first on the path; the plugin's module is imported
    afresh by each command that loads plugins."""
    root = isolated_env / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    monkeypatch.delitem(sys.modules, "listed_plugin", raising=False)
    return root


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
    assert (isolated_env / catalogue.CACHE_NAME).exists()


def test_an_installed_plugin_appears_and_a_removed_one_goes_at_once(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "listed" not in _games(capsys)  # the cache is warm now
    _install(site)
    assert _games(capsys)["listed"] == "Listed"
    assert _games(capsys)["listed"] == "Listed"  # from the cache
    shutil.rmtree(site / "listed-1.0.dist-info")  # pip uninstall
    monkeypatch.delitem(sys.modules, "listed_plugin")
    games = _games(capsys)
    assert "listed" not in games and "pig" in games


def test_an_edited_plugin_is_read_again(
    site: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editable install changes no metadata when its code is edited."""
    module = _install(site, "Old title")
    assert _games(capsys)["listed"] == "Old title"
    module.write_text(PLUGIN.format(title="A new and longer title"))
    monkeypatch.delitem(sys.modules, "listed_plugin")
    assert _games(capsys)["listed"] == "A new and longer title"


def test_the_allow_list_is_part_of_what_the_cache_was_made_from(
    isolated_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert "pig" in _games(capsys)
    monkeypatch.setenv("TABLETOP_LOAD_PLUGINS", "council")
    assert list(_games(capsys)) == ["council"]
    monkeypatch.delenv("TABLETOP_LOAD_PLUGINS")
    assert "pig" in _games(capsys)


def test_a_failing_plugin_is_reported_every_time(
    site: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _install(site, source="raise ImportError('a missing dependency')\n")
    for _ in range(2):
        assert main(["games", "--json"]) == 0
        failures = json.loads(capsys.readouterr().out)["failures"]
        assert [f["plugin"] for f in failures] == ["listed"]
        assert "a missing dependency" in failures[0]["reason"]


@pytest.mark.parametrize(
    "damage",
    ["", "{", "[]", '{"environment": 1}', "\x00\xff", '{"games": [{"id": 3}]}'],
)
def test_a_damaged_cache_is_ignored_and_written_again(
    isolated_env: Path, capsys: pytest.CaptureFixture[str], damage: str
) -> None:
    expected = _games(capsys)
    cache = isolated_env / catalogue.CACHE_NAME
    cache.write_text(damage, encoding="utf-8", errors="surrogateescape")
    assert _games(capsys) == expected
    assert catalogue.read(cache) is not None


def test_a_cache_with_a_listing_of_the_wrong_shape_is_not_used(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The environment and files match, but a game lacks a field: read again."""
    expected = _games(capsys)
    cache = isolated_env / catalogue.CACHE_NAME
    data = json.loads(cache.read_text())
    del data["games"][0]["title"]
    cache.write_text(json.dumps(data))
    assert catalogue.read(cache) is None
    assert _games(capsys) == expected


def test_an_unwritable_cache_is_no_error(
    isolated_env: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    blocked = isolated_env / "not-a-dir"
    blocked.write_text("a file where the log's folder should be")
    monkeypatch.setenv("TABLETOP_LOG_FILE", str(blocked / "tabletop.jsonl"))
    assert "pig" in _games(capsys)
    assert not os.path.exists(blocked / catalogue.CACHE_NAME)
