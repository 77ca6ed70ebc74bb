"""A torn ``-wal`` loses its tail with a word: a store copied with its log while a writer held it open (as a
crash leaves it), bytes of a late frame then damaged, makes ``barbu serve`` (a real process) log a WARNING
naming the log, the frame and how many frames SQLite recovers, and the rooms of the frames after it are
indeed gone; the same copy undamaged, and the log a real server leaves when killed with SIGKILL, start
without one."""

from __future__ import annotations

import asyncio
import shutil
import struct
from pathlib import Path

from client import Connection
from server.store import Store
from tests.serve_process import Serve

ROOMS = 30


def crash_copy(tmp_path: Path) -> Path:
    """A store with ``ROOMS`` rooms, each written in its own commit, copied with its ``-wal`` and marker
    while the store is still open (its log not yet folded in): what a crash leaves on disk."""
    live = tmp_path / "live" / "barbu.sqlite3"
    live.parent.mkdir()
    store = Store(live)
    for i in range(ROOMS):
        store.create_room("barbu", f"t{i}", {"seed": i, "variants": {}, "first_declarer": "N"})
    copy = tmp_path / "copy" / "barbu.sqlite3"
    copy.parent.mkdir()
    for suffix in ("", "-wal", ".id"):
        if Path(f"{live}{suffix}").exists():
            shutil.copyfile(f"{live}{suffix}", f"{copy}{suffix}")
    store.close()
    return copy


def frames(wal: Path) -> tuple[int, list[int]]:
    """The WAL's frame size and, per frame, its "database size after commit" field (0: not a commit)."""
    data = wal.read_bytes()
    (page_size,) = struct.unpack(">I", data[8:12])
    size = 24 + page_size
    return size, [struct.unpack(">I", data[o + 4 : o + 8])[0] for o in range(32, len(data) - size + 1, size)]


def started(db: Path) -> list[str]:
    """The lines ``barbu serve --db DB`` logs before it listens (then it is stopped)."""
    server = Serve(db, "--log-level", "WARNING")
    server.proc.terminate()
    assert server.proc.wait(30) == 0
    return server.lines[: next(i for i, line in enumerate(server.lines) if "listening on" in line)]


def test_a_log_torn_in_a_late_frame_is_said_and_its_tail_is_what_is_lost(tmp_path: Path) -> None:
    db = crash_copy(tmp_path)
    wal = Path(f"{db}-wal")
    size, commits = frames(wal)
    assert len(commits) > ROOMS and sum(1 for c in commits if c) == ROOMS  # a commit frame per room
    bad = len(commits) - 4  # a late frame, from 0
    kept = max(i + 1 for i, c in enumerate(commits[:bad]) if c)
    data = bytearray(wal.read_bytes())
    data[32 + bad * size + 24 + 100] ^= 0xFF  # one byte of its page
    wal.write_bytes(bytes(data))

    lines = started(db)
    warned = [line for line in lines if " WARNING " in line]
    assert len(warned) == 1, lines
    assert (
        warned[0]
        .rstrip()
        .endswith(
            f"server.wal: {wal}: the log of the last writes is torn (at frame {bad + 1}): SQLite recovers {kept} "
            f"of its {len(commits)} frames and ignores the rest, writes that had reached the file; a copy of "
            f"the whole log is kept at {wal}.torn"
        )
    )
    assert Path(f"{wal}.torn").read_bytes() == bytes(data)  # the dropped frames are kept for a look by hand
    store = Store(db, readonly=True)
    names = [row.name for row in store.rooms()]
    store.close()
    lost = sum(1 for c in commits[kept:] if c)
    assert lost >= 1 and names == [f"t{i}" for i in range(ROOMS - lost)]


def test_a_whole_log_and_the_log_of_a_killed_server_start_without_a_warning(tmp_path: Path) -> None:
    db = crash_copy(tmp_path)
    assert [line for line in started(db) if " WARNING " in line] == []
    store = Store(db, readonly=True)
    assert len(store.rooms()) == ROOMS
    store.close()

    killed = tmp_path / "killed.sqlite3"
    server = Serve(killed)
    try:

        async def play() -> None:
            for i in range(5):
                conn = await Connection.connect(server.url, timeout=20.0)
                await conn.login(f"player {i}")
                await conn.create_table(f"table {i}")
                await conn.close()

        asyncio.run(play())
    finally:
        server.kill()
    assert Path(f"{killed}-wal").stat().st_size > 0
    assert [line for line in started(killed) if " WARNING " in line] == []
