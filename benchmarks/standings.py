"""How long the standings take on a store of many finished matches: the lobby's first ``standings`` reply
(every record's ``players`` and ``totals`` read by SQLite's ``json_extract``, every match rated), the reply
after one more match (only that one read and rated), a kept reply, and ``barbu standings``' full replay.

Each match is a real 28-hand record (one random-bot match played once, reused), its seats drawn from
``--players`` names and its totals shuffled. Asserts nothing; prints the timings. Run:

    .venv/bin/python -m benchmarks.standings --matches 2000 --players 12
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from pathlib import Path

from engine.barbu import Match, make_policy
from engine.cards import SEATS
from server.standings import StandingsKeeper, store_standings
from server.store import Store


def one_record(seed: int) -> dict[str, object]:
    """A finished match between random bots, as the store keeps it."""
    match = Match.new(seed)
    bots = [make_policy("random", seed * 4 + s) for s in range(4)]
    while not match.over:
        s = match.to_move
        assert s is not None
        match.apply(s, bots[s].choose(match.view(s), match.legal_actions(s)))
    return match.to_record()


def main() -> None:
    """Fill a store in a temporary directory and time the standings on it."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    record = one_record(args.seed)
    names = [f"player{i}" for i in range(args.players)]
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "bench.sqlite3")

        def finish() -> None:
            seats = dict(zip(SEATS, rng.sample(names, 4), strict=True))
            totals = list(record["totals"].values())  # type: ignore[attr-defined]
            rng.shuffle(totals)
            room = store.create_room("barbu", "bench", {}, seats, status="playing")
            store.set_status(
                room, "over", record | {"players": seats, "totals": dict(zip(SEATS, totals, strict=True))}
            )

        with store.transaction():
            for _ in range(args.matches):
                finish()
        size = (Path(tmp) / "bench.sqlite3").stat().st_size
        keeper = StandingsKeeper(store)
        timings = []
        for what in ("first reply", "kept reply", "after one more match"):
            if what == "after one more match":
                finish()
                keeper.changed()
            start = time.perf_counter()
            reply = keeper.reply()(1)
            timings.append((what, time.perf_counter() - start, len(reply)))
        start = time.perf_counter()
        rows = store_standings(store)
        timings.append(("full replay (barbu standings)", time.perf_counter() - start, len(rows)))
        store.close()
    print(f"{args.matches} matches, {args.players} players, store {size / 1e6:.1f} MB")
    for what, seconds, count in timings:
        print(f"  {what:<32} {seconds * 1000:8.1f} ms   ({count})")


if __name__ == "__main__":
    main()
