"""Duplicate matches between two bot policies: is A better than B, and by how much?

For each seed the 28 deals are played once with B in all four seats, and four times with A in one seat (each
seat in turn) against three B. A **duplicate match** is one seed with A in one seat: A's margin is A's total
minus B's total in the same seat on the same deals, so the luck of the cards cancels. ``--matches N`` plays
seeds ``S, S+1, ...`` with A in N, E, S, W in turn (200 matches = 50 seeds x 4 seats). Prints one line per
finished match, then A's mean margin with its 95 % confidence interval (normal approximation over matches),
A's share of first places (ties shared; 25 % is even), A's decision time p50/p99 (decisions with a choice,
wall clock, in the worker process) and, for each contract, A's mean margin a hand with its 95 % CI. Asserts nothing. Run:

    .venv/bin/python -m benchmarks.arena --a search:time=0.1 --b heuristic --matches 200 --seed 1 --jobs 2

Besides the product's policies, A and B may name the earlier versions kept for benchmarks
(``heuristic-2026``: today's ``heuristic`` before issue 29's Trumps and Dominoes play).
``--time-limit SECONDS`` stops starting matches after that long and reports those finished; ``--out FILE``
appends each finished match as a JSON line, and ``--report FILE`` prints the summary of such a file.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Iterable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, dataclass, field

from engine.barbu import Match, PolicySpecError, make_policy, parse_policy_spec
from engine.barbu.rules import CONTRACTS
from engine.cards import SEATS


@dataclass
class Played:
    """One match played: its ``seed``, the seat of A (``None`` for B's baseline), the totals by seat, the
    ranking (places of seats), A's decision times in seconds (decisions with more than one action), and each
    hand as ``[declarer, contract, scores by seat]`` (hand results, doubles settled)."""

    seed: int
    seat: int | None
    totals: list[int]
    ranking: list[list[int]]
    times: list[float] = field(default_factory=list)
    hands: list[tuple[int, str, list[int]]] = field(default_factory=list)


def play(seed: int, a: str, b: str, seat: int | None) -> Played:
    """The match of ``seed`` with ``a`` in ``seat`` and ``b`` elsewhere (``seat`` None: ``b`` everywhere).
    Each seat's policy is seeded by the match seed and the seat, so B plays alike in the baseline."""
    match = Match.new(seed)
    specs = [parse_policy_spec(a if s == seat else b, benchmark=True) for s in range(4)]
    bots = [make_policy(specs[s], seed * 4 + s) for s in range(4)]
    times: list[float] = []
    while not match.over:
        turn = match.to_move
        assert turn is not None
        legal = match.legal_actions(turn)
        view = match.view(turn)
        start = time.perf_counter()
        action = bots[turn].choose(view, legal)
        if turn == seat and len(legal) > 1:
            times.append(time.perf_counter() - start)
        match.apply(turn, action)
    hands = [
        (h.declarer, h.contract or "", scores)
        for h, (_, _, scores) in zip(match.history, match.results, strict=True)
    ]
    return Played(seed, seat, list(match.totals), match.ranking(), times, hands)


def mean_ci(values: list[float]) -> tuple[float, float]:
    """The mean of ``values`` and the half-width of its 95 % confidence interval (normal approximation;
    infinite for fewer than two values)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


@dataclass
class Summary:
    """The arena's figures over the duplicate matches whose baseline also finished. ``by_contract``: for each
    contract, A's margin a hand in each match (the mean over that match's hands of the contract, paired with
    the baseline's hand of the same declarer and contract)."""

    matches: int
    margins: list[float]
    firsts: float
    times: list[float]
    by_contract: dict[str, list[float]] = field(default_factory=dict)

    def lines(self, a: str, b: str) -> list[str]:
        """The report, one figure a line."""
        out = [f"A = {a}   B = {b}   duplicate matches: {self.matches}"]
        if not self.matches:
            return out
        mean, half = mean_ci(self.margins)
        out.append(
            f"A's duplicate margin per match: {mean:+.1f}  95% CI [{mean - half:+.1f}, {mean + half:+.1f}]"
        )
        out.append(f"A's first places: {100 * self.firsts / self.matches:.1f} % (ties shared; 25 % is even)")
        if self.times:
            cuts = statistics.quantiles(self.times, n=100) if len(self.times) > 1 else [self.times[0]] * 99
            out.append(
                f"A's decision time: p50 {cuts[49] * 1000:.1f} ms  p99 {cuts[98] * 1000:.1f} ms"
                f"  ({len(self.times)} decisions with a choice)"
            )
        for contract in CONTRACTS:
            values = self.by_contract.get(contract)
            if values:
                mean, half = mean_ci(values)
                out.append(
                    f"  {contract:<12} A's margin a hand: {mean:+.2f}  95% CI [{mean - half:+.2f},"
                    f" {mean + half:+.2f}]  ({len(values)} matches)"
                )
        return out


def _by_contract(p: Played, base: Played, seat: int) -> dict[str, float]:
    """A's mean margin a hand in ``p`` for each contract, against ``base``'s hands of the same declarer and
    contract (each declarer plays each contract once, so the pair is one hand in each match)."""
    theirs = {(d, c): scores[seat] for d, c, scores in base.hands}
    margins: dict[str, list[int]] = {}
    for d, c, scores in p.hands:
        if (d, c) in theirs:
            margins.setdefault(c, []).append(scores[seat] - theirs[d, c])
    return {c: statistics.fmean(m) for c, m in margins.items()}


def summarize(played: Iterable[Played]) -> Summary:
    """Pair each A match with its seed's baseline: margins, first places (ties shared), decision times,
    margins a hand by contract."""
    runs = list(played)
    base = {p.seed: p for p in runs if p.seat is None}
    margins: list[float] = []
    firsts = 0.0
    times: list[float] = []
    by_contract: dict[str, list[float]] = {}
    for p in runs:
        if p.seat is None or p.seed not in base:
            continue
        margins.append(p.totals[p.seat] - base[p.seed].totals[p.seat])
        first = p.ranking[0]
        firsts += 1 / len(first) if p.seat in first else 0.0
        times.extend(p.times)
        for c, m in _by_contract(p, base[p.seed], p.seat).items():
            by_contract.setdefault(c, []).append(m)
    return Summary(len(margins), margins, firsts, times, by_contract)


def _line(p: Played, baseline: Played | None) -> str:
    who = "baseline (B everywhere)" if p.seat is None else f"A in {SEATS[p.seat]}"
    totals = " ".join(f"{SEATS[s]} {p.totals[s]:+d}" for s in range(4))
    extra = ""
    if p.seat is not None and baseline is not None:
        extra = f"  margin {p.totals[p.seat] - baseline.totals[p.seat]:+d}"
    return f"seed {p.seed} {who}: {totals}{extra}"


def run(a: str, b: str, matches: int, seed: int, jobs: int, limit: float | None, out: str | None) -> Summary:
    """Play the matches on ``jobs`` processes (baselines first for each seed), printing each as it ends."""
    tasks: list[tuple[int, int | None]] = []
    for i in range(math.ceil(matches / 4)):
        tasks.append((seed + i, None))
        tasks.extend((seed + i, s) for s in range(4) if i * 4 + s < matches)
    start = time.monotonic()
    played: list[Played] = []
    sink = open(out, "a", encoding="utf-8") if out else None  # noqa: SIM115 - closed below
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        queue = list(reversed(tasks))
        running: set[Future[Played]] = set()
        while queue or running:
            while queue and len(running) < jobs and (limit is None or time.monotonic() - start < limit):
                s, seat = queue.pop()
                running.add(pool.submit(play, s, a, b, seat))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for future in done:
                p = future.result()
                played.append(p)
                baseline = next((q for q in played if q.seed == p.seed and q.seat is None), None)
                print(_line(p, baseline), flush=True)
                if sink is not None:
                    sink.write(json.dumps(asdict(p)) + "\n")
                    sink.flush()
    if sink is not None:
        sink.close()
    return summarize(played)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play (or read ``--report``), print the summary; exit 0, or 2 on a bad spec."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--a", required=True, metavar="SPEC", help="the policy under test")
    parser.add_argument("--b", required=True, metavar="SPEC", help="the policy it plays against")
    parser.add_argument("--matches", type=int, default=8, help="duplicate matches (default 8 = 2 seeds)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument(
        "--time-limit", type=float, default=None, metavar="SECONDS", help="stop starting matches"
    )
    parser.add_argument("--out", metavar="FILE", help="append each finished match as a JSON line")
    parser.add_argument("--report", metavar="FILE", help="only summarize the JSON lines of an earlier --out")
    args = parser.parse_args(argv)
    try:
        a, b = (str(parse_policy_spec(x, benchmark=True)) for x in (args.a, args.b))
    except PolicySpecError as exc:
        print(f"arena: {exc}", file=sys.stderr)
        return 2
    if args.report:
        with open(args.report, encoding="utf-8") as f:
            summary = summarize(Played(**json.loads(line)) for line in f if line.strip())
    else:
        summary = run(a, b, args.matches, args.seed, max(1, args.jobs), args.time_limit, args.out)
    print("\n".join(summary.lines(a, b)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
