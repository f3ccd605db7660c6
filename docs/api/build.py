"""Build the API reference (HTML) from the docstrings, failing on any warning.

    python docs/api/build.py [OUTPUT]      # default: build/api (git ignores build/)

Documented: ``tabletop.framework`` (everything a game author uses: the game API, the
engine, chance, views, decisions, the conformance kit, the plugin hooks) and the
Textual UI's plugin hooks (``tabletop.adapters.tui.hookspecs``: the board widget).
CI runs this (``.ci/run``); a docstring or annotation pdoc cannot read fails it.

pdoc evaluates string annotations (``from __future__ import annotations``) itself,
and in two cases in the wrong namespace: a NamedTuple's generated constructor (made in
``collections``, where the field types are unknown) and a method annotated with a
builtin its class shadows (``SaveStore.list() -> list[SaveInfo]``). Before rendering,
each function's annotations are resolved once with ``typing.get_type_hints`` in its own
module; one that cannot be resolved there is left as it is and pdoc's warning fails the
build.
"""

from __future__ import annotations

import builtins
import importlib
import inspect
import sys
import typing
import warnings
from pathlib import Path
from types import ModuleType

MODULES = ("tabletop.framework", "tabletop.adapters.tui.hookspecs")


def _modules() -> list[ModuleType]:
    """The documented modules, every submodule of a package included."""
    import pkgutil

    found = []
    for name in MODULES:
        module = importlib.import_module(name)
        found.append(module)
        for info in pkgutil.walk_packages(getattr(module, "__path__", []), f"{name}."):
            found.append(importlib.import_module(info.name))
    return found


def _resolve(function: object, module: ModuleType) -> None:
    """Replace ``function``'s string annotations by their values, evaluated in
    ``module`` with the builtins first (what the author meant)."""
    annotations = getattr(function, "__annotations__", None)
    unresolved = (str, typing.ForwardRef)
    if not annotations or not any(isinstance(v, unresolved) for v in annotations.values()):
        return
    namespace = {**vars(module), **{k: getattr(builtins, k) for k in ("list", "dict", "set")}}
    try:
        function.__annotations__ = typing.get_type_hints(function, globalns=namespace)
    except Exception:  # left for pdoc to report
        return


def resolve_annotations(modules: list[ModuleType]) -> None:
    for module in modules:
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ != module.__name__:
                continue
            for member in vars(cls).values():
                function = getattr(member, "__func__", member)
                if inspect.isfunction(function):
                    _resolve(function, module)


def _specs(modules: list[ModuleType]) -> list[str]:
    """Module names for pdoc: a submodule that its package exports in ``__all__``
    (``tabletop.framework.views``) is added by pdoc itself, so it is not named twice."""
    names = []
    for module in modules:
        parent, _, short = module.__name__.rpartition(".")
        if short in getattr(sys.modules.get(parent), "__all__", ()):
            continue
        names.append(module.__name__)
    return names


def main() -> int:
    import pdoc
    import pdoc.render

    output = Path(sys.argv[1] if len(sys.argv) > 1 else "build/api")
    modules = _modules()
    resolve_annotations(modules)
    pdoc.render.configure(docformat="restructuredtext", show_source=False)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pdoc.pdoc(*_specs(modules), output_directory=output)
    problems = [w for w in caught if not issubclass(w.category, DeprecationWarning)]
    for warning in problems:
        print(f"warning: {warning.message}", file=sys.stderr)
    pages = len(list(output.rglob("*.html")))
    if problems:
        print(f"API reference: {len(problems)} warnings (failing)", file=sys.stderr)
        return 1
    print(f"API reference: {pages} pages in {output}, no warnings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
