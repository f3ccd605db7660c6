"""``tabletop install`` / ``tabletop uninstall``: games into the app's own environment.

Why: ``pip install <game>`` goes to whichever pip comes first on the PATH, which is not
the app's environment when the app was installed with pipx or ``uv tool`` (or into any
venv that is not activated). Like ``llm install`` and ``datasette install``, these
commands run pip with the interpreter that runs the app (``sys.executable -m pip``), so
the game lands where the app will find it. pip's own output and exit status are passed
through: users see the messages they know, and scripts get pip's codes.

pip is one of the app's dependencies for this reason: ``uv tool install`` and pipx's uv
backend make environments without pip. Should it be missing all the same, ``uv pip
--python`` does the work where uv is on the PATH.

``uninstall`` removes games only: a game's id (``pig``) or the name of a distribution
that provides games (one with a ``tabletop`` entry point), spelled as pip would accept
it. Anything else (the app, the framework, a library the app needs, a name nobody
installed, a requirement with a version) is refused before pip runs: removing
``platformdirs`` left every later command failing.
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import shutil
import subprocess
import sys
from collections.abc import Sequence
from importlib import metadata

#: The distributions that are Tabletop itself: the command would go with them.
PROTECTED = frozenset({"tabletop-app", "tabletop-framework"})
#: The entry point group of game plugins.
GROUP = "tabletop"
#: A distribution name as the packaging standards allow it (PEP 508's name).
NAME = re.compile(r"[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9])?")


class InstallError(Exception):
    """A request refused before pip runs (one line, exit 2)."""


def canonical(name: str) -> str:
    """A distribution name as pip compares them (PEP 503): ``Tabletop_App``,
    ``tabletop.app`` and ``tabletop-app`` are one."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pip_command() -> list[str]:
    """pip, run by the app's own interpreter; ``uv pip`` aimed at it when pip is
    missing and uv is on the PATH; else an error that says what to do."""
    if importlib.util.find_spec("pip") is not None:
        return [sys.executable, "-m", "pip"]
    uv = shutil.which("uv")
    if uv is not None:
        return [uv, "pip", "--python", sys.executable]  # see run_pip for the order
    raise InstallError(
        f"the app's environment ({sys.prefix}) has no pip and no uv is on the PATH: run "
        f"`{sys.executable} -m ensurepip`, or install games with the tool that installed "
        "the app (`uv tool install tabletop-app --with <game>`, `pipx inject tabletop-app "
        "<game>`)"
    )


def install_arguments(
    targets: Sequence[str],
    *,
    editable: Sequence[str] = (),
    upgrade: bool = False,
    force_reinstall: bool = False,
    pre: bool = False,
    no_cache_dir: bool = False,
    no_index: bool = False,
    find_links: Sequence[str] = (),
) -> list[str]:
    """The ``pip install`` arguments for a request (checked: at least one target, and
    no target that pip would take as an option, such as ``--target=DIR``)."""
    if not targets and not editable:
        raise InstallError("name at least one game to install (a distribution, path or wheel)")
    for target in [*targets, *editable]:
        if not target.strip() or target.startswith("-"):
            raise InstallError(
                f"{target!r} is not a game to install: give a distribution name, a folder "
                "or a wheel (the options tabletop install takes are in its --help)"
            )
    args = ["install"]
    flags = {
        "--upgrade": upgrade,
        "--force-reinstall": force_reinstall,
        "--pre": pre,
        "--no-cache-dir": no_cache_dir,
        "--no-index": no_index,
    }
    args += [flag for flag, wanted in flags.items() if wanted]
    for link in find_links:
        args += ["--find-links", link]
    for path in editable:
        args += ["--editable", path]
    return [*args, *targets]


def game_distributions() -> dict[str, str]:
    """The installed distributions that provide games (a ``tabletop`` entry point):
    canonical name -> the name as installed."""
    importlib.invalidate_caches()  # a fresh look: pip may have just changed them
    found: dict[str, str] = {}
    for dist in metadata.distributions():
        name = dist.metadata["Name"] or ""
        if name and any(point.group == GROUP for point in dist.entry_points):
            found[canonical(name)] = name
    return found


