"""The tabletop command: games, simulate, replay, export, --version, --help; errors in
one line; its wiring comes from the container."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from dependency_injector import providers
from fakesite import install_games
from relhelp import read, write_signed
from sessions import CliRun

from tabletop.app.cli import main


def test_games_lists_the_example_game(cli: CliRun) -> None:
    code, out, _ = cli("games", "--json")
    data = json.loads(out)
    pig = next(g for g in data["games"] if g["id"] == "pig")
    assert code == 0
    assert pig["players"] == [2, 6] and pig["distribution"] == "tabletop-pig"
    assert pig["version"] == "1.1.0" and pig["title"] == "Pig"
    code, out, _ = cli("games")
    assert "Pig" in out and "2-6 players" in out


def test_simulate_is_complete_and_reproducible(cli: CliRun) -> None:
    code, out, _ = cli("simulate", "pig", "--games", "200", "--seed", "7", "--json")
    first = json.loads(out)
    assert code == 0
    assert first["completed"] == 200 and first["errors"] == 0 and first["games"] == 200
    assert first["actions"] > 200 and sum(first["outcomes"].values()) == 200
    for key in ("game", "games", "completed", "errors", "actions", "seconds", "outcomes", "digest"):
        assert key in first
    _, again, _ = cli("simulate", "pig", "--games", "200", "--seed", "7", "--json")
    assert json.loads(again)["digest"] == first["digest"]
    _, other, _ = cli("simulate", "pig", "--games", "200", "--seed", "8", "--json")
    assert json.loads(other)["digest"] != first["digest"]


def test_simulate_counts_errors_with_their_seed(cli: CliRun, site: Path) -> None:
    install_games(site, "flaky", "toygames:Flaky")
    code, out, _ = cli("simulate", "flaky-pig", "--games", "5", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 1 and data["errors"] == 5 and data["completed"] == 0
    assert data["failures"][0]["seed"] == 100003 and "KeyError" in data["failures"][0]["error"]


def test_saved_games_replay_and_verify(cli: CliRun, isolated_env: Path) -> None:
    saves = isolated_env / "sim"
    code, _, _ = cli(
        "simulate",
        "pig",
        "--games",
        "2",
        "--seed",
        "3",
        "--players",
        "3",
        "--save-dir",
        str(saves),
    )
    assert code == 0
    files = sorted(saves.glob("*.json"))
    assert len(files) == 2
    code, out, _ = cli("replay", str(files[0]), "--verify")
    assert code == 0 and "verified" in out
    code, out, _ = cli("replay", str(files[0]), "--to", "3")
    assert code == 0 and json.loads(out)["actions"] == 3
    code, out, _ = cli("export", str(files[0]))
    assert code == 0 and "Player 1: rolled" in out and "Result:" in out


def test_a_save_that_no_longer_replays_exits_1(cli: CliRun, isolated_env: Path) -> None:
    saves = isolated_env / "sim"
    cli("simulate", "pig", "--games", "1", "--seed", "3", "--save-dir", str(saves))
    [path] = list(saves.glob("*.json"))
    data = read(path)
    data["digest"] = "f" * 64  # as if the rules had changed since
    write_signed(path, data)  # a well-formed save: the checksum is mandatory
    code, _, err = cli("replay", str(path), "--verify")
    assert code == 1 and "does not match" in err


def test_corrupt_save_in_a_real_process(isolated_env: Path) -> None:
    bad = isolated_env / "bad.json"
    bad.write_text('{"format": "tabletop-game-record", "version": 1, "game"')
    done = subprocess.run(
        [sys.executable, "-m", "tabletop.app.cli", "replay", str(bad), "--verify"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.startswith("tabletop: error: bad.json: not valid JSON")
    assert "Traceback" not in done.stderr and done.stderr.count("\n") == 1


def test_headless_commands_do_not_import_textual(isolated_env: Path) -> None:
    code = (
        "import sys; from tabletop.app.cli import main; main(['simulate','pig','--games','1']);"
        "print('textual' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip().splitlines()[-1] == "False"


def test_version_names_the_app_and_the_framework(capsys: pytest.CaptureFixture[str]) -> None:
    from tabletop.app.cli import versions

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert out.startswith("tabletop (tabletop-app ") and "tabletop-framework " in out
    assert [name for name, _ in versions()] == ["tabletop-app", "tabletop-framework"]


def test_version_survives_missing_metadata(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from tabletop.app import cli

    monkeypatch.setattr(cli, "DISTRIBUTIONS", ("tabletop-app", "no-such-distribution-xyz"))
    with pytest.raises(SystemExit):
        main(["--version"])
    assert "no-such-distribution-xyz unknown" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("command", "says"),
    [
        ("games", ["List the installed games", "(default: a table)"]),
        ("simulate", ["Play GAME many times", "(default: 100)", "(default: 0)", "(default:"]),
        ("replay", ["Replay a save", "exit 0 on a match", "(default: replay only)"]),
        ("export", ["public game log", "(the default)", "--json"]),
        ("fuzz", ["random legal games", "(default: 100)", "(default: ./fuzz-failures)"]),
        ("play", ["Open the terminal UI", "(default: the user data directory)"]),
    ],
)
def test_every_command_says_what_it_does_and_its_defaults(
    capsys: pytest.CaptureFixture[str], command: str, says: list[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    out = " ".join(capsys.readouterr().out.split())  # argparse wraps lines
    assert done.value.code == 0
    for words in says:
        assert words in out, words


def test_python_dash_m_tabletop(isolated_env: Path) -> None:
    """``python -m tabletop`` runs the command, as installed (apps/tabletop/__main__.py
    joins the ``tabletop`` namespace package; see the app's pyproject)."""
    env = dict(os.environ)
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "--help"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("usage: tabletop")
    done = subprocess.run(
        [sys.executable, "-m", "tabletop", "frobnicate"], capture_output=True, text=True, env=env
    )
    assert done.returncode == 2 and "invalid choice" in done.stderr


def test_export_json_is_the_public_log(cli: CliRun, isolated_env: Path) -> None:
    saves = isolated_env / "sim"
    cli(
        "simulate",
        "pig",
        "--games",
        "1",
        "--seed",
        "4",
        "--save-dir",
        str(saves),
        "--option",
        "banks=secret",
    )
    [path] = list(saves.glob("*.json"))
    code, out, _ = cli("export", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "pig" and data["result"]
    assert data["replayed"] == data["total"] > 0
    texts = [event["text"] for event in data["events"]]
    assert texts and not any(text.startswith("you bank") for text in texts)  # private
    code, words, _ = cli("export", str(path))  # in words, the default
    assert code == 0 and words.startswith("# Pig, seed") and len(words.splitlines()) > len(texts)


def test_the_cli_and_the_ui_take_their_wiring_from_the_container(
    container: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memory_store import MemoryStore

    from tabletop.adapters.tui.presenting import NewGameSpec

    store = MemoryStore()
    container.save_store.override(providers.Object(store))
    app = container.tui(bot_delay=0.0)
    assert app.sessions.registry is container.registry()
    session = app.start_game(NewGameSpec("pig", 2, {}, ["human", "random"], seed=3))
    assert session is not None and session.save_id in store.records
    ran: list[Any] = []
    monkeypatch.setattr(type(app), "run", lambda self: ran.append(self))
    assert main(["play"], container=container) == 0 and ran
    logged = ran[0].store  # failed saves logged, around saves checked to load back
    assert logged.inner is container.checked_save_store() and logged.inner.inner is store
