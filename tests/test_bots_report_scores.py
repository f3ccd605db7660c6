"""``simulate`` and ``tournament`` report mean scores with 95% intervals, and a
cooperative game's result as the team's (issue 27): a shared win counts whole for the
team, never 1/k for each seat, and the words say "the team"."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hanabi import FirstChoiceBot, HanabiHints, MiniHanabi
from sessions import CliRun
from toygames import OneDecision, renamed

from tabletop.adapters.bots import register_search_bots
from tabletop.app.simulate import Simulation, SimulationReport
from tabletop.app.tournament import Tournament, mean_interval
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.game import GameInfo, Result
from tabletop.framework.hookspecs import BotHintsRegistrar, hookimpl
from tabletop.framework.plugins import GameRegistry, load_registry
from tabletop.framework.session import SessionStarter
from tabletop.games import pig

#: One move, then both seats win together: a competitive game's shared win, and the
#: same as a cooperative game, where the team wins.
SHARED = OneDecision(GameInfo("shared", "Shared", 2, 2), ("go", "on"), Result((0, 1), (3.0, 3.0)))
TOGETHER = OneDecision(
    renamed(SHARED.info, "together", "Together", cooperative=True), SHARED.actions, SHARED.outcome
)


class _Plugin:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(MiniHanabi())
        register(SHARED)
        register(TOGETHER)

    @hookimpl
    def tabletop_register_bots(self, register: Any) -> None:
        register("first-choice", lambda game: FirstChoiceBot(), "mini-hanabi")

    @hookimpl
    def tabletop_register_bot_hints(self, register: BotHintsRegistrar) -> None:
        register("mini-hanabi", HanabiHints())


def _sessions() -> SessionStarter:
    registry: GameRegistry = load_registry(
        plugins=[("pig", pig), ("hanabi", _Plugin())], use_entry_points=False
    )
    return SessionStarter(register_search_bots(registry), rng_factory, dice_factory)


def test_the_interval_of_a_mean() -> None:
    values = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]
    low, high = mean_interval(len(values), sum(values), sum(v * v for v in values))
    spread = 1.959964 * math.sqrt(32 / 7 / 8)  # the sample's deviation over sqrt(n)
    assert (low, high) == pytest.approx((5 - spread, 5 + spread))
    assert mean_interval(1, 3.0, 9.0) == (3.0, 3.0)
    assert mean_interval(0, 0.0, 0.0) == (0.0, 0.0)


def test_simulate_reports_each_seats_mean_score() -> None:
    report = Simulation(_sessions()).run(
        "pig", games=6, seed=2, seats=["random", "random"], options={}
    )
    data = report.to_json()
    scores = data["scores"]
    assert [seat["seat"] for seat in scores] == ["Player 1", "Player 2"]
    assert all(seat["games"] == 6 for seat in scores)
    low, high = scores[0]["ci95"]
    assert low <= scores[0]["mean"] <= high and low < high
    lines = report.score_lines()
    assert lines[0].startswith("  mean score of Player 1: ") and "95% CI" in lines[0]
    assert "team" not in data


def test_simulate_reports_a_cooperative_games_team() -> None:
    report = Simulation(_sessions()).run(
        "mini-hanabi", games=3, seed=1, seats=["first-choice", "first-choice"], options={}
    )
    data = report.to_json()
    assert data["team"]["wins"] == 0 and data["team"]["score"]["mean"] == 0.0
    assert data["team"]["score"]["games"] == 3  # one team score a game, not one a seat
    assert "scores" not in data
    assert data["outcomes"] == {"the team lost (a fuse too many)": 3}
    assert report.score_lines()[0].startswith("  the team (cooperative) won 0/3 = 0.0%")


def test_a_team_win_counts_whole_for_every_seat() -> None:
    report = SimulationReport("mini-hanabi", 2, 1, cooperative=True, seat_names=["A", "B"])
    report.completed = 2
    report.count_result(Result((0, 1), (9.0, 9.0)))
    report.count_result(Result((), (5.0, 5.0)))
    team = report.to_json()["team"]
    assert team["wins"] == 1 and team["score"]["mean"] == 7.0 and team["score"]["games"] == 2


def test_tournament_reports_the_team_and_mean_scores() -> None:
    report = Tournament(_sessions()).run(
        "mini-hanabi", games=2, seed=1, seats=["mcts-quick", "first-choice"], options={}
    )
    data = report.to_json()
    assert data["team"]["score"]["games"] == 2
    kinds = {bot["kind"]: bot for bot in data["bots"]}
    assert kinds["first-choice"]["score"] == kinds["mcts-quick"]["score"]  # the same teams
    lines = report.lines()
    assert lines[1].startswith("  the team (cooperative) won ")
    assert "team score" in lines[1]
    assert "in a team that won" in lines[2] and "team score" in lines[2]


def test_a_team_win_counts_whole_for_every_seat_in_a_tournament() -> None:
    """Two seats of one kind win together: the team's win is a win for each (2 of 2),
    and so is a competitive game's shared win (issue 38: no fractional shares; it was
    half a win each, 1 of 2)."""
    sessions = _sessions()
    rates = {}
    for game_id in ("together", "shared"):
        report = Tournament(sessions).run(
            game_id, games=1, seed=1, seats=["random", "random"], options={}
        )
        bot = report.to_json()["bots"][0]
        rates[game_id] = (bot["wins"], bot["games"])
    assert rates == {"together": (2, 2), "shared": (2, 2)}


def test_tournament_mean_scores_in_a_competitive_game() -> None:
    report = Tournament(_sessions()).run(
        "pig", games=4, seed=4, seats=["random", "random"], options={}
    )
    bot = report.to_json()["bots"][0]
    assert bot["score"]["games"] == 8  # two seats a game
    assert "team" not in report.to_json()
    assert "score" in report.lines()[1] and "team" not in "\n".join(report.lines())


def test_the_simulate_command_prints_the_mean_scores(cli: CliRun) -> None:
    code, out, _ = cli("simulate", "pig", "--games", "4", "--seed", "1", "--seats", "random,random")
    assert code == 0
    lines = [line for line in out.splitlines() if line.startswith("  mean score of ")]
    assert [line.split(":")[0] for line in lines] == [
        "  mean score of Player 1",
        "  mean score of Player 2",
    ]
    assert all("(95% CI " in line for line in lines)
