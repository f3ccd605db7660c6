"""Fixtures of the server tests (helpers in serverhelp.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from serverhelp import ServerThread, make_hall

from tabletop.adapters.server.hall import Hall
from tabletop.adapters.server.server import Server


@pytest.fixture
def hall(tmp_path: Path) -> Hall:
    return make_hall(tmp_path / "server.sqlite3")


@pytest.fixture
def served(hall: Hall) -> Iterator[ServerThread]:
    with ServerThread(Server(hall)) as thread:
        yield thread


@pytest.fixture(autouse=True)
def no_server_games(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``tabletop join`` remembers seats for the home screen: in a temporary file here."""
    path = tmp_path / "server-games.json"
    monkeypatch.setenv("TABLETOP_SERVER_GAMES", str(path))
    return path
