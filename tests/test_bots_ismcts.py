"""The information-set MCTS bot: it never decides on what its seat cannot see, it is
reproducible, it plays every game through the generic API, and it follows a game's
hints (rollout policy, evaluation, choice ordering and pruning) without trusting them
to be legal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from liars import LiarsDice, bid_position

from tabletop.adapters.bots import STRENGTHS, Budget, IsmctsBot, describe, register_search_bots
from tabletop.framework import Context, GameDefinition, Prompt, State, clone, hookimpl
from tabletop.framework.bots import (
    Bot,
    RandomBot,
    SampledPolicyBot,
    SearchBot,
    batch_seed,
    bot_move,
)
from tabletop.framework.chance import rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.errors import TabletopError
from tabletop.framework.hookspecs import BotHintsRegistrar
from tabletop.framework.plugins import load_registry
from tabletop.framework.ports import RandomSource
from tabletop.framework.search import BotHints
from tabletop.framework.testing import engine_from_state, new_engine, play_out
from tabletop.games import pig
from tabletop.games.council import Council
from tabletop.games.pig import Pig
from tabletop.games.red_flag_over_paris import RedFlagOverParis

RFOP = RedFlagOverParis()


class PeekingLiars(LiarsDice):
    """A broken determinize that hands the real cups over: the control that shows the
    hidden-information test below can fail."""

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        return state


def _engine(game: GameDefinition, state: State, seed: int = 5, players: int = 2) -> Engine:
    return engine_from_state(game, state, seed=seed, players=players)


def _decide(engine: Engine, bot: IsmctsBot) -> tuple[str, dict[str, int] | None]:
    action = bot_move(engine, bot, rng_factory)
    return action, bot.last.root_visits


def test_liars_decision_ignores_the_opponents_hidden_cup() -> None:
    bot = IsmctsBot(budget=Budget(iterations=300))
    answers = []
    for cup in ([6, 6], [1, 2], [6, 3]):
        engine = _engine(LiarsDice(), bid_position(cup))
        assert engine.view(1) == _engine(LiarsDice(), bid_position([6, 6])).view(1)
        answers.append(_decide(engine, bot))
    assert answers[0] == answers[1] == answers[2]


def test_a_bot_that_could_see_the_cups_would_decide_differently() -> None:
    bot = IsmctsBot(budget=Budget(iterations=300))
    true_bid = bot_move(_engine(PeekingLiars(), bid_position([6, 6])), bot, rng_factory)
    false_bid = bot_move(_engine(PeekingLiars(), bid_position([1, 2])), bot, rng_factory)
    assert false_bid == "challenge"
    assert true_bid != "challenge"


def _rfop_position(seed: int) -> Engine:
    """A Red Flag position several plays into round 1, random play up to there."""

    def reached(engine: Engine) -> bool:
        prompt = engine.prompt
        assert prompt is not None
        return prompt.text.startswith("Round 1: play") and sum(engine.state["plays"]) >= 2

    return play_out(new_engine(RFOP, seed=seed), until=reached)


def _swap_hidden_card(state: State, seat: int) -> State:
    """The same position with one of the opponent's cards exchanged for one in the deck."""
    other: State = clone(state)
    hand, deck = other["hands"][1 - seat], other["deck"]
    hand[0], deck[-1] = deck[-1], hand[0]
    return other


def test_rfop_decision_ignores_the_opponents_hidden_hand() -> None:
    real = _rfop_position(seed=11)
    seat = real.prompt.seat if real.prompt else 0
    changed = _swap_hidden_card(real.state, seat)
    assert changed["hands"][1 - seat] != real.state["hands"][1 - seat]
    first, second = _engine(RFOP, real.state), _engine(RFOP, changed)
    assert first.view(seat) == second.view(seat)
    bot = IsmctsBot(budget=Budget(iterations=60))
    assert _decide(first, bot) == _decide(second, bot)


