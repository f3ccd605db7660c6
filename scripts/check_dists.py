"""Build every distribution (wheel and sdist) and check what a package index would show.

Why: what users get is the built files, not the pyproject.toml files; a game wheel
without a licence or README, a relative link that breaks on the index page, a published
``dev`` extra or a framework requirement without an upper bound were all found in built
files (issue 39). This builds the framework, the app and every game from a copy of the
checkout (the work tree gets no build/ or egg-info), offline (``--no-isolation``: the
build backend of this environment), runs ``twine check --strict`` on everything, and
then checks each wheel's and sdist's metadata against the project's rules:

* a licence (``License-Expression``) and its file inside the wheel and the sdist;
* a Markdown long description, with no relative link (the index has no files beside
  it), and for the app one that speaks to players (no development set-up);
* classifiers, among them every Python version that ``requires-python`` allows and CI
  runs (3.11 to 3.13);
* every requirement on ``tabletop-framework`` has an upper bound, and admits the
  framework version built here;
* no ``dev`` extra;
* the version is the one in the CHANGELOG's newest dated section (or a game's own).

Usage: ``python scripts/check_dists.py [OUTDIR]`` (default: a temporary folder, removed
at the end); exit 1 with one line per problem.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tarfile
import tempfile
import tomllib
import zipfile
from email.message import Message
from email.parser import Parser
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYTHONS = ("3.11", "3.12", "3.13")
RELATIVE_LINK = re.compile(r"\]\((?!https?://|mailto:|#)[^)]+\)")


def projects() -> list[Path]:
    """The folders of every distribution: the framework, the app, each game."""
    found = [ROOT / "framework", ROOT]
    found += sorted(path.parent for path in ROOT.glob("plugins/*/pyproject.toml"))
    return found


def copy_of_checkout(into: Path) -> Path:
    """The files git tracks (and new ones not ignored), copied into ``into``/src."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.split(b"\0")
    target = into / "src"
    for raw in listed:
        if not raw:
            continue
        source = ROOT / raw.decode()
        if not source.is_file():
            continue  # deleted in the work tree
        dest = target / raw.decode()
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(source.read_bytes())
        dest.chmod(source.stat().st_mode)
    return target


