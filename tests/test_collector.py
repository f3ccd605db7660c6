"""Python's collector is tuned while the app plays (the terminal UI, batch runs) and
given back its settings after: the tuning is process-wide, so it is counted."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from tabletop.adapters.collector import YOUNG_THRESHOLD, CollectorTuning
from tabletop.adapters.headless import HeadlessUI
from tabletop.app.simulate import Simulation
from tabletop.framework.session import BotTurn, GameSession


@pytest.fixture
def settings() -> Iterator[tuple[int, int, int]]:
    """The collector's settings before the test, restored whatever the test did."""
    before = gc.get_threshold()
    frozen = gc.get_freeze_count()
    yield before
    if gc.get_freeze_count() != frozen:
        gc.unfreeze()
    gc.set_threshold(*before)


def test_overlapping_users_leave_the_collector_as_the_first_found_it(
    settings: tuple[int, int, int],
) -> None:
    tuning = CollectorTuning()
    tuning.enter()
    tuning.enter()  # a second user starts before the first ends
    tuned = gc.get_threshold()
    assert tuned[0] == max(YOUNG_THRESHOLD, settings[0]) and tuned[1:] == settings[1:]
    tuning.leave()  # the first ends: still tuned for the second
    assert gc.get_threshold() == tuned
    tuning.leave()  # the last ends
    assert gc.get_threshold() == settings


def test_a_failing_batch_run_still_gives_the_settings_back(
    settings: tuple[int, int, int],
) -> None:
    tuning = CollectorTuning()
    with pytest.raises(RuntimeError), tuning.tuned():
        assert gc.get_threshold()[0] == max(YOUNG_THRESHOLD, settings[0])
        raise RuntimeError("a batch run failed")
    assert gc.get_threshold() == settings
    assert tuning.users == 0


class ThresholdUI(HeadlessUI):
    """Notes the collector's youngest threshold at every bot move it is told of."""

    def __init__(self, seen: list[int]) -> None:
        super().__init__()
        self.seen = seen

    def bot_thinking(self, turn: BotTurn) -> Any:
        self.seen.append(gc.get_threshold()[0])
        return super().bot_thinking(turn)


def test_simulate_plays_with_the_collector_tuned_and_restores_it(
    container: Any, settings: tuple[int, int, int]
) -> None:
    seen: list[int] = []
    simulation = Simulation(container.batch_sessions(), ui=lambda: ThresholdUI(seen))
    report = simulation.run("pig", games=2, seed=1, seats=["random", "random"], options={})
    assert report.completed == 2 and seen
    assert set(seen) == {max(YOUNG_THRESHOLD, settings[0])}
    assert gc.get_threshold() == settings


@pytest.fixture
def collector_off() -> Iterator[None]:
    """No automatic collection during the test (so only reference counts free objects)."""
    was_on = gc.isenabled()
    gc.collect()
    gc.disable()
    yield
    if was_on:
        gc.enable()


def test_a_simulated_game_is_freed_without_the_cyclic_collector(
    container: Any, collector_off: None
) -> None:
    """Each finished game's session, UI, log observer, engine and history go as soon as
    the run lets go of them: a game left in a reference cycle waits for a collection,
    which cost simulate a sixth of its time."""
    sessions: list[weakref.ref[GameSession]] = []

    class Watched(HeadlessUI):
        def attached(self, session: GameSession) -> None:
            super().attached(session)
            sessions.append(weakref.ref(session))

    simulation = Simulation(container.batch_sessions(), ui=Watched)
    simulation.run("red-flag-over-paris", games=1, seed=1, seats=["random"] * 2, options={})
    gc.collect()  # what the first game set up for good (the log, caches)
    report = simulation.run(
        "red-flag-over-paris", games=3, seed=2, seats=["random", "random"], options={}
    )
    assert report.completed == 3 and len(sessions) == 4
    assert [ref() for ref in sessions] == [None] * 4
    assert gc.collect() == 0


def test_a_closed_session_tells_nobody_more(container: Any) -> None:
    ui = HeadlessUI()
    session: GameSession = container.batch_sessions().start(
        "pig", seed=1, players=2, options={}, seats=["human", "human"], ui=ui
    )
    session.close()
    assert ui.ended and ui.session is session  # the UI may still read the game
    session.act(0, "roll")
    assert ui.moves == [] and len(session.engine.log) == 1
