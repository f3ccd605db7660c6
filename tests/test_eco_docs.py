"""Issue 23's documents: project URLs in every distribution, a README per game, the
changelog, and the API reference built from the docstrings without a warning."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECTS = [
    ROOT / "pyproject.toml",
    ROOT / "framework" / "pyproject.toml",
    *sorted(ROOT.glob("plugins/*/pyproject.toml")),
]


def _project(path: Path) -> dict[str, object]:
    data: dict[str, object] = tomllib.loads(path.read_text("utf-8"))["project"]
    return data


@pytest.mark.parametrize("path", PYPROJECTS, ids=lambda p: p.parent.name)
def test_every_distribution_names_its_urls(path: Path) -> None:
    urls = _project(path).get("urls")
    assert isinstance(urls, dict), f"{path} has no [project.urls]"
    assert {"Homepage", "Documentation", "Repository", "Issues", "Changelog"} <= set(urls)
    assert all(str(url).startswith("https://") for url in urls.values())


@pytest.mark.parametrize("folder", sorted(ROOT.glob("plugins/*/")), ids=lambda p: p.name)
def test_every_game_has_a_readme_that_installs_it(folder: Path) -> None:
    readme = (folder / "README.md").read_text("utf-8")
    name = _project(folder / "pyproject.toml")["name"]
    assert f"tabletop install {name}" in readme
    assert f"tabletop simulate {folder.name} " in readme  # the folder is the game's id
    assert "## Credits" in readme


@pytest.mark.parametrize("folder", sorted(ROOT.glob("plugins/*/")), ids=lambda p: p.name)
def test_every_game_distribution_carries_its_games_version(folder: Path) -> None:
    """The home screen lists a game with its distribution's version and a save names
    the game's (``GameInfo.version``): they must be the same number."""
    from tabletop.framework.plugins import load_registry

    game = load_registry().get(folder.name).definition
    assert _project(folder / "pyproject.toml")["version"] == game.info.version


def test_the_changelog_has_the_current_version_and_unreleased_changes() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text("utf-8")
    version = _project(ROOT / "pyproject.toml")["version"]
    assert "## [Unreleased]" in changelog and f"## [{version}]" in changelog
    assert "tabletop install" in changelog


@pytest.mark.slow
def test_the_api_reference_builds_without_a_warning(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "docs" / "api" / "build.py"), str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "no warnings" in done.stdout and done.stderr == ""
    engine = (tmp_path / "tabletop" / "framework" / "engine.html").read_text("utf-8")
    assert 'id="Engine.act"' in engine  # a method of a class, with its docstring
    assert 'id="Engine.state"' in engine  # what rules tests read (issue 38)
    assert (tmp_path / "tabletop" / "framework" / "testing.html").is_file()
    assert (tmp_path / "tabletop" / "adapters" / "tui" / "hookspecs.html").is_file()
