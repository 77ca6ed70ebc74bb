"""``barbu standings --db PATH`` in a real process: the table of a store whose matches a real server
finished, the store left as it was, and one line with a non-zero exit for a file that is not a store."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from server.store import Store
from tests.conftest import Connect, StartServer
from tests.standings_support import finish_match

ROOT = Path(__file__).resolve().parent.parent


def standings_cli(db: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "standings", "--db", str(db)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=60,
    )


async def test_standings_lists_the_players_of_finished_matches(
    start_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    db = tmp_path / "evenings.sqlite3"
    server = await start_server(db=str(db))
    ann, bob = await connect(server, "ann"), await connect(server, "bob")
    await finish_match(server, {"N": ann, "W": bob}, "evening")
    rows = await ann.standings()
    await server.stop()
    before = db.read_bytes()

    done = standings_cli(db)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == "player\tmatches\tfirsts\taverage_place\trating"
    assert lines[1:] == [
        f"{r['name']}\t{r['matches']}\t{r['firsts']}\t{r['average_place']:.2f}\t{r['rating']:.1f}"
        for r in rows
    ]
    assert db.read_bytes() == before


def test_a_store_without_finished_matches_says_so(tmp_path: Path) -> None:
    db = tmp_path / "new.sqlite3"
    Store(db).close()
    done = standings_cli(db)
    assert (done.returncode, done.stdout) == (0, "")
    assert done.stderr == f"barbu: no finished Barbu matches in {db} yet\n"


def test_a_file_that_is_not_a_store_is_one_line_and_exit_1(tmp_path: Path) -> None:
    junk = tmp_path / "junk.sqlite3"
    junk.write_bytes(os.urandom(5000))
    for path in (junk, tmp_path / "missing.sqlite3"):
        done = standings_cli(path)
        assert done.returncode == 1
        assert done.stdout == ""
        assert len(done.stderr.splitlines()) == 1 and str(path) in done.stderr
        assert "Traceback" not in done.stderr
