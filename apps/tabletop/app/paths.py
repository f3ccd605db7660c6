"""``tabletop paths``: where this installation keeps its files.

Why: a player asked to attach a log or to back up the saves should not have to know
platformdirs' conventions or which environment variable overrides what. The answer is
worked out the way the app itself works it out (the same functions, the same variables),
so it cannot drift from where the files really go. Only the standard library and
platformdirs are imported: nothing is created, no plugin is loaded.

Without a home directory (HOME unset and no passwd entry) a default place cannot be
worked out: it is shown as missing, with the variable that sets it, instead of failing.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path


def _where(variable: str | None, default: Callable[[], Path]) -> tuple[Path | None, str]:
    """The path the variable sets (or the default place), and why; None without a
    home directory to put the default in."""
    value = os.environ.get(variable) if variable else None
    if value:
        return Path(value), variable or ""
    try:
        return default(), "default"
    except RuntimeError:  # platformdirs: no HOME and no passwd entry
        return None, f"no home directory: set {variable}" if variable else "no home directory"


def locations() -> list[tuple[str, Path | None, str]]:
    """(name, path or None, why it is there) for every place the app writes to or
    reads from, as the current environment sets them."""
    from tabletop.adapters.saves import default_save_dir
    from tabletop.adapters.server import remembered
    from tabletop.app import catalogue
    from tabletop.app.netplay import default_db

    saves, saves_why = _where("TABLETOP_SAVE_DIR", default_save_dir)
    log, log_why = _where("TABLETOP_LOG_FILE", catalogue.default_log_file)
    cache, cache_why = _where(catalogue.CACHE_ENV, catalogue.cache_file)
    if cache is not None and os.environ.get(catalogue.CACHE_ENV):
        cache = catalogue.cache_file()
    server_db, db_why = _where(None, default_db)
    seats, seats_why = _where(remembered.ENV, remembered.default_path)
    return [
        ("saves", saves, saves_why),
        ("log", log, log_why),
        ("cache", cache, f"{cache_why}: the list of installed games, for this environment"),
        ("server-db", server_db, f"{db_why}: tabletop serve's games (--db PATH elsewhere)"),
        (
            "server-games",
            seats,
            f"{seats_why}: your seats in server games, with their tokens: keep it private",
        ),
        ("environment", Path(sys.prefix), "where `tabletop install` puts games"),
    ]


def as_json() -> dict[str, str | None]:
    """The locations as a flat JSON object, for scripts (null: no home directory)."""
    return {name: None if path is None else str(path) for name, path, _ in locations()}
