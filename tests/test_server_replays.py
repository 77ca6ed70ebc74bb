"""A finished match's replay is laid out in a worker process, never in the event loop: the job shows in the
server's worker pool, a kept reply needs no job, and with no worker to take it the request is refused
(``busy``) rather than worked out in the loop, or waited for past three replay budgets."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

from cli.bot import run_bots
from client import ServerError
from server.replays import FinishedMatches
from tests import worker_jobs
from tests.conftest import Connect, StartServer, until


async def test_replays_are_laid_out_by_the_worker_pool(start_server: StartServer, connect: Connect) -> None:
    server = await start_server()
    result = await run_bots(server.url, "replayed", 4, "random", None)
    pool, lobby, store = server.workers, server.lobby, server.store
    assert pool is not None and lobby is not None and store is not None
    reader = await connect(server, "reader")
    done = pool.finished
    replay = await reader.replay(result.room)
    assert replay.totals == result.totals and replay.players == store.room(int(result.room)).players
    assert pool.finished == done + 1 and pool.pids()  # one job, in a worker process
    again = await reader.replay(result.room)
    assert again.to_wire() == {**replay.to_wire(), "id": again.id} and pool.finished == done + 1
    with pytest.raises(ServerError) as unknown:
        await reader.replay(str(int(result.room) + 1))
    assert unknown.value.code == "no-such-match"

    # No worker to do it: the request is refused, not laid out in the event loop.
    lobby.finished = FinishedMatches(store)
    await pool.close()
    with pytest.raises(ServerError) as info:
        await reader.replay(result.room)
    assert info.value.code == "busy"


async def test_a_replay_no_worker_takes_in_three_budgets_is_refused_busy_with_retry_after(
    start_server: StartServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("server.replays.REPLAY_BUDGET", 0.2)  # it may wait 0.6 s for a worker
    server = await start_server(workers=1)
    result = await run_bots(server.url, "replayed", 4, "random", None)
    pool = server.workers
    assert pool is not None
    hog = asyncio.get_running_loop().create_task(pool.run("player:hog", worker_jobs.nap, 120.0, budget=240.0))
    try:
        await until(lambda: pool.running == 1, "another player's job to take the only worker")
        reader = await connect(server, "reader")
        with pytest.raises(ServerError) as info:
            await reader.replay(result.room)
        assert info.value.code == "busy" and info.value.retry_after == pytest.approx(0.6)
        assert pool.queued == 0 and not hog.done(), "dropped unworked while the worker was still taken"
    finally:
        hog.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await hog
