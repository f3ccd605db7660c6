"""A full disk: the write fails cleanly, the old save stays whole, play goes on."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from relhelp import fingerprint
from sessions import start_session

from tabletop.adapters.headless import HeadlessUI
from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework.errors import SaveError
from tabletop.framework.session import GameSession
from tabletop.framework.testing import replay
from tabletop.games.pig import Pig


class DiskFull:
    """Replaces os.fsync (the saves module fsyncs every write): the data does not fit."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, fd: int) -> None:
        self.calls += 1
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))


def _session(store: JsonSaveStore) -> GameSession:
    return start_session(Pig(), ["human", "random"], seed=9, store=store)


def test_enospc_is_a_save_error_and_the_old_save_is_intact(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = JsonSaveStore(tmp_path)
    session = _session(store)
    assert session.save_id is not None
    path = store.path_of(session.save_id)
    before = fingerprint(path)
    monkeypatch.setattr(os, "fsync", DiskFull())
    with pytest.raises(SaveError, match="No space left on device"):
        store.save(session.record(), session.save_id)
    assert fingerprint(path) == before
    assert [p.name for p in tmp_path.iterdir()] == [path.name], "a temp file was left"


def test_the_session_keeps_playing_and_reports_then_recovers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = JsonSaveStore(tmp_path)
    session = _session(store)
    ui = HeadlessUI()  # the UI port is told of every failed save
    session.attach(ui)
    assert session.save_id is not None
    session.act(0, "roll")
    saved = store.load(session.save_id)

    full = DiskFull()
    monkeypatch.setattr(os, "fsync", full)
    while session.engine.prompt is not None and session.engine.prompt.seat == 0:
        session.act(0, "roll")  # the game goes on in memory
    session.play_bots(limit=3)
    assert full.calls >= 1
    assert session.last_save_error is not None and "No space left" in session.last_save_error
    assert ui.save_failures and "No space left" in ui.save_failures[0]
    assert store.load(session.save_id).actions == saved.actions, "the old save changed"

    monkeypatch.undo()  # space again: the next autosave catches up with everything
    prompt = session.engine.prompt
    assert prompt is not None
    session.act(prompt.seat, prompt.choices[0].action)
    assert session.last_save_error is None
    record = store.load(session.save_id)
    assert len(record.actions) == len(session.engine.log)
    engine = replay(Pig(), record)
    assert engine.digest() == session.engine.digest()
