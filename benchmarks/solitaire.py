"""Solver benchmark: per game, the share of deals 1..N the solver decides within a time limit each.

Usage: ``python -m benchmarks.solitaire [--deals N] [--timeout S] [--game G ...] [--option K=V ...] [--wall]``.
Prints one line per game: decided (solvable or unsolvable) and solvable, as shares of the deals, the mean
seconds per deal and the positions the search expanded per second. Deals are ``new_game(game, options,
seed=k)`` for ``k`` in 1..N. The timeout counts this process's CPU seconds (``time.process_time``), so the
figures hold on a machine others are using too; ``--wall`` counts wall-clock seconds instead. The first line
says whether the compiled kernels ran (``BARBU_PURE=1`` forces the pure-Python path, for comparison).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence

from cli.solitaire import parse_options
from engine.compiled import PATH
from engine.solitaire import GAMES, Outcome, new_game, solve


def run_game(
    name: str,
    options: dict[str, object],
    deals: int,
    timeout: float,
    clock: Callable[[], float] = time.process_time,
) -> tuple[int, int, float, int]:
    """Solve deals 1..``deals`` of ``name``; returns (decided, solvable, seconds in all, positions)."""
    decided = solvable = positions = 0
    start = clock()
    for seed in range(1, deals + 1):
        result = solve(new_game(name, options, seed=seed), timeout=timeout, clock=clock)
        positions += result.nodes
        if result.outcome is not Outcome.UNKNOWN:
            decided += 1
        if result.outcome is Outcome.SOLVABLE:
            solvable += 1
    return decided, solvable, clock() - start, positions


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmark and print a table; returns the exit status (0)."""
    parser = argparse.ArgumentParser(prog="benchmarks.solitaire", description=__doc__)
    parser.add_argument("--deals", type=int, default=200, help="deals 1..N per game (200)")
    parser.add_argument("--timeout", type=float, default=1.0, help="seconds per deal (1.0)")
    parser.add_argument(
        "--game", action="append", choices=list(GAMES), help="only these games (default: all)"
    )
    parser.add_argument("--option", action="append", default=[], metavar="K=V", help="a game option")
    parser.add_argument("--wall", action="store_true", help="time by the wall clock, not CPU seconds")
    args = parser.parse_args(argv)
    options = parse_options(args.option)
    clock = time.perf_counter if args.wall else time.process_time
    unit = "wall" if args.wall else "CPU"
    print(f"solver kernels: {PATH}")
    print(
        f"{'game':<16} {'decided':>8} {'solvable':>9} {'s/deal':>7} {'pos/s':>8}"
        f"   ({args.deals} deals, {args.timeout} {unit} s each)"
    )
    for name in args.game or list(GAMES):
        decided, solvable, seconds, positions = run_game(name, options, args.deals, args.timeout, clock)
        n = args.deals
        rate = positions / seconds if seconds > 0 else 0.0
        print(
            f"{name:<16} {decided / n:>8.0%} {solvable / n:>9.0%} {seconds / n:>7.2f} {rate:>8.0f}",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
