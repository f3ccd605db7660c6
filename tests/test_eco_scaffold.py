"""``tabletop new-game`` (issue 23): a plugin that installs, tests, simulates and fuzzes
with no edit; bad names and existing folders refused with nothing written."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from eco_support import make_venv
from sessions import CliRun

from tabletop.app import scaffold


def test_new_game_writes_a_complete_plugin(cli: CliRun, tmp_path: Path) -> None:
    code, out, err = cli("new-game", "river-race", "--dir", str(tmp_path))
    folder = tmp_path / "river-race"
    assert code == 0 and err == ""
    assert f"Created {folder}" in out and "tabletop simulate river-race" in out
    package = folder / "src/tabletop/games/river_race"
    written = sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file())
    assert written == [
        "README.md",
        "pyproject.toml",
        "src/tabletop/games/river_race/__init__.py",
        "src/tabletop/games/river_race/py.typed",
        "tests/test_conformance.py",
        "tests/test_rules.py",
    ]
    assert not (folder / "src/tabletop/__init__.py").exists()  # namespace packages
    pyproject = (folder / "pyproject.toml").read_text()
    assert 'name = "tabletop-river-race"' in pyproject
    assert 'river-race = "tabletop.games.river_race"' in pyproject
    source = (package / "__init__.py").read_text()
    assert "class RiverRace(GameDefinition)" in source and 'id="river-race"' in source
    assert "__" + "MODULE__" not in "".join(p.read_text() for p in folder.rglob("*.*"))


def test_the_new_game_plays_under_the_framework(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Loaded straight from its folder: its rules and the conformance kit's checks."""
    import importlib.util

    from tabletop.framework.fuzz import fuzz

    folder = scaffold.create("quick-race", tmp_path, title="Quick Race")
    init = folder / "src/tabletop/games/quick_race/__init__.py"
    spec = importlib.util.spec_from_file_location("tabletop.games.quick_race", init)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)  # its rules.md is found by name
    spec.loader.exec_module(module)
    game = module.QuickRace()
    assert game.info.title == "Quick Race"
    assert "## §2 A turn" in game.rules_summary()
    report = fuzz(
        game,
        games=20,
        seed=1,
    )
    assert report.errors == 0, report.failures[:1]


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("Bad_Name", "is not a game id"),
        ("1st", "is not a game id"),
        ("two--dashes", "is not a game id"),
        ("x" * 41, "is not a game id"),
        ("class", "is a Python keyword"),
    ],
)
def test_bad_names_are_refused_with_nothing_written(
    cli: CliRun, tmp_path: Path, name: str, message: str
) -> None:
    code, out, err = cli("new-game", name, "--dir", str(tmp_path))
    assert code == 2 and out == "" and message in err
    assert list(tmp_path.iterdir()) == []


def test_an_existing_folder_is_never_written_into(cli: CliRun, tmp_path: Path) -> None:
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "keep.txt").write_text("mine")
    code, _, err = cli("new-game", "mine", "--dir", str(tmp_path))
    assert code == 2 and "already exists: nothing was written" in err
    assert [p.name for p in (tmp_path / "mine").iterdir()] == ["keep.txt"]


def test_the_id_of_an_installed_game_is_refused(cli: CliRun, tmp_path: Path) -> None:
    code, out, err = cli("new-game", "pig", "--dir", str(tmp_path))
    assert code == 2 and out == ""
    assert "tabletop-pig is already installed (1.1.0): choose another id" in err
    assert list(tmp_path.iterdir()) == []


def test_a_title_with_quotes_is_refused(cli: CliRun, tmp_path: Path) -> None:
    code, _, err = cli("new-game", "ok", "--dir", str(tmp_path), "--title", 'A "B"')
    assert code == 2 and "one line without quotes" in err
    assert not (tmp_path / "ok").exists()


