#!/usr/bin/env bash
# Create (once) the project's virtual environment in .venv and install the project into it; reinstall when
# pyproject.toml, setup.py or the compiled kernels' C source change. Run by run.sh and test.sh so a fresh
# machine needs nothing done by hand.
# Usage: scripts/setup-venv.sh [main|test]   (test also installs the test tools)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
kind="${1:-main}"
if [ ! -x "$venv/bin/python" ]; then
    echo "setting up .venv (first run only)..." >&2
    python3 -m venv "$venv"
fi
# The build's inputs: a change to the compiled kernels' C source rebuilds them too.
hash="$(cat "$root/pyproject.toml" "$root/setup.py" "$root/engine/_kernels.c" | sha1sum | cut -c1-12)"
stamp="$venv/.installed-$hash-$kind"
# A test install holds everything the main job needs too.
if [ ! -f "$stamp" ] && [ ! -f "$venv/.installed-$hash-test" ]; then
    extra=""
    [ "$kind" = "test" ] && extra="[test]"
    log="$venv/install.log"
    if ! { "$venv/bin/python" -m pip install --upgrade pip \
        && "$venv/bin/python" -m pip install -e "$root$extra"; } >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        echo "installing the project into .venv failed; the full log is $log" >&2
        exit 1
    fi
    touch "$stamp"
fi
