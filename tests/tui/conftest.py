"""Fixtures for the Textual UI tests: a temporary save directory and its store."""

from __future__ import annotations

from pathlib import Path

import pytest
from tui_support import make_registry

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework.plugins import GameRegistry


@pytest.fixture
def registry() -> GameRegistry:
    return make_registry()


@pytest.fixture
def save_dir(tmp_path: Path) -> Path:
    return tmp_path / "saves"


@pytest.fixture
def store(save_dir: Path) -> JsonSaveStore:
    return JsonSaveStore(save_dir)


@pytest.fixture(autouse=True)
def no_server_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The home screen's list of server games (``remembered``) in a temporary file,
    never the person's own: each test starts with none."""
    path = tmp_path / "server-games.json"
    monkeypatch.setenv("TABLETOP_SERVER_GAMES", str(path))
    return path