@pytest.mark.parametrize("title", ["Car\rriage", "a\x1b[31mred", "tab\there", "nul\x00"])
def test_a_title_with_control_characters_is_refused(
    cli: CliRun, tmp_path: Path, title: str
) -> None:
    """A carriage return or an escape sequence made a pyproject.toml that does not parse
    and a game module with a SyntaxError, with exit 0 (issue 39, D8)."""
    code, out, err = cli("new-game", "cr-game", "--dir", str(tmp_path), "--title", title)
    assert (code, out) == (2, "") and "control characters" in err
    assert list(tmp_path.iterdir()) == []


def test_a_failed_write_leaves_no_half_plugin(
    cli: CliRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk left README.md, pyproject.toml and a truncated module behind, and the
    next try was refused as 'already exists' (issue 39, D8)."""
    real = Path.write_text
    written: list[str] = []

    def full_disk(path: Path, text: str, *args: object, **kwargs: object) -> int:
        if written:
            raise OSError(28, "No space left on device")
        written.append(str(path))
        return real(path, text, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "write_text", full_disk)
    code, out, err = cli("new-game", "partial", "--dir", str(tmp_path))
    assert (code, out) == (2, "")
    assert "No space left on device; nothing was written" in err
    assert written and list(tmp_path.iterdir()) == []
    monkeypatch.setattr(Path, "write_text", real)
    code, out, err = cli("new-game", "partial", "--dir", str(tmp_path))
    assert code == 0 and (tmp_path / "partial" / "pyproject.toml").is_file(), err


def test_the_new_plugin_asks_for_the_frameworks_minor_version(tmp_path: Path) -> None:
    from importlib import metadata

    major, minor = metadata.version("tabletop-framework").split(".")[:2]
    bounds = f">={major}.{minor},<{major}.{int(minor) + 1}"
    folder = scaffold.create("bounded", tmp_path)
    pyproject = (folder / "pyproject.toml").read_text()
    assert f'dependencies = ["tabletop-framework{bounds}"]' in pyproject
    assert scaffold.framework_requirement("1.4.2") == ">=1.4,<2"


def test_next_steps_install_into_the_apps_environment(tmp_path: Path) -> None:
    """Under pipx, `pip install -e` put the game where the app never looks (issue 39):
    the first step is tabletop install, and pip appears only for the tests."""
    steps = scaffold.next_steps(tmp_path / "my-game", "my-game").splitlines()
    assert steps[2].strip().startswith("tabletop install -e ")
    assert not any(line.strip().startswith("pip install") and "or:" in line for line in steps)


@pytest.mark.slow
def test_install_editable_then_pytest_simulate_and_fuzz_pass_unchanged(tmp_path: Path) -> None:
    """The issue's promise, offline: new-game, pip install -e, pytest, simulate, fuzz."""
    venv = make_venv(tmp_path / "venv", tmp_path)
    made = venv.tabletop("new-game", "demo", "--dir", tmp_path)
    assert made.returncode == 0, made.stderr
    folder = tmp_path / "demo"
    done = venv.run("-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "-e", folder)
    assert done.returncode == 0, done.stderr
    tests = venv.run("-m", "pytest", folder, "-o", "addopts=", "-q", "-p", "no:cacheprovider")
    assert tests.returncode == 0, tests.stdout[-2000:]
    assert " passed" in tests.stdout and "failed" not in tests.stdout
    sim = venv.tabletop("simulate", "demo", "--games", "30", "--seed", "1", "--json")
    assert sim.returncode == 0, sim.stderr
    assert json.loads(sim.stdout)["completed"] == 30
    fz = venv.tabletop("fuzz", "demo", "--games", "10", "--seed", "1", "--save-dir", tmp_path)
    assert fz.returncode == 0, fz.stdout + fz.stderr
    # And it type-checks strictly as generated (the framework found beside it).
    framework = Path(__file__).parents[1] / "framework"
    typed = subprocess.run(
        [str(Path(venv.python).parent / "python"), "-m", "mypy", "--cache-dir", tmp_path / "m"],
        cwd=folder,
        capture_output=True,
        text=True,
        env={**venv.env, "MYPYPATH": str(framework)},
        timeout=300,
    )
    assert typed.returncode == 0, typed.stdout
