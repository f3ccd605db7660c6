#!/usr/bin/env python3
"""Mutation check: break one rule at a time and see whether a test notices.

Why: a test suite that passes proves little until each rule it claims to check has been
broken and the suite has failed. This script copies the framework and the tic-tac-toe
plugin into a temporary folder (the live checkout is never written to), applies one
small mutation at a time to the functions that hold the engine's legality, undo and
digest code, the session's undo rules and tic-tac-toe's rules, runs the narrow test
selection for that code against the copy, and reports the mutations no test caught.

Mutations, each on one spot of the source: a comparison flipped (``<`` to ``<=``,
``==`` to ``!=``, ``in`` to ``not in``, ...), ``and`` and ``or`` swapped, a condition
negated or dropped (an ``if`` that is never taken, one operand of ``and``/``or``
removed, a ``not`` removed), an integer off by one, ``True`` and ``False`` swapped, a
statement removed (a ``raise``, an assignment, a call), a dict entry or a keyword
argument dropped, a result replaced by ``None`` and a boolean result negated.

Usage (from the repository root; takes some minutes on two busy cores)::

    .venv/bin/python scripts/mutation-check.py              # every target
    .venv/bin/python scripts/mutation-check.py engine       # one target
    .venv/bin/python scripts/mutation-check.py --list       # the mutants, not run
    .venv/bin/python scripts/mutation-check.py --markdown   # the report as a table

Exit status: 0 when every mutant was caught (or is listed as equivalent below), 1
when some survived, 2 when the unmutated copy already fails its tests.
"""

from __future__ import annotations

