"""Regenerate ``engine/solitaire/winnable_seeds.py``: the seeds the server deals "winnable" games from.

Usage: ``python scripts/winnable_seeds.py [--deals N] [--budget S] [--margin M] [--keep K] [--json FILE ...]
[--jobs J] [--only KEY ...]``. For each list (``engine.solitaire.winnable.option_sets``: every game with its
default options, and with each option changed alone) the candidates are deals 1..N, the seeds listed now,
and those of the ``--json`` files (written by ``python -m benchmarks.winnability --seeds FILE``). A candidate
is kept when the first hint of its deal (``engine.solitaire.winnable.proves_winnable``, which solves from the
deal) is ``sure`` within a budget of ``S / M`` seconds of CPU time: so a hint within the server's budget of
``S`` seconds (``ServerConfig.hint_budget``) proves it with room to spare on a busy machine. At most K seeds
are kept per list; the seeds dropped from a list are printed. The file is written again after each list, so
a run cut short keeps the lists it finished. Rerun it whenever the solver changes: a list must hold only
deals the solver on main proves.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.solitaire import new_game  # noqa: E402
from engine.solitaire.winnable import MARGIN, list_key, option_sets, proves_winnable, winnable_seeds  # noqa: E402
from server.config import ServerConfig  # noqa: E402

OUT = ROOT / "engine" / "solitaire" / "winnable_seeds.py"

HEADER = '''"""Seeds proved winnable, per game and options (written by ``scripts/winnable_seeds.py``; do not edit).

``SEEDS[key]``: the seeds, space-separated, of the list ``key`` (``engine.solitaire.winnable.list_key``: the
game's name, then ``K=V`` for each option away from its default) whose deal's first hint
(``engine.solitaire.hints.advise_within``) is ``sure`` within half the server's hint budget of CPU time.
"""

SEEDS: dict[str, str] = {
'''


def proved(job: tuple[str, dict[str, Any], int, float]) -> tuple[int, bool]:
    """(seed, True when the first hint of the deal is ``sure`` within ``seconds`` of CPU time) for the job
    ``(game, options, seed, seconds)``; a module-level function, so worker processes run it."""
    name, options, seed, seconds = job
    return seed, proves_winnable(name, options, seed, budget=seconds, wall=False)


def check(name: str, options: dict[str, Any], seeds: list[int], seconds: float, jobs: int) -> list[int]:
    """The seeds of ``seeds`` whose first hint is ``sure`` within ``seconds`` of CPU time, sorted."""
    work = [(name, options, seed, seconds) for seed in sorted(set(seeds))]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(proved, work))
    else:
        results = [proved(job) for job in work]
    return [seed for seed, ok in results if ok]


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
    """Check, merge and write the lists; returns the exit status (0)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=60, help="try deals 1..N of each list (60)")
    budget = ServerConfig.hint_budget
    parser.add_argument("--budget", type=float, default=budget, help=f"the hint budget, seconds ({budget:g})")
    parser.add_argument("--margin", type=float, default=MARGIN, help=f"prove in budget/M CPU s ({MARGIN:g})")
    parser.add_argument("--keep", type=int, default=300, help="most seeds kept per list (300)")
    parser.add_argument("--json", type=Path, action="append", default=[], help="seed lists to try too")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--only", action="append", default=[], metavar="KEY", help="only these lists")
    args = parser.parse_args()
    extra: dict[str, list[int]] = {}
    for path in args.json:
        for key, seeds in json.loads(path.read_text()).items():
            extra.setdefault(key, []).extend(seeds)
    sets = [(list_key(new_game(name, options, seed=0)), name, options) for name, options in option_sets()]
    lists = {key: list(winnable_seeds(name, options)) for key, name, options in sets}
    for key, name, options in sets:
        if args.only and key not in args.only:
            continue
        before = lists[key]
        candidates = before + extra.get(key, []) + list(range(1, args.deals + 1))
        lists[key] = check(name, options, candidates, args.budget / args.margin, args.jobs)[: args.keep]
        dropped = sorted(set(before) - set(lists[key]))
        print(f"{key}: {len(lists[key])} seeds {lists[key]}; dropped {dropped or 'none'}", flush=True)
        write(lists)  # after each list: a run cut short keeps the lists it finished
    return 0


if __name__ == "__main__":
    sys.exit(main())
