"""The seam for CPU-heavy work: a small pool of worker processes the event loop hands jobs to.

Solver hints and search bots take tens of milliseconds to seconds of CPU; run in the event loop (or in a
thread, which holds the GIL just the same) they stall every table. The server owns one ``WorkerPool``
(``BarbuServer.start`` creates it, ``stop`` closes it); rooms reach it as ``room.workers``, set by the lobby
when it adds the room. The whole API is one call::

    result = await room.workers.run(owner, fn, *args, budget=2.0)

- ``fn`` is a picklable top-level function; it runs in a worker process as ``fn(*args, budget=budget)``,
  so it can stop itself in time (a solver's timeout), and its result (or exception) is pickled back.
- ``owner`` names who asked: ``player:NAME`` for a player's request, ``table:ID`` for a table's bot. An
  owner has at most ``per_owner`` jobs in the pool (running or queued; beyond: ``WorkerBusy``), and at most
  one of them runs at a time, so no one can hold every worker. The pool holds at most ``max_queued`` jobs
  more than it has workers (beyond: ``WorkerBusy``).
- ``group`` (optional; the owner by default) is what owners share: the players of one IP address
  (``address:IP``) for hints and replays. The queue is served fairly between groups: a free worker takes the
  first job of the group served longest ago, so one place sending many owners' jobs (throwaway names) waits
  its turn behind everyone else instead of ahead; and a group holds at most ``per_group`` jobs (beyond:
  ``WorkerBusy``), so it cannot fill the queue either.
- A queued job waits for a worker at most ``wait_budgets`` times its budget (``WAIT_BUDGETS``, 3, by
  default): past that it is taken out of the queue at once, without a worker spent on it, and the caller
  gets ``WorkerExpired`` (a ``WorkerBusy``). Without it a storm of hints from many addresses (the queue full,
  each job its whole budget) made the last ones wait a minute or more while their pages said "Thinking…"; an
  answer is worth little that late, and "busy, ask again in a moment" is one the asker can act on. A
  table's search bot bounds its own wait too (``server.barbu_table``: its budget plus a margin, queue time in)
  and, whichever bound comes first, plays that decision by the heuristic policy: no move is dropped.
- ``budget`` is the job's running time in seconds (waiting in the queue does not count). A job still
  running ``grace`` seconds past its budget is stopped: its worker is killed (SIGKILL) and replaced, and the
  caller gets ``WorkerTimeout``. Unless it is starved: a worker runs niced, so when other programs keep the
  cores busy a job may be far past its budget in wall time with little CPU time used (a two-second hint
  took 3-5 s of wall time with three busy loops beside it, was killed and replaced each time, and the player
  got "busy" six times in a row). While the worker has used less CPU time since the job started than the
  budget plus the grace (read from ``/proc``, Linux), it is waited for, up to ``STARVED_WAIT`` times the
  budget plus the grace; a job that spins past its budget is still stopped at the budget plus the grace of
  CPU time. The jobs themselves stop by the wall clock (``engine.solitaire.hints.hint_clock``).
- Cancelling the awaiting task (the requester left) takes a queued job out of the queue and frees the
  owner's place at once; a running job's result is thrown away when it comes, or, when more than
  ``recycle_after`` seconds of its budget are left, its worker is killed and replaced rather than left
  working for nobody.
- ``close()`` stops every worker (asks idle ones to exit, kills busy ones) and fails waiting jobs with
  ``WorkerClosed``. A worker also exits by itself within half a second when the server process dies (even by
  SIGKILL), so no worker outlives its server.

Workers are ``multiprocessing`` processes started with ``spawn`` (safe from an asyncio process with threads),
each with its own pipe: ``concurrent.futures.ProcessPoolExecutor`` cannot kill one stuck worker without
breaking the whole pool. They start when the first job needs them, run at a lower priority (``nice``, 10 by
default) so the event loop wins the CPU when both want it, and ignore SIGINT (the server stops them).
The event loop watches each worker's pipe with ``loop.add_reader``: no threads.

Worker count (``barbu serve --workers N``, ``ServerConfig.workers``): 1 by default. The server is meant for a
small machine (2 cores here); one worker leaves the other core to the event loop, SQLite and the system, so
people's moves stay quick however many hints are asked for. With more cores, give more workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar, cast

from server.ratelimit import Throttle

log = logging.getLogger(__name__)
#: Workers killed for a job past its budget are logged once a second at most: a table whose bot policy
#: always runs over does so at every decision.
_overruns = Throttle(1.0)

T = TypeVar("T")

#: Seconds between a worker's checks that the server process is still alive.
PARENT_CHECK = 0.5
#: Seconds a new worker process has to start (import the server's modules) and say it is ready.
STARTUP = 30.0
#: A job past its budget plus the grace whose worker has used less CPU time than that is starved (it runs
#: niced, and other programs took the cores), not stuck: it is waited for up to this many times its
#: budget (plus the grace) in all before its worker is killed.
STARVED_WAIT = 4.0
#: Seconds between looks at a starved worker's CPU time.
STARVED_STEP = 0.25
#: A queued job's longest wait for a worker, in its budgets (``WorkerPool``'s ``wait_budgets``): a two-second
#: hint is answered ``busy`` after six seconds in the queue rather than a minute.
WAIT_BUDGETS = 3.0


class WorkerError(Exception):
    """A job could not be done by the pool (the base of the errors below; also: the worker process died)."""


class WorkerBusy(WorkerError):
    """The owner has ``per_owner`` jobs in the pool already, or the pool holds all it takes (or, as
    ``WorkerExpired``, the job waited its longest in the queue)."""


class WorkerExpired(WorkerBusy):
    """The job waited in the queue for ``waited`` seconds (``wait_budgets`` times its budget) without a
    worker free to take it; it was dropped from the queue unrun.

    Attributes:
        waited: the seconds it waited; about that long is a fair pause before asking again.
    """

    def __init__(self, message: str, waited: float):
        super().__init__(message)
        self.waited = waited


class WorkerTimeout(WorkerError):
    """The job ran past its budget plus the grace; its worker was killed and replaced."""


class WorkerClosed(WorkerError):
    """The pool is closed (the server is stopping)."""


@dataclass(eq=False)
class _Job:
    owner: str
    group: str
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    budget: float
    future: asyncio.Future[Any]
    started: float | None = None  # loop time the worker got it
    expiry: asyncio.TimerHandle | None = None  # drops it from the queue past its longest wait
    abandoned: bool = False  # the caller gave up: nobody wants the result


@dataclass(eq=False)
class _Worker:
    process: BaseProcess | None = None
    conn: Connection | None = None
    job: _Job | None = None
    task: asyncio.Task[None] | None = None


class WorkerPool:
    """A pool of worker processes for CPU-heavy jobs (see the module docstring for the rules).

    Args:
        workers: worker processes (at least 1); started on first use.
        per_owner: jobs one owner may have in the pool, running or queued (at least 1).
        max_queued: jobs the pool takes beyond one per worker, over all owners.
        per_group: jobs one group (``run``'s ``group``) may have in the pool, running or queued.
        grace: seconds past a job's budget before its worker is killed.
        wait_budgets: a queued job's longest wait for a worker, in its budgets (``WorkerExpired`` past it).
        recycle_after: a cancelled running job with more budget than this left (seconds) gets its worker
            killed and replaced instead of finishing for nobody.
        nice: niceness added to worker processes (0: none).
    """

    def __init__(
        self,
        workers: int = 1,
        *,
        per_owner: int = 2,
        max_queued: int = 64,
        per_group: int = 16,
        grace: float = 1.0,
        wait_budgets: float = WAIT_BUDGETS,
        recycle_after: float = 0.5,
        nice: int = 10,
    ) -> None:
        if workers < 1 or per_owner < 1 or max_queued < 0:
            raise ValueError("a pool needs at least one worker, and owners at least one job each")
        if not wait_budgets > 0:
            raise ValueError(
                f"a queued job needs some time to wait for a worker, not {wait_budgets!r} budgets"
            )
        self.size = workers
        self.per_owner = per_owner
        self.max_queued = max_queued
        self.per_group = per_group
        self.grace = grace
        self.wait_budgets = wait_budgets
        self.recycle_after = recycle_after
        self.nice = nice
        self._context = multiprocessing.get_context("spawn")
        self._workers = [_Worker() for _ in range(workers)]
        self._queue: deque[_Job] = deque()
        self._owners: dict[str, int] = {}  # owner -> its jobs not yet answered nor abandoned
        self._groups: dict[str, int] = {}  # group -> its jobs not yet answered nor abandoned
        self._served: dict[str, int] = {}  # group -> when (a count of jobs handed out) it last got a worker
        self._handed = 0
        self._changed: asyncio.Condition | None = None
        self._closed = False
        self.started = 0  # worker processes started so far (restarts included)
        self.finished = 0  # jobs a worker has finished with (answered, failed, overran or abandoned)

    # The API ----------------------------------------------------------------------------------------

    async def run(
        self, owner: str, fn: Callable[..., T], *args: Any, budget: float, group: str | None = None
    ) -> T:
        """Run ``fn(*args, budget=budget)`` in a worker process and return its result.

        Args:
            owner: who asks (``player:NAME``, ``table:ID``): the unit of the per-owner limit.
            fn: a picklable top-level function; ``args`` and its result must pickle too.
            budget: seconds the job may run (the queue wait not counted); ``fn`` gets it to stop in time.
                It may wait in the queue ``wait_budgets`` times as long.
            group: what the owner shares the queue with (``address:IP``; None: the owner alone), served
                fairly between groups and limited to ``per_group`` jobs.

        Raises:
            WorkerBusy: the owner has ``per_owner`` jobs in the pool, its group ``per_group``, or the pool is
                full (``max_queued``); ``WorkerExpired``, the job waited ``wait_budgets * budget`` seconds
                in the queue without a worker free.
            WorkerTimeout: the job ran past ``budget + grace`` seconds (its worker was replaced).
            WorkerClosed: the pool is closed, or closed while the job waited or ran.
            WorkerError: the worker process died, or ``fn``'s exception or result could not be pickled.
            Exception: whatever ``fn`` raised (pickled back).
        """
        if self._closed:
            raise WorkerClosed("the worker pool is closed")
        if self._owners.get(owner, 0) >= self.per_owner:
            raise WorkerBusy(f"{owner} has {self.per_owner} jobs running or waiting already")
        group = owner if group is None else group
        if self._groups.get(group, 0) >= self.per_group:
            raise WorkerBusy(f"{group} has {self.per_group} jobs running or waiting already")
        if self.running + len(self._queue) >= self.size + self.max_queued:
            raise WorkerBusy(f"{len(self._queue)} jobs are waiting for a worker already")
        loop = asyncio.get_running_loop()
        job = _Job(owner, group, fn, args, budget, loop.create_future())
        self._owners[owner] = self._owners.get(owner, 0) + 1
        self._groups[group] = self._groups.get(group, 0) + 1
        self._queue.append(job)
        job.expiry = loop.call_later(self.wait_budgets * budget, self._expire, job)
        self._start_drivers()
        try:
            await self._notify()
            return cast(T, await job.future)
        except asyncio.CancelledError:
            self._abandon(job)
            raise
        finally:
            job.expiry.cancel()
            self._release(job)

    @property
    def queued(self) -> int:
        """Jobs waiting for a worker."""
        return len(self._queue)

    def pending(self, owner: str) -> int:
        """``owner``'s jobs in the pool (running or queued) that someone still waits for."""
        return self._owners.get(owner, 0)

    @property
    def running(self) -> int:
        """Jobs being worked on (abandoned ones included, until they end)."""
        return sum(1 for w in self._workers if w.job is not None)

    def pids(self) -> list[int]:
        """The process ids of the live workers."""
        return [w.process.pid for w in self._workers if w.process is not None and w.process.pid is not None]

    async def close(self) -> None:
        """Stop every worker and fail every waiting job with ``WorkerClosed``; returns once the worker
        processes are gone (idle ones exit on request, busy ones are killed). Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        while self._queue:
            waiting = self._queue.popleft()
            if not waiting.future.done():
                waiting.future.set_exception(WorkerClosed("the server is stopping"))
        running = [(worker, worker.job) for worker in self._workers]
        for worker in self._workers:
            if worker.task is not None:
                worker.task.cancel()
        for worker, job in running:
            if worker.task is not None:
                with contextlib.suppress(asyncio.CancelledError):
                    await worker.task
            await self._stop_process(worker, politely=job is None)
            if job is not None and not job.future.done():
                job.future.set_exception(WorkerClosed("the server is stopping"))

    # Scheduling ------------------------------------------------------------------------------------

    def _start_drivers(self) -> None:
        if self._changed is None:
            self._changed = asyncio.Condition()
        for worker in self._workers:
            if worker.task is None or worker.task.done():
                worker.task = asyncio.get_running_loop().create_task(self._drive(worker))

    async def _notify(self) -> None:
        assert self._changed is not None
        async with self._changed:
            self._changed.notify_all()

    def _next_job(self) -> _Job | None:
        """The first queued job, of the group served longest ago, whose owner has nothing running (one
        worker per owner at a time)."""
        busy = {w.job.owner for w in self._workers if w.job is not None}
        ready = [job for job in self._queue if job.owner not in busy]
        return min(ready, key=lambda job: self._served.get(job.group, -1), default=None)

    def _expire(self, job: _Job) -> None:
        """``job``'s longest wait is over: if it is still queued, drop it and fail it (``WorkerExpired``)."""
        if job in self._queue and not job.future.done():
            self._queue.remove(job)
            waited = self.wait_budgets * job.budget
            job.future.set_exception(WorkerExpired(f"no worker was free for {waited:g} s", waited))

    def _abandon(self, job: _Job) -> None:
        """The caller stopped waiting: unqueue the job, or let its worker finish for nobody (or recycle it)."""
        job.abandoned = True
        if job in self._queue:
            self._queue.remove(job)
            return
        for worker in self._workers:
            if worker.job is job and job.started is not None:
                left = job.budget - (asyncio.get_running_loop().time() - job.started)
                if left > self.recycle_after and worker.process is not None:
                    log.info("recycling a worker whose job (%s) was cancelled", job.owner)
                    worker.process.kill()  # its driver sees the pipe close and starts a fresh one

    def _release(self, job: _Job) -> None:
        for counts, key in ((self._owners, job.owner), (self._groups, job.group)):
            left = counts.get(key, 0) - 1
            if left > 0:
                counts[key] = left
            else:
                counts.pop(key, None)
        if job.group not in self._groups:
            self._served.pop(job.group, None)  # a group with nothing left starts afresh: no memory grows

    async def _drive(self, worker: _Worker) -> None:
        """One worker's loop: take the next job it may run, hand it over, wait for the answer or the
        deadline, answer the caller; a job that overruns or a worker that dies gets a fresh process."""
        assert self._changed is not None
        while True:
            async with self._changed:
                await self._changed.wait_for(lambda: self._next_job() is not None)
                job = self._next_job()
                assert job is not None
                self._queue.remove(job)
                worker.job = job
                self._handed += 1
                self._served[job.group] = self._handed
            try:
                outcome = await self._work(worker, job)
            except Exception as exc:  # a fault of the pool itself: the caller hears of it, the driver goes on
                log.exception("worker pool: a job of %s failed", job.owner)
                await self._stop_process(worker, politely=False)
                outcome = ("error", WorkerError(f"the worker pool failed: {exc!r}"))
            finally:
                worker.job = None
                self.finished += 1
                await self._notify()  # the owner may have a job waiting for this one to end
            if not job.future.done() and not job.abandoned:
                kind, value = outcome
                if kind == "ok":
                    job.future.set_result(value)
                else:
                    job.future.set_exception(value)

    async def _work(self, worker: _Worker, job: _Job) -> tuple[str, Any]:
        """Run ``job`` on ``worker``; returns ``("ok", result)`` or ``("error", exception)``."""
        loop = asyncio.get_running_loop()
        try:
            conn = await self._ensure_process(worker)
            if job.abandoned:  # the caller left while the worker was starting
                return "error", WorkerError("the job was cancelled")
            conn.send((job.fn, job.args, job.budget))
        except Exception as exc:  # an unpicklable argument, or a worker that could not start
            await self._stop_process(worker, politely=False)
            return "error", WorkerError(f"the job could not be handed to a worker: {exc!r}")
        job.started = loop.time()
        pid = worker.process.pid if worker.process is not None else None
        cpu0 = cpu_seconds(pid)
        if not await self._answered(conn, job, pid, cpu0):
            held = _overruns.ready()
            if held is not None:
                log.warning(
                    "a job of %s ran past its %.1f s budget: killing its worker (%d more since the last line)",
                    job.owner,
                    job.budget,
                    held,
                )
            await self._stop_process(worker, politely=False)
            return "error", WorkerTimeout(f"the job ran past its budget of {job.budget:g} s")
        try:
            kind, value = conn.recv()
        except (EOFError, OSError):
            await self._stop_process(worker, politely=False)
            if job.abandoned:
                return "error", WorkerError("the job was cancelled")
            return "error", WorkerError("the worker process died")
        return kind, value

    async def _answered(self, conn: Connection, job: _Job, pid: int | None, cpu0: float | None) -> bool:
        """Whether the worker (process ``pid``, at ``cpu0`` CPU seconds when ``job`` started) answered
        before it must be killed: ``budget + grace`` seconds, and while it has used less CPU time than that
        (starved, see ``STARVED_WAIT``; where the CPU time cannot be read, as off Linux, not), up to
        ``STARVED_WAIT`` times the budget plus the grace."""
        loop = asyncio.get_running_loop()
        cap = loop.time() + job.budget * STARVED_WAIT + self.grace
        allowed = job.budget + self.grace
        if await _readable(conn, allowed):
            return True
        while loop.time() < cap:
            now = cpu_seconds(pid)
            if cpu0 is None or now is None or now - cpu0 >= allowed:
                return False  # it had its CPU time: stuck, or a job that does not stop itself
            if await _readable(conn, min(STARVED_STEP, max(cap - loop.time(), 0.0))):
                return True
        return False

    # Processes ---------------------------------------------------------------------------------------

    async def _ensure_process(self, worker: _Worker) -> Connection:
        """``worker``'s pipe, starting its process first if it has none (or it died) and waiting until it
        is ready, so a job's budget does not pay for the start (half a second of imports).

        Raises:
            WorkerError: the new process did not say it was ready within ``STARTUP`` seconds.
        """
        if worker.process is not None and worker.conn is not None and worker.process.is_alive():
            return worker.conn
        if worker.conn is not None:
            worker.conn.close()
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=worker_main,
            args=(theirs, os.getpid(), self.nice),
            name="barbu-worker",
            daemon=True,
        )
        process.start()
        theirs.close()
        worker.process, worker.conn = process, ours
        self.started += 1
        if not await _readable(ours, STARTUP) or ours.recv() != "ready":
            raise WorkerError(f"a worker process did not start within {STARTUP:g} s")
        return ours

    async def _stop_process(self, worker: _Worker, *, politely: bool) -> None:
        """End ``worker``'s process (asking first when ``politely``, else SIGKILL) and reap it; the next job
        starts a fresh one."""
        process, conn = worker.process, worker.conn
        worker.process = worker.conn = None
        if process is None:
            return
        if politely and conn is not None:
            with contextlib.suppress(OSError):
                conn.send(None)
        else:
            with contextlib.suppress(OSError):
                process.kill()
        deadline = time.monotonic() + 2.0
        while process.exitcode is None and time.monotonic() < deadline:  # exitcode reaps without blocking
            await asyncio.sleep(0.01)
        if process.exitcode is None:
            process.kill()
            await asyncio.sleep(0.05)
        with contextlib.suppress(ValueError):
            process.close()
        if conn is not None:
            conn.close()


