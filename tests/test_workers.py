"""The worker pool (``server.workers``) with real worker processes: results and errors come back, a job over
its budget is stopped and its worker replaced, the per-owner limit refuses clearly, cancelling frees the
owner's place, and closing the pool, stopping the server or killing the server process leaves no worker."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cli.main import main
from server import BarbuServer
from server.workers import (
    WorkerBusy,
    WorkerClosed,
    WorkerError,
    WorkerExpired,
    WorkerPool,
    WorkerTimeout,
    cpu_seconds,
    unavailable,
)
from tests import worker_jobs
from tests.conftest import StartServer, until

ROOT = Path(__file__).resolve().parent.parent


def alive(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().split(") ")[1].split()[0]
    except (FileNotFoundError, IndexError):
        return False
    return state != "Z"


async def test_results_errors_and_the_budget_come_back() -> None:
    pool = WorkerPool(1)
    try:
        assert await pool.run("player:ann", worker_jobs.square, 12, budget=1.0) == 144
        assert await pool.run("player:ann", worker_jobs.given_budget, budget=2.5) == 2.5
        with pytest.raises(ValueError, match="this job fails"):
            await pool.run("player:ann", worker_jobs.fail, budget=1.0)
        assert await pool.run("player:ann", worker_jobs.niceness, budget=1.0) >= 10
        assert pool.started == 1, "one worker process served every job"
    finally:
        await pool.close()


async def test_a_job_over_its_budget_is_stopped_and_the_pool_goes_on() -> None:
    pool = WorkerPool(1, grace=0.2)
    try:
        first = await pool.run("table:1", worker_jobs.pid, budget=1.0)
        started = time.monotonic()
        with pytest.raises(WorkerTimeout):
            await pool.run("table:1", worker_jobs.spin, 60.0, budget=0.3)
        assert time.monotonic() - started < 30, "stopped long before the job would have ended"
        assert not alive(first), "the stuck worker was killed"
        second = await pool.run("table:1", worker_jobs.pid, budget=1.0)
        assert second != first and alive(second), "a fresh worker took its place"
    finally:
        await pool.close()


async def test_a_job_past_its_budget_with_little_cpu_used_is_waited_for_not_killed() -> None:
    """A worker that has used less CPU time than its budget is starved (the cores taken by other programs;
    a job that sleeps uses none either), not stuck: it is waited for up to ``STARVED_WAIT`` times its budget,
    then killed; one that spins is killed at its budget of CPU time."""
    assert cpu_seconds(os.getpid()) is not None and cpu_seconds(None) is None
    pool = WorkerPool(1, grace=0.2)
    try:
        first = await pool.run("player:ann", worker_jobs.pid, budget=1.0)
        started = time.monotonic()
        assert await pool.run("player:ann", worker_jobs.nap, 1.2, budget=0.5) == first  # past 0.7 s: kept
        assert time.monotonic() - started >= 1.2 and alive(first)
        with pytest.raises(WorkerTimeout):  # 0.5 * STARVED_WAIT + 0.2 = 2.2 s at the most
            await pool.run("player:ann", worker_jobs.nap, 60.0, budget=0.5)
        assert not alive(first) and time.monotonic() - started < 30
    finally:
        await pool.close()


async def test_the_per_owner_limit_refuses_clearly_and_others_still_get_in() -> None:
    pool = WorkerPool(1, per_owner=1)
    try:
        running = asyncio.create_task(pool.run("player:ann", worker_jobs.nap, 0.5, budget=2.0))
        await until(lambda: pool.running == 1, "ann's job to run")
        with pytest.raises(WorkerBusy, match="player:ann has 1 jobs"):
            await pool.run("player:ann", worker_jobs.square, 2, budget=1.0)
        assert await pool.run("player:bob", worker_jobs.square, 3, budget=1.0) == 9, "bob waits his turn"
        await running
        assert await pool.run("player:ann", worker_jobs.square, 4, budget=1.0) == 16, "ann's place is free"
    finally:
        await pool.close()


async def test_one_owner_never_holds_every_worker_and_the_queue_is_bounded() -> None:
    pool = WorkerPool(2, per_owner=3, max_queued=1)
    try:
        jobs = [asyncio.create_task(pool.run("table:7", worker_jobs.nap, 0.5, budget=2.0)) for _ in range(2)]
        await until(lambda: pool.running == 1, "the table's first job to run")
        await asyncio.sleep(0.1)
        assert (pool.running, pool.queued) == (1, 1), "its second job waits though a worker is free"
        other = asyncio.create_task(pool.run("table:8", worker_jobs.nap, 0.5, budget=2.0))
        await until(lambda: pool.running == 2, "another owner's job to take the free worker")
        with pytest.raises(WorkerBusy, match="waiting for a worker"):
            await pool.run("table:9", worker_jobs.square, 6, budget=1.0)
        await asyncio.gather(other, *jobs)
    finally:
        await pool.close()


async def test_cancelling_a_queued_job_frees_the_owners_place() -> None:
    pool = WorkerPool(1, per_owner=1)
    try:
        busy = asyncio.create_task(pool.run("player:ann", worker_jobs.nap, 0.5, budget=2.0))
        await until(lambda: pool.running == 1, "ann's job to run")
        waiting = asyncio.create_task(pool.run("player:bob", worker_jobs.square, 2, budget=1.0))
        await until(lambda: pool.queued == 1, "bob's job to queue")
        waiting.cancel()  # bob left
        with pytest.raises(asyncio.CancelledError):
            await waiting
        assert pool.queued == 0
        assert await pool.run("player:bob", worker_jobs.square, 3, budget=1.0) == 9
        await busy
    finally:
        await pool.close()


async def test_cancelling_a_long_running_job_recycles_its_worker() -> None:
    pool = WorkerPool(1, per_owner=1, recycle_after=0.5)
    try:
        first = await pool.run("player:ann", worker_jobs.pid, budget=1.0)
        job = asyncio.create_task(pool.run("player:ann", worker_jobs.spin, 60.0, budget=30.0))
        await until(lambda: pool.running == 1, "the long job to run")
        job.cancel()
        with pytest.raises(asyncio.CancelledError):
            await job
        await until(lambda: not alive(first), "the worker of the abandoned job to be killed")
        assert await pool.run("player:ann", worker_jobs.square, 7, budget=1.0) == 49, "ann may ask again"
    finally:
        await pool.close()


async def test_closing_the_pool_stops_its_workers_and_fails_waiting_jobs() -> None:
    pool = WorkerPool(2)
    spinning = asyncio.create_task(pool.run("table:1", worker_jobs.spin, 60.0, budget=30.0))
    idle = await pool.run("table:2", worker_jobs.pid, budget=1.0)
    await until(lambda: pool.running == 1, "the long job to run")
    pids = pool.pids()
    assert idle in pids and len(pids) == 2
    await pool.close()
    with pytest.raises(WorkerClosed):
        await spinning
    assert not any(alive(p) for p in pids)
    with pytest.raises(WorkerClosed):
        await pool.run("table:1", worker_jobs.square, 1, budget=1.0)
    with pytest.raises(WorkerClosed):  # the pool of a room no running server serves
        await unavailable().run("table:1", worker_jobs.square, 1, budget=1.0)


async def test_an_argument_that_does_not_pickle_is_refused_and_the_pool_goes_on() -> None:
    pool = WorkerPool(1)
    try:
        with pytest.raises(WorkerError, match="could not be handed to a worker"):
            await pool.run("table:1", worker_jobs.square, lambda: 1, budget=1.0)
        assert await pool.run("table:1", worker_jobs.square, 3, budget=1.0) == 9
    finally:
        await pool.close()


async def test_server_stop_leaves_no_worker(start_server: StartServer) -> None:
    server: BarbuServer = await start_server(workers=2)
    assert server.workers is not None
    await server.workers.run("player:ann", worker_jobs.pid, budget=1.0)
    pids = server.workers.pids()
    assert pids and all(alive(p) for p in pids)
    await server.stop()
    assert not any(alive(p) for p in pids)


def test_a_killed_server_process_leaves_no_worker(tmp_path: Path) -> None:
    script = textwrap.dedent(
        """
        import asyncio, sys, time
        from server.workers import WorkerPool
        from tests import worker_jobs

        async def go() -> None:
            pool = WorkerPool(1)
            print(await pool.run("x", worker_jobs.pid, budget=1.0), flush=True)
            asyncio.get_running_loop().create_task(pool.run("x", worker_jobs.spin, 60.0, budget=60.0))
            await asyncio.sleep(60)

        asyncio.run(go())
        """
    )
    proc = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        worker = int(proc.stdout.readline())
        assert alive(worker)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        deadline = time.monotonic() + 10
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not alive(worker), "the worker exits once its server is gone"
    finally:
        proc.kill()
        proc.wait()


def test_serve_refuses_a_worker_count_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["serve", "--workers", "0"])
    assert done.value.code == 2
    assert "--workers: 0 must be from 1 to 64" in capsys.readouterr().err


async def test_groups_take_turns_and_one_group_cannot_fill_the_queue() -> None:
    pool = WorkerPool(1, per_group=6)
    done: list[str] = []

    async def job(owner: str, group: str) -> None:
        await pool.run(owner, worker_jobs.nap, 0.2, budget=5.0, group=group)
        done.append(owner)

    try:
        # One address sends jobs under six throwaway names; the first runs, five wait.
        flood = [asyncio.create_task(job(f"player:t{i}", "address:a")) for i in range(6)]
        await until(lambda: pool.running == 1, "the first job to run", 60)
        with pytest.raises(WorkerBusy, match="address:a has 6 jobs"):
            await pool.run("player:t7", worker_jobs.nap, 0.2, budget=5.0, group="address:a")
        # Another address's one job is next, not seventh.
        await job("player:victim", "address:b")
        assert done == ["player:t0", "player:victim"]
        await asyncio.gather(*flood)
    finally:
        await pool.close()


async def test_a_job_queued_past_its_longest_wait_is_dropped_unrun_and_its_caller_told_busy_at_once() -> None:
    pool = WorkerPool(1, wait_budgets=3.0)
    try:
        # Another owner holds the only worker longer than the queued job may wait.
        hog = asyncio.create_task(pool.run("player:hog", worker_jobs.nap, 4.0, budget=10.0))
        await until(lambda: pool.running == 1, "the hog's job to run", 60)
        finished = pool.finished
        started = time.monotonic()
        with pytest.raises(WorkerExpired) as expired:
            await pool.run("player:ann", worker_jobs.square, 2, budget=0.2)
        assert time.monotonic() - started >= 0.55, "it waited its 3 budgets"
        assert isinstance(expired.value, WorkerBusy) and expired.value.waited == pytest.approx(0.6)
        assert not hog.done(), "told while the worker was still taken, not once it was free"
        assert (pool.queued, pool.pending("player:ann"), pool.finished) == (0, 0, finished), "dropped unrun"
        await hog
        assert pool.finished == finished + 1, "the worker ran the hog's job alone"
        # A job a worker takes within its longest wait runs as ever.
        short = asyncio.create_task(pool.run("player:hog", worker_jobs.nap, 0.3, budget=1.0))
        await until(lambda: pool.running == 1, "the short job to run", 60)
        assert await pool.run("player:ann", worker_jobs.square, 3, budget=2.0) == 9
        await short
    finally:
        await pool.close()


def test_a_pool_refuses_a_longest_wait_of_nothing() -> None:
    with pytest.raises(ValueError, match=r"not 0\.0 budgets"):
        WorkerPool(1, wait_budgets=0.0)
