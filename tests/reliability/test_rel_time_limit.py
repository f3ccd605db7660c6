"""Game code that never returns, or kills its worker, ends as a reported failure.

``stuckgames.Stuck`` loops for ever in ``apply`` in some games: with the per-action
time limit (``--action-seconds``) each of ``simulate``, ``fuzz`` and ``tournament``
must report those games, with their seeds (and saves), and go on with the others, on
one process and on workers. A worker that dies (``stuckgames.WorkerKiller``) is named,
with the games it was playing, and the games before it are reported, not "a bug".
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from dependency_injector import providers
from fakesite import install_games
from sessions import CliRun
from stuckgames import SlowCounter

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework import hookimpl
from tabletop.framework.fuzz import ActionTimeout, Watchdog
from tabletop.framework.plugins import load_registry

#: Seed 3 of stuck-pig: 8 games, some of them stuck (see ``test_some_games_are_stuck``).
RUN = ["--games", "8", "--seed", "3", "--action-seconds", "0.2", "--json"]


@pytest.fixture
def stuck(site: Path) -> None:
    install_games(site, "stuck-games", "stuckgames:Stuck", "stuckgames:WorkerKiller")


def _run(cli: CliRun, *argv: str) -> tuple[int, dict[str, Any], str]:
    started = time.monotonic()
    code, out, err = cli(*argv)
    assert time.monotonic() - started < 20, "the time limit did not stop the game"
    assert "Traceback" not in err and "a bug" not in err, err
    return code, json.loads(out), err


def _run_saving(cli: CliRun, command: str, workers: str, saves: Path) -> tuple[int, dict[str, Any]]:
    """The stuck-pig run of ``command`` on ``workers``, saving its failed games."""
    code, data, _ = _run(
        cli, command, "stuck-pig", *RUN, "--workers", workers, "--save-dir", str(saves)
    )
    return code, data


@pytest.mark.parametrize("workers", ["1", "2"])
def test_simulate_reports_stuck_games_with_their_seeds_and_saves(
    cli: CliRun, stuck: None, tmp_path: Path, workers: str
) -> None:
    saves = tmp_path / "sim"
    code, data = _run_saving(cli, "simulate", workers, saves)
    assert code == 1 and 0 < data["errors"] < 8 and data["completed"] == 8 - data["errors"]
    assert all("more than 0.2 s" in failure["error"] for failure in data["failures"])
    store = JsonSaveStore(saves)
    for failure in data["failures"]:  # each stuck game is saved up to its stuck action
        (saved,) = saves.glob(f"*-seed{failure['seed']}.json")
        assert len(store.load(saved.stem).actions) == failure["actions"] > 0


def test_simulate_digest_is_the_same_for_any_workers_with_stuck_games(
    cli: CliRun, stuck: None
) -> None:
    one, two = (_run(cli, "simulate", "stuck-pig", *RUN, "--workers", k)[1] for k in "12")
    assert one["digest"] == two["digest"] and one["failures"] == two["failures"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_fuzz_reports_and_saves_stuck_games(
    cli: CliRun, stuck: None, tmp_path: Path, workers: str
) -> None:
    code, data = _run_saving(cli, "fuzz", workers, tmp_path / "fz")
    assert code == 1 and data["errors"] > 0
    assert all("ActionTimeout" in failure["reason"] for failure in data["failures"])
    assert all(Path(failure["save"]).is_file() for failure in data["failures"])


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_tournament_reports_stuck_games(cli: CliRun, stuck: None, workers: str) -> None:
    tournament = ["tournament", "stuck-pig", "--seats", "random,random"]
    code, data, _ = _run(cli, *tournament, *RUN, "--workers", workers)
    assert code == 1 and 0 < data["errors"] < 8
    assert all("more than 0.2 s" in failure["error"] for failure in data["failures"])


def test_a_dead_worker_is_named_with_its_games_and_a_partial_report(
    cli: CliRun, stuck: None
) -> None:
    code, data, err = _run(
        cli, "simulate", "worker-killer", "--games", "40", "--workers", "2", "--json"
    )
    assert code == 1 and data["partial"] is True and data["games_done"] == 0
    # every game kills its worker: whichever worker dies first names its own chunk
    assert re.search(r"a worker process was killed by SIGKILL while playing games \d+-\d+", err)
    assert "the report covers the first 0 games" in err


def test_the_watchdog_stops_a_loop_and_lets_beating_code_run() -> None:
    started = time.monotonic()
    with pytest.raises(ActionTimeout), Watchdog(0.2):
        while True:
            pass
    assert time.monotonic() - started < 1
    with Watchdog(0.2) as watchdog:  # an action every 0.1 s is never stopped
        for _ in range(5):
            watchdog.beat()
            time.sleep(0.1)
    time.sleep(0.3)  # and nothing fires after the block
    with Watchdog(0.2):
        with pytest.raises(ActionTimeout):
            while True:
                pass
        time.sleep(0.1)  # handling it (saving the stuck game) has a whole limit of its own


def test_a_bad_time_limit_is_refused(cli: CliRun) -> None:
    for bad in ("-1", "nan", "x"):
        code, _, err = cli("simulate", "pig", "--action-seconds", bad)
        assert code == 2 and "--action-seconds" in err


def test_the_limit_is_per_action_not_per_game(container: Any) -> None:
    """Eight counts of 0.06 s make a game of 0.5 s: with a limit of 0.2 s on one
    action, simulate and tournaments play it to the end."""

    class Plugin:
        @hookimpl
        def tabletop_register_games(self, register: Any) -> None:
            register(SlowCounter())

    registry = load_registry(plugins=[("slow", Plugin())], use_entry_points=False)
    container.registry.override(providers.Object(registry))
    settings: dict[str, Any] = {"games": 1, "seed": 1, "seats": ["random"], "options": {}}
    simulated = container.simulation().run("slow-counter", action_seconds=0.2, **settings)
    assert (simulated.completed, simulated.errors, simulated.actions) == (1, 0, 8)
    played = container.tournament().run("slow-counter", action_seconds=0.2, **settings)
    assert (played.completed, played.errors, played.actions) == (1, 0, 8)


# Round four (issue 39, D5): game code the time limit cannot interrupt ----------------

#: What the hard stop waits at the least (Watchdog.HARD_MINIMUM), and some slack.
HARD = 10.0


@pytest.fixture
def unstoppable(site: Path) -> Path:
    install_games(site, "unstoppable", "stuckgames:SwallowPig", "stuckgames:CLoopPig")
    return site


@pytest.mark.slow
@pytest.mark.parametrize("game", ["swallow-pig", "cloop-pig"])
def test_a_worker_stuck_past_the_time_limit_is_stopped_and_named(
    cli: CliRun, unstoppable: Path, game: str
) -> None:
    """Game code that catches BaseException, or loops inside C, hung a run on workers
    until it was killed: the worker now ends itself and the parent names it."""
    started = time.monotonic()
    code, out, err = cli(
        "simulate", game, "--games", "4", "--workers", "2", "--action-seconds", "0.2", "--json"
    )
    assert time.monotonic() - started < HARD + 20
    assert code == 1 and json.loads(out)["partial"] is True, err
    assert re.search(
        r"a worker process was stopped after 0:00:10 without a game action ending \(game "
        r"code that swallows the time limit, catching BaseException, or loops inside C\) "
        r"while playing games \d+-\d+",
        err,
    ), err


ONE_PROCESS = [sys.executable, "-m", "tabletop", "simulate"]


def _one_process(site: Path, game: str) -> subprocess.Popen[bytes]:
    """``simulate GAME`` on one process, in a process of its own (the hard stop ends
    the process it is in)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), *sys.path])}
    return subprocess.Popen(
        [*ONE_PROCESS, game, "--games", "4", "--action-seconds", "0.2", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


@pytest.mark.slow
@pytest.mark.parametrize("game", ["swallow-pig", "cloop-pig"])
def test_one_process_stuck_past_the_time_limit_ends_by_itself(
    isolated_env: Path, unstoppable: Path, game: str
) -> None:
    """It ignored SIGTERM and Ctrl+C and ran until SIGKILL: now it ends with status 1,
    saying where the game code was stuck."""
    started = time.monotonic()
    command = _one_process(unstoppable, game)
    try:
        _, err = command.communicate(timeout=HARD + 30)
    finally:
        command.kill()
    assert command.returncode == 1 and time.monotonic() - started > HARD - 1
    text = err.decode(errors="replace")
    assert text.startswith("Timeout (0:00:10)!") and "stuckgames.py" in text


def test_a_second_sigterm_ends_a_run_whose_game_swallows_the_first(
    isolated_env: Path, unstoppable: Path
) -> None:
    command = _one_process(unstoppable, "swallow-pig")
    try:
        time.sleep(3)  # started, and stuck in turn 3
        command.send_signal(signal.SIGTERM)  # swallowed by the game
        time.sleep(0.5)
        assert command.poll() is None
        command.send_signal(signal.SIGTERM)
        command.wait(timeout=5)
    finally:
        command.kill()
    assert command.returncode == -signal.SIGTERM
