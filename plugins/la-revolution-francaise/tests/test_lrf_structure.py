"""How La Révolution's rules are organised (issue 26): the Currents by name, files of a
readable size, one table of decisions and steps that knows every task the rules push."""

from __future__ import annotations

import ast
from pathlib import Path

from tabletop.framework.stack import Decision, Step
from tabletop.games.la_revolution_francaise import factions
from tabletop.games.la_revolution_francaise.data import CURRENTS
from tabletop.games.la_revolution_francaise.table import STACK

PACKAGE = Path(factions.__file__).parent
PACKAGE_NAME = "tabletop.games.la_revolution_francaise"
#: Modules that may spell a code: the names themselves, the data loader, the board's map
#: marks ("R" for a revolt there) and the bot helper's files (issue 27).
SPELLED = {"factions.py", "data.py", "render.py"}


def rule_modules() -> list[Path]:
    return [
        p
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.name not in SPELLED and not p.name.startswith("bot")
    ]


def test_the_named_currents_are_the_datas() -> None:
    assert factions.ALL == CURRENTS


def test_the_rules_name_the_currents_rather_than_spell_their_codes() -> None:
    spelled = []
    for path in rule_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        in_fstrings = {
            id(part)
            for node in ast.walk(tree)
            if isinstance(node, ast.JoinedStr)
            for part in ast.walk(node)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in factions.ALL
                and id(node) not in in_fstrings
            ):
                spelled.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.value!r}")
    assert spelled == []


def test_no_rules_file_is_over_600_lines() -> None:
    sizes = {
        str(p.relative_to(PACKAGE)): len(p.read_text(encoding="utf-8").splitlines())
        for p in rule_modules()
    }
    assert {name: n for name, n in sizes.items() if n > 600} == {}


def test_the_table_knows_every_task_kind_the_rules_push() -> None:
    """A task built in the rules (a TypedDict constructor's ``kind=``, or a dict with a
    ``"kind"`` that is no army: armies carry an ``"id"``) names a rule of the table."""
    pushed = set()
    for path in rule_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            constructor = isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
            if constructor and node.func.id[:1].isupper():  # type: ignore[attr-defined]
                pushed |= {
                    k.value.value
                    for k in node.keywords  # type: ignore[attr-defined]
                    if k.arg == "kind" and isinstance(k.value, ast.Constant)
                }
            if isinstance(node, ast.Dict):
                fields = {
                    k.value: v
                    for k, v in zip(node.keys, node.values, strict=True)
                    if isinstance(k, ast.Constant)
                }
                kind = fields.get("kind")
                if "id" not in fields and isinstance(kind, ast.Constant):
                    pushed.add(kind.value)
    assert len(pushed) > 50
    assert pushed - set(STACK.rules) == set()
    assert all(isinstance(rule, Decision | Step) for rule in STACK.rules.values())


def test_the_coverage_table_names_code_that_exists() -> None:
    """Each ``module.name`` in rules-coverage.md's "implemented in" column is there (a
    trailing ``*`` stands for any name with that prefix)."""
    import importlib
    import re

    doc = PACKAGE.parents[5] / "docs/games/la-revolution-francaise/rules-coverage.md"
    modules = {p.name.removesuffix(".py") for p in PACKAGE.iterdir()}
    missing = []
    checked = 0
    for row in doc.read_text(encoding="utf-8").splitlines():
        if not row.startswith("|"):
            continue
        cells = row.split("|")
        for ref in re.findall(r"`([a-z_.]+\*?)`", cells[2] if len(cells) > 2 else ""):
            *path, name = ref.split(".")
            if not path or path[0] not in modules or name in ("py", "json"):
                continue
            try:
                module = importlib.import_module(f"{PACKAGE_NAME}.{'.'.join(path)}")
            except ModuleNotFoundError:
                # ``game.apply``: a method of the game's class
                module = importlib.import_module(f"{PACKAGE_NAME}.{path[0]}")
                name = path[-1] if len(path) > 1 else name
            names = dir(module) + dir(getattr(module, "LaRevolutionFrancaise", None))
            found = (
                any(n.startswith(name[:-1]) for n in names) if name.endswith("*") else name in names
            )
            checked += 1
            if not found:
                missing.append(ref)
    assert checked > 100
    assert missing == []
