"""Fail when modules inside one package of the tree import each other in a cycle.

import-linter (``lint-imports``) keeps the layers apart: the framework never imports
an adapter, a game never imports the app. It does not look inside one package, where a
cycle (``rules.py`` imports ``battle.py``, which imports ``rules.py``) makes the import
order matter, hides a module's real dependencies and usually means one module does two
jobs. This check reads the source with ``ast`` (nothing is imported or executed) and
counts every import the code can run, including one inside a function, which is the
usual way to paper over a cycle. Imports under ``if TYPE_CHECKING:`` never run and are
left out (``--type-checking`` counts them too).

A package is a folder with an ``__init__.py`` whose parent has none, under one of the
roots (framework, adapters, apps, each plugin's src): ``tabletop.framework``,
``tabletop.adapters``, ``tabletop.app`` and each ``tabletop.games.<game>``. Imports
between packages are import-linter's business and are ignored here.

Each cycle is printed as a chain of modules (``a -> b -> a``), with the line of each
import. The tree has none, and CI fails on any. For a move that takes time (a package
being split), ``--allow FILE`` names known imports, one a line (``a -> b``), to leave out
of the graph: a cycle they close passes and any other fails; a line that no longer names
an import in the tree is reported so it can go (``--write-allow FILE`` writes such a
list for today's cycles). CI passes no list.

Usage: ``python scripts/check_cycles.py [--root DIR ...] [--allow FILE]
[--write-allow FILE] [--type-checking]``; exit status 1 on a cycle.
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Import:
    """One import from a module to another module of the same package."""

    source: str
    target: str
    line: int
    in_function: bool

    @property
    def key(self) -> str:
        return f"{self.source} -> {self.target}"


@dataclass
class Package:
    """A top-level package and its modules (dotted name -> file)."""

    name: str
    modules: dict[str, Path]


def default_roots(repo: Path = REPO) -> list[Path]:
    """The folders whose children are the ``tabletop`` namespace: the framework, the
    adapters, the app and every plugin's ``src``."""
    roots = [repo / "framework", repo / "adapters", repo / "apps"]
    roots += sorted(path for path in (repo / "plugins").glob("*/src") if path.is_dir())
    return [root for root in roots if root.is_dir()]


def find_packages(root: Path) -> list[Package]:
    """Every top-level regular package under ``root`` (namespace folders are walked)."""
    packages: list[Package] = []
    for init in sorted(root.rglob("__init__.py")):
        folder = init.parent
        if (folder.parent / "__init__.py").exists() or "__pycache__" in folder.parts:
            continue
        name = ".".join(folder.relative_to(root).parts)
        modules: dict[str, Path] = {}
        for path in sorted(folder.rglob("*.py")):
            if "__pycache__" in path.parts:
                continue
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
        packages.append(Package(name, modules))
    return packages


def _is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


def _walk(
    node: ast.AST, in_function: bool, type_checking: bool
) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool]]:
    """Every import statement under ``node`` that can run, and whether it sits in a
    function (or a class body's method)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, in_function
        elif isinstance(child, ast.If) and _is_type_checking(child.test) and not type_checking:
            otherwise = ast.Module(body=child.orelse, type_ignores=[])
            yield from _walk(otherwise, in_function, type_checking)
        else:
            inner = in_function or isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
            )
            yield from _walk(child, inner, type_checking)


def _base(module: str, is_package: bool, level: int, name: str | None) -> str:
    """The absolute module a (possibly relative) ``from`` import names."""
    if level == 0:
        return name or ""
    parts = module.split(".")
    if not is_package:
        parts.pop()
    if level > 1:
        parts = parts[: len(parts) - (level - 1)]
    return ".".join([*parts, name] if name else parts)


def _resolve(target: str, modules: dict[str, Path]) -> str | None:
    """The package's module that importing ``target`` loads (its longest known prefix),
    or None when it is outside the package."""
    parts = target.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(package: Package, *, type_checking: bool = False) -> list[Import]:
    """The imports between the package's own modules, self-imports left out."""
    found: list[Import] = []
    for module, path in package.modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        is_package = path.name == "__init__.py"
        for node, in_function in _walk(tree, False, type_checking):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = _base(module, is_package, node.level, node.module)
                for alias in node.names:
                    submodule = f"{base}.{alias.name}"
                    targets.append(submodule if submodule in package.modules else base)
            for target in targets:
                resolved = _resolve(target, package.modules)
                if resolved is not None and resolved != module:
                    found.append(Import(module, resolved, node.lineno, in_function))
    return found


def _graph(edges: Iterable[Import]) -> dict[str, dict[str, Import]]:
    graph: dict[str, dict[str, Import]] = {}
    for edge in edges:
        graph.setdefault(edge.source, {}).setdefault(edge.target, edge)
    return graph


