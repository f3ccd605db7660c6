"""A throw-away environment for the install and scaffold tests (issue 23), offline.

Why not a fresh venv with everything installed: that needs the package index and a
minute. Instead a bare venv (no pip of its own) sees the development environment's
packages through a ``.pth`` file that runs ``site.addsitedir`` on them, so it has the
app, the framework, pip and setuptools, while ``sys.prefix`` (where ``tabletop
install`` puts games) is its own: a game installed there is invisible to ``.venv``.
"""

from __future__ import annotations

import os
import subprocess
import sys
import sysconfig
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Venv:
    """A venv layered on the development environment."""

    root: Path
    env: dict[str, str]

    @property
    def python(self) -> Path:
        return self.root / "bin" / "python"

    def run(self, *args: str | Path, timeout: float = 180) -> subprocess.CompletedProcess[str]:
        """Run the venv's python with ``args``; output captured as text."""
        return subprocess.run(
            [str(self.python), *map(str, args)],
            capture_output=True,
            text=True,
            env=self.env,
            timeout=timeout,
        )

    def tabletop(self, *args: str | Path) -> subprocess.CompletedProcess[str]:
        return self.run("-m", "tabletop", *args)


#: Console commands the venv gets, as the modules they run.
COMMANDS = {"tabletop": "tabletop", "pip": "pip", "pytest": "pytest", "mypy": "mypy"}
PURELIB = "import sysconfig; print(sysconfig.get_paths()['purelib'])"


def make_venv(root: Path, home: Path) -> Venv:
    """A venv at ``root`` on top of this interpreter's packages; its saves, log and
    cache under ``home``; pip offline and without the machine's configuration."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    made = Path(
        subprocess.run(
            [str(root / "bin" / "python"), "-c", PURELIB],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    ours = sysconfig.get_paths()["purelib"]
    (made / "zz-development.pth").write_text(f"import site; site.addsitedir({ours!r})\n")
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PIP_", "TABLETOP_", "VIRTUAL_ENV", "PYTHON"))
    }
    env.update(
        TABLETOP_SAVE_DIR=str(home / "saves"),
        TABLETOP_LOG_FILE=str(home / "tabletop.jsonl"),
        TABLETOP_CACHE_DIR=str(home / "cache"),
        PIP_CONFIG_FILE=os.devnull,
        PIP_NO_INDEX="1",
        PIP_DISABLE_PIP_VERSION_CHECK="1",
        # pip reads this double negative as "no build isolation": builds use the
        # setuptools already installed, with no index to fetch another from.
        PIP_NO_BUILD_ISOLATION="0",
        PATH=f"{root / 'bin'}:{os.environ.get('PATH', '/usr/bin:/bin')}",
    )
    # The commands a reader types, run by this venv's python (it has no scripts).
    for command, module in COMMANDS.items():
        shim = root / "bin" / command
        shim.write_text(f'#!/bin/sh\nexec "{root / "bin" / "python"}" -m {module} "$@"\n')
        shim.chmod(0o755)
    return Venv(root, env)
