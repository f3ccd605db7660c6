"""``tabletop install`` / ``uninstall`` (issue 23): games go into the environment that
runs the app, with pip's own output and exit status; offline (a local wheel)."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Callable, Sequence
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


def _recorder(ran: list[list[str]]) -> Callable[[Sequence[str]], int]:
    """A stand-in for pip (or a process): records its arguments, succeeds."""

    def run(args: Sequence[str]) -> int:
        ran.append(list(args))
        return 0

    return run


@pytest.mark.parametrize(
    "name", ["tabletop-app", "tabletop_framework", "tabletop.app", "Tabletop_App", "TABLETOP-APP"]
)
def test_uninstall_refuses_the_app_and_the_framework_however_spelled(
    cli: CliRun, name: str
) -> None:
    code, out, err = cli("uninstall", "--yes", name)
    assert code == 2 and out == ""
    assert "is Tabletop itself, not a game" in err


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("platformdirs", "is not a game but a library Tabletop needs"),
        ("pluggy", "is not a game but a library Tabletop needs"),
        ("textual", "is not a game but a library Tabletop needs"),
        ("pytest", "is not a game (it has no tabletop entry point)"),
        ("nosuchgame", "no game or game distribution named 'nosuchgame' is installed"),
        ("tabletop-app==0.2.0", "is not a game: give a game's id"),
        ("", "is not a game: give a game's id"),
        ("--target=x", "is not a game: give a game's id"),
    ],
)
def test_uninstall_removes_games_only(
    cli: CliRun, monkeypatch: pytest.MonkeyPatch, name: str, said: str
) -> None:
    """Removing platformdirs left every later command failing (issue 39): a name that
    is not a game is refused before pip runs, in one line, with exit 2."""
    ran: list[list[str]] = []
    monkeypatch.setattr(install, "run_pip", _recorder(ran))
    code, out, err = cli("uninstall", "--yes", "--", name)
    assert (code, out, ran) == (2, "", []), err
    assert said in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_uninstall_without_a_terminal_asks_for_yes_instead_of_pip(
    cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    """pip's question on a closed stdin ended in its EOFError traceback."""
    ran: list[list[str]] = []
    monkeypatch.setattr(install, "run_pip", _recorder(ran))
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    code, out, err = cli("uninstall", "pig")
    assert (code, out, ran) == (2, "", [])
    assert "no terminal to confirm on: run tabletop uninstall --yes" in err


def test_a_game_id_names_its_distribution() -> None:
    games: list[dict[str, object]] = [{"id": "pig", "distribution": "tabletop-pig"}]
    installed = {"tabletop-pig": "tabletop-pig", "tabletop-council": "tabletop_council"}
    found = install.distributions_of(["pig", "Tabletop_Pig", "tabletop.council"], games, installed)
    assert found == ["tabletop-pig", "tabletop_council"]


def test_install_refuses_targets_pip_would_take_as_options(cli: CliRun) -> None:
    code, out, err = cli("install", "--", "--target=/tmp/elsewhere", "tabletop-pig")
    assert code == 2 and out == ""
    assert "'--target=/tmp/elsewhere' is not a game to install" in err


def test_an_environment_without_pip_uses_uv_when_it_is_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    monkeypatch.setattr("shutil.which", lambda name: "/opt/uv/bin/uv" if name == "uv" else None)
    assert install.pip_command() == ["/opt/uv/bin/uv", "pip", "--python", sys.executable]
    ran: list[list[str]] = []
    monkeypatch.setattr("subprocess.call", _recorder(ran))
    install.run_pip(["uninstall", "--yes", "tabletop-pig"])
    assert ran == [
        ["/opt/uv/bin/uv", "pip", "uninstall", "--python", sys.executable, "tabletop-pig"]
    ]


def test_an_environment_without_pip_or_uv_is_told_what_to_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    monkeypatch.setattr("shutil.which", lambda name: None)
    with pytest.raises(install.InstallError, match=r"has no pip .*ensurepip.*uv tool install"):
        install.pip_command()


def test_the_app_declares_pip_so_that_tool_environments_have_it() -> None:
    """uv tool and pipx's uv backend make environments without pip (issue 39)."""
    from importlib import metadata

    names = {
        install.canonical(req.split(">")[0].split("=")[0])
        for req in metadata.requires("tabletop-app") or []
    }
    assert "pip" in names


@pytest.mark.parametrize("module", ["pluggy", "platformdirs", "structlog"])
def test_a_missing_library_is_named_with_how_to_put_it_back(
    isolated_env: Path, module: str
) -> None:
    """With pluggy gone every command ended in two chained tracebacks; with
    platformdirs, in "unexpected ModuleNotFoundError ... (a bug)"."""
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            f"import sys; sys.modules[{module!r}] = None\n"
            "from tabletop.app.cli import main\n"
            "sys.exit(main(['simulate', 'pig', '--games', '1']))",
        ],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "TABLETOP_LOG_FILE": "", "HOME": str(isolated_env)},
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "a bug" not in done.stderr
    assert f"lacks {module}, which it needs" in done.stderr
    assert f"tabletop install {module}" in done.stderr


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
    assert not list(isolated_env.glob("games-cache*"))
    code, _, err = cli("uninstall", "-y", "pig", "tabletop-council")
    assert code == 0, err
    assert ran == [["uninstall", "--yes", "tabletop-pig", "tabletop-council"]]


def test_hints_for_extras_name_tabletop_install() -> None:
    """`tabletop web` said pip install 'tabletop-app[web]' (and the same for postgres,
    ray and openspiel): under pipx or uv tool that pip is another environment's."""
    root = Path(__file__).resolve().parents[1]
    offenders = [
        f"{path.relative_to(root)}:{number}"
        for folder in ("apps", "adapters", "framework")
        for path in sorted((root / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
        if "pip install 'tabletop-app[" in line or 'pip install "tabletop-app[' in line
    ]
    assert offenders == []
    hint = install.install_arguments(["tabletop-app[web]"])
    assert hint == ["install", "tabletop-app[web]"]  # what the hints tell users to run