def cpu_seconds(pid: int | None) -> float | None:
    """The CPU time (user and system, seconds) process ``pid`` has used, from ``/proc/PID/stat`` (Linux);
    None when it cannot be read (no such file, no such process, or ``pid`` None)."""
    if pid is None:
        return None
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()  # the name, in brackets, may hold spaces
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime: 14th, 15th
    except (OSError, IndexError, ValueError):
        return None


async def _readable(conn: Connection, timeout: float) -> bool:
    """Wait until ``conn`` has something to read (or is closed): True, or False after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    ready: asyncio.Future[None] = loop.create_future()

    def wake() -> None:
        if not ready.done():
            ready.set_result(None)

    fd = conn.fileno()
    loop.add_reader(fd, wake)
    try:
        async with asyncio.timeout(timeout):
            await ready
        return True
    except TimeoutError:
        return False
    finally:
        loop.remove_reader(fd)  # before the pipe closes: its fd number may be reused at once


# The worker process ------------------------------------------------------------------------------------


def worker_main(conn: Connection, parent: int, nice: int) -> None:
    """A worker process's life: run jobs ``(fn, args, budget)`` from ``conn`` as ``fn(*args,
    budget=budget)`` and send back ``("ok", result)`` or ``("error", exception)``, until ``None`` comes, the
    pipe closes, or the server process ``parent`` is gone."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the server's terminal: the server stops us
    if nice:
        with contextlib.suppress(OSError):
            os.nice(nice)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    conn.send("ready")
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        fn, args, budget = job
        try:
            answer: tuple[str, Any] = ("ok", fn(*args, budget=budget))
        except Exception as exc:
            answer = ("error", exc)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as exc:  # the result or the exception does not pickle
            conn.send(("error", WorkerError(f"{fn.__name__}: the answer could not be sent back: {exc!r}")))


def _watch_parent(parent: int) -> None:
    """Exit the worker when its server process is gone (killed even by SIGKILL: the worker is re-parented)."""
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK)
    os._exit(0)


def unavailable() -> WorkerPool:
    """A pool that refuses every job with ``WorkerClosed``: the ``workers`` of a room no running server
    serves (a room rebuilt by ``barbu export``, say)."""
    pool = WorkerPool()
    pool._closed = True
    return pool
