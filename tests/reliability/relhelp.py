"""Helpers shared by the reliability tests."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

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
