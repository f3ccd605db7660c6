"""``simulate --save-dir`` and ``fuzz`` report the faults they promise to report.

A state that is not JSON data (a set) and a ``describe()`` that raises are faults in a
game's code: each run must end with its report (the failing seeds, exit 1) and never a
traceback, whether or not the failing game can be saved.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import CliRun
from dependency_injector import providers

from tabletop.app import cli as cli_module
from tabletop.framework import Action, Context, GameInfo, State, hookimpl
from tabletop.framework.plugins import load_registry
from tabletop.games.pig import Pig


class SetState(Pig):
    """Keeps a set in its state after the third action: not JSON."""

    info = GameInfo(
        id="set-pig",
        title="Set Pig",
        min_players=2,
        max_players=3,
        options=Pig.info.options,
        version="0.1",
    )

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        super().apply(state, seat, action, ctx)
        if state["turn"] >= 3:
            state["seen"] = {seat}


class BadDescribe(Pig):
    """A progress line that raises: every save of it fails."""

    info = GameInfo(
        id="bad-describe",
        title="Bad Describe",
        min_players=2,
        max_players=3,
        options=Pig.info.options,
        version="0.1",
    )

    def describe(self, state: State) -> str:
        raise RuntimeError("describe is broken")


@pytest.fixture
def with_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's container, with the two broken games installed."""
    plugin = type(sys)("broken_games")
    plugin.tabletop_register_games = hookimpl(  # type: ignore[attr-defined]
        lambda register: [register(SetState()), register(BadDescribe())]
    )
    registry = load_registry(plugins=[("broken", plugin)], use_entry_points=False)
    real = cli_module._container

    def container(console: bool = True) -> Any:
        built = real(console)
        built.registry.override(providers.Object(registry))
        return built

    monkeypatch.setattr(cli_module, "_container", container)


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
