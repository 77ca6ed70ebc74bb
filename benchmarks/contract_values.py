"""What each contract is worth to its declarer on an average hand, under the search bot's playouts.

For random deals, the declarer's mean contract score in each contract (Trumps and Dominoes: the best of the
search bot's candidate trump suits and starting ranks for that hand), estimated by fast playouts. The search
policy's ``AVERAGE`` table comes from this. Prints a table; asserts nothing. Run:

    .venv/bin/python -m benchmarks.contract_values [--hands 150] [--deals 20]
"""

from __future__ import annotations

import argparse
import random
import statistics

from engine.barbu import ChooseContract, Hand, Variants
from engine.barbu.rules import CONTRACTS
from engine.barbu.search.policy import _contract_options, _from_start
from engine.cards import deal_hands


def main() -> None:
    """Estimate and print the declarer's mean score per contract on random hands."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=150)
    parser.add_argument("--deals", type=int, default=20)
    args = parser.parse_args()
    rng = random.Random(7)
    values: dict[str, list[float]] = {c: [] for c in CONTRACTS}
    for _ in range(args.hands):
        deck = list(range(52))
        rng.shuffle(deck)
        mine = deal_hands(deck, first=0)[0]
        unseen = [c for c in range(52) if not (mine >> c) & 1]
        options = _contract_options(
            mine,
            [ChooseContract(c) for c in CONTRACTS if c not in ("trumps", "dominoes")]
            + [ChooseContract("trumps", trump=s) for s in range(4)]
            + [ChooseContract("dominoes", start_rank=r) for r in range(13)],
        )
        totals = [0] * len(options)
        for _ in range(args.deals):
            rng.shuffle(unseen)
            hands = [mine] + [sum(1 << c for c in unseen[13 * i : 13 * i + 13]) for i in range(3)]
            for i, option in enumerate(options):
                hand = Hand(0, hands, Variants())
                hand.apply(0, option)
                totals[i] += _from_start(hand).playout([0, 0, 0, 0], -1, rng.getrandbits(64))[0]
        for contract in CONTRACTS:
            values[contract].append(
                max(t / args.deals for t, o in zip(totals, options, strict=True) if o.contract == contract)
            )
    for contract in CONTRACTS:
        print(f"{contract:12} {statistics.fmean(values[contract]):+6.1f}")


if __name__ == "__main__":
    main()
