"""Crash safety: SIGKILL a process that is saving, at random moments, again and again.

Proves: whatever moment a process dies (mid-write included), the save on disk loads,
verifies against its digest, and holds an action count the process had finished
saving (or the one it was writing, if the rename itself had happened).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework.testing import replay
from tabletop.games.pig import Pig

CHILD = Path(__file__).with_name("crash_child.py")
KILLS = 20


def _allowed_counts(journal: Path) -> set[int]:
    """Action counts the save may hold: the last one done, and one begun but not done."""
    last_done: int | None = None
    in_flight: int | None = None
    for line in journal.read_text().splitlines():
        word, _, number = line.partition(" ")
        if word == "begin":
            in_flight = int(number)
        elif word == "done":
            last_done, in_flight = int(number), None
    return {count for count in (last_done, in_flight) if count is not None}


def _wait_until_ready(proc: subprocess.Popen[bytes], journal: Path, readies: int) -> None:
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        if journal.exists() and journal.read_text().count("ready\n") > readies:
            return
        if proc.poll() is not None:
            err = proc.stderr.read().decode() if proc.stderr else ""
            pytest.fail(f"the child died on its own (exit {proc.returncode}): {err}")
        time.sleep(0.005)
    pytest.fail("the child never got ready")


@pytest.mark.slow
def test_sigkill_at_random_points_never_loses_a_completed_save(tmp_path: Path) -> None:
    chooser = random.Random(20261129)
    saves, journal = tmp_path / "saves", tmp_path / "journal"
    store = JsonSaveStore(saves)
    kills = interrupted_writes = 0
    while kills < KILLS:  # a number of kills, not a time: a busy machine kills as often
        readies = journal.read_text().count("ready\n") if journal.exists() else 0
        proc = subprocess.Popen(
            [sys.executable, str(CHILD), str(saves), str(journal), str(kills + 1)],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        try:
            _wait_until_ready(proc, journal, readies)
            time.sleep(chooser.uniform(0.0, 0.2))
            proc.send_signal(signal.SIGKILL)
            assert proc.wait(timeout=10) == -signal.SIGKILL
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
        kills += 1
        leftovers = list(saves.glob(".crash.json.*.tmp"))
        if leftovers:  # the kill landed between the temp file and the rename
            interrupted_writes += 1
            for temp in leftovers:
                os.unlink(temp)

        allowed = _allowed_counts(journal)
        record = store.load("crash")
        assert len(record.actions) in allowed, (
            f"kill {kills}: save has {len(record.actions)} actions, expected one of {allowed}"
        )
        engine = replay(Pig(), record)
        assert engine.digest() == record.digest
        [info] = store.list()
        assert info.error is None and info.actions == len(record.actions)

    print(f"crash test: {kills} kills, {interrupted_writes} mid-write")
    assert interrupted_writes >= 1, "no kill landed mid-write: the test proved too little"
