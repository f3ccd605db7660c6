"""Python's collector is tuned while the app plays (the terminal UI, batch runs) and
given back its settings after: the tuning is process-wide, so it is counted."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from typing import Any

import pytest

from tabletop.adapters.collector import YOUNG_THRESHOLD, CollectorTuning
from tabletop.adapters.headless import HeadlessUI
from tabletop.app.simulate import Simulation
from tabletop.framework.session import BotTurn


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
