"""Load test: a server in its own process, N tables of four bot clients in this one.

Prints actions per second (actions accepted by the server across all tables) and the 50th/99th percentile
of the card latency: the time from a bot sending a card to all four seats of its table receiving the
``card-played`` event (seconds, shown in ms). Bots use the engine's ``random`` policy so the client side
costs little. ``--search-tables K`` adds K tables of four server ``search`` bots (the server's worker pool
thinks for them) beside the bot-client tables: with ``--think 1.5`` those are human-paced, and the latency
printed is theirs alone (the figure that must stay low while search bots think). ``--hint-clients K`` adds K
players, each in a solitaire room asking for hints without pause (the next as soon as one is answered,
making its move; a new deal when the game ends or no move is left): the server's worker pool
(``--workers``, ``--hint-budget``) works them out while the tables play. Run:

    .venv/bin/python -m benchmarks.load --tables 25 --seconds 20 [--think 1.0]
    .venv/bin/python -m benchmarks.load --tables 4 --think 1.5 --search-tables 1 --seconds 60
    .venv/bin/python -m benchmarks.load --tables 8 --think 1.5 --hint-clients 8 --seconds 60

Every bot is cancelled after ``--seconds``; the server process is terminated at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field

from client import Connection, ConnectionLost, ServerError
from engine.barbu import action_from_wire, action_to_wire, make_policy
from protocol import EventPush, Turn
from server.app import tune_gc

#: Seconds allowed for seating all tables, and again for closing all connections.
SETUP_LIMIT = 300.0


@dataclass
class Stats:
    """Send times of cards in flight, delivery counts, and the measured latencies (seconds)."""

    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    received: dict[tuple[str, int], int] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    finished: set[str] = field(default_factory=set)

    def delivered(self, room: str, seq: int) -> None:
        """A seat of ``room`` got the card of action ``seq``; the fourth delivery closes the measurement."""
        key = (room, seq)
        count = self.received.get(key, 0) + 1
        if count < 4:
            self.received[key] = count
            return
        self.received.pop(key, None)
        start = self.sent.pop(key, None)
        if start is not None:
            self.latencies.append(time.perf_counter() - start)


def start_server(db: str, extra: list[str] | None = None) -> tuple[subprocess.Popen[str], str]:
    """Start ``barbu serve`` on a free loopback port (``extra``: more of its options); returns the process
    and its URL."""
    command = [sys.executable, "-m", "cli.main", "serve", "--port", "0", "--db", db, "--log-level", "WARNING"]
    command += ["--max-connections", "100000", "--max-connections-per-address", "100000"]  # all from here
    command += ["--address-request-rate", "1e9", "--address-request-burst", "1e9"]  # (address budgets too)
    command += ["--max-tables-per-address", "100000", "--max-waiting-seats-per-address", "100000"]
    command += extra or []
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if "listening on" not in line:
        proc.kill()
        raise RuntimeError(f"server did not start: {line!r}")
    return proc, line.split("listening on ", 1)[1].split()[0]


async def bot(conn: Connection, room: str, seed: int, stats: Stats, think: float) -> None:
    """Play this seat with the random policy, waiting 0.5-1.5 times ``think`` seconds (uniformly drawn)
    before each action (a human's pace; 0 = as fast as possible), until the match ends or it is cancelled."""
    policy = make_policy("random", seed)
    pace = random.Random(seed)
    async for push in conn.pushes():
        if isinstance(push, EventPush):
            if push.event["event"] == "card-played":
                stats.delivered(room, push.seq)
            elif push.event["event"] == "match-over":
                stats.finished.add(room)
                return
        elif isinstance(push, Turn):
            legal = [action_from_wire(a) for a in push.view["legal"]]
            action = action_to_wire(policy.choose(push.view, legal))
            if think > 0:
                await asyncio.sleep(think * pace.uniform(0.5, 1.5))
            if action["action"] == "play":
                stats.sent[(room, push.seq + 1)] = time.perf_counter()
            try:
                await conn.act(room, push.seat, action)
            except (ServerError, ConnectionLost):
                return
            stats.actions += 1


async def open_table(url: str, index: int, gate: asyncio.Semaphore) -> tuple[str, list[Connection]]:
    """Four logged-in connections seated at a new table; returns its room id and the connections."""
    async with gate:
        conns = [await Connection.connect(url, client="load", timeout=60) for _ in range(4)]
        for i, conn in enumerate(conns):
            await conn.login(f"load-{index}-{i}")
        room = await conns[0].create_table(f"load-{index}")
        for conn in conns:
            await conn.sit(room)
        return room, conns


#: The search tables' counting tasks (kept referenced until they end).
_COUNTERS: set[asyncio.Task[None]] = set()


async def search_table(url: str, index: int, policy: str, played: list[int]) -> Connection:
    """A table of four server bots playing ``policy``, watched by its creator; counts its cards in
    ``played[0]`` until the connection closes. Returns the connection (close it to stop counting)."""
    host = await Connection.connect(url, client="load", timeout=60)
    await host.login(f"search-host-{index}")
    room = await host.create_table(f"search-{index}", bot_policy=policy)
    await host.watch(room)
    for seat in ("N", "E", "S", "W"):
        await host.add_bot(room, seat)

    async def count() -> None:
        async for push in host.pushes():
            if isinstance(push, EventPush) and push.event["event"] == "card-played":
                played[0] += 1

    task = asyncio.create_task(count())
    _COUNTERS.add(task)
    task.add_done_callback(_COUNTERS.discard)
    return host


async def hinter(url: str, index: int, game: str, hints: Counter[str]) -> None:
    """A player asking for hints in a solitaire room of ``game`` without pause, making each hinted move; a
    new deal when the game is over or a hint has no move. ``hints`` counts answers by status (``busy``:
    refused, tried again 50 ms later). Runs until cancelled."""
    conn = await Connection.connect(url, client="load", timeout=60)
    try:
        await conn.login(f"hinter-{index}")
        room = (await conn.open_solitaire(game, {}, index + 1)).room
        while True:
            try:
                hint = await conn.hint(room)
            except ServerError as exc:
                hints[exc.code] += 1
                await asyncio.sleep(0.05)
                continue
            hints[hint.status] += 1
            if hint.move is not None:
                with contextlib.suppress(ServerError):
                    await conn.move(room, hint.move)
                    view = (await conn.snapshot(room)).view
                    if view is None or view["result"] is None:
                        continue
            room = (await conn.new_deal(room)).room
    finally:
        await conn.close()


async def run(
    url: str,
    tables: int,
    seconds: float,
    think: float,
    search_tables: int = 0,
    policy: str = "search",
    hint_clients: int = 0,
    hint_game: str = "forty-thieves",
) -> Stats:
    """Seat ``tables`` tables (and ``search_tables`` tables of server ``policy`` bots, and ``hint_clients``
    players asking for hints in ``hint_game``), then let their bots play for ``seconds``; prints the
    throughput."""
    stats = Stats()
    gate = asyncio.Semaphore(20)
    searched = [0]
    hints: Counter[str] = Counter()
    hosts = [await search_table(url, i, policy, searched) for i in range(search_tables)]
    setup = asyncio.gather(*(open_table(url, i, gate) for i in range(tables)))
    opened = await asyncio.wait_for(setup, SETUP_LIMIT)
    start = time.perf_counter()
    hinting = [asyncio.create_task(hinter(url, i, hint_game, hints)) for i in range(hint_clients)]
    bots = [
        asyncio.create_task(bot(conn, room, t * 4 + i, stats, think))
        for t, (room, conns) in enumerate(opened)
        for i, conn in enumerate(conns)
    ]
    _, running = await asyncio.wait(bots, timeout=seconds)
    elapsed = time.perf_counter() - start
    for task in [*running, *hinting]:
        task.cancel()
    await asyncio.gather(*bots, *hinting, return_exceptions=True)
    closing = [conn.close() for _, conns in opened for conn in conns] + [host.close() for host in hosts]
    await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), SETUP_LIMIT)
    print(f"tables {tables}  connections {tables * 4}  think {think} s  measured {elapsed:.1f} s", flush=True)
    if search_tables:
        print(f"search tables {search_tables} ({policy} server bots): {searched[0]} cards played")
    if hint_clients:
        answers = "  ".join(f"{status} {n}" for status, n in sorted(hints.items()))
        print(f"hint clients {hint_clients} ({hint_game}): {sum(hints.values())} answers  {answers}")
    print(f"actions/s {stats.actions / elapsed:.0f}  matches finished {len(stats.finished)}")
    return stats


