"""Sides and teams (issue 38): a game declares its sides, fixed by the seating or dealt
secretly as roles; ``Result`` names the winning side; ``simulate`` and ``tournament``
report win rates by side and by bot kind with 95% intervals and whole wins; the
search's reward counts a side's win as a win for each of its members."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import pytest
from sessions import CliRun
from toygames import OneDecision

from tabletop.adapters.bots import register_search_bots
from tabletop.adapters.bots.ismcts import Reward
from tabletop.app.simulate import Simulation
from tabletop.app.tournament import Tournament
from tabletop.framework import BotHints, GameInfo, Result, Sides
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.fuzz import fuzz
from tabletop.framework.game import check_sides, seat_sides
from tabletop.framework.hookspecs import hookimpl
from tabletop.framework.plugins import load_registry
from tabletop.framework.session import SessionStarter
from tabletop.framework.testing import new_engine
from tabletop.games.tic_tac_toe import MARK, TicTacToe

INFO = GameInfo("pairs", "Pairs", 4, 4)


class Pairs(OneDecision):
    """Four seats in two fixed sides, North (0, 2) and East (1, 3); one move, then the
    outcome the test gives."""

    def sides(self, players: int, options: Mapping[str, str]) -> Sides:
        return Sides.fixed("North", "East", "North", "East")


class Roles(OneDecision):
    """Sides dealt secretly: the result says who was which."""

    def sides(self, players: int, options: Mapping[str, str]) -> Sides:
        return Sides.dealt("Loyal", "Spy")


def _problem(game: OneDecision, result: Result) -> str | None:
    return check_sides(game, 4, {}, result)


def test_a_side_declaration_is_fixed_or_dealt() -> None:
    fixed = Sides.fixed("North", "East", "North", "East")
    assert fixed.names == ("North", "East") and fixed.seats == ("North", "East") * 2
    assert Sides.dealt("Loyal", "Spy").seats is None
    with pytest.raises(ValueError, match="distinct names"):
        Sides(("A", "A"))
    with pytest.raises(ValueError, match="not one of"):
        Sides(("A", "B"), ("A", "C"))


def test_a_side_win_names_exactly_its_seats() -> None:
    north = Pairs(INFO, ("go",), Result((0, 2), side="North"))
    assert _problem(north, north.outcome) is None
    assert "winners must be its seats (0, 2), not (0,)" in str(
        _problem(north, Result((0,), side="North"))
    )
    assert "name the side that won" in str(_problem(north, Result((1, 3))))
    assert "not one of ('North', 'East')" in str(_problem(north, Result((0, 2), side="South")))
    assert _problem(north, Result(())) is None  # a draw: no side, no winners
    plain = OneDecision(INFO, ("go",), Result((1,), side="North"))
    assert "declares none" in str(_problem(plain, plain.outcome))


def test_dealt_sides_are_told_by_the_result() -> None:
    roles = Roles(INFO, ("go",), Result((1, 3), side="Spy", seat_sides=("Loyal", "Spy") * 2))
    assert _problem(roles, roles.outcome) is None
    assert seat_sides(roles, 4, {}, roles.outcome) == ("Loyal", "Spy", "Loyal", "Spy")
    assert "must say each of the 4 seats' side" in str(_problem(roles, Result((1,), side="Spy")))


def test_the_fuzzer_fails_a_result_whose_winners_are_not_the_side() -> None:
    wrong = Pairs(INFO, ("go",), Result((0,), side="North"))
    report = fuzz(wrong, games=1, seed=1)
    assert report.errors == 1 and "winners must be its seats (0, 2)" in report.failures[0].reason
    assert fuzz(Pairs(INFO, ("go",), Result((1, 3), side="East")), games=2, seed=1).errors == 0


def test_tic_tac_toe_names_the_side_that_won() -> None:
    engine = new_engine(TicTacToe())
    for move, cell in enumerate((0, 3, 1, 4, 2)):
        engine.act(move % 2, MARK(cell))
    assert engine.result is not None and engine.result.side == "X"
    assert seat_sides(TicTacToe(), 2, {}, engine.result) == ("X", "O")


def test_the_search_counts_a_side_win_whole_for_each_member() -> None:
    reward = Reward(OneDecision(INFO, (), Result(())), BotHints())
    rewards, wins, _ = reward(Result((0, 2), side="North"), 4)
    assert wins == [1.0, 0.0, 1.0, 0.0] and rewards == wins
    # a tie between seats playing for themselves is still shared
    assert reward(Result((0, 2)), 4)[1] == [0.5, 0.0, 0.5, 0.0]


class _Plugin:
    @hookimpl
    def tabletop_register_games(self, register: Any) -> None:
        register(Pairs(INFO, ("go", "on"), Result((1, 3), side="East")))


def _sessions() -> SessionStarter:
    from tabletop.games import tic_tac_toe

    registry = load_registry(
        plugins=[("tic-tac-toe", tic_tac_toe), ("pairs", _Plugin())], use_entry_points=False
    )
    return SessionStarter(register_search_bots(registry), rng_factory, dice_factory)


def test_a_tournament_reports_each_side_and_each_kind_on_it_in_whole_games() -> None:
    report = Tournament(_sessions()).run(
        "pairs", games=4, seed=1, seats=["random", "mcts-quick", "random", "random"], options={}
    )
    data = report.to_json()
    sides = {side["side"]: side for side in data["sides"]}
    assert (sides["East"]["wins"], sides["East"]["games"]) == (4, 4)
    assert (sides["North"]["wins"], sides["North"]["games"]) == (0, 4)
    assert sides["East"]["ci95"][0] > 0.5 and sides["North"]["ci95"][1] < 0.5
    east = {kind["kind"]: kind for kind in sides["East"]["kinds"]}
    # mcts-quick sat in each seat once (rotated): twice on East, twice on North
    assert (east["mcts-quick"]["wins"], east["mcts-quick"]["games"]) == (2, 2)
    bots = {bot["kind"]: bot for bot in data["bots"]}
    assert (bots["mcts-quick"]["wins"], bots["mcts-quick"]["games"]) == (2, 4)
    assert (bots["random"]["wins"], bots["random"]["games"]) == (6, 12)  # whole wins
    assert all(isinstance(bot["wins"], int) for bot in data["bots"])
    lines = report.lines()
    assert "  side East won 4/4 = 100.0% (95% CI 51.0-100.0%)" in lines
    assert any(line.startswith("    mcts-quick as East won 2/2 = 100.0%") for line in lines)


def test_simulate_reports_each_side_with_its_interval() -> None:
    report = Simulation(_sessions()).run(
        "tic-tac-toe", games=6, seed=3, seats=["random", "random"], options={}
    )
    data = report.to_json()
    sides = {side["side"]: side for side in data["sides"]}
    assert set(sides) == {"X", "O"} and sides["X"]["games"] == sides["O"]["games"] == 6
    draws = 6 - sides["X"]["wins"] - sides["O"]["wins"]
    assert draws == data["outcomes"].get("nobody", 0)
    assert any(line.startswith("  side X won ") for line in report.score_lines())


def test_tabletop_tournament_of_a_two_sided_game_reports_sides_and_kinds(cli: CliRun) -> None:
    """The Done-when of issue 38, through the command: tic-tac-toe's two sides."""
    argv = ["tournament", "tic-tac-toe", "--games", "6", "--seed", "2", "--seats"]
    code, out, _ = cli(*argv, "mcts-quick,random")
    assert code == 0
    assert "  side X won " in out and "  side O won " in out
    assert "    mcts-quick as X won " in out and "    random as O won " in out
    assert ".333" not in out and ".5/" not in out  # whole wins only
    code, text, _ = cli(*argv, "mcts-quick,random", "--json")
    data = json.loads(text)
    assert [side["side"] for side in data["sides"]] == ["X", "O"]
