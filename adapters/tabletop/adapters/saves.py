"""JSON file saves: one file per game, written atomically.

A save holds the record (seed, options, seats, action log, digest), never the state, so
a file is small, readable, diffable and cannot smuggle code in (JSON only, no pickle).
Writes go to a temporary file that is fsynced and renamed over the old one, so a crash
or a full disk at any moment leaves either the old save or the new one, never half.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from tabletop.framework.errors import SaveError
from tabletop.framework.ports import SaveInfo, SaveStore
from tabletop.framework.record import GameRecord, digest_of

SUFFIX = ".json"
#: Saves larger than this are refused on load: no real game log comes near it.
MAX_SAVE_BYTES = 16 * 1024 * 1024
#: A temporary file this old is the remains of an interrupted write, not one under way.
ORPHAN_AGE_SECONDS = 600
_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,120}$")


def default_save_dir() -> Path:
    """Per-user data directory (e.g. ~/.local/share/tabletop/saves)."""
    from platformdirs import user_data_path

    return user_data_path("tabletop", appauthor=False) / "saves"


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def atomic_write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` so that readers see the old or the new file, whole."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable where supported
        dir_fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def encode_record(record: GameRecord, saved_at: str) -> str:
    """The file's text: the record plus a checksum over it."""
    body = record.to_json()
    body["saved_at"] = saved_at
    body["checksum"] = digest_of(body)
    return json.dumps(body, indent=1, ensure_ascii=False) + "\n"


def decode_record(text: str, *, name: str = "save") -> tuple[GameRecord, str]:
    """Parse and check a save's text; return the record and its saved_at time."""
    try:
        data: Any = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SaveError(
            f"{name}: not valid JSON (line {exc.lineno}): damaged or not a save"
        ) from None
    if isinstance(data, dict) and "checksum" in data:
        claimed = data.pop("checksum")
        if claimed != digest_of(data):
            raise SaveError(f"{name}: checksum mismatch: the file was changed or damaged")
    record = _with_name(name, lambda: GameRecord.from_json(data))
    saved_at = data.get("saved_at", "") if isinstance(data, dict) else ""
    return record, str(saved_at)


def _with_name(name: str, build: Callable[[], GameRecord]) -> GameRecord:
    try:
        return build()
    except SaveError as exc:
        raise SaveError(f"{name}: {exc}") from None


def read_save_file(path: Path) -> tuple[GameRecord, str]:
    """Read one save file with every failure turned into a one-line SaveError."""
    name = path.name
    try:
        if path.is_dir():
            raise SaveError(f"{name}: is a directory, not a save file")
        if path.exists() and not path.is_file():  # a FIFO or device would block or never end
            raise SaveError(f"{name}: not a regular file")
        size = path.stat().st_size
        if size > MAX_SAVE_BYTES:
            raise SaveError(
                f"{name}: {size} bytes is too large for a save (limit {MAX_SAVE_BYTES})"
            )
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SaveError(f"{name}: no such save file") from None
    except PermissionError:
        raise SaveError(f"{name}: permission denied") from None
    except OSError as exc:
        raise SaveError(f"{name}: cannot read: {exc.strerror or exc}") from None
    if not raw.strip():
        raise SaveError(f"{name}: empty file (an interrupted write?)")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise SaveError(f"{name}: not text: damaged or not a save") from None
    return decode_record(text, name=name)


def _mtime(path: Path) -> str:
    """When a file was last changed; "" if it vanished or is a dangling link."""
    try:
        stamp = path.stat().st_mtime
    except OSError:
        return ""
    return datetime.fromtimestamp(stamp, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class JsonSaveStore(SaveStore):
    """Saves as ``<id>.json`` files in one directory."""

    def __init__(self, directory: Path) -> None:
        self.directory = Path(directory)

    def path_of(self, save_id: str) -> Path:
        if not _ID.match(save_id):
            raise SaveError(f"{save_id!r} is not a valid save name")
        return self.directory / f"{save_id}{SUFFIX}"

    def new_id(self, record: GameRecord) -> str:
        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        return f"{record.game}-{stamp}-{secrets.token_hex(2)}"

    def save(self, record: GameRecord, save_id: str | None = None) -> str:
        if save_id is None:
            save_id = self.new_id(record)
            while self.path_of(save_id).exists():  # a new game never replaces another
                save_id = self.new_id(record)
        try:
            atomic_write_text(self.path_of(save_id), encode_record(record, _now()))
        except OSError as exc:
            raise SaveError(f"cannot write save {save_id}: {exc.strerror or exc}") from exc
        return save_id

    def load(self, save_id: str) -> GameRecord:
        record, _ = read_save_file(self.path_of(save_id))
        return record

    def list(self) -> list[SaveInfo]:
        try:
            paths = [p for p in self.directory.iterdir() if p.name.endswith(SUFFIX)]
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise SaveError(f"cannot list saves in {self.directory}: {exc.strerror}") from None
        self._sweep_orphans()
        infos: list[SaveInfo] = []
        for path in paths:
            if path.name.startswith("."):
                continue
            save_id = path.name[: -len(SUFFIX)]
            try:
                record, saved_at = read_save_file(path)
            except SaveError as exc:
                infos.append(
                    SaveInfo(
                        save_id,
                        "?",
                        _mtime(path),
                        0,
                        (),
                        "",
                        0,
                        False,
                        error=str(exc),
                    )
                )
                continue
            infos.append(
                SaveInfo(
                    save_id=save_id,
                    game=record.game,
                    saved_at=saved_at,
                    players=record.players,
                    seats=tuple(record.seats),
                    progress=record.progress,
                    actions=len(record.actions),
                    finished=record.finished,
                )
            )
        infos.sort(key=lambda info: (info.saved_at, info.save_id), reverse=True)
        return infos

    def _sweep_orphans(self) -> None:
        """Delete temporary files left by writes that a crash interrupted.

        They never hold a save (the rename did not happen), but they would pile up. Only
        old ones go, so a write in progress in another process is never touched.
        """
        cutoff = time.time() - ORPHAN_AGE_SECONDS
        with contextlib.suppress(OSError):
            for path in self.directory.glob(".*.tmp"):
                with contextlib.suppress(OSError):
                    if path.is_file() and path.stat().st_mtime < cutoff:
                        path.unlink()

    def delete(self, save_id: str) -> None:
        try:
            self.path_of(save_id).unlink()
        except FileNotFoundError:
            raise SaveError(f"no save named {save_id}") from None
