"""``tabletop paths``: where this installation keeps its files.

Why: a player asked to attach a log or to back up the saves should not have to know
platformdirs' conventions or which environment variable overrides what. The answer is
worked out the way the app itself works it out (the same functions, the same variables),
so it cannot drift from where the files really go. Only the standard library and
platformdirs are imported: nothing is created, no plugin is loaded.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def locations() -> list[tuple[str, Path, str]]:
    """(name, path, why it is there) for every place the app writes to or reads from,
    as the current environment sets them."""
    from tabletop.adapters.saves import default_save_dir
    from tabletop.app.catalogue import cache_file, log_file

    saves_env = os.environ.get("TABLETOP_SAVE_DIR")
    log_env = os.environ.get("TABLETOP_LOG_FILE")
    saves = Path(saves_env) if saves_env else default_save_dir()
    log = log_file(log_env)
    return [
        ("saves", saves, "TABLETOP_SAVE_DIR" if saves_env else "default"),
        ("log", log, "TABLETOP_LOG_FILE" if log_env else "default"),
        ("cache", cache_file(), "beside the log: the list of installed games"),
        ("environment", Path(sys.prefix), "where `tabletop install` puts games"),
    ]


def as_json() -> dict[str, str]:
    """The locations as a flat JSON object, for scripts."""
    return {name: str(path) for name, path, _ in locations()}
