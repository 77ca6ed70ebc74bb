"""Group commit: the store's writes reach the disk in a thread of their own, and nothing is sent before the
writes it may depend on are there.

The server's ``Store`` is opened with ``group_commit=True``: a write returns once SQLite has written it to
the WAL file, without an fsync, so a burst of writes (a login storm: one resume token each) no longer
stalls the event loop for one fsync apiece. ``GroupCommit`` keeps the promise that an acknowledged action
survives a power loss: its thread fsyncs the WAL file (one fsync covering every write made before it
started), and each ``Peer`` holds a frame until the writes counted when it was queued are on disk
(``wait``), so no reply and no broadcast tells anyone of a write that a power cut could still take back.
The thread also checkpoints the WAL into the store file (SQLite's own checkpoints are off: they would
fsync in the event loop): a passive one every ``CHECKPOINT_EVERY`` commits, and once the WAL file is over
``WAL_LIMIT`` bytes one that starts the log over (a passive checkpoint never catches up with writes that keep
coming, and SQLite only writes the log from its start again once all of it is in the store file), after
which SQLite cuts the file back to ``WAL_LIMIT``: sustained play keeps the WAL near that size instead of
growing it by every action. That checkpoint holds the store's write lock while it copies what the passive
one before it left (a few pages) and waits for readers (``RESTART_WAIT`` at most): the event loop's next
write waits that long at most, and never for an fsync of its own.

A write SQLite cannot make (``StoreUnavailable``: the file-size limit or the disk reached) wakes the thread
too, to fold the log into the store file and cut it to nothing (a ``TRUNCATE`` checkpoint, once a second at
most): a WAL file that cannot grow has room again once the log starts over, so play resumes by itself when
it is only the log that filled the space, where waiting for the next commit to checkpoint would wait forever.

A failed fsync cannot be retried (Linux forgets the error and the unwritten pages): the store is marked
``broken`` (every later write is refused, ``store-unavailable``), everyone waiting gets ``StoreUnavailable``
(their connections are closed, 1011), and the server stops with an error (``barbu serve`` exits 1; systemd
starts it again) to rebuild its rooms from what is on disk.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import TypeVar

from server.store import WAL_LIMIT, Store, StoreUnavailable, checkpoint

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Commits after which the thread folds the WAL back into the store file (a passive checkpoint: it never
#: waits for, nor holds up, the event loop's writes).
CHECKPOINT_EVERY = 1000
#: Seconds the checkpoint that starts the log over waits for the event loop's write or a reader to end
#: before it gives up, as a passive one (tried again after the next fsync): its own wait holds up writes.
RESTART_WAIT = 0.1
#: Seconds between two checkpoints made because a write failed (each failed write asks for one; a bot or a
#: player trying again asks again).
RELIEF_EVERY = 1.0


class GroupCommit:
    """The fsync thread of ``store`` (opened with ``group_commit=True``), started with ``start`` from the
    event loop whose ``wait`` calls it answers; ``on_failure`` is called in that loop, with the reason, when
    an fsync fails (the server then stops: ``BarbuServer``).

    Attributes:
        synced: how many of ``store.commits`` are known to be on disk.
    """

    def __init__(self, store: Store, on_failure: Callable[[str], None] | None = None):
        self.store = store
        self.on_failure = on_failure
        self.synced = store.commits
        self._wake = threading.Event()
        self._stopping = False
        self._thread: threading.Thread | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiters: list[tuple[int, asyncio.Future[None]]] = []
        self._failure: str | None = None
        self._wal: tuple[int, int, int] | None = None  # (fd, st_dev, st_ino) of the WAL file
        self._since_checkpoint = 0
        self._relieve = False  # a write failed: checkpoint to make room (set from the event loop)
        self._relieved_at = -RELIEF_EVERY

    def start(self) -> None:
        """Start the thread (call from the running event loop); the store's commits now wake it."""
        self._loop = asyncio.get_running_loop()
        self.store.on_commit = self._wake.set
        self.store.on_write_failure = self._write_failed
        self._thread = threading.Thread(target=self._run, name="barbu-group-commit", daemon=True)
        self._thread.start()
        self._wake.set()  # the writes made while opening the store

    def pending(self, mark: int) -> bool:
        """Whether the first ``mark`` commits are not all known to be on disk yet."""
        return mark > self.synced

    async def wait(self, mark: int) -> None:
        """Return once the first ``mark`` commits of the store are on disk.

        Raises:
            StoreUnavailable: an fsync failed: they may never be.
        """
        if self._failure is not None:
            raise StoreUnavailable(f"{self.store.path}: cannot write the store ({self._failure})")
        if mark <= self.synced:
            return
        assert self._loop is not None, "GroupCommit not started"
        future: asyncio.Future[None] = self._loop.create_future()
        self._waiters.append((mark, future))
        self._wake.set()
        await future

    async def close(self) -> None:
        """Sync what is left and stop the thread (the store's own ``close`` checkpoints the WAL)."""
        if self._thread is None:
            return
        self._stopping = True
        self._wake.set()
        await asyncio.to_thread(self._thread.join)
        self._thread = None
        self.store.on_commit = None
        self.store.on_write_failure = None

    def _write_failed(self) -> None:
        self._relieve = True
        self._wake.set()

    # The thread ----------------------------------------------------------------------------------

    def _run(self) -> None:
        checkpointer: sqlite3.Connection | None = None
        done = self.synced
        try:
            while True:
                self._wake.wait()
                self._wake.clear()
                target = self.store.commits  # every write counted here has been written to the WAL file
                if target > done:
                    try:
                        os.fsync(self._wal_fd())
                    except OSError as exc:
                        self._call(self._failed, f"fsync failed: {exc.strerror or exc}")
                        return
                    self._since_checkpoint += target - done
                    done = target
                    self._call(self._reached, target)
                    overgrown = os.fstat(self._wal_fd()).st_size > WAL_LIMIT
                    if overgrown or self._since_checkpoint >= CHECKPOINT_EVERY:
                        checkpointer = self._checkpoint(checkpointer, restart=overgrown)
                if self._relieve:
                    self._relieve = False
                    now = time.monotonic()
                    if now - self._relieved_at >= RELIEF_EVERY:
                        self._relieved_at = now
                        checkpointer = self._checkpoint(checkpointer, restart=True, mode="TRUNCATE")
                if self._stopping and self.store.commits <= target:
                    return
        finally:
            if checkpointer is not None:
                checkpointer.close()
            if self._wal is not None:
                os.close(self._wal[0])

    def _wal_fd(self) -> int:
        """A descriptor of the store's WAL file, opened again when SQLite has made a new one."""
        path = os.path.realpath(self.store.path) + "-wal"
        now = os.stat(path)
        if self._wal is not None and (self._wal[1], self._wal[2]) != (now.st_dev, now.st_ino):
            os.close(self._wal[0])
            self._wal = None
        if self._wal is None:
            fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
            opened = os.fstat(fd)
            self._wal = (fd, opened.st_dev, opened.st_ino)
        return self._wal[0]

    def _checkpoint(
        self, db: sqlite3.Connection | None, restart: bool, mode: str = "RESTART"
    ) -> sqlite3.Connection | None:
        """Fold the WAL into the store file on the thread's own connection (made on first use): a passive
        checkpoint, then (``restart``: the WAL file is over ``WAL_LIMIT``, or a write failed) one that makes
        the next write start the log over (``mode`` ``RESTART``; ``TRUNCATE`` also cuts the file to 0 bytes),
        which waits ``RESTART_WAIT`` at most. A failure is logged and tried again later (the
        WAL only grows meanwhile)."""
        try:
            if db is None:
                db = sqlite3.connect(
                    self.store.path, isolation_level=None, check_same_thread=False, timeout=RESTART_WAIT
                )
            # The passive pass copies the bulk without locking anyone out; the restart then copies only
            # what came meanwhile while it holds the write lock.
            checkpoint(db, "PASSIVE")
            if restart:
                checkpoint(db, mode)  # not all done: a reader stayed; the next fsync tries again
            self._since_checkpoint = 0
        except sqlite3.Error as exc:
            log.warning("%s: checkpoint failed, tried again later: %s", self.store.path, exc)
        return db

    def _call(self, fn: Callable[[T], None], arg: T) -> None:
        assert self._loop is not None
        with contextlib.suppress(RuntimeError):  # the loop is gone (shut down): nobody waits any more
            self._loop.call_soon_threadsafe(fn, arg)

    # Back in the event loop -----------------------------------------------------------------------

    def _reached(self, target: int) -> None:
        self.synced = max(self.synced, target)
        still = []
        for mark, future in self._waiters:
            if mark <= self.synced:
                if not future.done():
                    future.set_result(None)
            else:
                still.append((mark, future))
        self._waiters = still

    def _failed(self, why: str) -> None:
        log.critical("%s: %s: the store stops writing; restart the server", self.store.path, why)
        self._failure = why
        self.store.broken = why
        for _, future in self._waiters:
            if not future.done():
                future.set_exception(StoreUnavailable(f"{self.store.path}: cannot write the store ({why})"))
        self._waiters = []
        if self.on_failure is not None:
            self.on_failure(why)
