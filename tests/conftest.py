"""Shared fixtures for the framework, adapter and CLI tests.

Helpers live in modules of their own (see docs/testing.md): toy games in toygames.py
and liars.py, sessions in sessions.py, engines in the conformance kit
(tabletop.framework.testing), fake installed plugins in fakesite.py.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from sessions import CliRun

if TYPE_CHECKING:
    from tabletop.app.container import Container


def _close_the_log() -> None:
    """Take the ``tabletop`` logger's handlers off and close them, as the end of the
    command's process would: a log file opened in one test must not be written, or
    flushed, in the next (a handler left on /dev/full fails the next set-up)."""
    logger = logging.getLogger("tabletop")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
        with contextlib.suppress(OSError):  # a full device: the file is closed anyway
            handler.close()


@pytest.fixture
def isolated_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Point saves, logs and the remembered server games at a temporary directory for
    CLI and app tests."""
    monkeypatch.setenv("TABLETOP_SAVE_DIR", str(tmp_path / "saves"))
    monkeypatch.setenv("TABLETOP_LOG_FILE", str(tmp_path / "tabletop.jsonl"))
    monkeypatch.setenv("TABLETOP_SERVER_GAMES", str(tmp_path / "server-games.json"))
    monkeypatch.setenv("TABLETOP_CACHE_DIR", str(tmp_path))  # the games list's cache
    monkeypatch.delenv("TABLETOP_LOAD_PLUGINS", raising=False)
    monkeypatch.delenv("TABLETOP_LOG_CONSOLE", raising=False)
    yield tmp_path


@pytest.fixture
def container(isolated_env: Path) -> Iterator[Any]:
    """The app's composition root, configured from an environment whose saves
    (``<tmp>/saves``) and log file (``<tmp>/tabletop.jsonl``) are temporary.

    Override its providers (``container.save_store.override(providers.Object(store))``)
    instead of building adapters by hand. Imported here, not at the top: a
    framework-only environment has no app.
    """
    from tabletop.app.container import build_container

    built = build_container(console=False)
    yield built
    built.reset_singletons()
    _close_the_log()


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A site-packages folder for the test's plugins (fakesite.install), first on
    ``sys.path`` while the test runs."""
    root = tmp_path / "site"
    root.mkdir()
    monkeypatch.syspath_prepend(str(root))
    return root


@pytest.fixture
def cli(isolated_env: Path, capsys: pytest.CaptureFixture[str]) -> Iterator[CliRun]:
    """Run the ``tabletop`` command in-process: ``cli("replay", path)`` -> (exit code,
    stdout, stderr); argparse's own exits are returned as codes too. By default the
    command builds its wiring from the (temporary) environment, as ``tabletop`` does;
    ``cli("play", container=container)`` runs it with the ``container`` fixture, whose
    providers the test may override."""
    from tabletop.app.cli import main

    def run(*argv: str, container: Container | None = None) -> tuple[int, str, str]:
        try:
            code = main(list(argv), container=container)
        except SystemExit as exit_:
            code = int(exit_.code or 0)
        out, err = capsys.readouterr()
        return code, out, err

    yield run
    _close_the_log()  # the commands' own containers opened it
