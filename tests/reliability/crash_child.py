"""Child process for the crash test: plays Pig with bots, autosaving every action.

Usage: crash_child.py SAVE_DIR JOURNAL SEED. It resumes the save named ``crash`` if
there is one (it must load: that is part of the test) or starts a new game. Around
every save it appends ``begin N`` and ``done N`` to JOURNAL (fsynced), so the parent
knows which action counts were completely saved when it killed the child. Saves are
padded to 100 kB and fsync is slowed down, so that a kill often lands in the middle
of a write (between the temporary file's creation and the rename).
"""

from __future__ import annotations

import os
import stat
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework.bots import BotFactory, RandomBot
from tabletop.framework.errors import SaveError
from tabletop.framework.record import GameRecord
from tabletop.framework.session import GameSession, make_bots
from tabletop.framework.testing import new_engine, replay
from tabletop.games.pig import Pig

if TYPE_CHECKING:
    from _typeshed import HasFileno

SAVE_ID = "crash"
PAD = "x" * 100_000
_real_fsync = os.fsync


def _slow_fsync(fd: int | HasFileno) -> None:
    """A slow disk: widens the window in which a write is half done."""
    _real_fsync(fd)
    number = fd if isinstance(fd, int) else fd.fileno()
    if stat.S_ISREG(os.fstat(number).st_mode):  # the temp file, not the directory
        time.sleep(0.01)


os.fsync = _slow_fsync
# Not tests/sessions.BOTS: this child runs as a script, with only its own folder on
# the path.
BOTS: dict[str, BotFactory] = {"random": lambda game: RandomBot()}


class Journal:
    def __init__(self, path: str) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def note(self, line: str) -> None:
        os.write(self.fd, f"{line}\n".encode())
        _real_fsync(self.fd)


class PaddedSession(GameSession):
    """Big saves: a kill mid-write is then likely, not lucky."""

    journal: Journal

    def record(self) -> GameRecord:
        record = super().record()
        record.meta["pad"] = PAD
        return record

    def autosave(self) -> None:
        count = len(self.engine.log)
        self.journal.note(f"begin {count}")
        super().autosave()
        if self.last_save_error is not None:
            raise SystemExit(f"save failed: {self.last_save_error}")
        self.journal.note(f"done {count}")


def main() -> None:
    store = JsonSaveStore(Path(sys.argv[1]))
    journal = Journal(sys.argv[2])
    seed = int(sys.argv[3])
    game = Pig()
    controllers = ["random"] * 6
    try:
        record = store.load(SAVE_ID)
    except SaveError:
        record = None
    if record is not None:
        engine = replay(game, record)
        journal.note(f"resumed {len(engine.log)}")
    while True:
        if record is None or engine.over:
            engine = new_engine(game, seed=seed, players=6, options={"target": "100"})
            seed += 1
            record = engine.record()
        session = PaddedSession(
            engine,
            controllers,
            make_bots(game, controllers, BOTS),
            store=store,
            save_id=SAVE_ID,
        )
        session.journal = journal
        session.autosave()
        journal.note("ready")
        session.play_bots()


if __name__ == "__main__":
    main()
