"""What ``tabletop games`` lists, without importing a single game when nothing changed.

Why: finding the games means importing every plugin, the framework and the composition
root, about a quarter of a second, for a listing that changes only when a plugin is
installed, removed or edited. So the listing is kept in a small cache file in the user
cache directory (``games-cache-<environment>.json``, one per Python environment;
``TABLETOP_CACHE_DIR`` moves it) together with what it was made from, and used only
while all of that is unchanged:

* the places packages come from: for each ``sys.path`` folder, the names and change
  times of its ``*.dist-info`` and ``*.egg-info`` entries. ``pip install``, an upgrade
  and ``pip uninstall`` add, replace or remove one of them (the name carries the
  version; a reinstall makes a new folder), so a plugin appears or disappears at the
  very next command;
* ``TABLETOP_LOAD_PLUGINS`` and the Python version;
* the files of every package the listing came from (each plugin's package and the
  packages its game classes are defined in), by size and change time, so an edited
  plugin in an editable install is read again.

A listing with a plugin that failed to load is never kept: failures are reported
afresh every time. A cache that is missing, unreadable, damaged or of another format is
ignored and written again; failing to write it is never an error.

Only the standard library is imported here: the point is to start fast.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tabletop.framework.plugins import GameRegistry

#: The cache file's format; another one is ignored.
FORMAT = 1
CACHE_STEM = "games-cache"
_METADATA = (".dist-info", ".egg-info")
#: What one listed game holds, and the type of each field.
_FIELDS = {
    "id": str,
    "title": str,
    "players": list,
    "version": str,
    "distribution": str,
    "description": str,
}


def default_log_file() -> Path:
    """The per-user log file, used when TABLETOP_LOG_FILE is unset or empty."""
    from platformdirs import user_log_path

    return user_log_path("tabletop", appauthor=False) / "tabletop.jsonl"


def log_file(value: str | None) -> Path:
    """TABLETOP_LOG_FILE, or the per-user log directory when unset or empty."""
    return Path(value) if value else default_log_file()


#: Overrides the folder of the cache (default: the user cache directory).
CACHE_ENV = "TABLETOP_CACHE_DIR"


def cache_dir() -> Path:
    """$TABLETOP_CACHE_DIR, or the per-user cache directory (``~/.cache/tabletop``)."""
    override = os.environ.get(CACHE_ENV)
    if override:
        return Path(override)
    from platformdirs import user_cache_path

    return user_cache_path("tabletop", appauthor=False)


def cache_file() -> Path:
    """Where this environment's listing is kept: one file per Python environment in the
    cache directory (a pipx app and a development venv list other games: sharing one
    file, each would throw away the other's)."""
    prefix = hashlib.sha256(os.fsencode(sys.prefix)).hexdigest()[:12]
    return cache_dir() / f"{CACHE_STEM}-{prefix}.json"


def environment() -> list[Any]:
    """What decides which plugins are installed and loaded, as plain data."""
    places: list[Any] = []
    for entry in sys.path:
        try:
            with os.scandir(entry or ".") as found:
                metadata = sorted(
                    [item.name, item.stat().st_mtime_ns]
                    for item in found
                    if item.name.endswith(_METADATA)
                )
        except OSError:  # missing, a zip file, unreadable: nothing listed from there
            metadata = None
        places.append([entry, metadata])
    return [
        FORMAT,
        sys.version,
        os.environ.get("TABLETOP_LOAD_PLUGINS"),
        places,
    ]


def _stamp(path: str) -> list[Any] | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return [path, stat.st_size, stat.st_mtime_ns]


def listing(registry: GameRegistry) -> list[dict[str, Any]]:
    """The installed games as ``tabletop games`` lists them, sorted by id."""
    return [
        {
            "id": installed.info.id,
            "title": installed.info.title,
            "players": [installed.info.min_players, installed.info.max_players],
            "version": installed.version,
            "distribution": installed.distribution,
            "description": installed.info.description,
        }
        for installed in sorted(registry.games.values(), key=lambda g: g.info.id)
    ]


def _package_files(module_name: str) -> list[str]:
    """The files of the package ``module_name`` belongs to (its outermost regular
    package), or of the module alone when it is not in one."""
    module = sys.modules.get(module_name)
    origin = getattr(module, "__file__", None)
    if not origin:
        return []
    folder = os.path.dirname(os.path.abspath(origin))
    if not os.path.exists(os.path.join(folder, "__init__.py")):
        return [os.path.abspath(origin)]
    while os.path.exists(os.path.join(os.path.dirname(folder), "__init__.py")):
        folder = os.path.dirname(folder)
    files: list[str] = []
    for root, dirs, names in os.walk(folder):
        dirs[:] = sorted(name for name in dirs if name != "__pycache__")
        files.extend(os.path.join(root, name) for name in sorted(names))
    return files


def sources(registry: GameRegistry) -> list[str]:
    """The files the listing was read from: every plugin module's package and the
    package of every class a game is made of."""
    modules: set[str] = set()
    if registry.manager is not None:
        for plugin in registry.manager.get_plugins():
            name = getattr(plugin, "__name__", None)
            if isinstance(name, str):
                modules.add(name)
    for installed in registry.games.values():
        modules.update(klass.__module__ for klass in type(installed.definition).__mro__)
    files = {path for name in sorted(modules) for path in _package_files(name)}
    return sorted(files)


def read(path: Path) -> list[dict[str, Any]] | None:
    """The cached listing, or None when there is none or it may be out of date."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("environment") != environment():
        return None
    files, games = data.get("files"), data.get("games")
    if not isinstance(files, list) or not isinstance(games, list):
        return None
    for stamp in files:
        if not isinstance(stamp, list) or not stamp or not isinstance(stamp[0], str):
            return None
        if _stamp(stamp[0]) != stamp:
            return None
    for game in games:
        if not isinstance(game, dict) or any(
            not isinstance(game.get(key), kind) for key, kind in _FIELDS.items()
        ):
            return None
    return games


def write(path: Path, games: list[dict[str, Any]], files: list[str]) -> None:
    """Keep ``games`` (made from ``files``) for the next command; best effort."""
    stamps = [stamp for stamp in map(_stamp, files) if stamp is not None]
    data = {"environment": environment(), "files": stamps, "games": games}
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_text(json.dumps(data), encoding="utf-8")
        os.replace(partial, path)  # readers see the old file or the new one, never half
    except OSError:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
