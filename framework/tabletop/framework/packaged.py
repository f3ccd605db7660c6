"""Files a game ships inside its own package: JSON tables, a rules summary.

The big games each carried the same few lines to read them; one place reads them the
same way (UTF-8 text, a JSON object at the top), from an installed wheel or a source
checkout alike (``importlib.resources``).
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any


def package_text(package: str | None, *path: str) -> str:
    """The text of the file at ``path`` inside ``package`` (pass ``__package__``)."""
    if not package:
        raise ValueError("package_text needs a package name (pass __package__)")
    return resources.files(package).joinpath(*path).read_text(encoding="utf-8")


def package_json(package: str | None, *path: str) -> dict[str, Any]:
    """The JSON object in the file at ``path`` inside ``package``."""
    loaded = json.loads(package_text(package, *path))
    if not isinstance(loaded, dict):
        raise ValueError(f"{'/'.join(path)} in {package} holds no JSON object")
    return loaded
