#!/usr/bin/env bash
# Create (once) the project's virtual environment in .venv and install the project into it.
# Sourced by run.sh and test.sh so a fresh machine needs nothing done by hand.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$root/.venv"
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
stamp="$venv/.installed-$(sha1sum "$root/pyproject.toml" | cut -c1-12)-${1:-main}"
if [ ! -f "$stamp" ]; then
    "$venv/bin/python" -m pip install --quiet --upgrade pip >/dev/null
    if [ "${1:-main}" = "test" ]; then
        "$venv/bin/python" -m pip install --quiet -e "$root[test]"
    else
        "$venv/bin/python" -m pip install --quiet -e "$root"
    fi
    touch "$stamp"
fi
