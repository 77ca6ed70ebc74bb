"""Group commit, watched at the system calls: a real ``barbu serve`` under ``strace`` while players log in.
The event loop's thread makes no fsync (a login storm no longer stalls everyone for one fsync per token),
and yet no ``logged-in`` reply leaves before an fsync made after its token was written to the WAL file has
finished: acknowledged still means on disk."""

from __future__ import annotations

import asyncio
import gc
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import msgpack
import pytest
import websockets

import server.app
from client import Connection
from server import ServerConfig
from server.app import run_server
from server.durability import GroupCommit
from server.store import WAL_LIMIT, Store, StoreError
from tests.test_store_faults import Serve

ROOT = Path(__file__).resolve().parent.parent
LINE = re.compile(r"^(\d+) +(\d+\.\d+) (?:<\.\.\. )?(\w+)(?: resumed>|\()(.*)$")


@dataclass
class Call:
    """One system call of the traced server: thread id, start and end (Unix seconds), name, the rest."""

    tid: int
    start: float
    end: float
    name: str
    text: str


def parse(trace: str) -> list[Call]:
    """The calls of an ``strace -f -ttt -T`` output, a call split by another thread's (``<unfinished ...>``
    then ``<... resumed>``) joined into one."""
    calls: list[Call] = []
    begun: dict[int, tuple[float, str]] = {}
    for line in trace.splitlines():
        found = LINE.match(line)
        if found is None:
            continue
        tid, at, name, rest = int(found[1]), float(found[2]), found[3], found[4]
        if rest.endswith("<unfinished ...>"):
            begun[tid] = (at, rest)
        elif "<... " in line:
            start, first = begun.pop(tid, (at, ""))
            calls.append(Call(tid, start, at, name, first + rest))
        else:
            took = re.search(r"<(\d+\.\d+)>$", rest)
            calls.append(Call(tid, at, at + (float(took[1]) if took else 0.0), name, rest))
    return calls


@pytest.mark.skipif(shutil.which("strace") is None, reason="needs strace")
def test_a_login_is_answered_after_its_token_is_fsynced_and_never_by_the_event_loop(tmp_path: Path) -> None:
    db = tmp_path / "barbu.sqlite3"
    trace = tmp_path / "trace.txt"
    command = ["strace", "-f", "-ttt", "-T", "-qq", "-s", "300", "-o", str(trace)]
    command += ["-e", "trace=fsync,fdatasync,pwrite64,sendto"]
    command += [
        sys.executable,
        "-m",
        "cli.main",
        "serve",
        "--port",
        "0",
        "--db",
        str(db),
        "--log-level",
        "WARNING",
    ]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            if "listening on ws://" in line:
                break
        else:
            pytest.skip("the server does not run under strace here")
        url = line.split("listening on ")[1].split()[0]
        server_pid = int(Path(f"{db}.lock").read_text())  # the event loop's thread id is the process id

        async def log_in() -> list[str]:
            tokens = []
            for number in range(8):  # one after another: each reply follows its own token's write
                async with await Connection.connect(url, timeout=30) as conn:
                    await conn.login(f"player{number}")
                    assert conn.token is not None
                    tokens.append(conn.token)
            return tokens

        began = time.time()
        tokens = asyncio.run(log_in())
        ended = time.time()
    finally:
        lock = Path(f"{db}.lock")
        if proc.poll() is None and lock.exists():
            os.kill(int(lock.read_text()), signal.SIGTERM)  # the server itself (strace ends with it)
        elif proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
        proc.wait(30)
    calls = parse(trace.read_text(errors="replace"))
    loop = [c for c in calls if c.tid == server_pid and began <= c.start <= ended]
    assert not [c for c in loop if c.name in ("fsync", "fdatasync")], "the event loop waited for the disk"
    syncs = [c for c in calls if c.tid != server_pid and c.name in ("fsync", "fdatasync")]
    for token in tokens:
        [reply] = [c for c in loop if c.name == "sendto" and token in c.text]
        written = max(c.end for c in loop if c.name == "pwrite64" and c.end <= reply.start)
        assert any(written <= s.start and s.end <= reply.start for s in syncs), (
            f"the reply carrying {token} left before its write was on disk"
        )
    store = Store(db)  # every token answered is in the store
    assert [store.token_for_player(f"player{n}") for n in range(8)] == tokens
    store.close()


