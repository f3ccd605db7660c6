#!/usr/bin/env bash
# Set up (or refresh) the development environment in .venv: the framework
# (tabletop-framework, with pytest for its conformance kit), then the adapters and app
# (tabletop-app) with the dev tools (pyproject.toml's dependency group "dev"), then every
# game plugin under plugins/, all editable.
#
# Safe and quick to run again: a stamp in .venv records a hash of every pyproject.toml,
# the list of plugin folders and this script; when it matches, pip is not run at all.
# A .venv made by a Python older than 3.11, or whose python no longer runs, is rebuilt.
# PYTHON=/path/to/python3.x chooses the interpreter for a new .venv.
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_ROOT_USER_ACTION=ignore
VENV=.venv
STAMP="$VENV/.tabletop-setup"

# One set-up at a time per checkout (CI and a developer may start one together).
if command -v flock >/dev/null 2>&1; then
    lock="${TMPDIR:-/tmp}/tabletop-setup-$(id -u)-$(pwd | cksum | cut -d' ' -f1).lock"
    exec 9>"$lock"
    flock 9
fi

is_311() { "$1" -c 'import sys; sys.exit(sys.version_info < (3, 11))' >/dev/null 2>&1; }

sha() {
    if command -v sha256sum >/dev/null 2>&1; then sha256sum; else shasum -a 256; fi
}

plugin_dirs() {
    local dir
    for dir in plugins/*/; do
        [ -f "$dir/pyproject.toml" ] && echo "${dir%/}"
    done
    return 0
}

fingerprint() {
    {
        echo "plugins:"; plugin_dirs
        for file in scripts/setup.sh pyproject.toml framework/pyproject.toml plugins/*/pyproject.toml; do
            [ -f "$file" ] && { echo "== $file"; cat "$file"; }
        done
    } | sha | cut -d' ' -f1
}

list_games() {
    # The framework's registry, without the app: a tenth of a second.
    "$VENV/bin/python" - <<'EOF' 2>/dev/null || echo "(could not list them: run .venv/bin/tabletop games)"
from tabletop.framework.plugins import load_registry

registry = load_registry()
names = ", ".join(sorted(registry.games)) or "none"
broken = "".join(f"; {f.plugin} failed to load" for f in registry.failures)
print(names + broken)
EOF
}

# 1. A working .venv on Python 3.11+.
if [ -e "$VENV" ] && ! is_311 "$VENV/bin/python"; then
    echo "Rebuilding $VENV: its python is missing, broken or older than 3.11"
    rm -rf "$VENV"
fi
fresh=0
if [ ! -e "$VENV" ]; then
    python=""
    if [ -n "${PYTHON:-}" ]; then
        candidates=("$PYTHON")
    else
        candidates=(python3 python3.14 python3.13 python3.12 python3.11 python)
    fi
    for candidate in "${candidates[@]}"; do
        if command -v "$candidate" >/dev/null 2>&1 && is_311 "$(command -v "$candidate")"; then
            python="$(command -v "$candidate")"
            break
        fi
    done
    if [ -z "$python" ]; then
        echo "Tabletop needs Python 3.11 or newer; set PYTHON=/path/to/python3.x" >&2
        exit 1
    fi
    "$python" -m venv "$VENV"
    fresh=1
fi

# 2. Nothing changed since the last successful set-up: no pip at all.
want="$(fingerprint)"
if [ "$fresh" = 0 ] && [ -x "$VENV/bin/tabletop" ] && [ -f "$STAMP" ] \
    && [ "$(cat "$STAMP")" = "$want" ]; then
    echo "Tabletop is set up in $VENV (games: $(list_games))"
    exit 0
fi

# 3. Install.
rm -f "$STAMP"
pip=("$VENV/bin/python" -m pip)
if [ "$fresh" = 1 ]; then
    # Nice to have; the pip that venv bundles with Python 3.11+ is new enough.
    "${pip[@]}" install --quiet --upgrade pip || echo "(pip not upgraded; going on)"
fi
# Before 0.2 framework, adapters and app were one distribution named "tabletop" (a
# name that belongs to another project on PyPI); take it out of an old .venv first.
if compgen -G "$VENV/lib/python3*/site-packages/tabletop-*.dist-info" >/dev/null; then
    "${pip[@]}" uninstall --quiet --yes tabletop
fi
rm -rf tabletop.egg-info
# The framework first, so that the app's and every plugin's requirement
# "tabletop-framework" is met by the local copy.
"${pip[@]}" install --quiet -e "framework[testing]"
# The app with the development tools: the "dev" dependency group of pyproject.toml, read
# here so that any pip will do (a group is not package metadata: it is never published).
dev_tools() {
    "$VENV/bin/python" -c 'import tomllib, sys
print("\n".join(tomllib.load(open("pyproject.toml", "rb"))["dependency-groups"]["dev"]))'
}
mapfile -t dev < <(dev_tools)
"${pip[@]}" install --quiet -e . "${dev[@]}"
plugins=()
while IFS= read -r dir; do
    plugins+=(-e "$dir")
done < <(plugin_dirs)
if [ ${#plugins[@]} -gt 0 ]; then
    "${pip[@]}" install --quiet --no-deps "${plugins[@]}"
fi
test -x "$VENV/bin/tabletop"
echo "$want" >"$STAMP"
echo "Tabletop is set up in $VENV (games: $(list_games))"
