"""Engine: legality, undo, determinism, hidden information, faults, records."""

from __future__ import annotations

import hashlib

import pytest
from toygames import Exploding, HighCard

from tabletop.framework import Action, Context, IllegalAction, State, TabletopError
from tabletop.framework.engine import Engine
from tabletop.framework.errors import GameOver, PluginFault, ReplayMismatch, UndoRefused
from tabletop.framework.record import GameRecord, canonical_json, digest_of
from tabletop.framework.testing import engine_from_state, new_engine, play_out, replay
from tabletop.games.pig import Pig


def test_illegal_action_is_refused_and_changes_nothing() -> None:
    engine = new_engine(Pig())
    before = engine.digest()
    with pytest.raises(IllegalAction, match="not a legal choice"):
        engine.act(0, "hold")  # holding with nothing at risk is not offered
    assert engine.digest() == before
    assert engine.log == []


def test_wrong_seat_is_refused_with_its_name() -> None:
    engine = new_engine(Pig())
    with pytest.raises(IllegalAction, match="Player 1's decision, not Player 2's"):
        engine.act(1, "roll")


def test_actions_after_the_end_are_refused() -> None:
    engine = new_engine(HighCard())
    engine.act(0, "keep")
    engine.act(1, "keep")
    assert engine.over and engine.result is not None
    with pytest.raises(GameOver):
        engine.act(0, "keep")


def test_undo_restores_a_move_without_chance() -> None:
    engine = new_engine(HighCard())
    before = engine.digest()
    events_before = len(engine.history)
    engine.act(0, "tap")
    assert engine.can_undo()
    entry = engine.undo()
    assert (entry.seat, entry.action) == (0, "tap")
    assert engine.digest() == before
    assert len(engine.history) == events_before
    assert not engine.can_undo()


def test_undo_never_crosses_randomness() -> None:
    engine = new_engine(HighCard())
    engine.act(0, "tap")
    engine.act(0, "swap")  # draws a card: a barrier
    with pytest.raises(UndoRefused, match="chance"):
        engine.undo()
    engine.act(1, "tap")
    engine.undo()  # the tap after the barrier can go
    with pytest.raises(UndoRefused):
        engine.undo()


def test_undo_never_crosses_a_reveal() -> None:
    engine = new_engine(HighCard())
    engine.act(0, "keep")
    engine.act(1, "keep")  # reveals all cards
    assert not engine.can_undo()


def test_dice_rolls_are_logged_and_block_undo() -> None:
    engine = new_engine(Pig())
    events = engine.act(0, "roll")
    dice = [e for e in events if e.kind == "dice"]
    assert len(dice) == 1 and 1 <= dice[0].data["faces"][0] <= 6
    assert dice[0].actor == 0 and dice[0].concerns == 0
    assert not engine.can_undo()


def _random_game(engine: Engine) -> list[tuple[int, str]]:
    play_out(engine)
    return [(entry.seat, entry.action) for entry in engine.log]


@pytest.mark.parametrize("seed", [1, 2, 99])
def test_seed_plus_log_replays_to_the_same_state(seed: int) -> None:
    first = new_engine(Pig(), seed=seed, players=3)
    log = _random_game(first)
    again = new_engine(Pig(), seed=seed, players=3)
    for seat, action in log:
        again.act(seat, action)
    assert again.digest() == first.digest()
    assert again.state == first.state


def test_different_seeds_give_different_games() -> None:
    assert new_engine(HighCard(), seed=1).digest() != new_engine(HighCard(), seed=2).digest()


def test_views_hide_other_seats_cards() -> None:
    engine = new_engine(HighCard(), players=3)
    cards = engine.state["cards"]
    for seat in range(3):
        view = engine.view(seat)["held"]
        assert view[seat] == cards[seat]
        assert [v for i, v in enumerate(view) if i != seat] == [None, None]
    assert engine.view(None)["held"] == [None, None, None]


def test_private_events_reach_only_their_seat() -> None:
    engine = new_engine(HighCard())
    mine = [e for e in engine.events_for(0) if e.kind == "deal"]
    assert len(mine) == 1 and mine[0].data["card"] == engine.state["cards"][0]
    assert [e for e in engine.events_for(None) if e.kind == "deal"] == []


def test_view_is_a_copy() -> None:
    engine = new_engine(HighCard())
    view = engine.view(0)
    view["held"][0] = 1000
    assert engine.state["cards"][0] != 1000


def test_a_crash_in_game_code_restores_the_state() -> None:
    engine = new_engine(Exploding(), seed=5)
    engine.act(0, "tap")
    before = engine.digest()
    with pytest.raises(PluginFault) as info:
        engine.act(0, "tap")
    assert "ZeroDivisionError: boom" in str(info.value)
    assert info.value.seed == 5
    assert info.value.actions == [[0, "tap"], [0, "tap"]]
    assert engine.digest() == before and engine.state["taps"] == 1
    assert len(engine.log) == 1


def test_options_are_validated() -> None:
    with pytest.raises(TabletopError, match="option target='7' is not valid"):
        new_engine(Pig(), options={"target": "7"})
    with pytest.raises(TabletopError, match="unknown option 'colour'"):
        new_engine(Pig(), options={"colour": "red"})
    engine = new_engine(Pig(), options={"target": "100"})
    assert engine.options == {"target": "100", "dice": "one", "banks": "open"}


def test_player_count_is_validated() -> None:
    with pytest.raises(TabletopError, match="takes 2-6 players, not 7"):
        new_engine(Pig(), players=7)


