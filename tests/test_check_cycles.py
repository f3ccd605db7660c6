"""scripts/check_cycles.py, the CI check for import cycles inside a package, on small
fake packages written to a temporary folder."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "check_cycles.py"


def _load() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_cycles", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["check_cycles"] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


cc = _load()


def _tree(root: Path, files: dict[str, str]) -> Path:
    """Write ``files`` (paths under ``root`` -> source) and return ``root``."""
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return root


def _pkg(root: Path, modules: dict[str, str]) -> Path:
    """A package ``ns.pkg`` under ``root`` with ``modules`` (file names inside it)."""
    return _tree(root, {"ns/pkg/__init__.py": ""} | {f"ns/pkg/{n}": t for n, t in modules.items()})


def _run(root: Path, *extra: str, allow: Path | None = None) -> tuple[int, str]:
    """Run the script's main on one root; its exit status and what it printed."""
    from contextlib import redirect_stdout
    from io import StringIO

    out = StringIO()
    allow_args = ["--allow", str(allow if allow else root / "none.txt")]
    with redirect_stdout(out):
        status = cc.main(["--root", str(root), *allow_args, *extra])
    return int(status), out.getvalue()


CYCLES = {
    "module level, printed as a chain": (
        {
            "a.py": "from ns.pkg import b\n",
            "b.py": "import ns.pkg.c\n",
            "c.py": "from ns.pkg.a import thing\n",
        },
        "import cycle in ns.pkg: a -> b -> c -> a (imports at a:1, b:1, c:1)",
    ),
    "an import inside a function counts": (
        {
            "rules.py": "from ns.pkg.battle import fight\n",
            "battle.py": "def fight():\n    from ns.pkg import rules\n    return rules\n",
        },
        "battle -> rules -> battle (imports at battle:2 in a function, rules:1)",
    ),
    "relative imports are resolved": (
        {
            "sub/__init__.py": "from . import deep\n",
            "sub/deep.py": "from ..top import value\n",
            "top.py": "from .sub import deep\nvalue = 1\n",
        },
        "sub.deep -> top -> sub.deep",
    ),
    "a name from a package's __init__ imports the __init__": (
        {
            "__init__.py": "from ns.pkg.a import helper\nVERSION = 1\n",
            "a.py": "from ns.pkg import VERSION\n",
        },
        "__init__ -> a -> __init__",
    ),
}


@pytest.mark.parametrize("case", CYCLES)
def test_a_cycle_fails_with_its_chain(tmp_path: Path, case: str) -> None:
    files, chain = CYCLES[case]
    root = _tree(
        tmp_path, {"ns/pkg/__init__.py": ""} | {f"ns/pkg/{n}": t for n, t in files.items()}
    )
    status, out = _run(root)
    assert status == 1 and chain in out, out


def test_no_cycle_passes_and_imports_from_other_packages_are_ignored(tmp_path: Path) -> None:
    root = _tree(
        tmp_path,
        {
            "ns/one/__init__.py": "",
            "ns/one/a.py": "from ns.two import b\nimport os\n",
            "ns/two/__init__.py": "",
            "ns/two/b.py": "from ns.one import a\n",  # across packages: not this check's
        },
    )
    assert _run(root) == (0, "no import cycle inside any package\n")


def test_type_checking_imports_never_run_and_are_left_out_unless_asked(tmp_path: Path) -> None:
    root = _pkg(
        tmp_path,
        {
            "a.py": "from ns.pkg import b\n",
            "b.py": (
                "from typing import TYPE_CHECKING\n"
                "if TYPE_CHECKING:\n    from ns.pkg import a\n"
                "else:\n    import json\n"
            ),
        },
    )
    assert _run(root)[0] == 0
    status, out = _run(root, "--type-checking")
    assert status == 1 and "a -> b -> a" in out


def test_the_allow_list_lets_a_known_import_pass_and_names_stale_lines(tmp_path: Path) -> None:
    late = "def f():\n    from ns.pkg import a\n"  # b imports a in a function
    root = _pkg(tmp_path / "src", {"a.py": "from ns.pkg import b\n", "b.py": late})
    allow = tmp_path / "allowed.txt"
    allow.write_text("# known\nns.pkg.b -> ns.pkg.a\nns.pkg.x -> ns.pkg.y\n", encoding="utf-8")
    status, out = _run(root, allow=allow)
    assert status == 0
    assert "no longer in the tree (remove it from allowed.txt): ns.pkg.x -> ns.pkg.y" in out
    # a new cycle beside the allowed one still fails
    (root / "ns/pkg/a.py").write_text("from ns.pkg import b, c\n", encoding="utf-8")
    (root / "ns/pkg/c.py").write_text("import ns.pkg.a\n", encoding="utf-8")
    status, out = _run(root, allow=allow)
    assert status == 1 and "a -> c -> a" in out


def test_write_allow_lists_imports_that_break_every_cycle(tmp_path: Path) -> None:
    root = _pkg(
        tmp_path / "src",
        {
            "a.py": "from ns.pkg import b\n",
            "b.py": "from ns.pkg import c\n",
            "c.py": "def f():\n    from ns.pkg import a\n",
            "d.py": "from ns.pkg import e\n",
            "e.py": "from ns.pkg import d\n",
        },
    )
    allow = tmp_path / "allowed.txt"
    assert _run(root, "--write-allow", str(allow))[0] == 0
    lines = allow.read_text(encoding="utf-8").splitlines()
    assert "ns.pkg.c -> ns.pkg.a" in lines  # the function-level import is the one listed
    assert len(lines) == 2
    assert _run(root, allow=allow)[0] == 0


def test_a_malformed_allow_line_is_refused(tmp_path: Path) -> None:
    allow = tmp_path / "allowed.txt"
    allow.write_text("ns.pkg.a ns.pkg.b\n", encoding="utf-8")
    with pytest.raises(SystemExit, match="not an import"):
        cc.read_allow(allow)
