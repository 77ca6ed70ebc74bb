"""Random-bot Barbu matches per second and microseconds per action, and the search bot's determinized hand
playouts per second from the first trick, on one core.

Run: ``.venv/bin/python benchmarks/selfplay.py [--matches N] [--positions N]``. Prints its figures; asserts
nothing. A determinized hand playout is what the search bot does for each sampled deal and candidate: draw a
deal of the unseen cards consistent with the seat's view, copy the hand, play it to its end with the rollout
rules (``engine.barbu.search``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from engine.barbu import Match, make_policy
from engine.barbu.hand import PLAY, Hand
from engine.barbu.playout import random_playout
from engine.barbu.search.infer import read_view
from engine.barbu.search.rollout import playout
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
    positions = first_tricks(args.positions)
    rates = []
    for _ in range(args.repeat):
        start = time.process_time()
        for sampler, base in positions:
            for _ in range(args.playouts):
                deal = sampler.sample(rng)
                hand = base.copy()
                for s in range(4):
                    hand.hands[s] |= deal[s]
                playout(hand, rng)
        rates.append(len(positions) * args.playouts / (time.process_time() - start))
    print(
        f"determinized hand playouts from the first trick (sample, copy, play out), {args.repeat} rounds of "
        f"{len(positions) * args.playouts}: best {max(rates):.0f}/s, median {statistics.median(rates):.0f}/s "
        "(CPU time; a shared machine's other work slows every round, the best is the least disturbed)"
    )


def first_tricks(count: int) -> list[tuple[DealSampler, Hand]]:
    """``count`` positions at the first card of a hand (heuristic bots choose and double), as the leader
    sees them: its deal sampler and its hand with the unseen cards left out."""
    out: list[tuple[DealSampler, Hand]] = []
    bots = [make_policy("heuristic", s) for s in range(4)]
    seed = 0
    while len(out) < count:
        match = Match.new(seed)
        seed += 1
        while not match.over and len(out) < count:
            seat = match.to_move
            assert seat is not None
            if match.hand.phase == PLAY and not match.hand.play:
                know, base = read_view(match.view(seat))
                out.append((DealSampler(know.allowed(), know.sizes), base))
            match.apply(seat, bots[seat].choose(match.view(seat), match.legal_actions(seat)))
    return out


if __name__ == "__main__":
    main()
