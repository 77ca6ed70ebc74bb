#!/usr/bin/env bash
# The main job: set up .venv, then play Barbu in the terminal against three bots on a local server
# (`barbu play --local`). Extra arguments go to `barbu play`.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup-venv.sh main
exec .venv/bin/barbu play --local "$@"
