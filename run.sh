#!/usr/bin/env bash
# The main job: set up .venv, then a self-play match between built-in bots, printed as a score sheet.
set -euo pipefail
cd "$(dirname "$0")"
bash scripts/setup-venv.sh main
exec .venv/bin/barbu selfplay --matches 1 --seed 1 --players heuristic,heuristic,heuristic,heuristic "$@"
