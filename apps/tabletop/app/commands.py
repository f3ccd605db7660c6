"""The sub-commands that manage the installation rather than play: ``paths``,
``completion``, ``install``, ``uninstall`` and ``new-game``.

Why a module of their own: ``cli.py`` holds the playing and batch commands; these are
added to its parser by one call (``add_parsers``) and import nothing beyond the
standard library until they run, so ``tabletop --help`` stays as fast as before.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: Makes a sub-parser: (sub-parsers, name, one-line summary, description).
SubParser = Callable[[Any, str, str, str], argparse.ArgumentParser]


def _usage(message: str) -> int:
    print(f"tabletop: error: {message}", file=sys.stderr)
    return 2


def cmd_paths(args: argparse.Namespace) -> int:
    from tabletop.app import paths

    if args.json:
        print(json.dumps(paths.as_json(), indent=2))
        return 0
    for name, path, why in paths.locations():
        print(f"{name:<12} {'-' if path is None else path}  ({why})")
    return 0


def cmd_completion(args: argparse.Namespace) -> int:
    from tabletop.app import completion

    sys.stdout.write(completion.script(args.root_parser, args.shell))
    return 0


def cmd_install(args: argparse.Namespace) -> int:
    from tabletop.app import install

    try:
        pip_args = install.install_arguments(
            args.target,
            editable=args.editable,
            upgrade=args.upgrade,
            force_reinstall=args.force_reinstall,
            pre=args.pre,
            no_cache_dir=args.no_cache_dir,
            no_index=args.no_index,
            find_links=args.find_links,
        )
        before = install.game_versions()
        code = install.run_pip(pip_args)
    except install.InstallError as exc:
        return _usage(str(exc))
    if code == 0:
        install.show_games()
        extras_only = all(
            install.canonical(t.split("[")[0]) in install.PROTECTED for t in args.target
        )
        if not extras_only and not install.added_games(before, install.game_versions()):
            print(
                "tabletop: note: no game was added or changed: what pip installed provides "
                "no game (a game's distribution has a `tabletop` entry point)",
                file=sys.stderr,
            )
    return code


def cmd_uninstall(args: argparse.Namespace) -> int:
    from tabletop.app import catalogue, install

    try:
        cache: Path | None = catalogue.cache_file()
    except RuntimeError:  # no home directory for the cache
        cache = None
    games = None if cache is None else catalogue.read(cache)
    known = install.game_distributions()
    if games is None and not all(install.canonical(name) in known for name in args.name):
        games = _listing()  # a game id to find the distribution of
    try:
        dists = install.distributions_of(args.name, games or [], known)
        pip_args = install.uninstall_arguments(
            dists, yes=args.yes, interactive=sys.stdin is not None and sys.stdin.isatty()
        )
        code = install.run_pip(pip_args)
    except install.InstallError as exc:
        return _usage(str(exc))
    if code == 0:
        install.show_games()
    return code


def _listing() -> list[dict[str, Any]]:
    """The installed games with their distributions, read from the plugins."""
    from tabletop.app import catalogue
    from tabletop.framework.plugins import load_registry

    return catalogue.listing(load_registry())


def cmd_new_game(args: argparse.Namespace) -> int:
    from tabletop.app import scaffold

    try:
        folder = scaffold.create(args.name, Path(args.dir), title=args.title)
    except scaffold.ScaffoldError as exc:
        return _usage(str(exc))
    print(scaffold.next_steps(folder, args.name))
    return 0


def _repeatable(parser: Any, short: str, long: str, metavar: str, help: str) -> None:
    """An option pip takes once per value (-e, -f): every value given, in order."""
    parser.add_argument(
        short, long, action="append", default=[], metavar=metavar, help=f"{help} (repeatable)"
    )


def add_parsers(sub: Any, make: SubParser, root: argparse.ArgumentParser) -> None:
    """Add this module's sub-commands to the ``tabletop`` parser ``root`` (which the
    completion script reads: handed over, so this module never imports the cli)."""
    paths = make(
        sub,
        "paths",
        "print where saves, the log, the cache and the server's files live",
        "Print where this installation keeps the saves, the log (attach it to a bug "
        "report), the cache of the games list, the game server's database, the list of "
        "your seats in server games (it holds their tokens), and the environment games "
        "are installed into, as the environment variables set them now. Creates nothing.",
    )
    paths.add_argument("--json", action="store_true", help="print JSON (default: words)")
    paths.set_defaults(func=cmd_paths)

    comp = make(
        sub,
        "completion",
        "print a shell completion script",
        "Print a completion script for bash, zsh or fish: sub-commands, options and "
        "installed game ids. bash: tabletop completion bash > "
        "~/.local/share/bash-completion/completions/tabletop; zsh: source <(tabletop "
        "completion zsh) in ~/.zshrc; fish: tabletop completion fish > "
        "~/.config/fish/completions/tabletop.fish",
    )
    comp.add_argument("shell", choices=("bash", "zsh", "fish"), help="the shell")
    comp.set_defaults(func=cmd_completion, root_parser=root)

    inst = make(
        sub,
        "install",
        "install games into the app's own environment",
        "Install game plugins with pip into the environment this command runs from "
        "(also under pipx, where a plain `pip install` would go elsewhere). TARGET is "
        "what pip takes: a distribution name (tabletop-pig), a folder or a wheel. pip's "
        "output and exit status are passed through; the games are listed afterwards.",
    )
    inst.add_argument("target", nargs="*", help="distributions, folders or wheels")
    _repeatable(
        inst, "-e", "--editable", "PATH", "install a game's folder in editable mode, for its author"
    )
    inst.add_argument("-U", "--upgrade", action="store_true", help="upgrade to the newest")
    inst.add_argument("--force-reinstall", action="store_true", help="reinstall")
    inst.add_argument("--pre", action="store_true", help="allow pre-releases")
    inst.add_argument("--no-cache-dir", action="store_true", help="do not use pip's cache")
    inst.add_argument("--no-index", action="store_true", help="do not use the package index")
    _repeatable(inst, "-f", "--find-links", "DIR", "look for wheels in DIR too")
    inst.set_defaults(func=cmd_install)

    uninst = make(
        sub,
        "uninstall",
        "remove games from the app's own environment",
        "Uninstall game plugins with pip from the environment this command runs from. "
        "NAME is a game id (pig) or the name of a distribution that provides games "
        "(tabletop-pig); anything else (the app, the framework, the libraries they need, "
        "a name that is not installed) is refused with exit 2. pip asks before removing "
        "unless --yes is given; with no terminal to ask on, --yes is needed. Saves are "
        "kept.",
    )
    uninst.add_argument("name", nargs="+", help="game ids or distribution names")
    uninst.add_argument("-y", "--yes", action="store_true", help="do not ask for confirmation")
    uninst.set_defaults(func=cmd_uninstall)

    new = make(
        sub,
        "new-game",
        "create a new game plugin to start from",
        "Create a complete game plugin in DIR/NAME (default: ./NAME): a pyproject with "
        "the entry point, a tiny playable game, its rules summary, rule tests and the "
        "conformance kit, and a README. Then: tabletop install -e NAME (into the app's "
        "own environment), tabletop simulate NAME, tabletop fuzz NAME, and for its tests "
        "pip install -e 'NAME[test]' and pytest NAME in a development environment of "
        "your own. An existing folder is never written into.",
    )
    new.add_argument("name", help="the game's id: lower case letters, digits and dashes")
    new.add_argument("--dir", default=".", metavar="D", help="parent folder (default: .)")
    new.add_argument("--title", help="the game's title (default: from NAME)")
    new.set_defaults(func=cmd_new_game)
