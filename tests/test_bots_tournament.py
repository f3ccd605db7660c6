"""``tabletop tournament``: seats rotated, win rates with Wilson intervals, game length
and decision time, failures counted with their seed, user errors in one line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fakesite import install_games
from sessions import CliRun

from tabletop.app.tournament import rotated, wilson


def test_wilson_interval_matches_the_formula_and_stays_in_bounds() -> None:
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)
    narrow, wide = wilson(90, 100), wilson(9, 10)
    assert narrow[1] - narrow[0] < wide[1] - wide[0]


def test_seats_rotate_one_seat_per_game() -> None:
    seats = ["mcts", "random", "rfop-greedy"]
    assert [rotated(seats, i) for i in range(4)] == [
        ["mcts", "random", "rfop-greedy"],
        ["random", "rfop-greedy", "mcts"],
        ["rfop-greedy", "mcts", "random"],
        ["mcts", "random", "rfop-greedy"],
    ]


def test_tournament_reports_rates_intervals_lengths_and_times(cli: CliRun) -> None:
    argv = ["tournament", "pig", "--games", "4", "--seed", "4", "--seats", "mcts-quick,random"]
    code, out, _ = cli(*argv, "--json")
    data = json.loads(out)
    assert code == 0 and data["completed"] == 4 and data["errors"] == 0
    bots = {bot["kind"]: bot for bot in data["bots"]}
    assert bots["mcts-quick"]["games"] == bots["random"]["games"] == 4
    assert bots["mcts-quick"]["wins"] + bots["random"]["wins"] == 4
    for bot in bots.values():
        low, high = bot["ci95"]
        assert 0 <= low <= bot["win_rate"] <= high <= 1
    assert bots["mcts-quick"]["decisions"] > 0 and bots["mcts-quick"]["mean_decision_seconds"] > 0
    assert data["mean_game_length"] > 2
    # rotated: each seat saw each kind twice, and the wins by seat add up
    by_seat = data["wins_by_seat"]
    assert sum(sum(seat.values()) for seat in by_seat) == 4
    _, again, _ = cli(*argv, "--json")
    assert {b["kind"]: b["wins"] for b in json.loads(again)["bots"]} == {
        kind: bot["wins"] for kind, bot in bots.items()
    }


#: Four games of Red Flag, the greedy bot against random play.
RED_FLAG = ("tournament", "red-flag-over-paris", "--games", "4", "--seats", "rfop-greedy,random")


def test_tournament_in_words(cli: CliRun) -> None:
    code, out, _ = cli(*RED_FLAG)
    assert code == 0
    assert "4/4 games completed" in out and "rotated" in out
    assert "rfop-greedy" in out and "95% CI" in out and "per decision" in out


def test_fixed_seats_measure_the_red_flag_solo_opponent(cli: CliRun) -> None:
    """The solo opponent's seat is never asked: its kind is a placeholder, and fixed
    seats keep the greedy bot on Versailles in every game."""
    code, out, _ = cli(*RED_FLAG, "--option", "solo=commune", "--fixed-seats", "--json")
    data = json.loads(out)
    assert code == 0 and data["rotated"] is False and data["completed"] == 4
    assert data["seat_names"] == ["Versailles", "Commune (solo opponent)"]
    by_seat = data["wins_by_seat"]
    assert by_seat[0]["random"] == 0 and by_seat[1]["rfop-greedy"] == 0
    bots = {bot["kind"]: bot for bot in data["bots"]}
    assert bots["random"]["decisions"] == 0  # the solo seat never had a decision


def test_tournament_counts_a_failing_game_with_its_seed(site: Path, cli: CliRun) -> None:
    """A game whose rules raise (an installed plugin's, toygames.Flaky) is counted with
    the seed that reproduces it, on one process and on two alike."""
    install_games(site, "flaky", "toygames:Flaky")
    argv = ["tournament", "flaky-pig", "--games", "2", "--seed", "1", "--seats", "random,random"]
    for workers in ("1", "2"):
        code, out, _ = cli(*argv, "--workers", workers, "--json")
        data = json.loads(out)
        assert code == 1 and data["errors"] == 2 and data["completed"] == 0
        assert [f["seed"] for f in data["failures"]] == [100003, 100004]
        assert "KeyError" in data["failures"][0]["error"]


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--games", "3", "--seats", "mcts,nobody"], "unknown bot kind 'nobody'"),
        (["--games", "0", "--seats", "random,random"], "--games must be 1 or more"),
        (["--games", "2", "--seats", "random"], "pig takes 2-6 players, not 1"),
        (["--games", "2", "--seats", "random,random", "--option", "target=7"], "target"),
    ],
)
def test_tournament_refuses_bad_input_in_one_line(
    cli: CliRun, argv: list[str], message: str
) -> None:
    code, out, err = cli("tournament", "pig", *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1


def test_tournament_help_names_its_defaults(cli: CliRun) -> None:
    code, out, _ = cli("tournament", "--help")
    assert code == 0
    assert "--fixed-seats" in out and "95% confidence" in out and "default: 100" in out
    assert "--workers" in out and "--ray" in out
    code, out, _ = cli("--help")
    assert code == 0 and "95% intervals" in out
