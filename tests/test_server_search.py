"""Search bots at a real server: they think in the worker pool, never in the event loop, their answers are
played only while the position stands, and when the pool cannot answer a heuristic decision keeps the table
going."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

import pytest

from client import ServerError
from engine.barbu.search import SearchPolicy
from protocol import EventPush
from server import BarbuServer
from server.barbu_table import BarbuTable
from server.bot_moves import ANSWER_MARGIN, search_action, worker_budget
from server.ratelimit import Throttle
from server.workers import unavailable
from tests.conftest import Connect, StartServer, until
from tests.worker_jobs import nap


@pytest.fixture
def no_search_in_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    """Search in this (the server's) process fails the test: it must run in a worker process."""

    def refuse(self: SearchPolicy, view: dict[str, Any], legal: list[Any]) -> Any:
        raise AssertionError("search ran in the event loop's process")

    monkeypatch.setattr(SearchPolicy, "choose", refuse)


async def _cards_played(watcher: Any, count: int) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []
    while len(seen) < count:
        push = await watcher.next_push(30)
        if isinstance(push, EventPush) and push.event["event"] == "card-played":
            seen.append(push.event)
    return seen


async def test_a_table_of_search_bots_plays_through_the_worker_pool(
    start_server: StartServer, connect: Connect, no_search_in_the_loop: None
) -> None:
    server = await start_server(bot_policy="heuristic")
    host = await connect(server, "host")
    room = await host.create_table("thinkers", bot_policy="search:playouts=6")
    await host.watch(room)
    for seat in "NESW":
        await host.add_bot(room, seat)
    [summary] = [r for r in await host.list_rooms() if r["room"] == room]
    assert summary["bot_policy"] == "search:playouts=6"
    assert set(summary["players"].values()) == {"bot:search:playouts=6"}
    await _cards_played(host, 20)
    assert server.workers is not None and server.workers.started >= 1


async def test_without_a_worker_pool_the_table_plays_on_heuristically(
    server: BarbuServer, connect: Connect, no_search_in_the_loop: None
) -> None:
    host = await connect(server, "host")
    room = await host.create_table("no workers", bot_policy="search")
    assert server.lobby is not None
    table = server.lobby.rooms[room]
    assert isinstance(table, BarbuTable)
    table.workers = unavailable()  # every job refused: WorkerClosed
    await host.watch(room)
    for seat in "NESW":
        await host.add_bot(room, seat)
    await _cards_played(host, 8)


def test_the_worker_job_answers_a_legal_wire_action() -> None:
    from engine.barbu import Match, action_from_wire

    match = Match.new(3)
    seat = match.to_move
    assert seat is not None
    view = match.view(seat)
    wire = search_action("search:playouts=5", 1, view, budget=1.0)
    assert action_from_wire(wire) in match.legal_actions(seat)
    assert search_action("search:playouts=5", 1, view, budget=1.0) == wire  # deterministic
    assert worker_budget("search") == 0.5 and worker_budget("search:time=0.1") == 0.1
    with pytest.raises(ValueError, match="no legal actions"):
        search_action("search", 1, match.view((seat + 1) % 4), budget=1.0)


async def test_a_search_stand_in_plays_for_a_player_who_left(
    server: BarbuServer, connect: Connect, no_search_in_the_loop: None
) -> None:
    ann = await connect(server, "ann")
    room = await ann.create_table("stand-in", bot_policy="search:playouts=6")
    await ann.sit(room, "S")
    for seat in "NEW":
        await ann.add_bot(room, seat, "heuristic")
    watcher = await connect(server, "watcher")
    await watcher.watch(room)
    await ann.leave(room)  # during the match: a stand-in of the table's bot policy plays S at once
    played = await _cards_played(watcher, 16)
    assert any(event["seat"] == "S" for event in played)


async def test_a_policy_asking_more_than_max_bot_time_is_refused(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(max_bot_time=2.0)
    host = await connect(server, "host")
    with pytest.raises(ServerError) as info:
        await host.create_table("hog", bot_policy="search:time=10")
    assert (info.value.code, info.value.field) == ("bad-message", "bot_policy")
    assert "time=2" in info.value.message
    room = await host.create_table("fair", bot_policy="search:time=2")
    with pytest.raises(ServerError) as info:
        await host.add_bot(room, "N", "search:time=2.5")
    assert (info.value.code, info.value.field) == ("bad-message", "policy")
    await host.add_bot(room, "N", "search:time=1")
    assert worker_budget("search:playouts=6", 2.0) == 2.0 and worker_budget("search:time=1", 2.0) == 1.0


async def test_a_bot_whose_answer_waits_in_the_queue_too_long_plays_heuristic(
    start_server: StartServer, connect: Connect, no_search_in_the_loop: None
) -> None:
    server = await start_server(max_bot_time=0.2, workers=1)
    pool = server.workers
    assert pool is not None
    # Another owner holds the only worker for longer than the whole test: the table's jobs only queue.
    hog = asyncio.get_running_loop().create_task(pool.run("player:hog", nap, 120.0, budget=120.0))
    await until(lambda: pool.running == 1, "the hog's job to start")
    host = await connect(server, "host")
    room = await host.create_table("patient", bot_policy="search:time=0.2")
    await host.watch(room)
    started = time.monotonic()
    for seat in "NESW":
        await host.add_bot(room, seat)
    await _cards_played(host, 4)  # each decision falls back after 0.2 + ANSWER_MARGIN s, queue time included
    assert time.monotonic() - started < 4 * (0.2 + ANSWER_MARGIN) + 10
    assert pool.running == 1 and not hog.done()
    hog.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await hog


async def test_a_policy_that_always_runs_over_is_not_logged_at_every_decision(
    start_server: StartServer,
    connect: Connect,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every decision of ``search:playouts=1000000`` runs past the time cap (its worker killed, a heuristic
    deciding): the two warnings are throttled like the store's, not written at every decision."""
    # A minute between lines (one second in the server): all the decisions below fall in one interval.
    monkeypatch.setattr("server.barbu_table._bot_failures", Throttle(60.0))
    monkeypatch.setattr("server.workers._overruns", Throttle(60.0))
    running = await start_server(max_bot_time=0.2, workers=1)
    assert running.lobby is not None
    host = await connect(running, "host")
    room = await host.create_table("overrun", bot_policy="search:playouts=1000000")
    table = running.lobby.rooms[room]
    assert isinstance(table, BarbuTable)
    caplog.set_level(logging.WARNING)
    for seat in "NESW":
        await host.add_bot(room, seat)
    # The first decisions (a contract, then doubles) are never forced: each one goes to the worker and fails.
    await until(lambda: table.seq >= 3, "three bot decisions", 60)
    decided = [r for r in caplog.records if "heuristic decides" in r.getMessage()]
    killed = [r for r in caplog.records if "killing its worker" in r.getMessage()]
    assert len(decided) == 1 and len(killed) <= 1, [r.getMessage() for r in caplog.records]
