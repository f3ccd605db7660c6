#!/usr/bin/env bash
# Uninstall the example game and check `tabletop games` no longer lists it, then put it
# back: the real pip round trip behind "install a game and it appears".
set -euo pipefail
cd "$(dirname "$0")/.."
has_pig() { .venv/bin/tabletop games --json | .venv/bin/python -c 'import json,sys; sys.exit(0 if any(g["id"]=="pig" for g in json.load(sys.stdin)["games"]) else 1)'; }
has_pig || { echo "pig is not listed after install"; exit 1; }
.venv/bin/python -m pip uninstall --quiet --yes tabletop-pig
if has_pig; then echo "pig is still listed after uninstall"; exit 1; fi
.venv/bin/python -m pip install --quiet --no-deps -e plugins/pig
has_pig || { echo "pig is not listed after reinstall"; exit 1; }
echo "plugin install/uninstall: ok"
