"""Bad input to any command: one clear line on stderr, a non-zero exit, no traceback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from dependency_injector import providers
from sessions import CliRun


@pytest.fixture
def a_file(tmp_path: Path) -> Path:
    path = tmp_path / "plain.txt"
    path.write_text("not a directory")
    return path


#: Bad input to the batch commands, which share their arguments (the game's id first):
#: each is refused alike by ``fuzz`` and ``simulate``.
BATCH_ARGUMENTS = [
    ([], "the following arguments are required: game"),
    (["chess"], "no game 'chess' is installed (installed: "),
    (["pig", "--seed", "x"], "argument --seed: invalid int value: 'x'"),
    (["pig", "--seed", "1.5"], "invalid int value: '1.5'"),
    (["pig", "--games", "ten"], "argument --games: invalid int value"),
    (["pig", "--games", "-1"], "--games must be 0 or more"),
    (["pig", "--players", "9"], "pig takes 2-6 players, not 9"),
    (["pig", "--option", "target=7"], "option target='7' is not valid for pig"),
    (["pig", "--option", "colour=red"], "unknown option 'colour' for pig"),
    (["pig", "--option", "=x"], "not in the form key=value"),
    (["pig", "--option", "oops"], "not in the form key=value"),
    # Huge numbers are refused while parsing, before any allocation.
    (["pig", "--players", "99999999999999999999"], "argument --players"),
    (["pig", "--players", "100000000"], "out of range (at most 1,000"),
    (["pig", "--games", "1" + "0" * 4400], "argument --games"),
    (["pig", "--seed", "9" * 31], "argument --seed"),
]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([command, *argv], message)
        for command in ("fuzz", "simulate")
        for argv, message in BATCH_ARGUMENTS
    ]
    + [
        (["fuzz", "pig", "--max-actions", "0"], "--max-actions must be 1 or more"),
        (["fuzz", "pig", "--roundtrip-every", "-2"], "--roundtrip-every must be 0 or more"),
        (["simulate", "pig", "--seats", "random,,random"], "bad seat list"),
        (["simulate", "pig", "--seats", "random,human"], "unknown bot kind 'human'"),
        (["simulate", "pig", "--players", "3", "--seats", "random,random"], "--players 3"),
        (["simulate", "pig", "--seats", "random,wizard"], "unknown bot kind 'wizard'"),
        (["simulate", "pig", "--seats", "random"], "takes 2-6 players, not 1"),
        (["replay", "nonexistent-save-id"], "no such save file"),
        (["replay", "/nonexistent/save.json"], "no such save file"),
        (["replay", "x.json", "--to", "-" + "9" * 80], "argument --to"),
        (["export", "/nonexistent/dir/x.json"], "no such save file"),
        (["frobnicate"], "invalid choice: 'frobnicate'"),
    ],
)
def test_bad_arguments(cli: CliRun, argv: list[str], message: str) -> None:
    code, out, err = cli(*argv)
    assert code == 2, err
    assert message in err, err
    assert err.count("\n") == 1 and "Traceback" not in err and out == ""


def test_a_directory_given_as_a_save(cli: CliRun, tmp_path: Path) -> None:
    code, _, err = cli("replay", str(tmp_path))
    assert code == 2 and "is a directory, not a save file" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["fuzz", "simulate"])
def test_unusable_save_directories(cli: CliRun, a_file: Path, command: str) -> None:
    for target, message in ((a_file, "is not a directory"), (a_file / "sub", "cannot use")):
        code, _, err = cli(command, "pig", "--games", "1", "--save-dir", str(target))
        assert code == 2 and message in err and err.count("\n") == 1, err
    assert a_file.read_text() == "not a directory"


def test_replay_to_out_of_range(cli: CliRun, pig_save: Path) -> None:
    code, _, err = cli("replay", str(pig_save), "--to", "100000")
    assert code == 2 and "--to must be between 0 and" in err


def test_a_log_file_on_a_full_device_prints_no_traceback(
    cli: CliRun, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TABLETOP_LOG_FILE", "/dev/full")  # every write: ENOSPC
    code, out, err = cli("simulate", "pig", "--games", "2", "--seed", "1")
    assert code == 0 and "2/2 completed" in out
    assert err == "", err


def test_an_unexpected_error_is_one_line(cli: CliRun, container: Any) -> None:
    def exits() -> None:
        raise SystemExit("a plugin called sys.exit")

    container.registry.override(providers.Callable(exits))  # what the command asks first
    code, out, err = cli("simulate", "pig", container=container)
    assert code == 3 and out == "" and err.count("\n") == 1
    assert "unexpected SystemExit: a plugin called sys.exit" in err


def test_play_exits_non_zero_when_the_ui_died(cli: CliRun, container: Any) -> None:
    class DeadApp:
        return_code = 1  # what Textual sets when the app ended on an exception

        def run(self) -> None:
            pass

    container.tui.override(providers.Object(DeadApp()))
    code, _, err = cli("play", container=container)
    assert code == 3, err
    assert err == "", err
