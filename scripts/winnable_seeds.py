"""Regenerate ``engine/solitaire/winnable_seeds.py``: the seeds the server deals "winnable" games from.

Usage: ``python scripts/winnable_seeds.py [--deals N] [--timeout S] [--keep K] [--json FILE ...] [--jobs J]``.
For each list (every game with its default options, and the variants in ``VARIANTS``) it solves deals
1..N (CPU seconds each) and keeps at most K seeds proved solvable; ``--json`` files written by
``python -m benchmarks.winnability --seeds FILE`` are merged in first (then ``--deals 0`` solves nothing
more). Every seed written was answered ``solvable`` by ``engine.solitaire.solve`` with a winning line.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.winnability import run  # noqa: E402
from engine.solitaire import GAMES, new_game  # noqa: E402
from engine.solitaire.winnable import list_key  # noqa: E402

#: Option sets with their own list besides each game's defaults.
VARIANTS: list[tuple[str, dict[str, object]]] = [
    ("pyramid", {"draw": 3}),
    ("bakers-dozen", {"kings": "stay"}),
    ("bakers-dozen", {"build": "any-suit"}),
]
OUT = ROOT / "engine" / "solitaire" / "winnable_seeds.py"

HEADER = '''"""Seeds proved winnable, per game and options (written by ``scripts/winnable_seeds.py``; do not edit).

``SEEDS[key]``: the seeds, space-separated, of the list ``key`` (``engine.solitaire.winnable.list_key``: the
game's name, then ``K=V`` for each option away from its default) for which ``engine.solitaire.solve`` found
a win.
"""

SEEDS: dict[str, str] = {
'''


def write(lists: dict[str, list[int]], path: Path = OUT) -> None:
    """Write ``lists`` as the module at ``path``: seeds sorted, fifteen to a line; empty lists left out."""
    lines = [HEADER]
    for key in sorted(lists):
        seeds = sorted(set(lists[key]))
        if not seeds:
            continue
        lines.append(f"    {json.dumps(key)}: (\n")
        for i in range(0, len(seeds), 15):
            last = i + 15 >= len(seeds)
            text = " ".join(str(s) for s in seeds[i : i + 15]) + ("" if last else " ")
            lines.append(f"        {json.dumps(text)}\n")
        lines.append("    ),\n")
    lines.append("}\n")
    path.write_text("".join(lines))
    # The repository's formatter joins what fits on a line; without it the file is valid as written.
    subprocess.run([sys.executable, "-m", "ruff", "format", "-q", str(path)], check=False)


def main() -> int:
    """Solve, merge and write the lists; returns the exit status (0)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=300, help="solve deals 1..N of each list (300)")
    parser.add_argument("--timeout", type=float, default=2.0, help="CPU seconds per deal (2)")
    parser.add_argument("--keep", type=int, default=300, help="most seeds kept per list (300)")
    parser.add_argument("--json", type=Path, action="append", default=[], help="seed lists to merge first")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    args = parser.parse_args()
    lists: dict[str, list[int]] = {}
    for path in args.json:
        for key, seeds in json.loads(path.read_text()).items():
            lists.setdefault(key, []).extend(seeds)
    for name, options in [(name, {}) for name in GAMES] + VARIANTS:
        key = list_key(new_game(name, options, seed=0))
        if args.deals > 0:
            found = run(name, options, range(1, args.deals + 1), args.timeout, args.jobs, wall=False)
            lists.setdefault(key, []).extend(found["solvable"])
        lists[key] = sorted(set(lists.get(key, [])))[: args.keep]
        print(f"{key}: {len(lists[key])} seeds", flush=True)
    write(lists)
    return 0


if __name__ == "__main__":
    sys.exit(main())