def test_record_replays_and_verifies() -> None:
    engine = new_engine(Pig(), seed=4, players=2)
    _random_game(engine)
    record = GameRecord.from_json(engine.record(seats=["human", "random"]).to_json())
    again = replay(Pig(), record)
    assert again.digest() == engine.digest() == record.digest
    halfway = replay(Pig(), record, upto=5)
    assert len(halfway.log) == 5


def test_a_record_with_a_wrong_digest_is_a_mismatch() -> None:
    engine = new_engine(Pig(), seed=4)
    _random_game(engine)
    record = engine.record()
    record.digest = "0" * 64
    with pytest.raises(ReplayMismatch, match="does not match"):
        replay(Pig(), record)


def test_a_record_with_an_impossible_action_is_a_mismatch() -> None:
    engine = new_engine(Pig(), seed=4)
    record = engine.record()
    record.actions = [(0, "roll"), (0, "fly")]
    with pytest.raises(ReplayMismatch, match="action 2"):
        replay(Pig(), record)


def test_a_game_can_continue_from_a_hand_made_state() -> None:
    state = {"top": 10, "cards": [3, 9], "turn": 1, "taps": 0, "done": False}
    engine = engine_from_state(HighCard(), state, players=2)
    assert engine.prompt is not None and engine.prompt.seat == 1
    engine.act(1, "keep")
    result = engine.result
    assert result is not None and result.winners == (1,)
    assert state["done"] is False  # the caller's dict was copied, not taken over
    with pytest.raises(TabletopError, match="hand-made state"):
        engine.record()


def test_an_event_about_nobody_names_no_seat() -> None:
    from tabletop.framework import NOBODY, Event

    engine = new_engine(HighCard())
    assert engine.event_line(Event("round", "Round 2 begins", actor=1, about=NOBODY)) == (
        "Round 2 begins"
    )
    assert engine.event_line(Event("bust", "loses 3", actor=1)) == "Seat 1: loses 3"
    assert engine.event_line(Event("lose", "loses a die", actor=1, about=0)) == (
        "Seat 0: loses a die"
    )


def test_an_actions_events_join_the_history_numbered_and_leave_it_on_undo() -> None:
    """Every seat's log is read from the history (events_for): an action's events must
    land there under the action's number, and an undo must take them out again."""
    engine = new_engine(HighCard())
    setup = len(engine.history)
    first = engine.act(0, "tap")
    assert first and engine.history[setup:] == [(1, event) for event in first]
    assert engine.events_for(None, since=setup) == first
    second = engine.act(0, "tap")
    assert engine.history[setup:] == [(1, first[0]), (2, second[0])]
    engine.undo()
    assert engine.history[setup:] == [(1, first[0])]
    assert engine.events_for(None, since=setup) == first


def test_a_crash_in_a_game_from_a_hand_made_state_restores_that_state() -> None:
    """A hand-made position has no seed and log that rebuild it: after a crash the
    engine must go back to its snapshot, never replay the seed from the start."""
    state = {"top": 10, "cards": [3, 9], "turn": 0, "taps": 1, "done": False}
    engine = engine_from_state(Exploding(), state, players=2, seed=5)
    with pytest.raises(PluginFault):
        engine.act(0, "tap")  # the second tap explodes
    assert engine.state == state and engine.log == []


def test_undo_says_why_it_refuses() -> None:
    """Nothing to undo and a barrier in the way are different answers for a player."""
    engine = new_engine(HighCard())
    with pytest.raises(UndoRefused, match="nothing to undo"):
        engine.undo()
    engine.act(0, "swap")
    with pytest.raises(UndoRefused, match="drew chance or revealed"):
        engine.undo()


class DrawsThenExplodes(HighCard):
    """Draws a card, then raises: the draw must be taken back with the rest."""

    def apply(self, state: State, seat: int, action: Action, ctx: Context) -> None:
        if action == "swap":
            state["cards"][seat] = ctx.rng.randint(1, state["top"])
            raise ZeroDivisionError("boom after a draw")
        super().apply(state, seat, action, ctx)


def test_a_crash_after_a_draw_puts_the_random_state_back() -> None:
    engine = new_engine(DrawsThenExplodes(), seed=3)
    before = (engine.rng_state(), engine.digest())
    with pytest.raises(PluginFault):
        engine.act(0, "swap")
    assert (engine.rng_state(), engine.digest()) == before


def test_the_digest_covers_the_state_and_the_random_state() -> None:
    """Equal digests must mean equal games: a move without chance changes the digest,
    and the same state with another random state has another digest."""
    engine = new_engine(HighCard())
    before = engine.digest()
    engine.act(0, "tap")  # the state changes, the random state does not
    assert engine.digest() != before
    state = {"top": 10, "cards": [3, 9], "turn": 0, "taps": 0, "done": False}
    one = engine_from_state(HighCard(), state, players=2, seed=1)
    two = engine_from_state(HighCard(), state, players=2, seed=2)
    assert one.state == two.state and one.rng_state() != two.rng_state()
    assert one.digest() != two.digest()


def test_the_digest_is_of_canonical_json() -> None:
    """Pinned: every save's digest is made this way, so changing it (key order,
    separators, escaping) would make every existing save fail to verify."""
    data = {"b": [1, 2], "a": "é"}
    assert canonical_json(data) == '{"a":"\\u00e9","b":[1,2]}'
    assert canonical_json({"a": "é", "b": [1, 2]}) == canonical_json(data)
    assert digest_of(data) == hashlib.sha256(b'{"a":"\\u00e9","b":[1,2]}').hexdigest()
