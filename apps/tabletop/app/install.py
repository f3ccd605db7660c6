"""``tabletop install`` / ``tabletop uninstall``: games into the app's own environment.

Why: ``pip install <game>`` goes to whichever pip comes first on the PATH, which is not
the app's environment when the app was installed with pipx (or into any venv that is
not activated). Like ``llm install`` and ``datasette install``, these commands run pip
with the interpreter that runs the app (``sys.executable -m pip``), so the game lands
where the app will find it. pip's own output and exit status are passed through: users
see the messages they know, and scripts get pip's codes.

``uninstall`` also takes a game's id (``pig``) and removes the distribution that
provides it, and refuses to remove the app or the framework themselves.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from collections.abc import Sequence

#: Distributions ``tabletop uninstall`` refuses to remove: the command would go with them.
PROTECTED = frozenset({"tabletop-app", "tabletop-framework"})


class InstallError(Exception):
    """A request refused before pip runs (one line, exit 2)."""


def pip_command() -> list[str]:
    """pip, run by the app's own interpreter; an error that says what to do when that
    environment has no pip (a venv made with ``--without-pip``)."""
    if importlib.util.find_spec("pip") is None:
        raise InstallError(
            f"the app's environment ({sys.prefix}) has no pip: run `{sys.executable} -m "
            "ensurepip`, or with pipx: `pipx inject tabletop-app <game>`"
        )
    return [sys.executable, "-m", "pip"]


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
    """The ``pip install`` arguments for a request (checked: at least one target)."""
    if not targets and not editable:
        raise InstallError("name at least one game to install (a distribution, path or wheel)")
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


def distributions_of(names: Sequence[str], games: Sequence[dict[str, object]]) -> list[str]:
    """Distribution names for ``tabletop uninstall``: a game id becomes the distribution
    that provides it; anything else is taken as a distribution name."""
    by_id = {str(game["id"]): str(game.get("distribution") or "") for game in games}
    found: list[str] = []
    for name in names:
        dist = by_id.get(name) or name
        if dist.lower().replace("_", "-") in PROTECTED:
            raise InstallError(
                f"{dist} is Tabletop itself, not a game: remove the app with the tool that "
                "installed it (pipx uninstall tabletop-app, or pip)"
            )
        if dist not in found:
            found.append(dist)
    return found


def run_pip(args: Sequence[str]) -> int:
    """Run pip in the app's environment with the terminal's output; pip's exit status."""
    return subprocess.call([*pip_command(), *args])


def show_games() -> None:
    """List the games after a change, from a fresh process (this one has the old
    plugins imported)."""
    sys.stdout.flush()
    subprocess.call([sys.executable, "-m", "tabletop", "games"])
