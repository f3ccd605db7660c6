#!/usr/bin/env bash
# A game needs the framework and nothing else: in a new, temporary venv, pip install
# tabletop-framework and Red Flag Over Paris (not editable, no app), then play one whole
# game through tabletop.framework.Engine with random legal choices, and check that
# Textual, structlog and dependency-injector are neither imported nor installed.
#
# Only pluggy (and setuptools, to build) come from the package index.
# PYTHON chooses the interpreter (default: the one behind .venv, else python3);
# SEED chooses the game (default 1871).
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
root="$PWD"
if [ -z "${PYTHON:-}" ]; then
    if [ -x .venv/bin/python ]; then PYTHON=.venv/bin/python; else PYTHON=python3; fi
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/tabletop-framework-only.XXXXXX")"
trap 'rm -rf "$work"' EXIT

# Build from a copy, so that no build/ or *.egg-info is left in the working tree.
mkdir "$work/src"
for dir in framework plugins/red-flag-over-paris; do
    tar -C "$root" --exclude=build --exclude='*.egg-info' --exclude=__pycache__ -cf - "$dir" \
        | tar -C "$work/src" -xf -
done

"$PYTHON" -m venv "$work/venv"
"$work/venv/bin/python" -m pip install --quiet \
    "$work/src/framework" "$work/src/plugins/red-flag-over-paris"

# -I: only what is installed in the venv counts (no working tree, no PYTHONPATH).
cd "$work"
SEED="${SEED:-1871}" "$work/venv/bin/python" -I - <<'EOF'
import importlib.util
import os
import random
import sys
from importlib import metadata

from tabletop.framework import Engine
from tabletop.framework.chance import dice_factory, rng_factory
from tabletop.framework.plugins import load_registry

installed = sorted(dist.metadata["Name"] for dist in metadata.distributions())
assert "tabletop-framework" in installed and "tabletop-app" not in installed, installed

registry = load_registry()
assert not registry.failures, registry.failures
entry = registry.get("red-flag-over-paris")
assert entry.distribution == "tabletop-red-flag-over-paris", entry.distribution

seed = int(os.environ["SEED"])
engine = Engine(
    entry.definition,
    seed=seed,
    players=2,
    options=None,
    rng_factory=rng_factory,
    dice_factory=dice_factory,
)
chooser = random.Random(seed)
actions = 0
while (prompt := engine.prompt) is not None:
    engine.act(prompt.seat, chooser.choice(prompt.actions()))
    actions += 1
    assert actions < 100_000, "the game does not end"
result = engine.result()
assert result is not None

for name in ("textual", "structlog", "dependency_injector", "tabletop.app", "tabletop.adapters"):
    assert name not in sys.modules, f"{name} was imported"
    assert importlib.util.find_spec(name) is None, f"{name} is installed"

winners = ", ".join(engine.seat_name(seat) for seat in result.winners) or "nobody"
print(
    f"framework only: Red Flag Over Paris (seed {seed}) played to the end in {actions} "
    f"random legal actions; won by {winners}; without textual, structlog, dependency_injector"
)
EOF
