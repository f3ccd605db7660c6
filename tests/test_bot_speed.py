"""Bots that do not keep a player waiting (issue 25).

A bot's move must stay a function of the game's seed, its seat and the move number, so
the default search bot's budget is a count of iterations and simulated actions, never a
clock; and that count, converted by each game's ``BotHints.action_cost``, bounds the
work of one decision in every bundled game. Both are checked here by counting, not
timing: the times themselves are measured by ``tabletop bench --bots`` and written
down in docs/bots.md.
"""

from __future__ import annotations

import itertools
import time
from typing import Any

import pytest

from tabletop.adapters.bots import (
    ACTIONS_PER_ITERATION,
    MIN_ACTIONS,
    STRENGTHS,
    IsmctsBot,
    register_search_bots,
)
from tabletop.framework import GameDefinition
from tabletop.framework.bots import RandomBot, bot_move
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.plugins import GameRegistry, load_registry

#: Every game this repository ships, with the seat counts a player meets.
BUNDLED = {
    "tic-tac-toe": (2,),
    "pig": (2, 6),
    "council": (2, 5),
    "red-flag-over-paris": (2,),
    "la-revolution-francaise": (4, 5, 6),
    "charlemagne-master-of-europe": (1,),
}

#: The most simulated actions one decision of the default bot (``mcts``) may use, in
#: the game's own actions: its budget (100 iterations, 6000 reference actions divided
#: by the game's ``action_cost``), plus the one iteration that may run past the cap (a
#: whole game of Pig at 6 seats: 147 actions past it in ``tabletop bench --bots``).
#: The games whose actions are dear (docs/bots.md: 7 and 14 times Red Flag's) get
#: fewer; raising one of these is a decision to make players wait longer.
MOST_ACTIONS = {
    "tic-tac-toe": 6_300,
    "pig": 6_300,
    "council": 6_300,
    "red-flag-over-paris": 6_300,
    "la-revolution-francaise": 900,
    "charlemagne-master-of-europe": 460,
}

DEFAULT = next(strength for strength in STRENGTHS if strength.kind == "mcts")


@pytest.fixture(scope="module")
def registry() -> GameRegistry:
    return register_search_bots(load_registry())


def _default_bot(registry: GameRegistry, game: GameDefinition) -> IsmctsBot:
    bot = registry.bots[DEFAULT.kind][0](game)
    assert isinstance(bot, IsmctsBot)
    return bot


def _positions(game: GameDefinition, players: int, seed: int, count: int) -> list[Engine]:
    """Engines at ``count`` decisions (more than one choice), every seventh one of a
    random game from its start: the bot is asked in each, random play moves on."""
    engine = _engine(game, players, seed)
    engines: list[Engine] = []
    decisions = 0
    while engine.prompt is not None and len(engines) < count:
        prompt = engine.prompt
        if len(prompt.choices) > 1:
            if decisions % 7 == 0:
                engines.append(
                    Engine.from_record(
                        game, engine.record(), rng_factory=rng_factory, dice_factory=dice_factory
                    )
                )
            decisions += 1
        engine.act(prompt.seat, bot_move(engine, RandomBot(), rng_factory))
    return engines


def _engine(game: GameDefinition, players: int, seed: int) -> Engine:
    return Engine(
        game,
        seed=seed,
        players=players,
        options={},
        rng_factory=rng_factory,
        dice_factory=dice_factory,
        undo=False,
    )


@pytest.mark.parametrize("game_id", sorted(BUNDLED))
def test_every_search_strength_counts_instead_of_reading_a_clock(
    registry: GameRegistry, game_id: str
) -> None:
    """No search kind has a wall-clock budget: with one, a replay of a bot game would
    depend on how busy the machine was."""
    game = registry.get(game_id).definition
    for strength in STRENGTHS:
        bot = registry.bots[strength.kind][0](game)
        assert isinstance(bot, IsmctsBot)
        assert bot.budget.seconds is None and bot.budget.deterministic
        assert bot.budget.iterations == strength.iterations
        assert bot.budget.actions == strength.actions
        assert strength.actions == max(MIN_ACTIONS, ACTIONS_PER_ITERATION * strength.iterations)


