"""Parallel batch runs: the same digest, outcomes and failures for any number of
workers, on local processes (and on a local Ray instance when Ray is installed)."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import time
from pathlib import Path
from typing import Any

import pytest
from sessions import CliRun

from tabletop.app import parallel
from tabletop.app.parallel import Where, chunks, run_chunks
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import resolve_options
from tabletop.framework.errors import TabletopError
from tabletop.framework.fuzz import fuzz
from tabletop.games.pig import Pig


def _squares(first: int, count: int) -> list[int]:
    """A picklable job for run_chunks: the squares of its game numbers."""
    return [index * index for index in range(first, first + count)]


@pytest.mark.parametrize("games", [0, 1, 7, 64, 301])
@pytest.mark.parametrize("parts", [1, 2, 3, 8])
def test_chunks_cover_every_game_once_in_order(games: int, parts: int) -> None:
    pieces = chunks(games, parts)
    covered = [index for first, count in pieces for index in range(first, first + count)]
    assert covered == list(range(games))
    assert all(count > 0 for _, count in pieces)
    assert all(count <= 3 for _, count in chunks(games, parts, most=3))


def test_run_chunks_puts_results_back_in_order_on_processes() -> None:
    seen: list[tuple[int, int]] = []
    parts = run_chunks(
        _squares, 23, Where(workers=2), progress=lambda done, total: seen.append((done, total))
    )
    assert [value for part in parts for value in part] == [i * i for i in range(23)]
    assert seen[-1] == (23, 23) and [done for done, _ in seen] == sorted(d for d, _ in seen)


def _own_root(first: int, count: int) -> list[bool]:
    """A job that says whether its process's composition root is one it built itself."""
    root = parallel._container()
    return [root != "inherited" and hasattr(root, "registry")] * count


def test_a_worker_builds_its_own_composition_root(monkeypatch: pytest.MonkeyPatch) -> None:
    """A forked worker starts with this process's memory: a composition root built here
    (for other settings, perhaps) must not be the one it plays with."""
    monkeypatch.setattr(parallel, "_CONTAINER", "inherited")
    parts = run_chunks(_own_root, 8, Where(workers=2))
    assert [own for part in parts for own in part] == [True] * 8


def test_bad_places_are_refused_before_any_work() -> None:
    with pytest.raises(TabletopError, match="--workers must be 1 or more"):
        run_chunks(_squares, 3, Where(workers=0))


@pytest.mark.skipif(importlib.util.find_spec("ray") is not None, reason="Ray is installed")
def test_ray_without_ray_says_how_to_install_it() -> None:
    with pytest.raises(TabletopError, match=r"tabletop install 'tabletop-app\[ray\]'"):
        Where(ray=parallel.LOCAL_RAY).check()


def test_simulate_gives_the_same_report_for_any_number_of_workers(container: Any) -> None:
    one = container.simulation().run(
        "pig", games=30, seed=4, seats=["random", "random", "random"], options={}
    )
    for workers in (2, 3):
        many = parallel.simulate(
            "pig",
            games=30,
            seed=4,
            seats=["random", "random", "random"],
            options=resolve_options(Pig(), {}),
            save_dir=None,
            where=Where(workers=workers),
        )
        assert many.digest == one.digest
        assert many.outcomes == one.outcomes
        assert (many.completed, many.errors, many.actions) == (30, 0, one.actions)
        assert many.game_digests == one.game_digests
        # every field of the report, a field added later included, but the time
        mine, theirs = dataclasses.asdict(many), dataclasses.asdict(one)
        for report in (mine, theirs):
            report.pop("seconds")
        assert mine == theirs


def test_fuzz_gives_the_same_failures_in_the_same_order_for_any_workers(
    container: Any,
) -> None:
    # 40 actions are too few for some games of Pig: those fail as "stuck", with a record
    one = fuzz(
        Pig(),
        games=12,
        seed=2,
        players=2,
        rng_factory=rng_factory,
        dice_factory=dice_factory,
        max_actions=40,
    )
    assert 0 < one.errors < 12
    saved: list[int] = []

    def keep(failure: Any) -> str:
        saved.append(failure.seed)
        return f"kept-{failure.seed}"

    many = parallel.fuzz(
        "pig",
        games=12,
        seed=2,
        players=2,
        options={},
        max_actions=40,
        roundtrip_every=None,
        where=Where(workers=2),
        on_failure=keep,
    )
    assert saved == [failure.seed for failure in one.failures]
    assert [f.save for f in many.failures] == [f"kept-{seed}" for seed in saved]

    def plain(report: Any) -> dict[str, Any]:
        data: dict[str, Any] = report.to_json()
        for key in ("seconds", "actions_per_second"):
            data.pop(key)
        for failure in data["failures"]:
            failure.pop("save")
        return data

    assert plain(many) == plain(one)


def _report(cli: CliRun, *argv: str, code: int = 0) -> dict[str, Any]:
    """The JSON report of ``tabletop *argv --json``, which must exit with ``code``."""
    done, out, err = cli(*argv, "--json")
    assert done == code, err
    report: dict[str, Any] = json.loads(out)
    return report


def test_the_cli_runs_simulate_on_workers(cli: CliRun) -> None:
    one, two = (
        _report(cli, "simulate", "pig", "--games", "20", "--workers", workers)
        for workers in ("1", "2")
    )
    assert one["digest"] == two["digest"] and one["outcomes"] == two["outcomes"]
    code, _, err = cli("simulate", "pig", "--workers", "0")
    assert code == 2 and "--workers must be 1 or more" in err


