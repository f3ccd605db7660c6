"""An in-memory save store for tests that need one but not a disk."""

from __future__ import annotations

import itertools

from tabletop.framework.errors import SaveError
from tabletop.framework.ports import SaveInfo, SaveStore
from tabletop.framework.record import GameRecord


class MemoryStore(SaveStore):
    """Keeps records in a dict (through their JSON form, as a file would); ``fail`` makes
    every save raise, as a full disk does."""

    def __init__(self, *, fail: bool = False) -> None:
        self.records: dict[str, GameRecord] = {}
        self.fail = fail
        self.saves = 0
        self._ids = itertools.count(1)

    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        if self.fail:
            raise SaveError("cannot write save: No space left on device")
        save_id = save_id or f"{record.game}-{next(self._ids)}"
        self.records[save_id] = GameRecord.from_json(record.to_json())
        self.saves += 1
        return save_id

    def load(self, save_id: str) -> GameRecord:
        if save_id not in self.records:
            raise SaveError(f"no save named {save_id}")
        return GameRecord.from_json(self.records[save_id].to_json())

    def list(self) -> list[SaveInfo]:
        return [
            SaveInfo(
                sid, r.game, "", r.players, tuple(r.seats), r.progress, len(r.actions), r.finished
            )
            for sid, r in sorted(self.records.items())
        ]

    def delete(self, save_id: str) -> None:
        self.records.pop(save_id, None)
