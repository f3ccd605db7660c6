"""The layers are enforced: import-linter's contracts ([tool.importlinter] in the top-level
pyproject.toml) hold for the real tree, and they do break when a module crosses a layer.

The broken case runs the real configuration against a copy of the source tree with a few
offending modules added; the copy comes first on PYTHONPATH, so import-linter analyses it
instead of the installed (editable) packages.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CONFIG = ROOT / "pyproject.toml"
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")

# Where each part of the "tabletop" namespace lives in the repository.
PORTIONS = {
    "framework": ROOT / "framework" / "tabletop" / "framework",
    "adapters": ROOT / "adapters" / "tabletop" / "adapters",
    "app": ROOT / "apps" / "tabletop" / "app",
}
GAMES = sorted(
    path.parent
    for path in ROOT.glob("plugins/*/src/tabletop/games/*/__init__.py")
    if path.parent.name.isidentifier()
)

CONTRACTS = {
    "framework": "The framework imports no adapter, app, game or app library",
    "adapters": "Adapters do not import the app",
    "front-ends": "The terminal UI and the game server never import each other",
    "games": "Games need only the framework (a board widget module may use Textual)",
}


def lint_imports(cwd: Path, pythonpath: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(pythonpath), env.get("PYTHONPATH")]))
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-logo", "--no-cache", str(CONFIG)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def copy_tree(target: Path) -> Path:
    """The Python sources of every layer and game, merged into one tabletop/ tree."""
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    namespace = target / "tabletop"
    for name, source in PORTIONS.items():
        shutil.copytree(source, namespace / name, ignore=skip)
    for game in GAMES:
        shutil.copytree(game, namespace / "games" / game.name, ignore=skip)
    return target


def test_every_layer_and_game_is_a_root_package() -> None:
    """A namespace portion missing from root_packages would be skipped without a word."""
    settings = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]
    expected = {f"tabletop.{name}" for name in PORTIONS}
    expected |= {f"tabletop.games.{game.name}" for game in GAMES}
    assert GAMES, "no game plugin found under plugins/*/src/tabletop/games"
    listed = set(settings["root_packages"])
    assert not expected - listed, (
        f"add {sorted(expected - listed)} to root_packages in [tool.importlinter] "
        "(pyproject.toml), or import-linter will not check them"
    )
    assert not listed - expected, f"{sorted(listed - expected)}: no such package in the tree"
    assert {contract["id"] for contract in settings["contracts"]} == set(CONTRACTS)


def test_the_real_tree_keeps_every_contract(tmp_path: Path) -> None:
    result = lint_imports(tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    for name in CONTRACTS.values():
        assert f"{name} KEPT" in result.stdout


def test_each_contract_breaks_when_a_module_crosses_its_layer(tmp_path: Path) -> None:
    tree = copy_tree(tmp_path / "tree")
    namespace = tree / "tabletop"
    # The framework reaches for an adapter and for the app's logging library.
    (namespace / "framework" / "_crossing.py").write_text(
        "from tabletop.adapters import saves\nimport structlog\n"
    )
    # An adapter reaches up into the app.
    (namespace / "adapters" / "_crossing.py").write_text("import tabletop.app\n")
    # The terminal UI reaches for the game server's client.
    (namespace / "adapters" / "tui" / "_crossing.py").write_text(
        "from tabletop.adapters.server import client\n"
    )
    # A game's rules (not its board widget module) import Textual.
    roots = tomllib.loads(CONFIG.read_text())["tool"]["importlinter"]["root_packages"]
    game = next(game.name for game in GAMES if f"tabletop.games.{game.name}" in roots)
    (namespace / "games" / game / "_crossing.py").write_text("import textual\n")

    result = lint_imports(tmp_path, pythonpath=tree)
    out = result.stdout
    assert result.returncode != 0, out + result.stderr
    for name in CONTRACTS.values():
        assert f"{name} BROKEN" in out, out
    assert "tabletop.framework._crossing -> tabletop.adapters.saves" in out
    assert "tabletop.framework._crossing -> structlog" in out
    assert "tabletop.adapters._crossing -> tabletop.app" in out
    assert "tabletop.adapters.tui._crossing -> tabletop.adapters.server.client" in out
    assert f"tabletop.games.{game}._crossing -> textual" in out
