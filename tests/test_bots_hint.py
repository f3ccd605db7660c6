"""The hint key's search (``tabletop.adapters.bots.hint``): it suggests what the default
bot would play, names the two best alternatives with their estimates, works in every
bundled game, and never depends on what the asking seat cannot see."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hanabi import HanabiHints, MiniHanabi, RuleBot, fits
from liars import LiarsDice, bid_position

from tabletop.adapters.bots import DEFAULT_STRENGTH, Budget, IsmctsBot
from tabletop.adapters.bots.hint import SHOWN, Hint, prepare
from tabletop.framework.bots import bot_move
from tabletop.framework.context import Context
from tabletop.framework.engine import Engine
from tabletop.framework.game import Action, GameDefinition, Prompt, State, clone
from tabletop.framework.plugins import load_registry
from tabletop.framework.testing import engine_from_state, new_engine, play_out

BUDGET = Budget(iterations=60)


def _hint(engine: Engine, game_hints: HanabiHints | None = None) -> Hint:
    return prepare(engine, game_hints, BUDGET)()


def _hanabi_position() -> Engine:
    """Player 1 to decide in Mini Hanabi after eight moves of rule-based play."""
    engine = new_engine(MiniHanabi(), seed=4, players=2)
    return play_out(engine, RuleBot(), until=lambda e: len(e.log) >= 8)


def _other_own_hand(state: State, seat: int) -> State:
    """The same position with the deciding seat's own (hidden) cards changed for
    deck cards that agree with what it was told: a world it cannot tell apart."""
    other: State = clone(state)
    hand, deck, known = other["hands"][seat], other["deck"], other["known"][seat]
    changed = 0
    for slot, card in enumerate(hand):
        swap = next((i for i, c in enumerate(deck) if c != card and fits(c, known[slot])), None)
        if swap is not None:
            hand[slot], deck[swap] = deck[swap], hand[slot]
            changed += 1
    assert changed, "no hidden card could be changed"
    deck.reverse()  # and the deck in another order
    return other


def test_the_hint_is_the_same_whatever_the_seats_own_hidden_cards() -> None:
    real = _hanabi_position()
    assert real.prompt is not None
    seat = real.prompt.seat
    changed = _other_own_hand(real.state, seat)
    assert changed["hands"][seat] != real.state["hands"][seat]
    same = engine_from_state(MiniHanabi(), clone(real.state), seed=real.seed, players=2)
    twin = engine_from_state(MiniHanabi(), changed, seed=real.seed, players=2)
    assert twin.view(seat) == same.view(seat)
    first, second = _hint(same, HanabiHints()), _hint(twin, HanabiHints())
    assert first == second
    assert len(first.choices) == SHOWN


def test_the_hint_is_the_same_whatever_the_opponents_cup() -> None:
    hints = []
    for cup in ([6, 6], [1, 2], [6, 3]):
        state = bid_position(cup)
        hints.append(_hint(engine_from_state(LiarsDice(), state, seed=5, players=2)))
    assert hints[0] == hints[1] == hints[2]


class _Peeking(LiarsDice):
    """A determinize that hands over the real cups: the control that shows the test
    above can fail."""

    def determinize(self, state: State, seat: int, ctx: Context) -> State:
        return state


def test_a_search_that_could_peek_would_hint_differently() -> None:
    def hint(cup: list[int]) -> Hint:
        return _hint(engine_from_state(_Peeking(), bid_position(cup), seed=5, players=2))

    assert hint([6, 6]).action != hint([1, 2]).action


def test_the_hint_is_the_default_bots_move_with_its_estimates() -> None:
    engine = _hanabi_position()
    hint = _hint(engine, HanabiHints())
    bot = IsmctsBot(HanabiHints(), BUDGET)
    assert hint.action == bot_move(engine, bot)
    appraisals = bot.last.appraisals
    assert appraisals is not None
    assert [c.action for c in hint.choices] == [a.action for a in appraisals[:SHOWN]]
    assert hint.choices[0].playouts >= hint.choices[1].playouts >= hint.choices[2].playouts
    lines = hint.lines()
    assert lines[0] == f"Suggested: {hint.choices[0].label}"
    assert lines[1].startswith("  team score about ") and "team win chance" in lines[1]
    assert lines[2] == "Next best:" and len(lines) == 8
    assert lines[3] == f"  {hint.choices[1].label}" and lines[5] == f"  {hint.choices[2].label}"


def test_a_competitive_hint_speaks_of_a_win() -> None:
    engine = new_engine(LiarsDice(), seed=2, players=2)
    engine = play_out(engine, until=lambda e: len(e.log) >= 1)
    lines = _hint(engine).lines()
    assert lines[1].startswith("  win chance about ")
    assert "team" not in "\n".join(lines)


def test_no_hint_once_the_game_is_over() -> None:
    engine = play_out(new_engine(LiarsDice(), seed=2, players=2))
    with pytest.raises(ValueError, match="over"):
        prepare(engine)


REGISTRY = load_registry()
PLAYERS = {"charlemagne-master-of-europe": 1, "la-revolution-francaise": 4}


@pytest.mark.parametrize("game_id", sorted(REGISTRY.games))
def test_every_bundled_game_gives_a_hint(game_id: str) -> None:
    game: GameDefinition = REGISTRY.get(game_id).definition
    engine = new_engine(game, seed=3, players=PLAYERS.get(game_id, game.info.min_players))
    prompt = engine.prompt
    assert prompt is not None
    hint = prepare(engine, REGISTRY.hints_for(game_id), Budget(iterations=10))()
    assert hint.action in prompt.actions()
    assert hint.lines()[0].startswith("Suggested: ")


def test_mini_hanabi_keeps_its_secrets() -> None:
    """The invariance above rests on the game's determinize and views: the framework's
    leak checks pass for Mini Hanabi in random play and in rule-based play, which
    reaches the deck's end and the last round."""
    from tabletop.framework.fuzz import fuzz

    for seats in ((), ("rules",)):
        report = fuzz(
            MiniHanabi(), games=10, seed=1, seats=seats, bots={"rules": lambda game: RuleBot()}
        )
        assert report.completed == 10, report.failures


class _OneWorthIt(HanabiHints):
    def candidates(self, game: GameDefinition, state: State, prompt: Prompt) -> Sequence[Action]:
        return [prompt.actions()[-1]]


def test_a_hint_with_nothing_to_compare_says_why() -> None:
    from toygames import HighCard

    from tabletop.games.pig import Pig

    only = prepare(new_engine(Pig(), seed=1))()  # Pig's first decision: roll
    assert only.lines() == [f"Suggested: {only.choices[0].label}", "  (the only legal choice)"]
    engine = _hanabi_position()
    pruned = prepare(engine, _OneWorthIt(), BUDGET)()
    assert engine.prompt is not None and pruned.action == engine.prompt.actions()[-1]
    assert pruned.lines()[1] == "  (the only choice the game's bot hints find worth making)"
    blind = prepare(new_engine(HighCard(), seed=4), None, BUDGET)()
    assert "cannot be searched" in blind.lines()[1]


def test_the_hint_thinks_as_the_default_bot() -> None:
    """Without a budget the hint searches as long as the default ``mcts`` kind."""
    engine = _hanabi_position()
    hint = prepare(engine, HanabiHints())()
    assert hint.playouts == DEFAULT_STRENGTH.iterations
