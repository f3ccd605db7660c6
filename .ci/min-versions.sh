#!/usr/bin/env bash
# The lowest versions the pyproject.toml files declare (.ci/minimums.py pins every
# "name>=X" to "name==X"), installed into a fresh venv with the framework, the app and
# every game built from this checkout (wheels, not editable), then a fast subset of the
# tests against them: the command, saves, sessions, plugins, the UI driven by Pilot, and
# Pig's rules and conformance, the game server over websockets and the server's store.
# Snapshot tests are left out: their pictures belong to one Textual version. Raise a
# minimum in the pyproject.toml when this fails.
#
# PYTHON=/path/to/python3.13 runs it on another interpreter; PINNED=0 installs the newest
# versions instead of the lowest (CI does both: the lowest on 3.11, the newest on the
# newest Python it has).
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore PYTHONDONTWRITEBYTECODE=1
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The commands below keep their log, cache and saves in the temporary folder.
export TABLETOP_LOG_FILE="$tmp/log/tabletop.jsonl" TABLETOP_SAVE_DIR="$tmp/saves"
export TABLETOP_CACHE_DIR="$tmp/cache"
unset TABLETOP_LOAD_PLUGINS

if [ "${PINNED:-1}" = 1 ]; then
    .venv/bin/python .ci/minimums.py >"$tmp/constraints.txt"
    echo "pinned: $(paste -sd' ' "$tmp/constraints.txt")"
else
    : >"$tmp/constraints.txt"
    echo "pinned: nothing (the newest versions)"
fi
# A copy of the checkout, so that building the wheels leaves nothing in the work tree.
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$tmp" --one-top-level=src
"${PYTHON:-.venv/bin/python}" -m venv "$tmp/venv"
"$tmp/venv/bin/python" --version
pip=("$tmp/venv/bin/python" -m pip install --quiet --constraint "$tmp/constraints.txt")
(
    cd "$tmp/src"
    "${pip[@]}" ./framework"[testing]" ".[web]" plugins/*/ pytest-benchmark pytest-textual-snapshot
)
"$tmp/venv/bin/python" -m pip list 2>/dev/null \
    | grep -iE '^(textual|structlog|dependency-injector|platformdirs|pluggy|pytest|websockets|pip|textual-serve) ' \
    | tr -s ' ' | paste -sd',' - | sed 's/^/installed: /'

# The templates of `tabletop new-game` are in the app's wheel.
"$tmp/venv/bin/tabletop" new-game min-demo --dir "$tmp" >/dev/null
test -f "$tmp/min-demo/src/tabletop/games/min_demo/__init__.py"

# A game goes and comes back with the app's own commands, from a fresh venv of wheels.
tabletop="$tmp/venv/bin/tabletop"
listed() { "$tabletop" games --json | "$tmp/venv/bin/python" -c \
    'import json, sys; sys.exit(0 if sys.argv[1] in [g["id"] for g in json.load(sys.stdin)["games"]] else 1)' "$1"; }
"$tabletop" uninstall --yes pig >/dev/null
if listed pig; then echo "pig is still listed after tabletop uninstall"; exit 1; fi
"$tabletop" install "$tmp/src/plugins/pig" >/dev/null
listed pig || { echo "pig is not listed after tabletop install"; exit 1; }
echo "tabletop uninstall/install of a game: ok"

cd "$tmp/src"
"$tmp/venv/bin/python" -m pytest -m "not slow" -x \
    tests/test_cli.py tests/test_eco_cli.py tests/test_app_catalogue.py \
    tests/test_app_logging.py tests/test_app_export.py tests/test_plugins.py \
    tests/test_session.py tests/test_saves.py tests/test_parallel.py \
    tests/tui/test_tui_game.py tests/tui/test_tui_hotseat.py tests/tui/test_tui_saves.py \
    tests/tui/test_tui_keyboard.py tests/tui/test_tui_generic.py plugins/pig/tests \
    tests/server/test_wire.py tests/server/test_netplay_cli.py tests/server/test_store_checks.py
