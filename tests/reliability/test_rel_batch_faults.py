"""``simulate --save-dir`` and ``fuzz`` report the faults they promise to report.

A state that is not JSON data (a set) and a ``describe()`` that raises are faults in a
game's code: each run must end with its report (the failing seeds, exit 1) and never a
traceback, whether or not the failing game can be saved.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fakesite import install_games
from sessions import CliRun

#: Each broken game (installed by ``with_games``) and what its failures must name.
PROBLEMS = {"set-pig": "not JSON serializable", "bad-describe": "describe is broken"}


@pytest.fixture
def with_games(site: Path) -> None:
    """The two broken games (toygames.SetState, toygames.BadDescribe), installed as a
    plugin is: the command finds them through their entry point."""
    install_games(site, "broken-games", "toygames:SetState", "toygames:BadDescribe")


def _failing_run(cli: CliRun, command: str, game: str, saves: Path) -> dict[str, Any]:
    """``command`` over three games of ``game``, every one failing: its JSON report, after
    checking what both commands promise (exit 1, no traceback, each failing game listed,
    no half-made save written)."""
    code, out, err = cli(command, game, "--games", "3", "--save-dir", str(saves), "--json")
    assert code == 1 and "Traceback" not in err, err
    data: dict[str, Any] = json.loads(out)
    assert data["errors"] == len(data["failures"]) == 3
    assert not list(saves.glob("*.json")), "no half-made save may be written"
    return data


@pytest.mark.parametrize("game", PROBLEMS)
def test_simulate_with_save_dir_reports_unsavable_games(
    cli: CliRun, with_games: None, tmp_path: Path, game: str
) -> None:
    data = _failing_run(cli, "simulate", game, tmp_path / "sim")
    assert data["unsaved"] == 3
    assert all(PROBLEMS[game] in json.dumps(f) for f in data["failures"])


@pytest.mark.parametrize("game", PROBLEMS)
def test_fuzz_reports_non_json_states_and_raising_describe(
    cli: CliRun, with_games: None, tmp_path: Path, game: str
) -> None:
    data = _failing_run(cli, "fuzz", game, tmp_path / "fz")
    failures = data["failures"]
    assert all(PROBLEMS[game] in f["reason"] and "not saved" in f["reason"] for f in failures)
    assert all(f["save"] == "" for f in failures)


def test_games_not_saved_for_one_reason_are_one_line(
    cli: CliRun, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save folder made read-only in the middle of a run printed one line per game:
    2,693 of them for 3,000 games (issue 39, D11). The JSON keeps every failure."""
    from tabletop.adapters.saves import JsonSaveStore
    from tabletop.framework.errors import SaveError

    real = JsonSaveStore.save

    def read_only_after_two(store: JsonSaveStore, record: Any, save_id: str | None = None) -> str:
        if len(list(store.directory.glob("*.json"))) >= 2:
            raise SaveError(f"cannot write save {save_id}: Permission denied")
        return real(store, record, save_id)

    monkeypatch.setattr(JsonSaveStore, "save", read_only_after_two)
    saves = tmp_path / "sim"
    code, out, err = cli("simulate", "pig", "--games", "40", "--save-dir", str(saves))
    assert code == 1, err
    assert "40/40 completed, 38 errors" in out
    lines = [line for line in out.splitlines() if "not saved" in line]
    assert len(lines) == 1, out
    assert lines[0].startswith("  38 games not saved: SaveError: cannot write save pig-")
    assert lines[0].endswith("-seed…: Permission denied (first seed 2)")
    code, out, _ = cli("simulate", "pig", "--games", "40", "--save-dir", str(saves), "--json")
    assert len(json.loads(out)["failures"]) == 40  # two saves there now: every write fails