def main(argv: list[str] | None = None) -> int:
    """Parse arguments, start the server process, run the load, print the figures; exit 0."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=25, help="tables of four bot connections (default 25)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds (default 20)")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds each bot waits before acting (0 = flat out, the default; 1-2 = a human's pace)",
    )
    parser.add_argument(
        "--search-tables", type=int, default=0, help="tables of four server search bots besides (default 0)"
    )
    parser.add_argument("--search-policy", default="search", help="their policy spec (default search)")
    parser.add_argument(
        "--hint-clients", type=int, default=0, help="players asking solitaire hints without pause (default 0)"
    )
    parser.add_argument("--hint-game", default="forty-thieves", help="their game (default forty-thieves)")
    parser.add_argument("--workers", type=int, default=None, help="the server's worker processes")
    parser.add_argument("--hint-budget", type=float, default=None, help="the server's hint budget, seconds")
    args = parser.parse_args(argv)
    extra = [] if args.workers is None else ["--workers", str(args.workers)]
    extra += [] if args.hint_budget is None else ["--hint-budget", str(args.hint_budget)]
    tune_gc()
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = start_server(os.path.join(tmp, "load.sqlite3"), extra)
        try:
            stats = asyncio.run(
                run(
                    url,
                    args.tables,
                    args.seconds,
                    args.think,
                    args.search_tables,
                    args.search_policy,
                    args.hint_clients,
                    args.hint_game,
                )
            )
        finally:
            proc.terminate()
            proc.wait(10)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(
        f"cpu seconds: server {children.ru_utime + children.ru_stime:.1f}  clients {time.process_time():.1f}"
    )
    if stats.latencies:
        cuts = statistics.quantiles(stats.latencies, n=100)
        print(
            f"card to all four seats: p50 {cuts[49] * 1000:.1f} ms  p99 {cuts[98] * 1000:.1f} ms"
            f"  ({len(stats.latencies)} cards)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