def _components(graph: dict[str, dict[str, Import]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph.get(start, {}))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            advanced = False
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, {})))))
                    advanced = True
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component: list[str] = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return sorted(found)


def _shortest_cycle(graph: dict[str, dict[str, Import]], members: list[str]) -> list[Import]:
    """A shortest cycle through the component's first module, as its imports."""
    inside = set(members)
    start = members[0]
    previous: dict[str, Import] = {}
    frontier = [start]
    seen = {start}
    while frontier:
        following: list[str] = []
        for node in frontier:
            for target, edge in sorted(graph.get(node, {}).items()):
                if target not in inside:
                    continue
                if target == start:
                    chain = [edge]
                    while chain[0].source != start:
                        chain.insert(0, previous[chain[0].source])
                    return chain
                if target not in seen:
                    seen.add(target)
                    previous[target] = edge
                    following.append(target)
        frontier = following
    raise AssertionError(f"no cycle through {start}")  # a component always has one


@dataclass(frozen=True)
class Cycle:
    """A set of modules that import each other, and one cycle among them."""

    package: str
    modules: tuple[str, ...]
    chain: tuple[Import, ...]

    def describe(self) -> str:
        names = [_short(self.package, self.chain[0].source)]
        names += [_short(self.package, edge.target) for edge in self.chain]
        steps = ", ".join(
            f"{_short(self.package, edge.source)}:{edge.line}"
            + (" in a function" if edge.in_function else "")
            for edge in self.chain
        )
        more = ""
        if len(self.modules) > len(self.chain):
            more = f"; {len(self.modules)} modules in all"
        return f"{self.package}: {' -> '.join(names)} (imports at {steps}{more})"


def _short(package: str, module: str) -> str:
    """A module's name inside its package (the package itself is ``__init__``)."""
    return module[len(package) + 1 :] if module != package else "__init__"


def find_cycles(
    roots: Sequence[Path], allowed: Iterable[str] = (), *, type_checking: bool = False
) -> tuple[list[Cycle], set[str]]:
    """The cycles left once the ``allowed`` imports are taken out, and the allowed
    lines that named an import found in the tree (the others are stale)."""
    allow = set(allowed)
    used: set[str] = set()
    cycles: list[Cycle] = []
    for root in roots:
        for package in find_packages(root):
            edges = imports_of(package, type_checking=type_checking)
            used |= {edge.key for edge in edges if edge.key in allow}
            graph = _graph(edge for edge in edges if edge.key not in allow)
            for members in _components(graph):
                chain = _shortest_cycle(graph, members)
                cycles.append(Cycle(package.name, tuple(members), tuple(chain)))
    return cycles, used


def feedback_imports(roots: Sequence[Path], *, type_checking: bool = False) -> list[str]:
    """Imports whose removal leaves no cycle (for a first allow-list): cycle by cycle,
    a function-level import of the cycle if there is one, else its last import."""
    chosen: list[str] = []
    while True:
        cycles, _ = find_cycles(roots, chosen, type_checking=type_checking)
        if not cycles:
            return sorted(chosen)
        for cycle in cycles:
            late = [edge for edge in cycle.chain if edge.in_function]
            chosen.append((late or list(cycle.chain))[-1].key)


def read_allow(path: Path) -> list[str]:
    """The allow-list's import lines (``a -> b``); blank lines and ``#`` comments skipped."""
    if not path.exists():
        return []
    lines = []
    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        source, arrow, target = line.partition("->")
        if not arrow or not source.strip() or not target.strip():
            raise SystemExit(f"{path}: not an import 'a.b -> a.c': {raw!r}")
        lines.append(f"{source.strip()} -> {target.strip()}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", action="append", type=Path, help="a source root (repeatable)")
    parser.add_argument("--allow", type=Path, help="known imports to leave out (default: none)")
    parser.add_argument("--write-allow", type=Path, help="write an allow-list for today's cycles")
    parser.add_argument("--type-checking", action="store_true", help="count TYPE_CHECKING imports")
    args = parser.parse_args(argv)
    roots = args.root or default_roots()
    if args.write_allow:
        lines = feedback_imports(roots, type_checking=args.type_checking)
        args.write_allow.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
        print(f"wrote {len(lines)} import(s) to {args.write_allow}")
        return 0
    allowed = read_allow(args.allow) if args.allow else []
    cycles, used = find_cycles(roots, allowed, type_checking=args.type_checking)
    for stale in sorted(set(allowed) - used):
        print(f"allowed import no longer in the tree (remove it from {args.allow.name}): {stale}")
    for cycle in cycles:
        print(f"import cycle in {cycle.describe()}")
    if used:
        print(f"{len(used)} known cycle-closing import(s) allowed by {args.allow.name}")
    if cycles:
        print(f"{len(cycles)} import cycle(s) inside a package: break each one")
        return 1
    print("no import cycle inside any package")
    return 0


if __name__ == "__main__":
    sys.exit(main())