def test_same_seed_and_budget_give_the_same_move_and_search() -> None:
    engine = _rfop_position(seed=3)
    bot = IsmctsBot(budget=Budget(iterations=50))
    first = _decide(engine, bot)
    assert _decide(engine, IsmctsBot(budget=Budget(iterations=50))) == first
    assert bot.last.iterations == 50
    assert sum((bot.last.root_visits or {}).values()) == 50


def test_a_search_bot_must_be_asked_through_bot_move() -> None:
    engine = _rfop_position(seed=3)
    prompt = engine.prompt
    assert prompt is not None
    with pytest.raises(TabletopError, match="bot_move"):
        IsmctsBot().choose(RFOP, engine.view(prompt.seat), prompt, rng_factory(1))
    assert isinstance(IsmctsBot(), SearchBot)


class CountingChallenger(SampledPolicyBot):
    """Challenges a bid exactly when the sampled cups cannot hold it: what a policy bot
    sees is a sample, so the real cup must not decide its answer."""

    name = "counting"
    reads_view = False

    def __init__(self) -> None:
        self.seen: list[State] = []

    def policy(self, game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource) -> str:
        self.seen.append(state)
        count, face = state["bid"]
        held = sum(die == face for cup in state["dice"] for die in cup)
        actions = prompt.actions()
        return "challenge" if held < count else actions[0]


def test_a_sampled_policy_bot_decides_on_a_sample_never_on_the_real_state() -> None:
    answers, samples = set(), []
    for cup in ([6, 6], [1, 2], [6, 3]):
        bot = CountingChallenger()
        answers.add(bot_move(_engine(LiarsDice(), bid_position(cup)), bot, rng_factory))
        (sample,) = bot.seen
        assert sample["dice"][1] == [6, 1]  # its own cup, as it is
        samples.append(sample)
    # The same seed and visible position: the same sample and answer, whatever the cup.
    assert samples[0] == samples[1] == samples[2]
    assert len(answers) == 1
    # With a determinize that peeks, the same policy answers by the real cup.
    peeked = {
        bot_move(_engine(PeekingLiars(), bid_position(cup)), CountingChallenger(), rng_factory)
        for cup in ([6, 6], [1, 2])
    }
    assert len(peeked) == 2
    with pytest.raises(TabletopError, match="bot_move"):
        CountingChallenger().choose(LiarsDice(), {}, Prompt(0, "?", ()), rng_factory(1))


def test_budgets_are_checked() -> None:
    with pytest.raises(ValueError, match="iterations, seconds or both"):
        Budget(iterations=None, seconds=None)
    with pytest.raises(ValueError, match="1 or more"):
        Budget(iterations=0)
    with pytest.raises(ValueError, match="more than 0"):
        Budget(seconds=0)
    with pytest.raises(ValueError, match="actions must be 1 or more"):
        Budget(actions=0)
    assert Budget(iterations=10).deterministic and not Budget(seconds=0.1).deterministic


def test_the_action_cap_stops_a_search_deterministically() -> None:
    engine = _rfop_position(seed=3)
    capped = IsmctsBot(budget=Budget(iterations=1000, actions=300))
    first = _decide(engine, capped)
    assert 1 <= capped.last.iterations < 1000
    assert capped.last.actions >= 300
    assert _decide(engine, IsmctsBot(budget=Budget(iterations=1000, actions=300))) == first


def test_a_time_budget_stops_the_search() -> None:
    engine = _rfop_position(seed=3)
    bot = IsmctsBot(budget=Budget(iterations=None, seconds=0.05, actions=None))
    action = bot_move(engine, bot, rng_factory)
    prompt = engine.prompt
    assert prompt is not None and action in prompt.actions()
    assert bot.last.iterations >= 1


@pytest.mark.parametrize(
    ("game", "players"), [(Pig(), 2), (Council(), 3), (LiarsDice(), 3), (RFOP, 2)]
)
def test_plays_whole_games_of_every_kind(game: GameDefinition, players: int) -> None:
    bot = IsmctsBot(budget=Budget(iterations=4))
    engine = play_out(new_engine(game, seed=2, players=players), bot)
    assert engine.result is not None
    assert len(engine.log) > players


