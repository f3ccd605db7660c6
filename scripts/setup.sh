#!/usr/bin/env bash
# Set up (or refresh) the development environment in .venv: the framework, adapters and
# app with their dev tools, then every game plugin under plugins/. Safe to run again.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
    "$PYTHON" -m venv .venv
fi
export PIP_DISABLE_PIP_VERSION_CHECK=1
.venv/bin/python -m pip install --quiet --upgrade pip
# The framework first, so that each plugin's "tabletop" requirement is already met locally.
.venv/bin/python -m pip install --quiet -e ".[dev]"
plugins=()
for dir in plugins/*/; do
    [ -f "$dir/pyproject.toml" ] && plugins+=(-e "$dir")
done
if [ ${#plugins[@]} -gt 0 ]; then
    .venv/bin/python -m pip install --quiet --no-deps "${plugins[@]}"
fi
echo "Tabletop is set up in .venv (games: $(.venv/bin/tabletop games --json | .venv/bin/python -c 'import json,sys; print(", ".join(g["id"] for g in json.load(sys.stdin)["games"]))'))"
