"""Stores the CLI cannot use, and one server per store: a file that is not a barbu store (random bytes, a
truncated store, a directory, another program's database, a missing file) gets one line naming it and a
non-zero exit from ``matches``, ``export``, ``serve`` and ``play --local``, never a traceback; ``matches``
and ``export`` open the store read-only and change nothing; a second server on a store that one holds is
refused (also across processes, and the lock goes with a killed process). Also the other one-line refusals
of ``serve``, ``play`` and ``selfplay`` arguments."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import cli.play
from cli.main import main
from client.tui.local import LocalServer
from server.store import Store, StoreError, StoreInUse, StoreUnavailable
from tests.conftest import StartServer

ROOT = Path(__file__).resolve().parent.parent


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """Run ``barbu ARGV``; returns the exit status and stderr (stdout is discarded)."""
    status = main(argv)
    return status, capsys.readouterr().err


def with_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Let ``barbu play`` past its terminal check (pytest's stdin is not one): the store is opened first."""
    monkeypatch.setattr(cli.play, "_has_terminal", lambda: True)


def random_bytes(tmp_path: Path) -> Path:
    path = tmp_path / "c.sqlite3"
    path.write_bytes(os.urandom(5000))
    return path


def truncated_store(tmp_path: Path) -> Path:
    """A real store with a few hundred actions, cut in half (as a copy interrupted midway leaves it)."""
    path = tmp_path / "t.sqlite3"
    store = Store(path)
    for i in range(50):
        room = store.create_room("barbu", f"t{i}", {"seed": i, "variants": {}, "first_declarer": "N"})
        for seq in range(1, 20):
            store.append_action(room, seq, 0, {"action": "play", "card": "AS", "pad": "x" * 40})
    store.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2])
    return path


def foreign_db(tmp_path: Path) -> Path:
    """Another program's SQLite database (rollback journal, one table)."""
    path = tmp_path / "o.sqlite3"
    db = sqlite3.connect(path)
    db.execute("create table foo(x)")
    db.execute("insert into foo values (1)")
    db.commit()
    db.close()
    return path


BAD_STORES = {
    "random bytes": (random_bytes, "not a barbu store (file is not a database)"),
    "truncated store": (truncated_store, "not a barbu store (database disk image is malformed)"),
    "directory": (lambda tmp: tmp, "is a directory, not a store file"),
}


