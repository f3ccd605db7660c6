"""A game whose code raises: a clear PluginFault, the game as it was, nothing lost."""

from __future__ import annotations

from pathlib import Path

import pytest
from relhelp import saving_to
from sessions import CHANCE, start_session
from toygames import Exploding

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework.engine import Engine
from tabletop.framework.errors import PluginFault
from tabletop.framework.fuzz import fuzz
from tabletop.framework.testing import new_engine, replay


def _engine(seed: int = 11) -> Engine:
    return new_engine(Exploding(), seed=seed)


def test_a_raising_apply_is_a_plugin_fault_with_the_state_restored() -> None:
    engine = _engine()
    engine.act(0, "tap")
    digest, history = engine.digest(), list(engine.history)
    with pytest.raises(PluginFault) as caught:
        engine.act(0, "tap")  # Exploding raises here after half-changing the state
    fault = caught.value
    assert "ZeroDivisionError: boom" in str(fault) and "'tap'" in str(fault)
    assert fault.game == "exploding" and fault.seed == 11
    assert fault.actions == [[0, "tap"], [0, "tap"]]
    assert engine.digest() == digest and engine.history == history
    assert engine.state["taps"] == 1 and len(engine.log) == 1
    engine.act(0, "keep")  # and the game goes on
    assert engine.prompt is not None and engine.prompt.seat == 1


def test_the_autosave_keeps_the_game_from_before_the_fault(tmp_path: Path) -> None:
    store = JsonSaveStore(tmp_path)
    session = start_session(Exploding(), ["human", "human"], seed=11, store=store)
    assert session.save_id is not None
    session.act(0, "tap")
    with pytest.raises(PluginFault):
        session.act(0, "tap")
    record = store.load(session.save_id)
    assert record.actions == [(0, "tap")]
    reloaded = replay(Exploding(), record)
    assert reloaded.digest() == session.engine.digest()
    assert session.last_save_error is None


def test_fuzzing_reports_the_fault_with_a_save_that_reproduces_it(tmp_path: Path) -> None:
    store = JsonSaveStore(tmp_path)

    report = fuzz(Exploding(), games=20, seed=3, on_failure=saving_to(store, "fault"), **CHANCE)
    assert report.errors > 0 and report.completed + report.errors == 20
    failure = report.failures[0]
    assert "PluginFault" in failure.reason and "boom" in failure.reason
    assert Path(failure.save).exists()
    record = store.load(Path(failure.save).stem)
    assert record.seed == failure.seed and record.meta["fuzz"]["log"] == failure.log
    engine = replay(Exploding(), record)
    seat, action = failure.log[-1]
    with pytest.raises(PluginFault):  # the saved game plus the logged action: same fault
        engine.act(seat, action)
