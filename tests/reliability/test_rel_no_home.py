"""Without a home directory (HOME unset, no passwd entry: a service account, a
container), commands given paths work and the others say so in one line (issue 22,
finding 7). Before, every command exited 3 ("a bug") from platformdirs' RuntimeError.
"""

from __future__ import annotations

import json
import pwd
from pathlib import Path

import pytest
from sessions import CliRun

from tabletop.app.container import NO_HOME


@pytest.fixture
def no_home(isolated_env: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """HOME unset, no passwd entry for this user, and no TABLETOP_* paths."""

    def unknown(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.setattr(pwd, "getpwuid", unknown)
    monkeypatch.setenv("TABLETOP_SAVE_DIR", "")
    monkeypatch.setenv("TABLETOP_LOG_FILE", "")
    with pytest.raises(RuntimeError):  # as platformdirs finds it
        Path("~").expanduser()
    return isolated_env


def test_commands_given_paths_work_without_a_home(cli: CliRun, no_home: Path) -> None:
    code, out, err = cli("games")
    assert code == 0 and "pig" in out, err
    saves = no_home / "sim"
    code, out, err = cli("simulate", "pig", "--games", "3", "--save-dir", str(saves))
    assert code == 0 and "3/3 completed" in out, err
    (save,) = saves.glob("*seed0.json")
    code, out, err = cli("replay", str(save), "--verify")
    assert code == 0 and "verified" in out, err
    code, out, err = cli("fuzz", "pig", "--games", "2", "--save-dir", str(no_home / "fz"), "--json")
    assert code == 0 and json.loads(out)["completed"] == 2, err
    code, _, err = cli("replay", "no-such-save")
    assert code == 2 and "no such save file" in err


def test_a_command_that_needs_the_save_directory_says_why_in_one_line(
    cli: CliRun, no_home: Path
) -> None:
    code, out, err = cli("play")
    assert code == 2 and err.strip() == f"tabletop: error: {NO_HOME}" and out == ""


def test_paths_say_which_places_need_a_home(cli: CliRun, no_home: Path) -> None:
    """`paths` and `paths --json` ended as "a bug" (exit 3) without a home (issue 39, D9)."""
    code, out, err = cli("paths", "--json")
    assert code == 0, err
    found = json.loads(out)
    assert found["saves"] is None and found["log"] is None and found["server-db"] is None
    assert found["environment"]
    code, out, err = cli("paths")
    assert code == 0, err
    assert "saves        -  (no home directory: set TABLETOP_SAVE_DIR)" in out


def test_serve_without_a_home_asks_for_a_database_path(cli: CliRun, no_home: Path) -> None:
    code, out, err = cli("serve", "--port", "0")
    assert (code, out) == (2, "")
    assert err.strip() == (
        "tabletop: error: there is no home directory (HOME is unset and this user has no "
        "passwd entry) to keep the server's games in: give tabletop serve --db PATH"
    )


def test_replay_by_name_without_a_home_says_why(cli: CliRun, no_home: Path) -> None:
    code, out, err = cli("replay", "my-game")
    assert (code, out) == (2, "")
    assert "my-game: no such save file, and there is no home directory" in err