async def test_a_failed_fsync_closes_the_waiting_connections_and_stops_the_server(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[GroupCommit] = []

    class Kept(GroupCommit):  # the real group commit, kept where the test can reach it
        def start(self) -> None:
            made.append(self)
            super().start()

    monkeypatch.setattr(server.app, "GroupCommit", Kept)
    thresholds = gc.get_threshold()  # run_server tunes the collector of the process: put it back after
    config = ServerConfig(host="127.0.0.1", port=0, db=str(tmp_path / "barbu.sqlite3"), bot_delay=0.0)
    running = asyncio.ensure_future(run_server(config))
    url = ""
    while not url:
        await asyncio.sleep(0.05)
        assert not running.done(), running
        out = capsys.readouterr().out
        url = out.split("listening on ")[1].split()[0] if "listening on " in out else ""
    ws = await websockets.connect(url, compression=None, proxy=None)
    await ws.send(msgpack.packb({"type": "hello", "id": 1, "version": 1, "client": "t"}))
    await ws.recv()
    await ws.send(msgpack.packb({"type": "login", "id": 2, "name": "alice"}))
    assert msgpack.unpackb(await ws.recv())["type"] == "logged-in"
    # The disk now fails every fsync (EINVAL: the group commit's descriptor of the WAL becomes a pipe's).
    [durable] = made
    wal = os.stat(os.path.realpath(config.db) + "-wal")
    pipe, other = os.pipe()
    durable._wal = (pipe, wal.st_dev, wal.st_ino)
    await ws.send(msgpack.packb({"type": "create-table", "id": 3, "name": "lost"}))
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await ws.recv()  # no room-created: the table may not be on disk
    assert closed.value.rcvd is not None and closed.value.rcvd.code in (1011, 1001)
    with pytest.raises(StoreError) as stopped:
        await asyncio.wait_for(running, 30)
    assert "the disk failed (fsync failed" in str(stopped.value)
    os.close(other)
    gc.unfreeze()
    gc.set_threshold(*thresholds)


def _wal(db: Path) -> Path:
    return Path(os.path.realpath(db) + "-wal")


async def test_sustained_writes_keep_the_wal_file_near_its_limit(tmp_path: Path) -> None:
    """Thousands of actions, each waited for as the server waits before its reply: the WAL file on disk
    stays near ``WAL_LIMIT`` (a passive checkpoint alone grew it by every action: 60 MB for these) and
    everything written is in the store."""
    db = tmp_path / "barbu.sqlite3"
    store = Store(db, group_commit=True)
    durable = GroupCommit(store)
    durable.start()
    room = store.create_room("barbu", "busy", {"seed": 1})
    largest = 0
    actions = 6000  # about 7 KB of log each: ten times WAL_LIMIT
    try:
        for seq in range(1, actions + 1):
            store.append_action(room, seq, seq % 4, {"type": "card", "card": "QS", "pad": "x" * 40})
            if seq % 10 == 0:  # a few writes share each fsync, as a busy server's do
                await durable.wait(store.commits)
            largest = max(largest, _wal(db).stat().st_size)
    finally:
        await durable.close()
    assert largest <= WAL_LIMIT + (1 << 20), f"the WAL grew to {largest} bytes"
    assert [a.seq for a in store.actions(room)] == list(range(1, actions + 1))
    store.close()
    assert not _wal(db).exists() or _wal(db).stat().st_size == 0, "a clean close leaves an empty log"


def test_a_restart_empties_a_large_log_left_by_a_kill(tmp_path: Path) -> None:
    """A server killed (-9) with a large WAL: ``barbu serve`` on the same file folds it in and empties it
    before it listens (its own first writes start it again), and nothing written is lost."""
    db = tmp_path / "barbu.sqlite3"
    writer = (
        "import os, signal, sys\n"
        "from server.store import Store\n"
        "store = Store(sys.argv[1], group_commit=True)\n"  # no GroupCommit: nothing checkpoints
        "room = store.create_room('barbu', 'left', {'seed': 1})\n"
        "with store.transaction():\n"
        "    for seq in range(1, 3001):\n"
        "        store.append_action(room, seq, seq % 4, {'pad': 'x' * 2000})\n"
        "for seq in range(3001, 3201):\n"
        "    store.append_action(room, seq, seq % 4, {'pad': 'x' * 2000})\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"
    )
    killed = subprocess.run([sys.executable, "-c", writer, str(db)], cwd=ROOT, timeout=120)
    assert killed.returncode == -signal.SIGKILL
    left = _wal(db).stat().st_size
    assert left > 2 * WAL_LIMIT, f"the test's log is only {left} bytes"
    server = Serve(db, "--log-level", "WARNING")
    try:
        now = _wal(db).stat().st_size  # what the server wrote since (its start-up's few pages)
        assert now < 1 << 20, f"the restarted server kept the old log: {left} -> {now} bytes"
    finally:
        server.kill()
    store = Store(db, readonly=True)
    try:
        [room] = store.rooms()
        assert [a.seq for a in store.actions(room.id)] == list(range(1, 3201))
    finally:
        store.close()
