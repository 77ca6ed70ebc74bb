"""Winnability: per game, the shares of deals proved solvable, proved unsolvable and undecided, each with a 95 %
confidence interval (Wilson score interval).

Usage: ``python -m benchmarks.winnability [--game G ...] [--option K=V ...] [--deals N] [--first K]
[--timeout S] [--jobs J] [--wall] [--seeds FILE]``. Deals are ``new_game(game, options, seed=k)`` for ``k`` in
``K .. K+N-1`` (from 1). The timeout counts each deal's CPU seconds (``--wall``: wall-clock seconds). With
``--seeds FILE`` the seeds proved solvable are added to that JSON file (``{"LIST": [seed, ...]}``, lists
named as in ``engine.solitaire.winnable.list_key``); ``python scripts/winnable_seeds.py --json FILE`` tries
them for the lists the server deals winnable games from, ``engine/solitaire/winnable_seeds.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from cli.solitaire import parse_options
from engine.solitaire import GAMES, Outcome, new_game, solve
from engine.solitaire.winnable import list_key

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a share ``k`` of ``n`` (both ints, ``n`` > 0), as (low, high) in 0..1."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def decide(job: tuple[str, dict[str, Any], int, float, bool]) -> tuple[int, str]:
    """Solve one deal; returns (seed, outcome value). A module-level function, so worker processes run it."""
    name, options, seed, timeout, wall = job
    clock = time.perf_counter if wall else time.process_time
    return seed, solve(new_game(name, options, seed=seed), timeout=timeout, clock=clock).outcome.value


def run(
    name: str, options: dict[str, Any], seeds: range, timeout: float, jobs: int, wall: bool
) -> dict[str, list[int]]:
    """Decide every deal of ``seeds``; returns the seeds by outcome (``solvable``, ``unsolvable``,
    ``unknown``)."""
    work = [(name, options, seed, timeout, wall) for seed in seeds]
    if jobs > 1:
        with ProcessPoolExecutor(jobs) as pool:
            results = list(pool.map(decide, work))
    else:
        results = [decide(job) for job in work]
    out: dict[str, list[int]] = {o.value: [] for o in Outcome}
    for seed, outcome in results:
        out[outcome].append(seed)
    return out


def row(label: str, found: dict[str, list[int]], n: int) -> str:
    """One table row: the label and, per outcome, the share and its 95 % interval, in percent."""
    cells = []
    for outcome in Outcome:
        k = len(found[outcome.value])
        low, high = wilson(k, n)
        cells.append(f"{k / n:.0%} ({low:.0%}-{high:.0%})")
    return f"| {label} | {n} | " + " | ".join(cells) + " |"


def add_seeds(path: Path, key: str, seeds: list[int]) -> None:
    """Merge ``seeds`` into the list ``key`` of the JSON file at ``path`` (kept sorted, no repeats)."""
    data: dict[str, list[int]] = json.loads(path.read_text()) if path.exists() else {}
    data[key] = sorted(set(data.get(key, [])) | set(seeds))
    path.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the measurement and print a Markdown table; returns the exit status (0)."""
    parser = argparse.ArgumentParser(prog="benchmarks.winnability", description=__doc__)
    parser.add_argument(
        "--game", action="append", choices=list(GAMES), help="only these games (default: all)"
    )
    parser.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option")
    parser.add_argument("--deals", type=int, default=100, help="how many deals per game (100)")
    parser.add_argument("--first", type=int, default=1, help="the first deal's seed (1)")
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds per deal (10)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (1)")
    parser.add_argument("--wall", action="store_true", help="time by the wall clock, not CPU seconds")
    parser.add_argument("--seeds", type=Path, metavar="FILE", help="add the solvable seeds to this JSON file")
    args = parser.parse_args(argv)
    options = parse_options(args.option)
    unit = "wall" if args.wall else "CPU"
    print(
        f"deals {args.first}..{args.first + args.deals - 1}, {args.timeout} {unit} s each; 95 % Wilson intervals"
    )
    print("| game | deals | solvable | unsolvable | undecided |")
    print("|---|---|---|---|---|")
    for name in args.game or list(GAMES):
        found = run(
            name, options, range(args.first, args.first + args.deals), args.timeout, args.jobs, args.wall
        )
        key = list_key(new_game(name, options, seed=0))
        print(row(key, found, args.deals), flush=True)
        if args.seeds is not None:
            add_seeds(args.seeds, key, found[Outcome.SOLVABLE.value])
    return 0


if __name__ == "__main__":
    sys.exit(main())