def _untimed(report: dict[str, Any]) -> dict[str, Any]:
    """A tournament report without what depends on the machine: the times."""
    data = dict(report)
    for key in ("seconds", "actions_per_second"):
        data.pop(key)
    data["bots"] = [
        {k: v for k, v in bot.items() if not k.endswith("decision_seconds")}
        for bot in report["bots"]
    ]
    return data


TOURNAMENT = ["tournament", "pig", "--games", "6", "--seed", "4"]


@pytest.mark.slow
@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed")
def test_ray_gives_the_same_results_as_one_process(cli: CliRun) -> None:
    """Starts a local Ray instance (the test's own, once for both commands), plays a
    simulation and a tournament on it, shuts it down."""
    import ray

    simulate = ["simulate", "pig", "--games", "20"]
    tournament = [*TOURNAMENT, "--seats", "mcts-quick,random"]
    here, tournament_here = _report(cli, *simulate), _report(cli, *tournament)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    try:
        on_ray = _report(cli, *simulate, "--ray")
        tournament_on_ray = _report(cli, *tournament, "--ray")
    finally:
        ray.shutdown()
    assert on_ray["digest"] == here["digest"] and on_ray["outcomes"] == here["outcomes"]
    assert _untimed(tournament_on_ray) == _untimed(tournament_here)


def test_a_tournament_gives_the_same_report_for_any_number_of_workers(container: Any) -> None:
    """Wins, wins by seat, games and decisions per kind, lengths: all but the times.
    Seven games in chunks of one (two workers): every chunk starts a rotation anew."""
    seats = ["mcts-quick", "random", "random"]
    one = container.tournament().run("pig", games=7, seed=5, seats=seats, options={})
    many = parallel.tournament(
        "pig",
        games=7,
        seed=5,
        seats=seats,
        options=resolve_options(Pig(), {}),
        rotate=True,
        where=Where(workers=2),
    )
    assert one.completed == 7 and one.bots["mcts-quick"].decisions > 0
    assert _untimed(many.to_json()) == _untimed(one.to_json())


def test_the_cli_runs_a_tournament_on_workers(cli: CliRun) -> None:
    one, two = (
        _report(cli, *TOURNAMENT, "--seats", "random,random", "--fixed-seats", "--workers", k)
        for k in ("1", "2")
    )
    assert one["rotated"] is False and one["completed"] == 6
    assert _untimed(two) == _untimed(one)


def test_the_cli_fuzzes_on_workers_and_saves_failures_in_game_order(
    isolated_env: Path, cli: CliRun
) -> None:
    saves = isolated_env / "fuzz"
    args = ["fuzz", "pig", "--games", "8", "--players", "2", "--max-actions", "30"]
    one, two = (  # exit 1: some games are stuck at 30 actions
        _report(cli, *args, "--workers", workers, "--save-dir", str(saves / where), code=1)
        for workers, where in (("1", "one"), ("2", "two"))
    )
    assert [f["seed"] for f in two["failures"]] == [f["seed"] for f in one["failures"]]
    assert [f["reason"] for f in two["failures"]] == [f["reason"] for f in one["failures"]]
    saved = sorted(path.name for path in (saves / "two").iterdir())
    assert saved == sorted(path.name for path in (saves / "one").iterdir())
    assert len(saved) == one["errors"] > 0


def test_the_cli_saves_simulated_games_from_every_worker(isolated_env: Path, cli: CliRun) -> None:
    saves = isolated_env / "games"
    code, out, _ = cli(
        "simulate", "pig", "--games", "6", "--workers", "2", "--save-dir", str(saves)
    )
    assert code == 0 and "6/6 completed" in out
    assert len(list(saves.glob("*.json"))) == 6


def _fails_after_4(first: int, count: int) -> list[int]:
    """A job that raises from game 4 on (a worker's own error, not a game's)."""
    if first >= 4:
        raise TabletopError(f"no game at {first}")
    return list(range(first, first + count))


@pytest.mark.parametrize("attempt", range(3))
def test_a_jobs_error_is_raised_here_and_no_worker_is_left(
    capfd: pytest.CaptureFixture[str], attempt: int
) -> None:
    """The workers still running are stopped (SIGTERM), quietly even while starting."""
    import multiprocessing

    with pytest.raises(TabletopError, match="no game at"):
        run_chunks(_fails_after_4, 40, Where(workers=2))
    assert multiprocessing.active_children() == []
    assert "Traceback" not in capfd.readouterr().err


def test_merging_ten_thousand_chunks_takes_under_a_second() -> None:
    """A big run's report is its chunks added in order: linear in the games, so the
    end of a run costs no more than its parts (issue 39: the digest made again at every
    chunk took 258 s for 8,000 chunks). 10,000 chunks of 50 games: 500,000 games."""
    from tabletop.app.simulate import SimulationReport, games_digest

    parts = []
    for chunk in range(10_000):
        part = SimulationReport("pig", 50, 7, completed=50, actions=500)
        part.game_digests = [f"{chunk:032x}{game:032x}" for game in range(50)]
        part.outcomes = {"seat 1": 30, "seat 2": 20}
        parts.append(part)
    merged = SimulationReport("pig", 500_000, 7)
    started = time.perf_counter()
    for part in parts:
        merged.add(part)
        assert time.perf_counter() - started < 1.0, "the merge is not linear"
    merged.seal()
    assert time.perf_counter() - started < 1.0
    assert (merged.completed, merged.actions) == (500_000, 5_000_000)
    assert merged.outcomes == {"seat 1": 300_000, "seat 2": 200_000}
    everything = [digest for part in parts for digest in part.game_digests]
    assert merged.digest == games_digest(everything, 7)
