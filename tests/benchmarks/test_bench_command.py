"""``tabletop bench``: its figures are consistent with what was played (counted from the
games themselves), its sections run, and a broken game is reported, not raised.

Speed is never asserted here (a shared CI machine is too noisy for that): these tests
check that the bench measures the right things; the figures are in docs/performance.md.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from tabletop.app.bench import bench_games, format_table
from tabletop.app.cli import main
from tabletop.framework import Action, Context, State


def test_bench_counts_the_actions_it_times(container: Any) -> None:
    sessions = container.simulation().sessions
    [pig] = bench_games(sessions, ["pig"], games=5, rounds=1)
    report = container.simulation().run("pig", games=5, seed=0, seats=["random"] * 2, options={})
    assert pig.error is None
    assert pig.actions == report.actions  # the same games as `simulate` plays
    assert pig.us_per_action > 0 and 0 < pig.rules_us_per_action < pig.us_per_action
    assert pig.framework_us_per_action == pytest.approx(pig.us_per_action - pig.rules_us_per_action)
    assert pig.save_bytes > 0 and pig.load_ms > 0
    assert format_table([pig])[1].startswith("pig ")


def test_a_game_that_fails_is_reported_and_the_others_still_measured(container: Any) -> None:
    from tabletop.games.pig import Pig

    sessions = container.simulation().sessions

    class Broken(Pig):
        def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
            raise RuntimeError("broken rules")

    from dataclasses import replace

    broken = replace(sessions.registry.games["pig"], definition=Broken())
    sessions.registry.games["broken-pig"] = broken
    try:
        results = bench_games(sessions, ["broken-pig", "tic-tac-toe"], games=3, rounds=1)
    finally:
        del sessions.registry.games["broken-pig"]
    assert results[0].error is not None and "broken rules" in results[0].error
    assert results[1].error is None and results[1].actions > 0


def test_the_bench_command_prints_json_with_start_up(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["bench", "pig", "--games", "3", "--rounds", "1", "--startup", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0
    assert [game["game"] for game in data["games"]] == ["pig"]
    assert data["startup"]["games_ms"] > 0 and data["startup"]["bare_ms"] > 0
    assert main(["bench", "chess"]) == 2


@pytest.mark.skipif(importlib.util.find_spec("pyspiel") is None, reason="needs open_spiel")
def test_side_by_side_times_both_sides_of_every_pair() -> None:
    from tabletop.app.bench_openspiel import bench_side_by_side, format_side_by_side

    results = bench_side_by_side(seconds=0.3)
    ttt = results["tic-tac-toe"]
    for key in ("tabletop_us", "openspiel_python_us", "openspiel_cpp_us"):
        assert ttt[key] > 0
    assert ttt["tabletop_vs_openspiel_cpp"] == pytest.approx(
        ttt["tabletop_us"] / ttt["openspiel_cpp_us"], rel=0.01
    )
    assert "pig" in results and any("tic-tac-toe" in line for line in format_side_by_side(results))


def test_the_ui_bench_plays_a_hot_seat_game_to_its_end(container: Any) -> None:
    from tabletop.app.bench_ui import bench_ui

    ui = bench_ui(container.simulation().sessions, "pig", seed=3, limit=12)
    assert ui.error is None, ui.error
    assert len(ui.presses) == 12 and ui.first_screen_ms > 0
    kinds = ui.summary()
    assert sum(int(row["count"]) for row in kinds.values()) == 12


def test_the_search_bench_counts_what_the_bot_did(container: Any) -> None:
    from tabletop.app.bench import bench_mcts, format_mcts

    sessions = container.simulation().sessions
    results = bench_mcts(sessions, ["tic-tac-toe"], kind="mcts-quick", decisions=2)
    row = results["tic-tac-toe"]
    assert row["decisions"] == 2 and row["iterations"] == 2 * 30  # mcts-quick: 30 each
    assert row["iterations_per_second"] > 0
    assert "tic-tac-toe" in format_mcts(results)[1]
    assert "error" in bench_mcts(sessions, ["pig"], kind="no-such-bot")


def test_the_bot_bench_times_every_decision_of_bot_games(container: Any) -> None:
    """The bot plays every seat at the game's least and most seats; each decision with
    more than one choice is timed and its simulated actions counted, a game stops at
    the decision cap, and a bot kind the game does not have is a reported failure."""
    from tabletop.app.bench import bench_bots, format_bots

    sessions = container.simulation().sessions
    timings = bench_bots(sessions, ["tic-tac-toe", "pig"], kind="mcts-quick", decisions=3)
    assert [(t.game, t.players) for t in timings] == [("tic-tac-toe", 2), ("pig", 2), ("pig", 6)]
    for timing in timings:
        assert timing.error is None and timing.games == 1
        assert timing.decisions == 3 == len(timing.cpu) == len(timing.actions)
        data = timing.to_json()
        assert min(timing.wall) > 0 and data["max_seconds"] == round(max(timing.wall), 4)
        assert data["mean_seconds"] <= data["p95_seconds"] <= data["max_seconds"]
        assert min(timing.actions) > 0 and data["max_actions"] == max(timing.actions)
    lines = format_bots(timings)
    assert len(lines) == 2 + 3 + 1 and "target" in lines[-1]
    [six] = bench_bots(sessions, ["pig"], kind="mcts-quick", players=[6, 9], games=2, decisions=2)
    assert six.players == 6 and six.games == 2 and six.decisions == 4
    [missing] = bench_bots(sessions, ["pig"], kind="rfop-greedy", players=[2])
    assert missing.error is not None and "no bot kind 'rfop-greedy'" in missing.error


def test_the_bench_names_the_load_it_ran_under(
    isolated_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["bench", "tic-tac-toe", "--games", "2", "--rounds", "1", "--json"]) == 0
    loads = json.loads(capsys.readouterr().out)["load_average"]
    assert len(loads["start"]) == len(loads["end"]) == 3
    assert main(["bench", "tic-tac-toe", "--games", "2", "--rounds", "1"]) == 0
    assert "load average (1, 5, 15 min): " in capsys.readouterr().out
    assert main(["bench", "pig", "--bots", "--bot-decisions", "0"]) == 2
    assert main(["bench", "pig", "--bots", "--bot-games", "0"]) == 2
    assert main(["bench", "pig", "--bots", "--bot-players", "two"]) == 2
    assert main(["bench", "pig", "--bots", "--bot-kind", "no-such-bot"]) == 2
