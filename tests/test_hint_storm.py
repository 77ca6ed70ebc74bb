"""A hint storm: many players from several addresses ask for hints at once of a server with one worker. Every
request is answered within its longest wait in the queue (``server.workers.WAIT_BUDGETS`` hint budgets) plus
one hint's running time and some slack, by a hint or by ``busy`` (with ``retry_after``), nothing hangs, and
the pool serves the next hint as ever. Real server on loopback addresses, real WebSockets, real workers."""

from __future__ import annotations

import asyncio
import time

import pytest

from client import Connection, ServerError
from protocol import Hint
from server.workers import STARVED_WAIT, WAIT_BUDGETS
from tests.conftest import ConnectFrom, StartServer, until

#: The storm: players from each of several loopback addresses, each with a Forty Thieves deal the solver
#: finds no win of within the budget (so each search takes its whole budget).
ADDRESSES = [f"127.0.0.{n}" for n in range(2, 10)]
PLAYERS_PER_ADDRESS = 8
HINT_BUDGET = 0.3
#: Seconds beyond the longest a request may take by the rules (its wait, then one search): the event loop
#: of a loaded machine is slow to get round to answering. Without a queue deadline the last of the 64
#: hints waits for the 63 searches ahead of it (all fit in the queue), some 15 s.
SLACK = 5.0


async def _ask(conn: Connection, room: str) -> tuple[str, float, float | None]:
    """Ask ``conn``'s hint of ``room``: its answer (``hint`` or the error code), the seconds it took, and a
    refusal's ``retry_after``."""
    started = time.monotonic()
    try:
        await conn.hint(room)
    except ServerError as refused:
        return refused.code, time.monotonic() - started, refused.retry_after
    return "hint", time.monotonic() - started, None


async def test_every_hint_of_a_storm_is_answered_in_time_by_a_hint_or_busy(
    start_server: StartServer, connect_from: ConnectFrom
) -> None:
    server = await start_server(workers=1, hint_budget=HINT_BUDGET)
    pool = server.workers
    assert pool is not None
    players: list[tuple[Connection, str]] = []
    for a, address in enumerate(ADDRESSES):
        for p in range(PLAYERS_PER_ADDRESS):
            conn = await connect_from(server, address, f"storm-{a}-{p}")
            room = (await conn.open_solitaire("forty-thieves", {}, 1 + p)).room
            players.append((conn, room))
    longest = WAIT_BUDGETS * HINT_BUDGET + STARVED_WAIT * HINT_BUDGET + pool.grace + SLACK
    async with asyncio.timeout(120):  # a bound on the whole test, hung or not
        answers = await asyncio.gather(
            *(asyncio.wait_for(_ask(conn, room), longest) for conn, room in players), return_exceptions=True
        )
    unanswered = [a for a in answers if isinstance(a, BaseException)]
    assert not unanswered, f"{len(unanswered)} of {len(players)} hints unanswered after {longest:g} s"
    answered = [a for a in answers if not isinstance(a, BaseException)]
    kinds = [kind for kind, _, _ in answered]
    assert set(kinds) <= {"hint", "busy"} and "hint" in kinds, kinds
    busy = [retry for kind, _, retry in answered if kind == "busy"]
    assert busy, "one worker cannot search 64 hints of 0.3 s each within 0.9 s"
    assert all(retry == pytest.approx(WAIT_BUDGETS * HINT_BUDGET) for retry in busy), busy
    # Nothing left behind: the queue drains, no one's place is held, and the next hint is searched.
    await until(lambda: pool.queued == 0 and pool.running == 0, "the pool to go idle")
    names = [f"player:storm-{a}-{p}" for a in range(len(ADDRESSES)) for p in range(PLAYERS_PER_ADDRESS)]
    assert all(pool.pending(name) == 0 for name in names)
    conn, room = players[-1]
    assert isinstance(await conn.hint(room), Hint)