def test_beats_random_play_at_pig() -> None:
    """Pig is all risk management: even a small search should win most games."""
    wins = 0
    games = 16
    for index in range(games):
        seat = index % 2
        bots: list[Bot] = [RandomBot(), RandomBot()]
        bots[seat] = IsmctsBot(budget=Budget(iterations=100))
        result = play_out(new_engine(Pig(), seed=batch_seed(7, index)), bots).result
        assert result is not None
        wins += seat in result.winners
    assert wins >= 12  # 12 of 16 or better happens 3.8% of the time between equals


class _OnlyLast(BotHints):
    """Prunes every decision to its last choice and names an action that is not legal."""

    def candidates(self, game: GameDefinition, state: State, prompt: Prompt) -> Sequence[str]:
        return ["no-such-move", prompt.actions()[-1]]


class _AllIllegal(BotHints):
    def candidates(self, game: GameDefinition, state: State, prompt: Prompt) -> Sequence[str]:
        return ["no-such-move"]


def test_pruned_choices_are_the_only_ones_searched() -> None:
    engine = _engine(LiarsDice(), bid_position([1, 2]))
    bot = IsmctsBot(_OnlyLast(), Budget(iterations=30))
    prompt = engine.prompt
    assert prompt is not None
    assert bot_move(engine, bot, rng_factory) == prompt.actions()[-1]
    assert bot.last.iterations == 0 and bot.last.actions == 0  # one choice left: no search


def test_hints_that_prune_everything_are_ignored() -> None:
    engine = _engine(LiarsDice(), bid_position([1, 2]))
    bot = IsmctsBot(_AllIllegal(), Budget(iterations=40))
    prompt = engine.prompt
    assert prompt is not None
    assert bot_move(engine, bot, rng_factory) in prompt.actions()
    assert len(bot.last.root_visits or {}) == len(prompt.actions())