@pytest.mark.parametrize("kind", list(BAD_STORES))
@pytest.mark.parametrize(
    "argv",
    [
        ["matches", "--db", "{db}"],
        ["export", "--db", "{db}", "1"],
        ["serve", "--port", "0", "--db", "{db}"],
        ["demo", "--db", "{db}"],
        ["play", "--local", "--db", "{db}"],
        ["store", "check", "--db", "{db}"],
    ],
    ids=["matches", "export", "serve", "demo", "play-local", "store-check"],
)
def test_a_file_that_is_not_a_store_gets_one_line_and_a_non_zero_exit(
    kind: str,
    argv: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with_terminal(monkeypatch)
    make, reason = BAD_STORES[kind]
    db = make(tmp_path)
    status, err = run([a.replace("{db}", str(db)) for a in argv], capsys)
    assert status == 1
    assert err == f"barbu: {db}: {reason}\n"


@pytest.mark.parametrize("command", [["matches"], ["export", "1"]])
def test_read_only_commands_refuse_a_foreign_database_and_leave_it_as_it_was(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = foreign_db(tmp_path)
    before = db.read_bytes()
    status, err = run([command[0], "--db", str(db), *command[1:]], capsys)
    assert status == 1
    assert err == f"barbu: {db}: not a barbu store (it has other tables)\n"
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.sqlite3"]  # no -wal, -shm or .lock file


def test_serve_refuses_a_foreign_database_rather_than_adding_tables(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = foreign_db(tmp_path)
    before = db.read_bytes()
    status, err = run(["serve", "--port", "0", "--db", str(db)], capsys)
    assert status == 1
    assert err == f"barbu: {db}: not a barbu store (it has other tables)\n"
    assert db.read_bytes() == before
    with pytest.raises(StoreError):
        Store(db)
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.sqlite3"]  # no lock file left behind


@pytest.mark.parametrize("command", [["matches"], ["export", "1"]])
def test_read_only_commands_refuse_a_missing_or_empty_file_and_create_nothing(
    command: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.sqlite3"
    status, err = run([command[0], "--db", str(missing), *command[1:]], capsys)
    assert (status, err) == (1, f"barbu: {missing}: no such store file\n")
    assert not missing.exists() and not Path(f"{missing}.lock").exists()
    empty = tmp_path / "empty.sqlite3"
    empty.touch()
    status, err = run([command[0], "--db", str(empty), *command[1:]], capsys)
    assert (status, err) == (1, f"barbu: {empty}: not a barbu store (an empty database)\n")
    assert empty.read_bytes() == b""


def test_a_server_store_is_created_in_a_missing_or_empty_file(tmp_path: Path) -> None:
    for path in (tmp_path / "new.sqlite3", tmp_path / "empty.sqlite3"):
        if path.name == "empty.sqlite3":
            path.touch()
        store = Store(path)
        room = store.create_room("barbu", "t", {"seed": 1, "variants": {}, "first_declarer": "N"})
        store.close()
        reader = Store(path, readonly=True)
        assert [r.id for r in reader.rooms()] == [room]
        with pytest.raises(StoreUnavailable):
            reader.create_room("barbu", "u", {})
        reader.close()


def test_matches_reads_a_store_without_changing_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    store.create_room("barbu", "quiet", {"seed": 1, "variants": {}, "first_declarer": "N"})
    store.close()
    before = db.read_bytes()
    assert main(["matches", "--db", str(db)]) == 0
    assert "quiet" in capsys.readouterr().out
    assert db.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["s.sqlite3", "s.sqlite3.id"]  # no -wal, -shm, .lock


async def test_a_link_to_a_held_store_is_the_same_store(start_server: StartServer, tmp_path: Path) -> None:
    db = tmp_path / "held.sqlite3"
    server = await start_server(db=str(db))
    (tmp_path / "soft.sqlite3").symlink_to(db)
    os.link(db, tmp_path / "hard.sqlite3")
    for link in ("soft.sqlite3", "hard.sqlite3"):
        with pytest.raises(StoreInUse):
            Store(tmp_path / link)
    await server.stop()
    Store(tmp_path / "hard.sqlite3").close()  # free once the server is gone


async def test_a_store_held_by_a_running_server_cannot_be_opened_for_writing(
    start_server: StartServer, tmp_path: Path
) -> None:
    db = tmp_path / "local.sqlite3"
    first = await start_server(db=str(db))
    with pytest.raises(StoreInUse) as info:
        Store(db)
    assert info.value.pid == os.getpid()
    local = LocalServer(db)
    with pytest.raises(StoreInUse):
        await local.start()
    reader = Store(db, readonly=True)  # reading is not writing: export and matches still work
    reader.close()
    await first.stop()
    assert not Path(f"{db}.lock").exists()
    async with LocalServer(db) as again:
        assert again.url.startswith("ws://127.0.0.1:")
        assert Path(f"{db}.lock").read_text() == f"{os.getpid()}\n"


def test_a_second_serve_or_local_game_on_a_store_is_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "local.sqlite3"
    serving = subprocess.Popen(
        [sys.executable, "-m", "cli.main", "serve", "--port", "0", "--db", str(db), "--log-level", "ERROR"],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert serving.stdout is not None
        assert serving.stdout.readline().startswith("barbu server listening on ws://127.0.0.1:")
        in_use = f"the store {db} is in use by another barbu server (pid {serving.pid})"
        status, err = run(["serve", "--port", "0", "--db", str(db)], capsys)
        assert (status, err) == (1, f"barbu: {in_use}\n")
        with_terminal(monkeypatch)
        status, err = run(["play", "--local", "--db", str(db)], capsys)
        assert (status, err) == (
            1,
            f"barbu: a local game (or barbu serve) is already using this store: {in_use}\n",
        )
        serving.terminate()  # SIGTERM: the server stops cleanly and exits 0
        assert serving.wait() == 0
    finally:
        if serving.poll() is None:
            serving.kill()
            serving.wait()
    Store(db).close()


def test_serve_refuses_a_port_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    for port in ("99999", "-1", "x"):
        with pytest.raises(SystemExit) as info:
            main(["serve", "--port", port])
        assert info.value.code == 2
        err = capsys.readouterr().err
        assert "--port" in err and "Traceback" not in err


@pytest.mark.parametrize("url", ["http://x", "x", "ws://", "ws://h:99999"])
def test_play_refuses_an_address_that_is_not_a_websocket_url(
    url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", url])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith(
        f"barbu play: error: argument url: {url!r} is not a server address"
    )


def test_play_needs_a_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    assert not cli.play._has_terminal()  # pytest's stdin is not a terminal
    assert main(["play", "ws://127.0.0.1:1"]) == 1
    assert capsys.readouterr().err == (
        "barbu: the terminal client needs a terminal (standard input and output must not be redirected)\n"
    )


def test_selfplay_refuses_an_output_it_cannot_write_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "dir"
    out.mkdir()
    assert main(["selfplay", "--matches", "1", "--seed", "1", "--out", str(out)]) == 1
    captured = capsys.readouterr()
    assert captured.out == ""  # no match was played
    assert captured.err.startswith(f"barbu: {out}: cannot write (") and captured.err.count("\n") == 1


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/null and /dev/full")
def test_selfplay_writes_to_a_device_and_says_a_full_one_in_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["selfplay", "--matches", "1", "--seed", "1", "--out", "/dev/null"]) == 0
    assert "wrote 1 record(s) to /dev/null" in capsys.readouterr().out
    assert main(["selfplay", "--matches", "1", "--seed", "1", "--out", "/dev/full"]) == 1
    assert capsys.readouterr().err == "barbu: /dev/full: cannot write (No space left on device)\n"


def test_export_refuses_an_output_it_cannot_write_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "s.sqlite3"
    store = Store(db)
    room = store.create_room("solitaire", "p", {"game": "pyramid", "options": {}, "seed": 1, "daily": None})
    store.set_players(room, {"player": "ann"})
    store.set_status(room, "playing")
    store.close()
    assert main(["export", "--db", str(db), str(room), "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"barbu: {tmp_path}: cannot write (") and err.count("\n") == 1


def test_an_empty_store_and_a_missing_match_are_said_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "new.sqlite3"
    Store(db).close()
    assert main(["matches", "--db", str(db)]) == 0
    assert capsys.readouterr().err == (
        f"barbu: no Barbu matches in {db} yet (solitaire games are not listed here; "
        "barbu export takes a solitaire room's id too)\n"
    )
    assert main(["export", "--db", str(db), "99"]) == 1
    assert capsys.readouterr().err == f"barbu: no room 99 in {db}\n"


async def test_a_server_that_cannot_listen_releases_its_store(
    start_server: StartServer, tmp_path: Path
) -> None:
    first = await start_server(db=str(tmp_path / "one.sqlite3"))
    second = tmp_path / "two.sqlite3"
    with pytest.raises(OSError):
        await start_server(db=str(second), port=first.port)  # the port is taken
    assert not Path(f"{second}.lock").exists()
    Store(second).close()  # free to open: the failed server let go of it


def test_reading_through_a_link_leaves_nothing_beside_the_real_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "real.sqlite3"
    store = Store(db)
    store.create_room("barbu", "linked", {"seed": 1, "variants": {}, "first_declarer": "N"})
    store.close()
    (tmp_path / "link.sqlite3").symlink_to(db)
    assert main(["matches", "--db", str(tmp_path / "link.sqlite3")]) == 0
    assert "linked" in capsys.readouterr().out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.sqlite3", "real.sqlite3", "real.sqlite3.id"]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_an_output_that_cannot_be_written_is_one_line() -> None:
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "cli.main", "solitaire", "deal", "pyramid", "--seed", "1"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert done.returncode == 1
    assert done.stderr == "barbu: cannot write the output (No space left on device)\n"


def serve_under_file_limit(db: Path, size: int) -> subprocess.CompletedProcess[str]:
    """``prlimit --fsize=SIZE barbu serve --db DB`` in a real process (stderr through a pipe: a file the
    process wrote would be cut to the limit too)."""
    return subprocess.run(
        [
            "prlimit",
            f"--fsize={size}",
            sys.executable,
            "-m",
            "cli.main",
            "serve",
            "--port",
            "0",
            "--db",
            str(db),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


NEEDS_PRLIMIT = pytest.mark.skipif(shutil.which("prlimit") is None, reason="needs prlimit (util-linux)")


@NEEDS_PRLIMIT
@pytest.mark.parametrize("kind", ["store", "empty file"])
def test_a_store_that_cannot_be_written_is_named_so_not_called_a_foreign_file(
    kind: str, tmp_path: Path
) -> None:
    db = tmp_path / "b.sqlite3"
    if kind == "store":
        store = Store(db)
        store.issue_token("alice")
        store.close()
    else:
        db.touch()
    before = db.read_bytes()
    done = serve_under_file_limit(db, 1)
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr == (
        f"barbu: cannot write the store {db}: the file size limit is 1 byte (ulimit -f) (disk I/O error)\n"
    )
    assert db.read_bytes() == before
    store = Store(db)  # the limit lifted, the same store serves again, its players kept
    assert (store.token_for_player("alice") is None) == (kind == "empty file")
    store.close()


@NEEDS_PRLIMIT
def test_a_foreign_file_under_a_file_size_limit_is_still_no_barbu_store(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("a shopping list, not a database at all\n")
    done = serve_under_file_limit(text, 1)
    assert (done.returncode, done.stderr) == (
        1,
        f"barbu: {text}: not a barbu store (file is not a database)\n",
    )
    foreign = foreign_db(tmp_path)
    done = serve_under_file_limit(foreign, 1)
    assert (done.returncode, done.stderr) == (
        1,
        f"barbu: {foreign}: not a barbu store (it has other tables)\n",
    )


def test_serve_refuses_a_password_no_login_can_carry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "barbu.sqlite3"
    status, err = run(["serve", "--port", "0", "--db", str(db), "--password", "x" * 129], capsys)
    assert status == 1
    assert err == "barbu: --password is 129 characters long; a login carries 128 at most\n"
    assert not db.exists()
