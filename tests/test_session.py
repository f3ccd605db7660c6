"""GameSession: bots, autosave after every action, undo back to a person."""

from __future__ import annotations

from pathlib import Path

import pytest
from toygames import HighCard, OpenHighCard

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework import RandomBot, TabletopError, UndoRefused
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.session import GameSession
from tabletop.games.pig import Pig

BOTS = {"random": lambda game: RandomBot()}


def _start(
    game: object, controllers: list[str], store: JsonSaveStore | None = None, seed: int = 3
) -> GameSession:
    return GameSession.start(
        game,  # type: ignore[arg-type]
        seed=seed,
        players=len(controllers),
        options={},
        controllers=controllers,
        bot_factories=BOTS,
        rng_factory=rng_factory,
        dice_factory=dice_factory,
        store=store,
    )


def test_every_action_is_autosaved_and_resumes(tmp_path: Path) -> None:
    store = JsonSaveStore(tmp_path)
    session = _start(Pig(), ["human", "random"], store)
    assert session.save_id is not None
    session.act(0, "roll")
    assert len(store.load(session.save_id).actions) == 1
    session.play_bots()
    record = store.load(session.save_id)
    assert len(record.actions) == len(session.engine.log)
    resumed = GameSession.resume(
        Pig(),
        record,
        save_id=session.save_id,
        bot_factories=BOTS,
        rng_factory=rng_factory,
        dice_factory=dice_factory,
        store=store,
    )
    assert resumed.engine.digest() == session.engine.digest()
    assert resumed.controllers == ["human", "random"]


def test_bots_play_until_a_person_must_decide() -> None:
    session = _start(HighCard(), ["random", "human"])
    moves = session.play_bots()
    assert [m.seat for m in moves] == [0] * len(moves) and moves
    assert session.engine.prompt is not None and session.engine.prompt.seat == 1
    assert not session.waiting_for_bot


def test_bot_games_are_reproducible() -> None:
    one = _start(Pig(), ["random", "random", "random"], seed=8)
    two = _start(Pig(), ["random", "random", "random"], seed=8)
    one.play_bots()
    two.play_bots()
    assert one.engine.over and one.engine.digest() == two.engine.digest()


def test_undo_goes_back_to_the_persons_last_decision() -> None:
    session = _start(HighCard(), ["human", "human"])
    session.act(0, "tap")
    session.act(0, "tap")
    assert session.undo() == 1
    assert [e.action for e in session.engine.log] == ["tap"]
    bots_only = _start(HighCard(), ["random", "random"])
    with pytest.raises(UndoRefused, match="no person"):
        bots_only.undo()


def test_unknown_seat_kinds_are_refused() -> None:
    with pytest.raises(TabletopError, match="unknown seat kind 'genius'"):
        _start(Pig(), ["human", "genius"])


def test_open_information_undo_takes_back_bot_moves_with_the_persons_decision() -> None:
    session = _start(OpenHighCard(), ["human", "random"], seed=4)
    session.act(0, "tap")
    session.act(0, "keep")  # seat 1, a bot, is now due
    session.engine.act(1, "tap")  # a bot move that used no chance
    assert session.undo() == 2
    assert [(e.seat, e.action) for e in session.engine.log] == [(0, "tap")]


def test_hidden_information_undo_never_reaches_back_over_a_bot_decision() -> None:
    """A person must not act, see how the bot answers from its hidden hand, and retry."""
    session = _start(HighCard(), ["human", "random"], seed=4)
    session.act(0, "tap")
    session.act(0, "keep")  # seat 1, a bot, is now due
    session.engine.act(1, "tap")  # the bot answers, using no chance
    assert not session.can_undo() and not session.can_undo(by=0)
    with pytest.raises(UndoRefused, match="another seat's decision"):
        session.undo(by=0)
    assert [(e.seat, e.action) for e in session.engine.log] == [(0, "tap"), (0, "keep"), (1, "tap")]
    # before the bot has answered, the person may still take back their own decision
    again = _start(HighCard(), ["human", "random"], seed=4)
    again.act(0, "tap")
    assert again.undo(by=0) == 1 and again.engine.log == []


def test_with_several_people_only_the_decider_may_take_back() -> None:
    session = _start(HighCard(), ["human", "human"])
    session.act(0, "tap")
    session.act(0, "keep")
    with pytest.raises(UndoRefused, match="the last decision was Seat 0's"):
        session.undo(by=1)
    assert not session.can_undo(by=1) and session.can_undo(by=0)
    assert len(session.engine.log) == 2  # a refused undo changes nothing
    assert session.undo(by=0) == 1


def test_undo_is_refused_when_chance_came_after_the_decision() -> None:
    session = _start(HighCard(), ["human", "human"])
    with pytest.raises(UndoRefused, match="nothing to take back"):
        session.undo()
    session.act(0, "swap")  # a random draw
    with pytest.raises(UndoRefused, match="chance or a reveal"):
        session.undo()
