"""``simulate --save-dir`` and ``fuzz`` report the faults they promise to report.

A state that is not JSON data (a set) and a ``describe()`` that raises are faults in a
game's code: each run must end with its report (the failing seeds, exit 1) and never a
traceback, whether or not the failing game can be saved.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakesite import install_games
from sessions import CliRun


@pytest.fixture
def with_games(site: Path) -> None:
    """The two broken games (toygames.SetState, toygames.BadDescribe), installed as a
    plugin is: the command finds them through their entry point."""
    install_games(site, "broken-games", "toygames:SetState", "toygames:BadDescribe")


@pytest.mark.parametrize("game", ["set-pig", "bad-describe"])
def test_simulate_with_save_dir_reports_unsavable_games(
    cli: CliRun, with_games: None, tmp_path: Path, game: str
) -> None:
    saves = tmp_path / "sim"
    code, out, err = cli("simulate", game, "--games", "3", "--save-dir", str(saves), "--json")
    assert code == 1 and "Traceback" not in err, err
    data = json.loads(out)
    assert data["errors"] == 3 and data["unsaved"] == 3
    assert len(data["failures"]) == 3
    problem = "not JSON serializable" if game == "set-pig" else "describe is broken"
    assert all(problem in json.dumps(f) for f in data["failures"])
    assert not list(saves.glob("*.json")), "no half-made save may be written"


@pytest.mark.parametrize("game", ["set-pig", "bad-describe"])
def test_fuzz_reports_non_json_states_and_raising_describe(
    cli: CliRun, with_games: None, tmp_path: Path, game: str
) -> None:
    saves = tmp_path / "fz"
    code, out, err = cli("fuzz", game, "--games", "2", "--save-dir", str(saves), "--json")
    assert code == 1 and "Traceback" not in err, err
    data = json.loads(out)
    assert data["errors"] == 2 and len(data["failures"]) == 2
    problem = "not JSON" if game == "set-pig" else "describe is broken"
    assert all(problem in f["reason"] and "not saved" in f["reason"] for f in data["failures"])
    assert all(f["save"] == "" for f in data["failures"])
