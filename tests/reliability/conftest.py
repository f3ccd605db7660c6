"""Fixtures for the reliability tests: a CLI runner and a saved Pig game to damage."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from tabletop.adapters.saves import JsonSaveStore
from tabletop.app.cli import main
from tabletop.framework import Engine
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.games.pig import Pig

CliRun = Callable[..., tuple[int, str, str]]


@pytest.fixture
def cli(isolated_env: Path, capsys: pytest.CaptureFixture[str]) -> CliRun:
    """``cli("replay", path)`` -> (exit code, stdout, stderr), argparse exits included."""

    def run(*argv: str) -> tuple[int, str, str]:
        try:
            code = main(list(argv))
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def pig_save(tmp_path: Path) -> Path:
    """A finished two-player Pig game saved by JsonSaveStore; returns its path."""
    engine = Engine(
        Pig(), seed=5, players=2, options={}, rng_factory=rng_factory, dice_factory=dice_factory
    )
    while engine.prompt is not None:
        prompt = engine.prompt
        # hold at 12 or more: a plausible game with both kinds of action
        action = "hold" if engine.state["turn_total"] >= 12 else "roll"
        engine.act(prompt.seat, action)
    store = JsonSaveStore(tmp_path / "saves")
    return store.path_of(store.save(engine.record(seats=["human", "random"]), "pig-game"))
