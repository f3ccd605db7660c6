"""Helpers shared by the reliability tests."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tabletop.adapters.saves import JsonSaveStore
from tabletop.framework.fuzz import FuzzFailure
from tabletop.framework.record import digest_of


def read(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def write_signed(path: Path, data: dict[str, Any]) -> None:
    """Write save data with a valid checksum: a well-formed file with edited content."""
    body = {key: value for key, value in data.items() if key != "checksum"}
    body["checksum"] = digest_of(body)
    path.write_text(json.dumps(body, indent=1))


def fingerprint(path: Path) -> str:
    """What must not change: the bytes of a file, or that a directory is a directory."""
    if path.is_dir():
        return "directory"
    return hashlib.sha256(path.read_bytes()).hexdigest()


def saving_to(store: JsonSaveStore, prefix: str = "fail") -> Callable[[FuzzFailure], str]:
    """An ``on_failure`` for ``fuzz``: each failing game saved in ``store`` (named by its
    seed) and the path of its save returned, as ``tabletop fuzz`` does."""

    def save(failure: FuzzFailure) -> str:
        assert failure.record is not None, failure.reason
        return str(store.path_of(store.save(failure.record, f"{prefix}-{failure.seed}")))

    return save
