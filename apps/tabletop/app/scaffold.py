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
import os
import re
import shutil
import tempfile
import unicodedata
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
#: The framework version assumed when its own cannot be read (a source tree).
FRAMEWORK_FALLBACK = "0.3.0"


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
        "__FRAMEWORK_SPEC__": framework_requirement(),
    }


def framework_requirement(version: str | None = None) -> str:
    """The new plugin's bounds on the framework: the minor version the app runs with
    (``>=0.3,<0.4``), since a 0.x framework's author API may change in its next minor
    version; from 1.0 on, up to the next major version (docs/releasing.md)."""
    if version is None:
        from importlib import metadata

        try:
            version = metadata.version("tabletop-framework")
        except metadata.PackageNotFoundError:
            version = FRAMEWORK_FALLBACK
    major, minor = (int(part) for part in [*re.findall(r"\d+", version), "0", "0"][:2])
    upper = f"{major}.{minor + 1}" if major == 0 else f"{major + 1}"
    return f">={major}.{minor},<{upper}"


def check_title(title: str) -> str:
    """The title, stripped, or the reason it cannot be one: it goes into the TOML, the
    Python and the README the scaffold writes, where a quote, a backslash or a control
    character (a carriage return, an escape sequence) would break them."""
    text = title.strip()
    if (
        not text
        or any(c in text for c in '"\\')
        or any(unicodedata.category(c).startswith("C") for c in text)
    ):
        raise ScaffoldError(
            "the title must be one line without quotes, backslashes or control characters"
        )
    return text


def render(template: str, values: dict[str, str]) -> str:
    """A template's text with every placeholder replaced."""
    text = resources.files("tabletop.app").joinpath("template", template).read_text("utf-8")
    for key, value in values.items():
        text = text.replace(key, value)
    return text


def create(game_id: str, parent: Path, *, title: str | None = None) -> Path:
    """Write the plugin for ``game_id`` into ``parent/game_id`` and return that folder.
    Refused, with nothing written, when the folder exists or the id is not usable."""
    values = names(game_id, check_title(title) if title is not None else None)
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
    rendered[f"src/tabletop/games/{values['__MODULE__']}/py.typed"] = ""
    _write_whole(folder, rendered)
    return folder


def _write_whole(folder: Path, files: dict[str, str]) -> None:
    """Write ``files`` (relative path -> text) as the new ``folder``, whole or not at
    all: into a hidden sibling first, renamed into place at the end, so a full disk
    leaves no half plugin behind (which the next try would refuse as existing)."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        partial = Path(tempfile.mkdtemp(prefix=f".{folder.name}-", dir=folder.parent))
    except OSError as exc:
        raise ScaffoldError(f"cannot write {folder}: {exc.strerror or exc}") from None
    try:
        for target, text in files.items():
            path = partial / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        partial.chmod(0o777 & ~_umask())  # mkdtemp makes it 0700
        partial.rename(folder)  # fails when the folder appeared meanwhile
    except OSError as exc:
        shutil.rmtree(partial, ignore_errors=True)
        raise ScaffoldError(
            f"cannot write {folder}: {exc.strerror or exc}; nothing was written"
        ) from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


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
        f"  tabletop install -e {folder}   (into the app's own environment, where "
        "tabletop finds it)\n"
        f"  tabletop simulate {game_id} --games 100\n"
        f"  tabletop fuzz {game_id} --games 50\n"
        "Its tests, in your development environment (a venv of your own):\n"
        f'  pip install -e "{folder}[test]" && pytest {folder}\n'
        "The tutorial, docs/writing-a-game.md, goes through every part of it."
    )
