"""The lean engine: batch play without undo snapshots, views handed out uncopied only
when the game promises fresh ones, and a promise that is broken is caught."""

from __future__ import annotations

from typing import Any

import pytest
from sessions import start_session
from toygames import Exploding, HighCard, OpenHighCard

from tabletop.framework import GameDefinition, State, TabletopError
from tabletop.framework.bots import RandomBot, bot_move
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.engine import Engine
from tabletop.framework.errors import PluginFault, UndoRefused
from tabletop.framework.fuzz import fuzz
from tabletop.framework.testing import new_engine
from tabletop.framework.views import shared_part


def _engine(game: GameDefinition, *, undo: bool, seed: int = 5) -> Engine:
    return new_engine(game, seed=seed, undo=undo)


def test_without_snapshots_a_crash_still_restores_the_state_by_replay() -> None:
    engine = _engine(Exploding(), undo=False)
    engine.act(0, "swap")  # chance before the crash: the replay must redraw it
    engine.act(1, "tap")
    before, events = engine.digest(), len(engine.history)
    with pytest.raises(PluginFault, match="ZeroDivisionError: boom"):
        engine.act(1, "tap")
    assert engine.digest() == before
    assert engine.state["taps"] == 1
    assert len(engine.history) == events and len(engine.log) == 2
    engine.act(1, "keep")  # and the game plays on from there
    assert engine.over


def test_without_snapshots_nothing_can_be_undone() -> None:
    engine = _engine(HighCard(), undo=False)
    engine.act(0, "tap")  # no chance, no reveal: undoable with snapshots
    assert not engine.can_undo() and engine.undo_depth() == 0
    with pytest.raises(UndoRefused):
        engine.undo()
    with_undo = _engine(HighCard(), undo=True)
    with_undo.act(0, "tap")
    assert with_undo.can_undo()


@pytest.mark.parametrize(
    ("seats", "keeps"), [(["random", "random"], False), (["human", "random"], True)]
)
def test_sessions_keep_snapshots_only_when_a_person_plays(seats: list[str], keeps: bool) -> None:
    session = start_session(HighCard(), seats, seed=1)
    assert session.engine.keeps_undo is keeps


class FreshHighCard(OpenHighCard):
    """Promises fresh views, and keeps the promise; remembers the last one it built."""

    fresh_views = True
    built: dict[str, Any] | None = None

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        view = super().view(state, seat)
        self.built = view
        return view


class Sharing(OpenHighCard):
    """Promises fresh views but hands out the state's own list."""

    fresh_views = True

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"held": state["cards"], "turn": state["turn"]}


class SharingUnpromised(Sharing):
    """Hands out the state's own list but promises nothing: the engine must copy."""

    fresh_views = False


class Remembering(OpenHighCard):
    """Promises fresh views but returns the same list on every call."""

    fresh_views = True
    _table: list[int] = [1, 2, 3]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {"held": list(state["cards"]), "table": self._table}


def test_a_game_with_fresh_views_is_not_copied_and_others_are() -> None:
    game = FreshHighCard()
    fresh = _engine(game, undo=True)
    assert fresh.view(0) is game.built
    trusted = _engine(Sharing(), undo=True)  # a broken promise is trusted (fuzz finds it)
    assert trusted.view(0)["held"] is trusted.state["cards"]
    copied = _engine(SharingUnpromised(), undo=True)  # without the promise: a copy
    view = copied.view(0)
    view["held"][0] = 1000
    assert copied.state["cards"][0] != 1000


def test_shared_part_names_where_a_view_shares_a_list() -> None:
    state = {"cards": [1, 2], "deck": {"rest": [3]}}
    assert shared_part({"cards": list(state["cards"])}, state) is None
    assert shared_part({"x": {"y": state["cards"]}}, state) == "view['x']['y']"
    assert shared_part({"rest": state["deck"]}, state) == "view['rest']"
    assert shared_part([1, 2], state) is None


@pytest.mark.parametrize(
    ("game", "words"), [(Sharing(), "view['held']"), (Remembering(), "view['table']")]
)
def test_the_fuzzer_catches_a_broken_fresh_views_promise(game: Any, words: str) -> None:
    report = fuzz(game, games=1, seed=0, rng_factory=rng_factory, dice_factory=dice_factory)
    assert report.errors == 1
    assert "fresh_views" in report.failures[0].reason and words in report.failures[0].reason


def test_the_fuzzer_accepts_a_kept_fresh_views_promise() -> None:
    report = fuzz(
        FreshHighCard(), games=3, seed=0, rng_factory=rng_factory, dice_factory=dice_factory
    )
    assert report.errors == 0, report.failures


class Blind(OpenHighCard):
    """A game whose view always fails: only bots that read views can notice."""

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        raise RuntimeError("no view today")


class Peeker(RandomBot):
    """Claims not to read its view, then does."""

    def choose(self, game: Any, view: dict[str, Any], prompt: Any, rng: Any) -> str:
        return str(view["held"])


def test_bots_that_do_not_read_views_never_make_one() -> None:
    engine = _engine(Blind(), undo=False)
    prompt = engine.prompt
    assert prompt is not None
    assert bot_move(engine, RandomBot(), rng_factory) in prompt.actions()
    reader = RandomBot()
    reader.reads_view = True
    with pytest.raises(RuntimeError, match="no view today"):
        bot_move(engine, reader, rng_factory)


def test_a_bot_that_reads_the_view_it_declined_is_told_so() -> None:
    engine = _engine(OpenHighCard(), undo=False)
    with pytest.raises(TabletopError, match="reads_view = False"):
        bot_move(engine, Peeker(), rng_factory)
