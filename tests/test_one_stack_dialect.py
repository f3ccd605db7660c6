"""One stack dialect (issue 38): rules schedule and finish tasks through the framework's
``Stack`` (or the ``Tasks`` it is built on), never by editing the state's task list, and
no game writes its own copy of ``schedule``/``finish``.

The test reads every game's source (its syntax tree, not its text): a call that changes
the list (``state["stack"].append(...)``, ``.pop()``...), an assignment into it, or a
function of the game named ``schedule`` or ``finish`` is a finding. The three big games
predate the dialect and move onto it in a later step; until then each may keep at most
the findings it has now (``NOT_YET``), and a count that goes down must be lowered here,
so the list only shrinks. Every other game, the scaffold's included, has none.
"""

from __future__ import annotations

import ast
from pathlib import Path

from tabletop.app import scaffold

ROOT = Path(__file__).resolve().parents[1]
#: The state fields games keep their tasks in, and the constants that name them.
STACK_KEYS = {"stack", "tasks", "TASKS"}
#: Methods that change a list in place.
MUTATORS = {"append", "pop", "extend", "insert", "clear", "remove", "reverse", "sort"}
#: Findings the big games still have (issue 38: their migration is a later step).
NOT_YET: dict[str, int] = {}


def _is_task_list(node: ast.AST) -> bool:
    """``state["stack"]``, ``state[TASKS]``, or an item or slice of one."""
    if not isinstance(node, ast.Subscript):
        return False
    key = node.slice
    if isinstance(key, ast.Constant) and key.value in STACK_KEYS:
        return True
    if isinstance(key, ast.Name) and key.id in STACK_KEYS:
        return True
    return _is_task_list(node.value)


def findings(source: str, where: str) -> list[str]:
    """Each place ``source`` edits a task list by hand or defines its own pair."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = f"{where}:{getattr(node, 'lineno', 0)}"
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in MUTATORS
            and _is_task_list(node.func.value)
        ):
            found.append(f"{line}: .{node.func.attr}() on the task list")
        elif isinstance(node, ast.Assign | ast.AugAssign | ast.Delete):
            targets = node.targets if isinstance(node, ast.Assign | ast.Delete) else [node.target]
            if any(_is_task_list(target) for target in targets):
                found.append(f"{line}: an assignment into the task list")
        elif isinstance(node, ast.FunctionDef) and node.name in {"schedule", "finish"}:
            found.append(f"{line}: the game's own {node.name}()")
    return found


def game_findings() -> dict[str, list[str]]:
    by_game: dict[str, list[str]] = {}
    for folder in sorted((ROOT / "plugins").iterdir()):
        if not (folder / "src").is_dir():
            continue
        by_game[folder.name] = [
            hit
            for path in sorted((folder / "src").rglob("*.py"))
            for hit in findings(path.read_text("utf-8"), str(path.relative_to(ROOT)))
        ]
    return by_game


def test_the_check_sees_each_way_of_editing_the_list_by_hand() -> None:
    source = """
def rule(state, task, ctx):
    state["stack"].append(task)
    state["tasks"].pop()
    state[TASKS][-1]["stage"] = "place"
    del state["stack"][-1]
    state["stack"] += [task]
    STACK.schedule(state, task)
    state["cards"].append(3)

def schedule(state, *tasks):
    pass
"""
    hits = findings(source, "x.py")
    assert sorted(hit.split(": ", 1)[1] for hit in hits) == [
        ".append() on the task list",
        ".pop() on the task list",
        "an assignment into the task list",
        "an assignment into the task list",
        "an assignment into the task list",
        "the game's own schedule()",
    ]  # sorted: the tree is walked breadth first


def test_no_game_edits_its_task_list_by_hand() -> None:
    by_game = game_findings()
    assert set(NOT_YET) <= set(by_game)
    for game, hits in by_game.items():
        allowed = NOT_YET.get(game, 0)
        assert len(hits) <= allowed, f"{game} edits its task list by hand:\n" + "\n".join(hits)


def test_the_not_yet_list_only_shrinks() -> None:
    """A big game that migrated (some of) its rules lowers its count here."""
    by_game = game_findings()
    stale = {game: len(by_game[game]) for game in NOT_YET if len(by_game[game]) < NOT_YET[game]}
    assert not stale, f"lower NOT_YET to the counts found now: {stale}"


def test_the_scaffolds_game_runs_on_the_stack_and_verbs(tmp_path: Path) -> None:
    folder = scaffold.create("my-race", tmp_path)
    source = (folder / "src/tabletop/games/my_race/__init__.py").read_text("utf-8")
    assert findings(source, "scaffold") == []
    assert "Stack(" in source and "Verb(" in source
