"""Print a pip constraints file that pins every declared minimum (``name>=X`` becomes
``name==X``) of the runtime dependencies and test extras of every pyproject.toml in the
repository: the lowest versions a user may get, which CI installs and tests
(``.ci/min-versions.sh``). Local distributions (tabletop-*) are left out: they are
installed from this checkout."""

from __future__ import annotations

import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: The extras users install with a game, the framework or the app (the dev tools are not
#: pinned; the server's PostgreSQL, Ray and OpenSpiel need services or big downloads).
EXTRAS = ("testing", "test", "web")
#: A requirement with a plain minimum: name, optional extras, ">=", version.
PLAIN = re.compile(r"([A-Za-z0-9_.-]+)(\[[^]]*\])?\s*>=\s*([0-9][^,;\s]*)")


def minimums(paths: list[Path]) -> dict[str, str]:
    found: dict[str, str] = {}
    for path in paths:
        project = tomllib.loads(path.read_text("utf-8"))["project"]
        wanted = list(project.get("dependencies", []))
        for extra in EXTRAS:
            wanted += project.get("optional-dependencies", {}).get(extra, [])
        for requirement in wanted:
            if requirement.lower().startswith("tabletop-"):
                continue  # ours, bounded above too (>=0.3,<0.4): built from the checkout
            match = PLAIN.fullmatch(requirement)
            if match is None:
                sys.exit(f"{path}: {requirement!r} has no plain minimum (name>=X) to pin")
            name = match.group(1).lower().replace("_", "-")
            version = match.group(3)
            if name in found and found[name] != version:
                version = max(found[name], version, key=lambda v: tuple(map(int, v.split("."))))
            found[name] = version
    return found


def main() -> None:
    paths = [ROOT / "pyproject.toml", ROOT / "framework" / "pyproject.toml"]
    paths += sorted(ROOT.glob("plugins/*/pyproject.toml"))
    for name, version in sorted(minimums(paths).items()):
        print(f"{name}=={version}")


if __name__ == "__main__":
    main()
