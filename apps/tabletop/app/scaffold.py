"""``tabletop new-game NAME``: a complete game plugin to start from.

Why: assembling a plugin from the tutorial's snippets needs a dozen decisions (the
namespace packages without ``__init__.py``, the entry point, the conformance kit's
wiring, mypy's settings for a plugin outside the repository) that have nothing to do
with the author's game. The scaffold makes them all, with a tiny playable game whose
``pip install -e``, ``pytest``, ``simulate`` and ``fuzz`` pass unchanged, so the author
edits a working game instead of debugging a new one. ``docs/writing-a-game.md`` starts
from it.

The templates are the ``*.tmpl`` files beside this module (package data of
tabletop-app); their placeholders are plain ``__NAME__`` words, replaced as text.
"""

from __future__ import annotations

import keyword
import re
from importlib import resources
from pathlib import Path

#: What a game id may be: lower case words of letters and digits joined by dashes,
#: starting with a letter (it becomes a Python module name with underscores).
ID_PATTERN = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MAX_ID = 40
#: Template -> where it goes in the new folder (``{module}`` is the package's name).
FILES = {
    "pyproject.toml.tmpl": "pyproject.toml",
    "README.md.tmpl": "README.md",
    "game.py.tmpl": "src/tabletop/games/{module}/__init__.py",
    "test_rules.py.tmpl": "tests/test_rules.py",
    "test_conformance.py.tmpl": "tests/test_conformance.py",
}
#: The framework version the new plugin asks for at least.
FRAMEWORK_MIN = "0.2"


class ScaffoldError(Exception):
    """A request refused before anything is written (one line, exit 2)."""


def names(game_id: str, title: str | None = None) -> dict[str, str]:
    """The placeholders' values for a game id, checked."""
    if len(game_id) > MAX_ID or not ID_PATTERN.fullmatch(game_id):
        raise ScaffoldError(
            f"{game_id[:60]!r} is not a game id: use lower case letters, digits and "
            f"dashes, starting with a letter, at most {MAX_ID} characters (e.g. my-game)"
        )
    module = game_id.replace("-", "_")
    if keyword.iskeyword(module):
        raise ScaffoldError(f"{game_id!r} is a Python keyword: choose another id")
    words = game_id.split("-")
    return {
        "__GAME_ID__": game_id,
        "__MODULE__": module,
        "__CLASS__": "".join(word.capitalize() for word in words),  # a letter first
        "__TITLE__": title or " ".join(words).capitalize(),
        "__DEFAULT_TARGET__": "20",
        "__FRAMEWORK_MIN__": FRAMEWORK_MIN,
    }


def render(template: str, values: dict[str, str]) -> str:
    """A template's text with every placeholder replaced."""
    text = resources.files("tabletop.app").joinpath("template", template).read_text("utf-8")
    for key, value in values.items():
        text = text.replace(key, value)
    return text


def create(game_id: str, parent: Path, *, title: str | None = None) -> Path:
    """Write the plugin for ``game_id`` into ``parent/game_id`` and return that folder.
    Refused, with nothing written, when the folder exists or the id is not usable."""
    if title is not None and (not title.strip() or any(c in title for c in '"\\\n')):
        raise ScaffoldError("the title must be one line without quotes or backslashes")
    values = names(game_id, title.strip() if title else None)
    taken = _installed(f"tabletop-{game_id}")
    if taken:
        raise ScaffoldError(
            f"tabletop-{game_id} is already installed ({taken}): choose another id, or "
            "the new plugin would replace it"
        )
    folder = parent / game_id
    if folder.exists():
        raise ScaffoldError(f"{folder} already exists: nothing was written")
    if parent.exists() and not parent.is_dir():
        raise ScaffoldError(f"{parent} is not a folder")
    rendered = {
        target.format(module=values["__MODULE__"]): render(template, values)
        for template, target in FILES.items()
    }
    try:
        for target, text in rendered.items():
            path = folder / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        (folder / "src/tabletop/games" / values["__MODULE__"] / "py.typed").write_text("")
    except OSError as exc:
        raise ScaffoldError(f"cannot write {folder}: {exc.strerror or exc}") from None
    return folder


def _installed(distribution: str) -> str:
    """The installed version of ``distribution``, or "" when it is not installed."""
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return ""


def next_steps(folder: Path, game_id: str) -> str:
    """What to do with the new plugin, as the command prints it."""
    return (
        f"Created {folder}: a playable game to make your own.\n"
        "Next:\n"
        f'  pip install -e "{folder}[test]"   (or: tabletop install -e {folder})\n'
        f"  pytest {folder}\n"
        f"  tabletop simulate {game_id} --games 100\n"
        f"  tabletop fuzz {game_id} --games 50\n"
        "The tutorial, docs/writing-a-game.md, goes through every part of it."
    )
