"""Random-bot Barbu matches per second and microseconds per action, and the search bot's determinized hand
playouts per second from the first trick, on one core, on the compiled and the pure-Python path side by side.

Run: ``.venv/bin/python benchmarks/selfplay.py [--matches N] [--positions N]``. Prints its figures; asserts
nothing. A determinized hand playout is what the search bot does for each sampled deal and candidate: draw a
deal of the unseen cards consistent with the seat's view, play the hand to its end with the rollout rules
(``engine.barbu.search.kernels``; the pure path copies the hand and plays it on the engine's own code).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.barbu import Match, make_policy
from engine.barbu.hand import PLAY, Hand
from engine.barbu.playout import random_playout
from engine.barbu.search import kernels
from engine.barbu.search.infer import Knowledge, read_view
from engine.barbu.search.kernels import Position
from engine.barbu.search.sample import DealSampler


def main() -> None:
    """Play ``--matches`` random matches through the fast path and print the rates."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=300)
    parser.add_argument("--positions", type=int, default=56, help="first-trick positions (hands) to sample")
    parser.add_argument("--playouts", type=int, default=200, help="playouts per position")
    parser.add_argument("--repeat", type=int, default=5, help="rounds of playouts (best and median shown)")
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
    print(f"search kernels: {kernels.PATH}")
    hands = first_tricks(args.positions)
    paths = [("compiled", True)] if kernels.COMPILED else []
    for name, compiled in [*paths, ("pure Python", False)]:
        positions = [
            (DealSampler(know.allowed(), know.sizes, compiled=compiled), Position(base, compiled=compiled))
            for know, base in hands
        ]
        rates = []
        for _ in range(args.repeat):
            start = time.process_time()
            for sampler, position in positions:
                for _ in range(args.playouts):
                    position.playout(sampler.sample(rng), -1, rng.getrandbits(64))
            rates.append(len(positions) * args.playouts / (time.process_time() - start))
        print(
            f"{name}: determinized hand playouts from the first trick (sample, play out), {args.repeat} rounds "
            f"of {len(positions) * args.playouts}: best {max(rates):,.0f}/s, median {statistics.median(rates):,.0f}/s "
            "(CPU time; a shared machine's other work slows every round, the best is the least disturbed)"
        )


def first_tricks(count: int) -> list[tuple[Knowledge, Hand]]:
    """``count`` positions at the first card of a hand (heuristic bots choose and double), as the leader
    sees them: what it knows and its hand with the unseen cards left out."""
    out: list[tuple[Knowledge, Hand]] = []
    bots = [make_policy("heuristic", s) for s in range(4)]
    seed = 0
    while len(out) < count:
        match = Match.new(seed)
        seed += 1
        while not match.over and len(out) < count:
            seat = match.to_move
            assert seat is not None
            if match.hand.phase == PLAY and not match.hand.play:
                out.append(read_view(match.view(seat)))
            match.apply(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))
    return out


if __name__ == "__main__":
    main()
