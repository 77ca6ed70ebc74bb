"""Watching a ``barbu play --local`` game from another terminal: the local server keeps its address in a file
next to its store while it runs (``--port`` fixes the port), the player's table says the command,
``barbu play --local --watch`` watches that game's table (and again when the game is run again, on
another port), and each way it can fail is said in one line (no
game, a game that no longer answers, a second ``--local`` on the store, a port taken, ``--watch`` without
``--local``). Real local servers on 127.0.0.1 with their SQLite files in ``tmp_path``; the client through
prompt-toolkit's pipe input (helpers in ``test_tui.py``)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from pathlib import Path

import pytest

from cli.main import main
from client import Connection
from client.tui.app import TuiApp
from client.tui.local import (
    LocalServer,
    address_file,
    default_db,
    local_game,
    play_command,
    read_address,
    read_player,
    seat_local_player,
    store_key,
    watch_local_game,
    watch_options,
    watcher_name,
)
from client.tui.session import GAME_STOPPED
from engine.cards import SEATS
from tests.conftest import Connect, until
from tests.test_store_cli import run, with_terminal
from tests.test_tui import on_screen, started_tui


def free_port() -> int:
    """A loopback port nothing listens on now (the kernel's pick for a socket bound to port 0)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def test_the_address_is_kept_next_to_the_store_while_the_game_runs(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"
    port = free_port()
    async with LocalServer(db, bot_delay=0.0, bot_policy="heuristic", port=port) as local:
        assert local.url == f"ws://127.0.0.1:{port}"  # --port: the address a friend can be told once
        assert address_file(db) == tmp_path / "games.sqlite3.url"
        assert read_address(db) == local.url
        assert play_command(db, watch=True) == f"barbu play --local --watch --db {db}"
        assert local.watch_hint() == (
            f"To watch from another terminal: barbu play --local --watch --db {db} (or barbu play {local.url})."
        )
    assert not address_file(db).exists() and read_address(db) is None
    assert play_command(default_db(), watch=True) == "barbu play --local --watch"


async def test_the_player_is_told_how_to_watch_and_the_watcher_sees_the_players_table(
    data_home: Path, connect: Connect
) -> None:
    async with LocalServer(None, bot_delay=0.0, bot_policy="heuristic") as local:
        assert local.db == default_db()
        options = {
            "after_login": lambda tui: seat_local_player(tui, local.watch_hint()),
            "server_key": local.key,
        }
        async with started_tui(local.url, "ann", **options) as (tui, _pipe):
            await until(lambda: tui.screen == "table" and tui.model.table is not None, "ann's table")
            said = f"To watch from another terminal: barbu play --local --watch (or barbu play {local.url})."
            await until(lambda: on_screen(tui, said), "the command on the notice line")
            assert tui.model.table is not None
            room = tui.model.table.room
    async with LocalServer(None, bot_delay=0.0, bot_policy="heuristic") as local:
        bo = await connect(local.server, "bo")  # ann's game waits for her meanwhile; bo opens another table
        await bo.create_table("a new one")
        async with started_tui(local.url, "ann-watch", after_login=watch_local_game) as (tui, _pipe):
            await until(lambda: tui.screen == "table" and tui.model.table is not None, "the watched table")
            table = tui.model.table
            assert table is not None and table.room == room and table.seat is None
            await until(lambda: table.view is not None, "the match as a watcher sees it")
            assert table.players.get("S") == "ann" and all(table.players.get(s) for s in SEATS)
            assert on_screen(tui, "You are watching this table.")


async def _ann_at_her_local_game(local: LocalServer, connect: Connect) -> tuple[Connection, str]:
    """ann logged in to ``local``, sitting South at "ann's game" with bots in N, E and W: her connection and
    the table's room id."""
    ann = await connect(local.server, "ann")
    room = await ann.create_table("ann's game")
    await ann.sit(room, "S")
    for seat in "NEW":
        await ann.add_bot(room, seat)
    return ann, room


async def test_a_watcher_follows_the_game_run_again_on_another_port(tmp_path: Path, connect: Connect) -> None:
    db = tmp_path / "local.sqlite3"
    first = LocalServer(db, bot_delay=0.0, bot_policy="heuristic")
    await first.start()
    try:
        ann, room = await _ann_at_her_local_game(first, connect)
        options = {
            "after_login": watch_local_game,
            "server_key": store_key(db),
            "locate": lambda: read_address(db),
        }
        async with started_tui(first.url, "ann-watch", **options) as (tui, _pipe):
            await until(lambda: tui.model.table is not None and tui.model.table.view is not None, "watching")
            old = first.url
            await ann.close()
            await first.stop()  # ann quits her game
            await until(lambda: tui.model.notice == GAME_STOPPED, "the watcher told the game stopped")
            port = free_port()
            while old.endswith(f":{port}"):
                port = free_port()
            async with LocalServer(db, bot_delay=0.0, bot_policy="heuristic", port=port) as second:
                await until(lambda: tui.session.reconnects == 1, "the watcher back", 15)
                assert tui.model.url == second.url
                table = tui.model.table
                await until(
                    lambda: table is not None and table.view is not None and not table.stale, "the table"
                )
                assert table is not None and table.room == room and table.seat is None
    finally:
        await first.stop()


def test_the_local_game_is_the_newest_table_in_play() -> None:
    rooms = [
        {"room": "3", "kind": "barbu", "state": "over"},
        {"room": "2", "kind": "barbu", "state": "playing"},
        {"room": "5", "kind": "barbu", "state": "waiting"},
        {"room": "4", "kind": "solitaire", "state": "playing"},
    ]
    assert local_game(rooms) == "2"
    assert local_game(rooms[2:]) == "5" and local_game(rooms[:1]) == "3" and local_game(rooms[3:]) is None


def test_watching_when_no_game_runs_or_none_answers_is_said_in_one_line(
    data_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with_terminal(monkeypatch)
    status, err = run(["play", "--local", "--watch"], capsys)
    assert (status, err) == (
        1,
        f"barbu: no local game is running on {default_db()} (start one with barbu play --local)\n",
    )
    db = tmp_path / "killed.sqlite3"
    dead = f"ws://127.0.0.1:{free_port()}"
    address_file(db).write_text(dead + "\n")  # what a game killed with SIGKILL leaves behind
    status, err = run(["play", "--local", "--watch", "--db", str(db)], capsys)
    assert (status, err) == (
        1,
        f"barbu: no local game answers at {dead} (kept in {address_file(db)}): start one with "
        f"barbu play --local --db {db}\n",
    )
    for flag in ("--watch", "--port=8000"):
        status, err = run(["play", flag], capsys)
        assert status == 2 and err.startswith(f"barbu play: {flag.split('=')[0]} goes with --local")


async def test_a_second_local_game_on_the_store_says_how_to_watch_the_first(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    with_terminal(monkeypatch)
    db = tmp_path / "local.sqlite3"
    async with LocalServer(db, bot_delay=0.0, bot_policy="heuristic") as local:
        # ``barbu play`` runs its own event loop: in a thread, as a second terminal would be a process.
        status = await asyncio.to_thread(main, ["play", "--local", "--db", str(db)])
        assert (status, capsys.readouterr().err) == (
            1,
            f"barbu: a local game is already running on this store, at {local.url}: watch it with "
            f"barbu play --local --watch --db {db}\n",
        )
        port = int(local.url.rsplit(":", 1)[1])
        other = tmp_path / "other.sqlite3"
        status = await asyncio.to_thread(main, ["play", "--local", "--db", str(other), "--port", str(port)])
        err = capsys.readouterr().err
        assert status == 1 and err.startswith(f"barbu: cannot listen on 127.0.0.1:{port}: ")
        assert len(err.splitlines()) == 1 and not address_file(other).exists()


async def test_a_watcher_given_the_players_name_watches_under_its_own(tmp_path: Path) -> None:
    db = tmp_path / "local.sqlite3"
    async with LocalServer(db, bot_delay=0.0, bot_policy="heuristic", player="Ann") as local:
        assert read_player(db) == "Ann" and watcher_name("ann", "Ann") == "ann-watch"
        player = {"after_login": lambda tui: seat_local_player(tui), "server_key": local.key}
        async with started_tui(local.url, "Ann", **player) as (ann, _pipe):
            await until(
                lambda: ann.model.table is not None and ann.model.table.view is not None, "ann's table"
            )
            options = watch_options(db, "ann")  # --watch --name ann: the player's name, told apart by case
            name = options.pop("name")
            assert name == "ann-watch"
            async with started_tui(local.url, name, **options) as (watcher, _pipe):
                await until(
                    lambda: watcher.model.table is not None and watcher.model.table.view is not None,
                    "the watched table",
                )
                table = watcher.model.table
                assert table is not None and table.seat is None and table.players.get("S") == "Ann"
                await until(
                    lambda: on_screen(watcher, "You watch as ann-watch: ann is the player's name"), "why"
                )
                await asyncio.sleep(0.5)  # a session taken over would close ann's connection by now
                assert ann.model.connected and ann.model.status != "signed in elsewhere"
                assert ann.model.table is not None and ann.model.table.seat == "S"
    assert watcher_name("bo", "Ann") == "bo" and watcher_name("bo", None) == "bo"
    assert watcher_name("x" * 24, "X" * 24) == "x" * 18 + "-watch"


def watching(tui: TuiApp, room: str) -> Callable[[], bool]:
    """A condition: ``tui`` shows table ``room`` as it is now (its view known, not overtaken)."""

    def shown() -> bool:
        table = tui.model.table
        return table is not None and table.room == room and table.view is not None and not table.stale

    return shown


async def test_a_watcher_follows_the_players_to_their_next_match_and_after_a_restart(
    tmp_path: Path, connect: Connect
) -> None:
    db = tmp_path / "local.sqlite3"
    first = LocalServer(db, bot_delay=0.0, bot_policy="random", player="ann")
    await first.start()
    away: list[str | None] = [first.url]  # the address the first watcher finds: None while it is kept away
    try:
        ann, room = await _ann_at_her_local_game(first, connect)
        await ann.leave(room)  # a stand-in plays the match to its end
        lobby = first.server.lobby
        assert lobby is not None
        await until(lambda: lobby.rooms[room].summary()["state"] == "over", "the end of the match", 180)
        await ann.watch(room)  # keeps the finished table in the lobby
        options = {**watch_options(db, "ann-watch"), "locate": lambda: away[0]}
        async with started_tui(first.url, options.pop("name"), **options) as (gone, _pipe):
            await until(lambda: gone.model.table is not None and gone.model.table.room == room, "watching")
            options = watch_options(db, "bo")
            async with started_tui(first.url, options.pop("name"), **options) as (bo, _pipe):
                await until(lambda: bo.model.table is not None and bo.model.table.room == room, "bo watching")
                away[0] = None
                conn = gone.session.conn
                assert conn is not None
                await conn.close()  # this watcher misses the rematch
                await until(lambda: gone.model.notice == GAME_STOPPED, "the first watcher away")
                new = await ann.rematch(room)
                await until(  # a watcher present at the rematch goes with the players
                    lambda: bo.model.table is not None and bo.model.table.room == new, "bo at the rematch"
                )
                assert (await ann.sit(new)).seat == "S"  # the match begins: the finished table goes
                await ann.close()
                await first.stop()  # ann quits and runs her game again
                async with LocalServer(db, bot_delay=0.0, bot_policy="random", player="ann") as second:
                    away[0] = second.url
                    await until(lambda: gone.session.reconnects == 1, "the first watcher back", 15)
                    for tui in (gone, bo):  # the watched table gone, the game's new one instead
                        await until(watching(tui, new), "the watchers at the rematch")
                        table = tui.model.table
                        assert table is not None and table.seat is None and tui.screen == "table"
                        assert not on_screen(tui, "no open room")
    finally:
        await first.stop()
