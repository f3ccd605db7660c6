"""Fuzzing that reaches the end of long games: seats played by other bots than random,
a report of the rules, prompts and milestones reached, and milestones a game must reach
(issue 26, Hanabi finding 6)."""

from __future__ import annotations

import types
from typing import Any

import pytest
from dependency_injector import providers
from toygames import MOVES, Climb, Climber

from tabletop.framework import Choice, GameRegistrar, Prompt, State, TabletopError, hookimpl
from tabletop.framework.fuzz import FuzzReport, fuzz, prompt_stem
from tabletop.framework.plugins import load_registry
from tabletop.framework.testing import new_engine


def _fuzz(games: int, seats: tuple[str, ...] = (), **kwargs: Any) -> FuzzReport:
    return fuzz(
        Climb(),
        games=games,
        seed=5,
        seats=seats,
        bots={"climber": lambda game: Climber()},
        **kwargs,
    )


def test_random_play_misses_the_milestone_the_games_own_bot_reaches() -> None:
    random = _fuzz(6)
    assert random.errors == 0 and random.unreached == ["top", "halfway"]
    climbed = _fuzz(6, ("climber",))
    assert climbed.errors == 0 and climbed.unreached == []
    assert climbed.reach.milestones == {"top": 6, "halfway": 6}  # counted once a game
    assert climbed.to_json()["seats"] == ["climber"]
    assert climbed.to_json()["reach"]["unreached"] == []
    assert random.to_json()["reach"]["unreached"] == ["top", "halfway"]


def test_seat_kinds_are_cycled_over_the_seats() -> None:
    mixed = _fuzz(2, ("climber", "random"))
    engine = new_engine(Climb())
    assert engine.prompt is not None and engine.prompt.seat == 0
    # the climber sits at seat 0 only: seat 1 plays at random, so the top is rarer
    assert mixed.errors == 0 and mixed.seats == ["climber", "random"]


def test_the_report_counts_rule_citations_and_kinds_of_prompt() -> None:
    report = _fuzz(1, ("climber",))
    assert report.reach.rules == {"§2": 1, "§1": MOVES - 1}
    assert set(report.reach.prompts) == {"§2 Level #", "§1 Level #"}
    assert report.actions == MOVES


def test_prompt_stem_drops_numbers_and_what_follows_a_colon() -> None:
    prompt = Prompt(0, "Turn total 12: roll or hold?", (Choice("roll", "Roll"),), "§2")
    assert prompt_stem(prompt) == "§2 Turn total #"
    bare = Prompt(0, "Pick a card (3 left)", (Choice("a", "A"),))
    assert prompt_stem(bare) == "Pick a card"


def test_an_unknown_seat_kind_is_refused_before_any_game() -> None:
    with pytest.raises(TabletopError, match="unknown seat kind 'nobody' for climb"):
        _fuzz(3, ("nobody",))


def test_parts_of_a_run_add_up_to_the_whole_run() -> None:
    whole = _fuzz(4, ("climber", "random"))
    first = _fuzz(2, ("climber", "random"))
    second = _fuzz(2, ("climber", "random"), first=2)
    parts = FuzzReport("climb", 4, 5, seats=["climber", "random"])
    parts.add(first)
    parts.add(second)
    assert parts.reach == whole.reach and parts.must_reach == whole.must_reach


def test_a_failing_game_records_the_seat_kinds_that_played() -> None:
    class Broken(Climb):
        def invariants(self, state: State) -> list[str]:
            return ["too high"] if state["level"] > 2 else []

    report = fuzz(
        Broken(),
        games=1,
        seed=1,
        seats=["climber", "random"],
        bots={"climber": lambda game: Climber()},
    )
    assert report.errors == 1 and "too high" in report.failures[0].reason
    record = report.failures[0].record
    assert record is not None and record.seats == ["climber", "random"]


@pytest.fixture
def climbing(container: Any) -> Any:
    """The container with Climb and its climber bot installed."""

    @hookimpl
    def tabletop_register_games(register: GameRegistrar) -> None:
        register(Climb())

    @hookimpl
    def tabletop_register_bots(register: Any) -> None:
        register("climber", lambda game: Climber(), "climb")

    plugin = types.SimpleNamespace(
        tabletop_register_games=tabletop_register_games,
        tabletop_register_bots=tabletop_register_bots,
    )
    registry = load_registry(plugins=[("climb", plugin)], use_entry_points=False)
    container.plugins.override(providers.Object(registry))
    return container


def test_cli_require_milestones_fails_only_when_one_is_unreached(cli: Any, climbing: Any) -> None:
    need = "--require-milestones"
    code, out, err = cli("fuzz", "climb", "--games", "3", need, container=climbing)
    assert code == 1, (out, err)
    assert "milestones no game reached: top, halfway" in out
    assert "milestones no game reached: top, halfway" in err
    code, out, _ = cli(
        "fuzz",
        "climb",
        "--games",
        "3",
        "--seats",
        "climber",
        "--require-milestones",
        "--reach",
        container=climbing,
    )
    assert code == 0, out
    assert "milestone top: 3 games" in out and "(seats: climber)" in out
    assert "prompt §1 Level #: " in out
    code, _, err = cli("fuzz", "climb", "--seats", "climber,", container=climbing)
    assert code == 2 and "empty entry" in err
