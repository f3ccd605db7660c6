"""``tabletop install`` / ``uninstall`` (issue 23): games go into the environment that
runs the app, with pip's own output and exit status; offline (a local wheel)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from eco_support import Venv, make_venv
from sessions import CliRun

from tabletop.app import install, scaffold


def test_install_arguments_pass_pip_options_through() -> None:
    args = install.install_arguments(
        ["tabletop-pig"], editable=["./mine"], upgrade=True, no_index=True, find_links=["w"]
    )
    assert args == [
        "install",
        "--upgrade",
        "--no-index",
        "--find-links",
        "w",
        "--editable",
        "./mine",
        "tabletop-pig",
    ]


def test_nothing_to_install_is_refused_before_pip(cli: CliRun) -> None:
    code, out, err = cli("install")
    assert code == 2 and out == ""
    assert "name at least one game to install" in err


def test_uninstall_refuses_the_app_and_the_framework(cli: CliRun) -> None:
    for name in ("tabletop-app", "tabletop_framework"):
        code, out, err = cli("uninstall", "--yes", name)
        assert code == 2 and out == ""
        assert "is Tabletop itself, not a game" in err


def test_a_game_id_names_its_distribution() -> None:
    games: list[dict[str, object]] = [{"id": "pig", "distribution": "tabletop-pig"}]
    assert install.distributions_of(["pig", "tabletop-pig", "other"], games) == [
        "tabletop-pig",
        "other",
    ]


def test_an_environment_without_pip_is_told_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    with pytest.raises(install.InstallError, match=r"has no pip: run .*ensurepip"):
        install.pip_command()


PIP_WHEEL = [
    sys.executable,
    "-m",
    "pip",
    "wheel",
    "-q",
    "--no-deps",
    "--no-build-isolation",
    "--no-index",
]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel of a new game (``tabletop new-game``), built offline."""
    root = tmp_path_factory.mktemp("wheel")
    folder = scaffold.create("eco-race", root)
    built = subprocess.run(
        [*PIP_WHEEL, "-w", str(root / "wheels"), str(folder)],
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert built.returncode == 0, built.stderr
    return root / "wheels"


@pytest.fixture
def venv(tmp_path: Path) -> Venv:
    return make_venv(tmp_path / "venv", tmp_path)


def _ids(venv: Venv) -> set[str]:
    done = venv.tabletop("games", "--json")
    assert done.returncode == 0, done.stderr
    return {game["id"] for game in json.loads(done.stdout)["games"]}


@pytest.mark.slow
def test_install_puts_a_game_in_the_apps_environment_and_uninstall_removes_it(
    venv: Venv, wheel: Path
) -> None:
    assert "eco-race" not in _ids(venv)
    done = venv.tabletop("install", "--no-index", "-f", wheel, "tabletop-eco-race")
    assert done.returncode == 0, done.stderr
    assert "Successfully installed tabletop-eco-race-0.1.0" in done.stdout  # pip's words
    assert "eco-race" in done.stdout  # then the games, the new one listed
    assert "eco-race" in _ids(venv)
    assert list((venv.root / "lib").glob("python3*/site-packages/tabletop_eco_race-*"))
    # Not where the command's own PATH pip would have put it: the development .venv.
    here = subprocess.run(
        [sys.executable, "-m", "tabletop", "games", "--json"],
        capture_output=True,
        text=True,
        env=venv.env,
        timeout=60,
    )
    assert "eco-race" not in {g["id"] for g in json.loads(here.stdout)["games"]}

    done = venv.tabletop("uninstall", "--yes", "eco-race")  # by the game's id
    assert done.returncode == 0, done.stderr
    assert "Successfully uninstalled tabletop-eco-race-0.1.0" in done.stdout
    assert "eco-race" not in _ids(venv)


@pytest.mark.slow
def test_pips_failure_is_passed_through_and_changes_nothing(venv: Venv, wheel: Path) -> None:
    before = _ids(venv)
    done = venv.tabletop("install", "--no-index", "-f", wheel, "tabletop-no-such-game")
    assert done.returncode == 1  # pip's status
    assert "No matching distribution found for tabletop-no-such-game" in done.stderr
    assert _ids(venv) == before


def test_uninstall_finds_a_games_distribution_without_the_cache(
    cli: CliRun, isolated_env: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ran: list[list[str]] = []

    def run_pip(args: list[str]) -> int:
        ran.append(list(args))
        return 0

    monkeypatch.setattr(install, "run_pip", run_pip)
    monkeypatch.setattr(install, "show_games", lambda: None)
    assert not (isolated_env / "games-cache.json").exists()
    code, _, err = cli("uninstall", "-y", "pig", "tabletop-council")
    assert code == 0, err
    assert ran == [["uninstall", "--yes", "tabletop-pig", "tabletop-council"]]