import argparse
import ast
import copy
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: The packages copied into the temporary folder (its ``src``, first on PYTHONPATH, so
#: the copy is what the tests import instead of the editable installs).
PACKAGES = {
    "tabletop/framework": ROOT / "framework" / "tabletop" / "framework",
    "tabletop/games/tic_tac_toe": (
        ROOT / "plugins" / "tic-tac-toe" / "src" / "tabletop" / "games" / "tic_tac_toe"
    ),
}


@dataclass(frozen=True)
class Target:
    name: str
    path: str
    """The module's path inside the copy."""
    functions: tuple[str, ...]
    """Qualified names (``Class.method``) of the functions whose code is mutated."""
    tests: tuple[str, ...]
    """The pytest arguments that select the tests for this code."""


TARGETS = (
    Target(
        "engine",
        "tabletop/framework/engine.py",
        (
            # legality
            "Engine.act",
            # undo
            "Engine.can_undo",
            "Engine.undo_depth",
            "Engine.undo",
            "Engine._restore",
            # digest
            "Engine.digest",
        ),
        ("tests/test_engine.py", "tests/test_lean_engine.py", "tests/test_session.py"),
    ),
    Target(
        "digest",
        "tabletop/framework/record.py",
        ("digest_of", "canonical_json"),
        ("tests/test_engine.py", "tests/test_saves.py"),
    ),
    Target(
        "session",
        "tabletop/framework/session.py",
        (
            "GameSession._undo_target",
            "GameSession._undo_hidden",
            "GameSession.can_undo",
            "GameSession.undo",
        ),
        ("tests/test_session.py",),
    ),
    Target(
        "tic-tac-toe",
        "tabletop/games/tic_tac_toe/__init__.py",
        (
            "TicTacToe.prompt",
            "TicTacToe.apply",
            "TicTacToe.result",
            "TicTacToe.invariants",
        ),
        ("plugins/tic-tac-toe/tests",),
    ),
)

#: Mutants that cannot change behaviour, by their key (``Mutant.key``), with the reason.
#: A mutant is listed here only after reading it: everything else must be caught.
_HAND_MADE = (
    "a hand-made engine (Engine.from_state) is always built with undo snapshots on, so "
    "'snapshot is not None' and 'self.keeps_undo' are the same condition here and "
    "'self._hand_made' never decides; the guard only matters if from_state ever "
    "builds a batch engine"
)
EQUIVALENT: dict[str, str] = {
    "Engine.act: condition dropped: self.keeps_undo or self._hand_made -> self.keeps_undo": (
        _HAND_MADE
    ),
    "Engine.act: and/or swapped: snapshot is not None and self.keeps_undo -> "
    "snapshot is not None or self.keeps_undo": _HAND_MADE,
    "Engine.act: condition dropped: snapshot is not None and self.keeps_undo -> "
    "self.keeps_undo": _HAND_MADE,
    "Engine.act: condition dropped: snapshot is not None and self.keeps_undo -> "
    "snapshot is not None": _HAND_MADE,
    **dict.fromkeys(
        (
            "GameSession.undo: statement removed: self._epoch += 1 -> pass",
            "GameSession.undo: off by one: 1 -> 2",
            "GameSession.undo: off by one: 1 -> 0",
        ),
        "the epoch makes a bot's pending turn stale; after an undo a person is always "
        "due (undo goes back to a person's decision), so a bot's turn is stale anyway",
    ),
    "canonical_json: keyword dropped: json.dumps(data, sort_keys=True, separators=(',', "
    "':'), ensure_ascii=True) -> without ensure_ascii=": (
        "ensure_ascii=True is json.dumps' default: the keyword only says so (flipping it "
        "to False is caught by the pinned canonical form)"
    ),
    "TicTacToe.prompt: statement removed: _PROMPTS[key] = prompt -> pass": (
        "the prompt cache: without it every prompt is built afresh, equal to the cached "
        "one; only speed changes (the tic-tac-toe figures in docs/performance.md)"
    ),
}

_FLIP: dict[type[ast.cmpop], type[ast.cmpop]] = {
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.In: ast.NotIn,
    ast.NotIn: ast.In,
    ast.Is: ast.IsNot,
    ast.IsNot: ast.Is,
}


@dataclass(frozen=True)
class Mutant:
    target: Target
    index: int
    function: str
    line: int
    """The line of the mutated spot, counted from the function's ``def`` (1)."""
    kind: str
    before: str
    after: str

    @property
    def description(self) -> str:
        return f"{self.function}+{self.line}: {self.kind}: {self.before} -> {self.after}"

    @property
    def key(self) -> str:
        """The description without the line: what EQUIVALENT lists (lines move)."""
        return f"{self.function}: {self.kind}: {self.before} -> {self.after}"


Change = Callable[[], None]


def _functions(tree: ast.Module, wanted: tuple[str, ...]) -> Iterator[tuple[str, ast.AST]]:
    """The wanted functions of a module, by qualified name, in source order."""
    found: dict[str, ast.AST] = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            found[node.name] = node
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    found[f"{node.name}.{item.name}"] = item
    missing = [name for name in wanted if name not in found]
    if missing:
        raise SystemExit(f"mutation-check: no function {', '.join(missing)} to mutate")
    for name in wanted:
        yield name, found[name]


def _spots(function: ast.AST) -> Iterator[tuple[ast.AST, str, str, Change]]:
    """Every mutation of one function: (node, kind, mutated text, apply)."""
    returns_bool = (
        isinstance(function, ast.FunctionDef)
        and isinstance(function.returns, ast.Name)
        and function.returns.id == "bool"
    )
    for node in ast.walk(function):
        if node is function:
            pass
        elif isinstance(node, ast.Compare):
            for position, op in enumerate(node.ops):
                flipped = _FLIP.get(type(op))
                if flipped is not None:
                    mutated = copy.deepcopy(node)
                    mutated.ops[position] = flipped()
                    yield (
                        node,
                        "comparison flipped",
                        ast.unparse(mutated),
                        _set_op(node, position, flipped),
                    )
        elif isinstance(node, ast.BoolOp):
            other: type[ast.boolop] = ast.Or if isinstance(node.op, ast.And) else ast.And
            swapped = ast.BoolOp(op=other(), values=node.values)
            yield node, "and/or swapped", ast.unparse(swapped), _set_boolop(node, other)
            for position in range(len(node.values)):
                kept = [v for i, v in enumerate(node.values) if i != position]
                text = ast.unparse(
                    ast.BoolOp(op=node.op, values=kept) if len(kept) > 1 else kept[0]
                )
                yield node, "condition dropped", text, _drop_operand(node, position)
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            yield (
                node,
                "negation removed",
                ast.unparse(node.operand),
                _replace_with(node, node.operand),
            )
        elif (
            isinstance(node, ast.Constant)
            and type(node.value) is int
            and not isinstance(node.value, bool)
        ):
            for delta in (1, -1):
                number = node.value + delta
                yield node, "off by one", repr(number), _set_constant(node, number)
        elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
            yield node, "boolean flipped", repr(not node.value), _set_constant(node, not node.value)
        elif isinstance(node, ast.Dict) and len(node.keys) > 1:
            for position, key in enumerate(node.keys):
                if key is not None:
                    text = f"entry {ast.unparse(key)} dropped"
                    yield node, "dict entry dropped", text, _drop_entry(node, position)
        elif isinstance(node, ast.Call):
            for position, keyword in enumerate(node.keywords):
                if keyword.arg is not None:
                    text = f"without {keyword.arg}="
                    yield node, "keyword dropped", text, _drop_keyword(node, position)
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            test = node.test
            yield test, "condition negated", f"not ({ast.unparse(test)})", _negate(node)
            if isinstance(node, ast.If):
                yield test, "branch never taken", "False", _set_test(node, False)
        if isinstance(node, (ast.FunctionDef, ast.If, ast.For, ast.While, ast.Try)):
            for field in ("body", "orelse", "finalbody"):
                statements = getattr(node, field, None)
                if not statements:
                    continue
                for position, statement in enumerate(statements):
                    if isinstance(
                        statement, (ast.Raise, ast.Assign, ast.AugAssign, ast.Expr, ast.Delete)
                    ) and not _is_docstring(statement):
                        yield statement, "statement removed", "pass", _remove(statements, position)
        if (
            isinstance(node, ast.Return)
            and node.value is not None
            and not (isinstance(node.value, ast.Constant) and node.value.value is None)
        ):
            yield node, "result dropped", "return None", _return_none(node)
        if returns_bool and isinstance(node, ast.Return) and node.value is not None:
            result = ast.unparse(node.value)
            yield node, "result negated", f"return not ({result})", _negate_return(node)


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _set_op(node: ast.Compare, position: int, op: type[ast.cmpop]) -> Change:
    def change() -> None:
        node.ops[position] = op()

    return change


def _set_boolop(node: ast.BoolOp, op: type[ast.boolop]) -> Change:
    def change() -> None:
        node.op = op()

    return change


def _drop_operand(node: ast.BoolOp, position: int) -> Change:
    def change() -> None:
        del node.values[position]
        if len(node.values) == 1:  # a BoolOp of one value: keep it valid
            node.values.append(ast.Constant(isinstance(node.op, ast.And)))

    return change


def _replace_with(node: ast.UnaryOp, operand: ast.expr) -> Change:
    def change() -> None:
        node.operand = ast.UnaryOp(op=ast.Not(), operand=operand)  # not not x: x's truth

    return change


def _set_constant(node: ast.Constant, value: int | bool) -> Change:
    def change() -> None:
        node.value = value

    return change


def _negate(node: ast.If | ast.While | ast.IfExp) -> Change:
    def change() -> None:
        node.test = ast.UnaryOp(op=ast.Not(), operand=node.test)

    return change


def _set_test(node: ast.If, value: bool) -> Change:
    def change() -> None:
        node.test = ast.Constant(value)

    return change


def _remove(statements: list[ast.stmt], position: int) -> Change:
    def change() -> None:
        statements[position] = ast.Pass()

    return change


def _drop_entry(node: ast.Dict, position: int) -> Change:
    def change() -> None:
        del node.keys[position]
        del node.values[position]

    return change


def _drop_keyword(node: ast.Call, position: int) -> Change:
    def change() -> None:
        del node.keywords[position]

    return change


def _return_none(node: ast.Return) -> Change:
    def change() -> None:
        node.value = ast.Constant(None)

    return change


def _negate_return(node: ast.Return) -> Change:
    def change() -> None:
        assert node.value is not None
        node.value = ast.UnaryOp(op=ast.Not(), operand=node.value)

    return change


def mutants(target: Target, source: str) -> list[Mutant]:
    """Every mutant of ``target`` in a stable order (the same source, the same list)."""
    found: list[Mutant] = []
    tree = ast.parse(source)
    for name, function in _functions(tree, target.functions):
        start = getattr(function, "lineno", 1)
        for node, kind, after, _ in _spots(function):
            found.append(
                Mutant(
                    target,
                    len(found),
                    name,
                    getattr(node, "lineno", start) - start + 1,
                    kind,
                    ast.unparse(node).splitlines()[0],
                    after.splitlines()[0] if after else after,
                )
            )
    return found


def mutated_source(target: Target, source: str, index: int) -> str:
    """The module's source with mutant ``index`` applied (and nothing else changed)."""
    tree = ast.parse(source)
    count = 0
    for _, function in _functions(tree, target.functions):
        for _, _, _, change in list(_spots(function)):
            if count == index:
                change()
                return ast.unparse(ast.fix_missing_locations(tree))
            count += 1
    raise IndexError(index)


def copy_packages(work: Path) -> Path:
    src = work / "src"
    skip = shutil.ignore_patterns("__pycache__", "*.pyc")
    for inside, source in PACKAGES.items():
        shutil.copytree(source, src / inside, ignore=skip)
    return src


def run_tests(src: Path, tests: tuple[str, ...], timeout: float) -> tuple[str, float]:
    """``"passed"``, ``"failed"`` or ``"timeout"`` for the selection against the copy."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(src), env.get("PYTHONPATH")]))
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider", *tests]
    began = time.monotonic()
    try:
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return "timeout", time.monotonic() - began
    outcome = "passed" if done.returncode == 0 else "failed"
    if done.returncode not in (0, 1):  # not a test failure: a crash, a usage error
        outcome = "failed" if "Error" in done.stdout + done.stderr else "error"
    return outcome, time.monotonic() - began


def check(
    targets: list[Target], *, timeout: float, markdown: bool, only: set[int] | None = None
) -> int:
    with tempfile.TemporaryDirectory(prefix="tabletop-mutation-") as work:
        src = copy_packages(Path(work))
        survivors: list[Mutant] = []
        equivalent: list[Mutant] = []
        rows: list[tuple[str, int, int, int, int]] = []
        for target in targets:
            path = src / target.path
            original = path.read_text()
            path.write_text(ast.unparse(ast.parse(original)))  # the form mutants take
            outcome, _ = run_tests(src, target.tests, timeout)
            if outcome != "passed":
                print(f"{target.name}: the unmutated copy does not pass its tests ({outcome})")
                return 2
            listed = [m for m in mutants(target, original) if not only or m.index + 1 in only]
            caught = same = 0
            for mutant in listed:
                path.write_text(mutated_source(target, original, mutant.index))
                outcome, seconds = run_tests(src, target.tests, timeout)
                if outcome == "passed":
                    if mutant.key in EQUIVALENT:
                        equivalent.append(mutant)
                        same += 1
                        verdict = "EQUIVALENT"
                    else:
                        survivors.append(mutant)
                        verdict = "SURVIVED"
                else:
                    caught += 1
                    verdict = f"caught ({outcome})"
                print(
                    f"[{target.name} {mutant.index + 1}/{len(listed)}] {verdict:18} "
                    f"{seconds:5.1f} s  {mutant.description}",
                    flush=True,
                )
            path.write_text(original)
            rows.append((target.name, len(listed), caught, same, len(listed) - caught - same))
        print()
        if markdown:
            print("| target | mutants | caught | equivalent | survived |")
            print("| --- | --- | --- | --- | --- |")
            for name, total, caught, same, missed in rows:
                print(f"| {name} | {total} | {caught} | {same} | {missed} |")
            print()
        for mutant in equivalent:
            print(
                f"equivalent: {mutant.target.name}: {mutant.description}: {EQUIVALENT[mutant.key]}"
            )
        for mutant in survivors:
            print(f"SURVIVED: {mutant.target.name}: {mutant.description}")
        total = sum(row[1] for row in rows)
        print(f"{total} mutants, {len(survivors)} survived, {len(equivalent)} equivalent")
        return 1 if survivors else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    names = [target.name for target in TARGETS]
    parser.add_argument("targets", nargs="*", help="what to mutate: " + ", ".join(names))
    parser.add_argument("--list", action="store_true", help="list the mutants; run nothing")
    parser.add_argument("--markdown", action="store_true", help="a summary table as well")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds per test run")
    parser.add_argument(
        "--only", default="", help="run only these mutants (numbers as --list shows, 3,17)"
    )
    args = parser.parse_args(argv)
    unknown = sorted(set(args.targets) - set(names))
    if unknown:
        parser.error(f"no target {unknown[0]!r} (one of: {', '.join(names)})")
    chosen = [t for t in TARGETS if not args.targets or t.name in args.targets]
    if args.list:
        for target in chosen:
            source = live_file(target).read_text()
            for mutant in mutants(target, source):
                print(f"{target.name} {mutant.index + 1}: {mutant.description}")
        return 0
    only = {int(number) for number in args.only.split(",") if number.strip()}
    return check(chosen, timeout=args.timeout, markdown=args.markdown, only=only or None)


def live_file(target: Target) -> Path:
    """The live file a target's copy is made from (read, never written)."""
    for inside, source in PACKAGES.items():
        if target.path.startswith(inside + "/"):
            return source / target.path[len(inside) + 1 :]
    raise KeyError(target.path)


if __name__ == "__main__":
    sys.exit(main())
