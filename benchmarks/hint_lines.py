"""Hint lines: how much shorter a ``sure`` hint's winning line is than the solver's own line.

Usage: ``python -m benchmarks.hint_lines [--deals K] [--timeout S]``. For the first K seeds of every list of
winnable deals (``engine.solitaire.winnable``), solves the deal (S CPU seconds at most) and shortens the line
as a hint does (``engine.solitaire.lines.shorten``); prints per list the moves of the solver's lines and of
the shortened ones (each deal, then the total) and the longest time a shortening took, in CPU milliseconds.
Every shortened line is replayed to a win.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence

from engine.solitaire import new_game, solve
from engine.solitaire.lines import shorten, wins
from engine.solitaire.winnable import list_key, option_sets, winnable_seeds


def main(argv: Sequence[str] | None = None) -> int:
    """Measure and print a Markdown table; returns the exit status (0, or 1 if a shortened line lost)."""
    parser = argparse.ArgumentParser(prog="benchmarks.hint_lines", description=__doc__)
    parser.add_argument("--deals", type=int, default=3, help="listed seeds per list (3)")
    parser.add_argument("--timeout", type=float, default=10.0, help="CPU seconds per solve (10)")
    args = parser.parse_args(argv)
    print("| list | deals: solver's line -> hint's line (moves) | total | slowest shortening |")
    print("|---|---|---|---|")
    status = 0
    before = after = 0
    for name, options in option_sets():
        cells, slowest, long, short = [], 0.0, 0, 0
        for seed in winnable_seeds(name, options)[: args.deals]:
            game = new_game(name, options, seed=seed)
            moves = solve(game, timeout=args.timeout, clock=time.process_time).moves
            if not moves:
                cells.append(f"{seed}: not solved")
                continue
            start = time.process_time()
            line = shorten(game, moves)
            slowest = max(slowest, time.process_time() - start)
            if not wins(game, line):
                status = 1
            cells.append(f"{seed}: {len(moves)} -> {len(line)}")
            long, short = long + len(moves), short + len(line)
        before, after = before + long, after + short
        key = list_key(new_game(name, options, seed=0))
        print(f"| {key} | {', '.join(cells)} | {long} -> {short} | {slowest * 1000:.0f} ms |", flush=True)
    print(f"| all | | {before} -> {after} ({1 - after / max(before, 1):.0%} shorter) | |")
    return status


if __name__ == "__main__":
    sys.exit(main())