def game_versions() -> dict[str, str]:
    """canonical name -> version of every distribution that provides games."""
    versions: dict[str, str] = {}
    for key, name in game_distributions().items():
        try:
            versions[key] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def _needed() -> set[str]:
    """The canonical names of what the app and the framework need to run."""
    needed: set[str] = set()
    for dist in PROTECTED:
        try:
            requirements = metadata.requires(dist) or []
        except metadata.PackageNotFoundError:
            continue
        for requirement in requirements:
            if "extra ==" in requirement.replace('"', "").replace("'", ""):
                continue  # an extra's (the user's choice), not the app's own
            match = NAME.match(requirement.strip())
            if match is not None:
                needed.add(canonical(match.group(0)))
    return needed


def distributions_of(
    names: Sequence[str],
    games: Sequence[dict[str, object]],
    installed: dict[str, str] | None = None,
) -> list[str]:
    """Distribution names for ``tabletop uninstall``: a game id becomes the
    distribution that provides it; a distribution must provide games. ``installed``:
    the game distributions (default: those of this environment)."""
    by_id = {str(game["id"]): str(game.get("distribution") or "") for game in games}
    providers = game_distributions() if installed is None else installed
    found: list[str] = []
    for name in names:
        dist = by_id.get(name) or name
        if not NAME.fullmatch(dist):
            raise InstallError(
                f"{name!r} is not a game: give a game's id (see tabletop games) or its "
                "distribution's name, without a version or options"
            )
        key = canonical(dist)
        if key in PROTECTED:
            raise InstallError(
                f"{dist} is Tabletop itself, not a game: remove the app with the tool that "
                "installed it (pipx uninstall tabletop-app, uv tool uninstall tabletop-app, "
                "or pip)"
            )
        if key not in providers:
            raise InstallError(_not_a_game(dist, key, by_id))
        if providers[key] not in found:
            found.append(providers[key])
    return found


def _not_a_game(dist: str, key: str, by_id: dict[str, str]) -> str:
    """Why ``dist`` cannot be uninstalled here, in one line."""
    games = ", ".join(sorted(by_id)) or "none"
    if key in _needed():
        return (
            f"{dist} is not a game but a library Tabletop needs: tabletop uninstall "
            f"removes games only (installed games: {games})"
        )
    if _installed(dist):
        return (
            f"{dist} is not a game (it has no tabletop entry point): tabletop uninstall "
            f"removes games only (installed games: {games})"
        )
    return f"no game or game distribution named {dist!r} is installed (installed games: {games})"


def _installed(name: str) -> bool:
    try:
        metadata.distribution(name)
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return True


def uninstall_arguments(dists: Sequence[str], *, yes: bool, interactive: bool) -> list[str]:
    """The ``pip uninstall`` arguments. Without ``--yes`` pip asks on the terminal;
    with no terminal to ask on, the request is refused instead of pip failing on it."""
    if not yes and not interactive:
        raise InstallError(
            "there is no terminal to confirm on: run tabletop uninstall --yes to remove "
            f"{', '.join(dists)}"
        )
    return ["uninstall", *(["--yes"] if yes else []), *dists]


def run_pip(args: Sequence[str]) -> int:
    """Run pip in the app's environment with the terminal's output; pip's exit status.
    ``uv pip`` takes the same sub-commands; its ``uninstall`` never asks."""
    command = pip_command()
    if command[1:3] == ["pip", "--python"]:  # uv: `uv pip install --python PY args`
        sub, *rest = args
        rest = [arg for arg in rest if arg != "--yes"]
        return subprocess.call([command[0], "pip", sub, "--python", command[3], *rest])
    return subprocess.call([*command, *args])


def added_games(before: dict[str, str], after: dict[str, str]) -> list[str]:
    """The game distributions an install added or changed (by version)."""
    return sorted(name for name, version in after.items() if before.get(name) != version)


def show_games() -> None:
    """List the games after a change, from a fresh process (this one has the old
    plugins imported)."""
    sys.stdout.flush()
    subprocess.call([sys.executable, "-m", "tabletop", "games"])


def missing_dependency(exc: BaseException) -> str | None:
    """For a ``ModuleNotFoundError`` of a module Tabletop needs (its distribution
    uninstalled by hand, say), the one line that says how to put it back; else None.
    Only the standard library is used: the framework itself may be what is missing."""
    if not isinstance(exc, ModuleNotFoundError) or not exc.name:
        return None
    if exc.name.split(".")[:2] == ["tabletop", "framework"]:
        dist = "tabletop-framework"
    else:
        dist = canonical(exc.name.split(".")[0])
        if dist not in _needed():
            return None
    return (
        f"Tabletop's environment ({sys.prefix}) lacks {dist}, which it needs (was it "
        f"uninstalled?): put it back with `tabletop install {dist}` or "
        f"`{sys.executable} -m pip install {dist}`"
    )
