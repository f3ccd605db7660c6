"""``tabletop install`` and ``uninstall`` under ``uv tool install`` and pipx (issue 39).

Why: both tool managers make the app's environment without pip when uv does the work
(``uv tool install``; pipx 1.18's default backend once uv is around), and there
``tabletop install <game>`` answered "has no pip". These tests build the wheels of the
framework, the app and Pig offline (no build isolation, no index), install the app
from them with each tool manager into a scratch home, then install and uninstall Pig
with the app's own commands and check that a library the app needs is refused.

What needs the outside world: the app's third-party dependencies (Textual and the
rest) come from the package index, through each tool's own cache. A tool manager that
is not installed, or an index that cannot be reached, skips its test and says so.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.slow


def _index_reachable() -> bool:
    try:
        with socket.create_connection(("pypi.org", 443), timeout=5):
            return True
    except OSError:
        return False


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The wheels of the framework, the app and Pig, built offline from the checkout."""
    out = tmp_path_factory.mktemp("wheelhouse")
    for project in (ROOT / "framework", ROOT, ROOT / "plugins" / "pig"):
        source = tmp_path_factory.mktemp("src")
        # A copy without build/ and egg-info, so the checkout is left as it is.
        shutil.copytree(
            project,
            source / project.name,
            ignore=shutil.ignore_patterns(
                "build", "*.egg-info", "__pycache__", ".venv", "tests", "plugins", ".git"
            ),
        )
        built = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "wheel",
                "-q",
                "--no-deps",
                "--no-build-isolation",
                "--no-index",
                "-w",
                str(out),
                str(source / project.name),
            ],
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert built.returncode == 0, built.stderr
    return out


def _wheel(wheels: Path, prefix: str) -> Path:
    (found,) = wheels.glob(f"{prefix}-*.whl")
    return found


@dataclass
class Tool:
    """The app as a tool manager installed it: its ``tabletop`` and environment."""

    bin: Path
    env: dict[str, str]

    def tabletop(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        """The app's command, with no uv on the PATH: it must do with its own pip."""
        return subprocess.run(
            [str(self.bin / "tabletop"), *map(str, args)],
            capture_output=True,
            text=True,
            env={**self.env, "PATH": f"{self.bin}:/usr/bin:/bin"},
            timeout=300,
            stdin=subprocess.DEVNULL,
        )

    def games(self) -> set[str]:
        done = self.tabletop("games", "--json")
        assert done.returncode == 0, done.stderr
        return {game["id"] for game in json.loads(done.stdout)["games"]}


def _scratch_env(home: Path) -> dict[str, str]:
    """The environment of a user whose home is ``home``: nothing of this checkout."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PIP_", "TABLETOP_", "VIRTUAL_ENV", "PYTHON", "PIPX_", "UV_"))
    }
    env.update(
        HOME=str(home),
        TABLETOP_SAVE_DIR=str(home / "saves"),
        TABLETOP_LOG_FILE=str(home / "tabletop.jsonl"),
        TABLETOP_CACHE_DIR=str(home / "cache"),
        UV_PYTHON_DOWNLOADS="never",  # the interpreter running the tests, never a download
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        PATH=f"{home / 'bin'}:{Path(sys.executable).parent}:{os.environ.get('PATH', '')}",
    )
    # The tools' caches stay where they are, so a second run needs no download.
    for name, default in (("UV_CACHE_DIR", "uv"), ("XDG_CACHE_HOME", "")):
        if name in os.environ:
            env[name] = os.environ[name]
        elif default:
            env[name] = str(Path.home() / ".cache" / default)
    return env


def _install_and_uninstall_a_game(tool: Tool, wheels: Path) -> None:
    """The check every tool manager must pass: a game comes and goes with the app's
    own commands, and a library the app needs is refused."""
    assert "pig" not in tool.games()
    done = tool.tabletop("install", "--no-index", "-f", wheels, _wheel(wheels, "tabletop_pig"))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "has no pip" not in done.stderr
    assert "pig" in tool.games()

    done = tool.tabletop("uninstall", "-y", "platformdirs")
    assert done.returncode == 2 and "a library Tabletop needs" in done.stderr
    done = tool.tabletop("uninstall", "pig")  # no terminal to confirm on
    assert done.returncode == 2 and "--yes" in done.stderr
    assert "pig" in tool.games()

    done = tool.tabletop("uninstall", "-y", "pig")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "pig" not in tool.games()
    assert tool.tabletop("-V").returncode == 0  # the app is still whole


def _needs(command: str) -> str:
    found = shutil.which(command, path=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    if found is None:
        pytest.skip(f"{command} is not installed here: the {command} test did not run")
    if not _index_reachable():
        pytest.skip(f"the package index is out of reach: the {command} test did not run")
    return found


def test_under_uv_tool_install(tmp_path: Path, wheels: Path) -> None:
    uv = _needs("uv")
    env = _scratch_env(tmp_path)
    env.update(UV_TOOL_DIR=str(tmp_path / "tools"), UV_TOOL_BIN_DIR=str(tmp_path / "bin"))
    done = subprocess.run(
        [
            uv,
            "tool",
            "install",
            "--python",
            sys.executable,
            "--find-links",
            str(wheels),
            str(_wheel(wheels, "tabletop_app")),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    _install_and_uninstall_a_game(Tool(tmp_path / "bin", env), wheels)


@pytest.mark.parametrize("backend", ["uv", "pip"])
def test_under_pipx(tmp_path: Path, wheels: Path, backend: str) -> None:
    pipx = _needs("pipx")
    if backend == "uv":
        _needs("uv")
    env = _scratch_env(tmp_path)
    env.update(PIPX_HOME=str(tmp_path / "pipx"), PIPX_BIN_DIR=str(tmp_path / "bin"))
    done = subprocess.run(
        [
            pipx,
            "install",
            "--backend",
            backend,
            "--python",
            sys.executable,
            "--pip-args",
            f"--find-links {wheels}",
            str(_wheel(wheels, "tabletop_app")),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    _install_and_uninstall_a_game(Tool(tmp_path / "bin", env), wheels)