class _SeatZeroAlwaysWins(BotHints):
    """Cuts every playout at once and says seat 0 wins: searches must then trust it."""

    rollout_depth = 0

    def evaluate(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        self.calls = getattr(self, "calls", 0) + 1
        return [1.0, 0.0]


class _RolloutCounter(BotHints):
    def rollout(self, game: GameDefinition, state: State, prompt: Prompt, rng: RandomSource) -> str:
        self.calls = getattr(self, "calls", 0) + 1
        return prompt.actions()[0]


def test_evaluation_at_the_playout_depth_replaces_the_playout() -> None:
    hints = _SeatZeroAlwaysWins()
    rollouts = _RolloutCounter()
    engine = _engine(LiarsDice(), bid_position([1, 2]))
    bot_move(engine, IsmctsBot(hints, Budget(iterations=25)), rng_factory)
    assert hints.calls >= 20
    bot_move(engine, IsmctsBot(rollouts, Budget(iterations=25)), rng_factory)
    assert rollouts.calls > 0


class _EvaluatedByLength(BotHints):
    """Cuts every playout at once and judges it by something that differs between
    states, so the search has preferences to follow."""

    rollout_depth = 0

    def evaluate(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        value = len(repr(state)) % 7 / 7
        return [value, 1.0 - value]


class _CalibratedChance(_EvaluatedByLength):
    """The same evaluation, with a reported win chance of its own."""

    def win_chances(self, game: GameDefinition, state: State) -> Sequence[float] | None:
        return [0.125, 0.125]


def test_win_chances_change_the_reported_chance_never_the_move() -> None:
    """``BotHints.win_chances`` is what the hint key reports; the search still
    maximises ``evaluate``, so the move and the visits stay the same."""
    engine = _engine(LiarsDice(), bid_position([1, 2]))
    plain = IsmctsBot(_EvaluatedByLength(), Budget(iterations=40))
    calibrated = IsmctsBot(_CalibratedChance(), Budget(iterations=40))
    assert _decide(engine, plain) == _decide(engine, calibrated)
    before = plain.last.appraisals or []
    after = calibrated.last.appraisals or []
    assert len(before) > 1 and [a.value for a in before] == [a.value for a in after]
    # a choice whose every playout was cut reports the hints' chance; one that ends
    # the game (a call of "liar") reports its real wins, as before
    assert 0.125 in {a.win_chance for a in after}
    assert [a.win_chance for a in after] != [a.win_chance for a in before]
    assert [a.win_chance for a in before] == [a.value for a in before]


def test_the_registry_offers_every_strength_with_the_games_hints() -> None:
    hints = _SeatZeroAlwaysWins()

    class Plugin:
        @staticmethod
        @hookimpl
        def tabletop_register_bot_hints(register: BotHintsRegistrar) -> None:
            register("pig", hints)

    registry = register_search_bots(
        load_registry(plugins=[("pig", pig), ("hints", Plugin())], use_entry_points=False)
    )
    for strength in STRENGTHS:
        assert strength.kind in registry.bot_kinds("pig")
        assert describe(strength.kind) == strength.description
    made = registry.bots["mcts"][0](Pig())
    assert isinstance(made, IsmctsBot) and made.hints is hints
    other = registry.bots["mcts-strong"][0](Council())
    assert isinstance(other, IsmctsBot) and type(other.hints) is BotHints
    assert other.budget.iterations is not None and made.budget.iterations is not None
    assert other.budget.iterations > made.budget.iterations


def test_hints_that_are_not_bot_hints_are_refused() -> None:
    class Broken:
        @staticmethod
        @hookimpl
        def tabletop_register_bot_hints(register: BotHintsRegistrar) -> None:
            not_hints: Any = object()  # a plugin that ignores the types, as some will
            register("pig", not_hints)

    registry = load_registry(plugins=[("broken", Broken())], use_entry_points=False)
    assert registry.hints == {}
    assert any("not BotHints" in failure.reason for failure in registry.failures)


def test_a_hidden_information_game_without_determinize_gets_random_play() -> None:
    """Searching it would mean reading the real state: the bot plays at random instead
    of cheating or failing, so every seat of every game stays playable."""
    from toygames import HighCard

    bot = IsmctsBot(budget=Budget(iterations=50))
    engine = new_engine(HighCard(), seed=4)
    while (prompt := engine.prompt) is not None:
        action = bot_move(engine, bot, rng_factory)
        assert action in prompt.actions() and bot.last.iterations == 0
        engine.act(prompt.seat, action)
    assert engine.result is not None


def test_rollout_weights_steer_the_playouts_and_none_means_uniform() -> None:
    class OnlyTheLast(BotHints):
        def rollout_weights(
            self, game: GameDefinition, state: State, prompt: Prompt
        ) -> Sequence[int] | None:
            return [0] * (len(prompt.choices) - 1) + [1]

    engine = _rfop_position(seed=3)
    prompt = engine.prompt
    assert prompt is not None and len(prompt.choices) > 2
    picks = {OnlyTheLast().rollout(RFOP, engine.state, prompt, rng_factory(s)) for s in range(20)}
    assert picks == {prompt.choices[-1].action}
    uniform = {BotHints().rollout(RFOP, engine.state, prompt, rng_factory(s)) for s in range(20)}
    assert len(uniform) > 2


def test_a_hurried_search_keeps_its_budget_and_thinks_at_most_the_time_given() -> None:
    """``hurried`` (a person waiting at a table): the same search, its iterations and
    actions kept, with a wall-clock limit; a bot already as quick is returned as it is."""
    from tabletop.adapters.bots.ismcts import Budget, IsmctsBot

    bot = IsmctsBot(budget=Budget(iterations=100, actions=6000))
    quick = bot.hurried(0.5)
    assert quick is not bot and quick.budget == Budget(iterations=100, actions=6000, seconds=0.5)
    assert quick.hurried(1.0) is quick and quick.hurried(0.2).budget.seconds == 0.2
