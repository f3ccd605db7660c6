"""Fixtures for the reliability tests: a saved Pig game to damage (the ``cli`` runner is
in tests/conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework.testing import new_engine
from tabletop.games.pig import Pig


@pytest.fixture
def pig_save(tmp_path: Path) -> Path:
    """A finished two-player Pig game saved by JsonSaveStore; returns its path."""
    engine = new_engine(Pig(), seed=5)
    while engine.prompt is not None:
        prompt = engine.prompt
        # hold at 12 or more: a plausible game with both kinds of action
        action = "hold" if engine.state["turn_total"] >= 12 else "roll"
        engine.act(prompt.seat, action)
    store = JsonSaveStore(tmp_path / "saves")
    return store.path_of(store.save(engine.record(seats=["human", "random"]), "pig-game"))
