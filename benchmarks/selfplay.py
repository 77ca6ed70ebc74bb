"""Random-bot Barbu matches per second and microseconds per action, on one core.

Run: ``.venv/bin/python benchmarks/selfplay.py [--matches N]``. Prints its figures; asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import time

from engine.barbu import Match
from engine.barbu.playout import random_playout


def main() -> None:
    """Play ``--matches`` random matches through the fast path and print the rates."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=300)
    args = parser.parse_args()
    rng = random.Random(1)
    actions = cards = 0
    start = time.process_time()
    for seed in range(args.matches):
        match = Match.new(seed)
        actions += random_playout(match, rng)
        cards += sum(len(h.play) for h in match.history)
    seconds = time.process_time() - start
    print(f"{args.matches} random matches in {seconds:.2f} s CPU: {args.matches / seconds:.0f} matches/s")
    print(f"{actions} actions ({cards} cards played or passes): {seconds / actions * 1e6:.2f} µs per action")


if __name__ == "__main__":
    main()
