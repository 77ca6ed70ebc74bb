"""A store that had data never silently becomes an empty one: ``barbu serve`` (a real process) refuses, in one
line naming the file and what to do and with exit status 1, a store file truncated to 0 bytes, one deleted
with its ``-wal`` (the last writes of a killed server) beside it, one deleted after a clean stop (its marker
left), and another store put in its place; it changes none of those files. A new path still gets a store,
and removing what the line names starts a new one."""

from __future__ import annotations

import asyncio
import fcntl
import os
from pathlib import Path

import pytest

from client import Connection
from server.store import Store, StoreInUse
from tests.serve_process import Serve, serve_exits


def made_store(db: Path) -> int:
    """A store at ``db`` with one room in it, closed cleanly; returns the room's id."""
    store = Store(db)
    room = store.create_room("barbu", "friday", {"seed": 1, "variants": {}, "first_declarer": "N"})
    store.close()
    return room


def contents(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def refused(db: Path, line: str) -> None:
    """``barbu serve --db DB`` exits 1 with ``barbu: LINE`` as its whole stderr, and leaves every file beside
    the store as it was."""
    before = contents(db.parent)
    done = serve_exits(db)
    assert (done.returncode, done.stderr) == (1, f"barbu: {line}\n"), done.stdout
    assert contents(db.parent) == before


def lost_line(db: Path, what: str, *beside: str) -> str:
    names = " ".join(f"{db}{suffix}" for suffix in beside)
    say = "says" if len(beside) == 1 else "say"
    return (
        f"{db}: the store file is {what}, but {names} beside it {say} a store was there (its last writes may be "
        f"in the -wal): put the store back (a backup: deploy/README.md), or remove {names} to start a new, "
        "empty store"
    )


def test_a_store_truncated_to_nothing_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "barbu.sqlite3"
    made_store(db)
    db.write_bytes(b"")
    refused(db, lost_line(db, "empty", ".id"))


def test_a_store_deleted_after_a_clean_stop_is_refused_and_removing_its_marker_starts_anew(
    tmp_path: Path,
) -> None:
    db = tmp_path / "barbu.sqlite3"
    made_store(db)
    db.unlink()
    refused(db, lost_line(db, "missing", ".id"))
    Path(f"{db}.id").unlink()  # as the line says: the operator wants a new store
    Store(db).close()
    assert Store(db, readonly=True).rooms() == []


def test_a_store_deleted_beside_the_log_of_a_killed_server_is_refused_and_the_log_kept(
    tmp_path: Path,
) -> None:
    db = tmp_path / "barbu.sqlite3"
    server = Serve(db)
    try:

        async def play() -> None:
            conn = await Connection.connect(server.url, timeout=20.0)
            await conn.login("ann")
            await conn.create_table("friday")
            await conn.close()

        asyncio.run(play())
    finally:
        server.kill()  # kill -9: the last writes are in the -wal only
    assert Path(f"{db}-wal").stat().st_size > 0
    db.unlink()
    refused(db, lost_line(db, "missing", ".id", "-wal", "-shm", ".lock"))


def test_another_store_in_the_place_of_the_marked_one_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "barbu.sqlite3"
    made_store(db)
    first = Path(f"{db}.id").read_text().strip()
    other = tmp_path / "other" / "barbu.sqlite3"
    other.parent.mkdir()
    made_store(other)
    second = Path(f"{other}.id").read_text().strip()
    assert len(first) == 32 and first != second
    db.write_bytes(other.read_bytes())
    refused(
        db,
        f"{db}: this is not the store {db}.id was kept for (its id is {second}, the marker says {first}): "
        f"put that store back, or remove {db}.id to use this one",
    )


def test_a_new_path_gets_a_store_and_its_marker(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite3"
    server = Serve(db)
    server.proc.terminate()
    assert server.proc.wait(30) == 0
    store = Store(db, readonly=True)
    assert Path(f"{db}.id").read_text() == f"{store.meta_get('store-id')}\n"
    store.close()
    assert sorted(os.listdir(tmp_path)) == ["new.sqlite3", "new.sqlite3.id"]


def test_an_empty_store_another_process_is_making_is_in_use_not_lost(tmp_path: Path) -> None:
    db = tmp_path / "barbu.sqlite3"
    db.touch()  # as the server that holds the lock leaves it between making the file and writing in it
    fd = os.open(f"{db}.lock", os.O_RDWR | os.O_CREAT)
    try:
        os.write(fd, b"4242\n")
        fcntl.flock(fd, fcntl.LOCK_EX)
        with pytest.raises(StoreInUse) as info:
            Store(db)
        assert info.value.pid == 4242
    finally:
        os.close(fd)