@pytest.mark.parametrize("game_id", sorted(BUNDLED))
def test_a_decision_is_the_same_on_a_slow_machine(
    registry: GameRegistry, game_id: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The default bot decides the same, with the same search, when every reading of
    the clock is ten seconds after the one before (a machine a thousand times busier)."""
    game = registry.get(game_id).definition
    [engine] = _positions(game, BUNDLED[game_id][-1], seed=3, count=1)

    def decide() -> tuple[Any, ...]:
        bot = _default_bot(registry, game)
        action = bot_move(engine, bot)
        return action, bot.last.iterations, bot.last.actions, bot.last.root_visits

    calm = decide()
    clock = itertools.count(0.0, 10.0)
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    assert decide() == calm
    assert calm[1] > 1  # it searched: a wall-clock budget would have stopped it at one


def test_the_slow_machine_test_can_fail(
    registry: GameRegistry, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The control: a bot with a wall-clock budget searches less when the clock runs
    fast, so the test above would see the difference."""
    from tabletop.adapters.bots import Budget

    game = registry.get("tic-tac-toe").definition
    [engine] = _positions(game, 2, seed=3, count=1)
    timed = IsmctsBot(registry.hints_for("tic-tac-toe"), Budget(iterations=100, seconds=5.0))
    bot_move(engine, timed)
    assert timed.last.iterations == 100
    clock = itertools.count(0.0, 10.0)
    monkeypatch.setattr(time, "perf_counter", lambda: next(clock))
    bot_move(engine, timed)
    assert timed.last.iterations == 1


@pytest.mark.parametrize(
    ("game_id", "players"), [(g, n) for g, counts in sorted(BUNDLED.items()) for n in counts]
)
def test_the_default_bot_bounds_its_work_in_every_game(
    registry: GameRegistry, game_id: str, players: int
) -> None:
    """At decisions spread over a game's opening, the default bot makes at most its 100
    iterations and stays under the game's bound on simulated actions (MOST_ACTIONS):
    the machine-independent measure of how long a player waits."""
    game = registry.get(game_id).definition
    bot = _default_bot(registry, game)
    assert bot.action_cap is not None and bot.action_cap < MOST_ACTIONS[game_id]
    engines = _positions(game, players, seed=11, count=3)
    assert engines
    for engine in engines:
        action = bot_move(engine, bot)
        assert bot.last.iterations <= DEFAULT.iterations
        assert bot.last.actions <= MOST_ACTIONS[game_id], (game_id, len(engine.log))
        # No search only where the hints leave one choice (a plan's move, docs/bots.md).
        assert bot.last.actions > 0 or bot.last.root_visits == {action: 0}, game_id


def test_a_dear_game_searches_fewer_actions(registry: GameRegistry) -> None:
    """``action_cost`` divides the cap: the same budget, twice the cost, half the
    actions; and a cost that is not above zero is refused."""
    from tabletop.framework.search import BotHints

    class Dear(BotHints):
        action_cost = 2.0

    cap = DEFAULT.actions
    assert IsmctsBot(Dear(), DEFAULT.budget()).action_cap == cap // 2
    assert IsmctsBot(BotHints(), DEFAULT.budget()).action_cap == cap

    class Free(BotHints):
        action_cost = 0.0

    with pytest.raises(ValueError, match="action_cost must be above 0"):
        IsmctsBot(Free(), DEFAULT.budget())


def test_the_bot_bench_reports_what_a_player_waits_for(cli: Any) -> None:
    """``tabletop bench --bots`` times the bots alone (no playout table), per game and
    seat count, against the target; bad arguments are refused before any work."""
    import json

    code, out, _ = cli(
        "bench", "tic-tac-toe", "pig", "--bots", "--bot-players", "2", "--bot-decisions", "2",
        "--json",
    )  # fmt: skip
    assert code == 0
    data = json.loads(out)
    assert "games" not in data
    rows = {(row["game"], row["players"]): row for row in data["bots"]}
    assert set(rows) == {("tic-tac-toe", 2), ("pig", 2)}
    for row in rows.values():
        assert row["kind"] == "mcts" and row["decisions"] == 2 and row["max_actions"] > 0
        assert row["mean_seconds"] <= row["p95_seconds"] <= row["max_seconds"]
    code, out, _ = cli("bench", "tic-tac-toe", "--bots", "--bot-decisions", "2")
    assert code == 0 and "target (mean under 0.5 s, none over 2 s" in out
    code, _, err = cli("bench", "pig", "--bots", "--bot-players", "0")
    assert code == 2 and "seat counts must be 1 or more" in err


@pytest.mark.parametrize(
    "state",
    [
        {"board": [[1, 2], [3, None]], "names": {"a": "x"}, "score": 1.5, "over": False},
        {"board": [(1, 2), (3, None)], "names": {"a": ("x", "y")}},  # tuples: clone's lists
    ],
)
def test_samples_are_fresh_copies_equal_to_clones(state: dict[str, Any]) -> None:
    """The search copies the real state from bytes frozen once (when they load back
    equal to ``clone``'s copy; a state with tuples is cloned): every sample equals
    ``clone(state)``, owns all its parts, and leaves the real state alone."""
    from tabletop.framework import clone
    from tabletop.framework.chance import Pcg32
    from tabletop.framework.search import InformationSet
    from tabletop.games.tic_tac_toe import TicTacToe

    original = clone(state)
    information = InformationSet(TicTacToe(), state, 0, dice_factory)
    samples = [information.sample(Pcg32(seed)) for seed in range(3)]
    for sample in samples:
        assert sample == clone(state) and type(sample["board"][0]) is list
    samples[0]["board"][0].append(9)
    samples[1]["names"]["a"] = "changed"
    assert samples[2] == original == clone(state)
    assert state["board"][0] is not samples[2]["board"][0]
