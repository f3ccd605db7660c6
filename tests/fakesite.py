"""Plugins installed the way pip installs them, for tests of what the app does with them.

Why: a test that swaps the CLI's container or registry by patching a private function
tests the patch; a plugin found through its entry point, as ``pip install`` leaves it,
is what the real command meets. Use the ``site`` fixture (tests/conftest.py) for the
folder: it comes first on ``sys.path`` for the test and leaves it afterwards.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path


def add_distribution(site: Path, name: str, entry: str) -> None:
    """What pip leaves in site-packages for a plugin: metadata with an entry point in
    the ``tabletop`` group (``entry`` is ``module`` or ``module:attribute``)."""
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(f"[tabletop]\n{name} = {entry}\n")


def install(site: Path, name: str, source: str) -> None:
    """Install a plugin module with ``source`` as its code, and its distribution.

    A module of that name imported by an earlier test is forgotten, as a new
    interpreter would not know it: each test loads the plugin it installed."""
    module = name.replace("-", "_") + "_plugin"
    (site / f"{module}.py").write_text(source)
    add_distribution(site, name, module)
    sys.modules.pop(module, None)
    importlib.invalidate_caches()


def install_games(site: Path, name: str, *games: str) -> None:
    """Install a plugin that registers ``games``, each ``"module:Class"`` importable
    from the tests folder (``toygames:Cursed``)."""
    lines = ["from tabletop.framework import hookimpl"]
    for index, game in enumerate(games):
        module, cls = game.split(":")
        lines.append(f"from {module} import {cls} as game_{index}")
    lines += ["@hookimpl", "def tabletop_register_games(register):"]
    lines += [f"    register(game_{index}())" for index in range(len(games))]
    install(site, name, "\n".join(lines) + "\n")
