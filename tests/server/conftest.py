"""Fixtures of the server tests (helpers in serverhelp.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from pghelp import NoPostgres, postgres_server
from serverhelp import ServerThread, make_hall

from tabletop.adapters.server.hall import Hall
from tabletop.adapters.server.server import Server
from tabletop.adapters.workers import ThreadWorkers


@pytest.fixture
def hall(tmp_path: Path) -> Iterator[Hall]:
    """A hall whose workers are threads (bots play by themselves), as a server's."""
    workers = ThreadWorkers()
    hall = make_hall(tmp_path / "server.sqlite3", workers=workers)
    yield hall
    workers.stop()


@pytest.fixture
def queued(tmp_path: Path) -> Hall:
    """A hall whose workers run only when drained (``hall.workers.drain()``): bots
    move one step at a time, on the test's thread."""
    return make_hall(tmp_path / "queued.sqlite3")


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


@pytest.fixture(scope="session")
def postgres() -> Iterator[str]:
    """A PostgreSQL server of the tests' own, for the whole run (each test makes its
    databases on it: ``pghelp.fresh_database``); skipped, saying why, where none can
    be started."""
    try:
        server = postgres_server()
        dsn = server.__enter__()
    except NoPostgres as exc:
        pytest.skip(str(exc))
    try:
        yield dsn
    finally:
        server.__exit__(None, None, None)
