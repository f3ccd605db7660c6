"""Shared fixtures for the framework, adapter and CLI tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tabletop.framework import Engine, GameDefinition
from tabletop.framework.chance import dice_factory, rng_factory


@pytest.fixture
def new_engine() -> object:
    """Build an engine with the default adapters: new_engine(game, seed=1, players=2)."""

    def build(game: GameDefinition, seed: int = 1, players: int = 2, **options: str) -> Engine:
        return Engine(
            game,
            seed=seed,
            players=players,
            options=options,
            rng_factory=rng_factory,
            dice_factory=dice_factory,
        )

    return build


@pytest.fixture
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point saves and logs at a temporary directory for CLI and app tests."""
    monkeypatch.setenv("TABLETOP_SAVE_DIR", str(tmp_path / "saves"))
    monkeypatch.setenv("TABLETOP_LOG_FILE", str(tmp_path / "tabletop.jsonl"))
    yield tmp_path