def build(source: Path, out: Path) -> None:
    """``python -m build`` of one project: sdist, then the wheel from it, offline."""
    done = subprocess.run(
        [sys.executable, "-m", "build", "--no-isolation", "--outdir", str(out), str(source)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        sys.exit(f"building {source.name} failed:\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}")


def wheel_metadata(path: Path) -> tuple[Message, list[str]]:
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        text = next(n for n in names if n.endswith(".dist-info/METADATA"))
        return Parser().parsestr(wheel.read(text).decode("utf-8")), names


def sdist_metadata(path: Path) -> tuple[Message, list[str]]:
    with tarfile.open(path) as sdist:
        names = sdist.getnames()
        member = next(n for n in names if n.count("/") == 1 and n.endswith("/PKG-INFO"))
        handle = sdist.extractfile(member)
        assert handle is not None
        return Parser().parsestr(handle.read().decode("utf-8")), names


def released_version() -> str:
    """The newest dated version in the CHANGELOG (``## [X.Y.Z] - YYYY-MM-DD``)."""
    text = (ROOT / "CHANGELOG.md").read_text("utf-8")
    match = re.search(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", text, re.M)
    if match is None:
        sys.exit("CHANGELOG.md has no dated version section")
    return match.group(1)


def problems_of(meta: Message, files: list[str], kind: str, framework: Version) -> list[str]:
    """What is wrong with one built file's metadata, in words."""
    name = meta["Name"]
    found: list[str] = []
    if not meta["License-Expression"] and not meta["License"]:
        found.append("no licence")
    licence_files = meta.get_all("License-File") or []
    if not licence_files:
        found.append("no License-File")
    for licence in licence_files:
        if not any(path.endswith("/" + licence) or path == licence for path in files):
            found.append(f"its licence file {licence} is not in the {kind}")
    description = meta.get_payload()
    if not isinstance(description, str) or len(description.strip()) < 200:
        found.append("no long description (README)")
    elif RELATIVE_LINK.search(description):
        link = RELATIVE_LINK.search(description)
        found.append(f"a relative link in the long description: {link.group(0) if link else ''}")
    if meta["Description-Content-Type"] != "text/markdown":
        found.append(f"the description is {meta['Description-Content-Type']!r}, not Markdown")
    if name == "tabletop-app" and isinstance(description, str) and "setup.sh" in description:
        found.append("the long description speaks of the development set-up")
    classifiers = meta.get_all("Classifier") or []
    if not classifiers:
        found.append("no classifiers")
    for python in PYTHONS:
        if f"Programming Language :: Python :: {python}" not in classifiers:
            found.append(f"no classifier for Python {python}")
    if "dev" in (meta.get_all("Provides-Extra") or []):
        found.append("a dev extra is published")
    for text in meta.get_all("Requires-Dist") or []:
        requirement = Requirement(text)
        if requirement.name != "tabletop-framework":
            continue
        if not any(spec.operator in ("<", "<=", "~=", "==") for spec in requirement.specifier):
            found.append(f"{text}: no upper bound on the framework")
        if not requirement.specifier.contains(framework):
            found.append(f"{text}: does not admit the framework built here ({framework})")
    return [f"{name} {meta['Version']} ({kind}): {problem}" for problem in found]


def expected_version(project: Path, release: str) -> str:
    data = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))["project"]
    version: str = data["version"]
    if project.parent.name != "plugins" and version != release:
        sys.exit(f"{data['name']} is {version}, but the CHANGELOG's newest release is {release}")
    return version


def main() -> int:
    release = released_version()
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(scratch) / "dist"
        out.mkdir(parents=True, exist_ok=True)
        src = copy_of_checkout(Path(scratch))
        versions = {}
        for project in projects():
            relative = project.relative_to(ROOT)
            build(src / relative, out)
            data = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))["project"]
            versions[data["name"]] = expected_version(project, release)
        built = sorted(out.glob("*.whl")) + sorted(out.glob("*.tar.gz"))
        twine = subprocess.run(
            [sys.executable, "-m", "twine", "check", "--strict", *map(str, built)],
            capture_output=True,
            text=True,
        )
        problems: list[str] = []
        if twine.returncode != 0:
            problems.append(f"twine check --strict failed:\n{twine.stdout}{twine.stderr}")
        framework = Version(versions["tabletop-framework"])
        seen: set[tuple[str, str]] = set()
        for path in built:
            kind = "wheel" if path.suffix == ".whl" else "sdist"
            meta, files = wheel_metadata(path) if kind == "wheel" else sdist_metadata(path)
            seen.add((meta["Name"], kind))
            problems += problems_of(meta, files, kind, framework)
            if kind == "sdist" and meta["Name"] == "tabletop-app":
                top = {name.split("/")[1] for name in files if name.count("/") >= 1}
                if "tests" in top:
                    problems.append(f"{path.name}: holds tests that cannot run from it")
                if "CHANGELOG.md" not in top:
                    problems.append(f"{path.name}: no CHANGELOG.md")
            if meta["Version"] != versions.get(meta["Name"]):
                problems.append(f"{path.name}: version {meta['Version']}, expected the pyproject's")
        for name in versions:
            for kind in ("wheel", "sdist"):
                if (name, kind) not in seen:
                    problems.append(f"{name}: no {kind} was built")
        for problem in problems:
            print(problem, file=sys.stderr)
        if problems:
            return 1
        print(
            f"{len(built)} files built and checked ({len(versions)} distributions, release "
            f"{release}): twine check --strict passed, licence, README, classifiers and "
            "bounded framework requirements in every one"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
