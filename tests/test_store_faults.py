"""A store that cannot write changes no room: a real ``barbu serve`` process whose file-size limit is lowered
mid-match (``prlimit``: its SQLite writes then fail with EFBIG), real WebSocket clients, then a kill -9 and a
restart on the same file."""

from __future__ import annotations

import asyncio
import contextlib
import copy
import json
import resource
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cli.bot import run_bots
from cli.main import main as barbu
from client import Connection, ServerError
from client.bot import come_back
from engine.barbu import Action, Match, Variants, action_to_wire
from engine.cards import SEATS
from engine.solitaire import new_game
from protocol import ChatPush, Players, Turn
from server import BarbuServer
from server.barbu_table import BarbuTable
from server.store import Store
from tests.conftest import Connect, StartServer, snapshot_state, until_dropped
from tests.serve_process import Serve as Serve  # others import it from here
from tests.test_server_table_news import next_of

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[list[Serve]]:
    started: list[Serve] = []
    yield started
    for server in started:
        server.kill()


async def _refused(call: Any, code: str) -> ServerError:
    with pytest.raises(ServerError) as info:
        await call
    assert info.value.code == code, info.value
    return info.value


async def _my_turn(conn: Connection, timeout: float = 20.0) -> Turn:
    while True:
        push = await conn.next_push(timeout)
        if isinstance(push, Turn):
            return push


async def test_a_store_that_cannot_write_changes_no_room_and_play_resumes(
    tmp_path: Path, serve: list[Serve], capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "barbu.sqlite3"
    first = Serve(db, "--bot-delay", "0.4", "--log-level", "WARNING")
    serve.append(first)
    alice = await Connection.connect(first.url, timeout=20)
    sol = await Connection.connect(first.url, timeout=20)
    try:
        await alice.login("alice")
        await sol.login("sol")
        table = await alice.create_table("faulty")
        await alice.sit(table, "N")
        for seat in "ESW":
            await alice.add_bot(table, seat, "random")
        game = await sol.open_solitaire("forty-thieves", seed=7)
        assert game.view is not None
        await sol.move(game.room, game.view["legal"][0])
        turn = await _my_turn(alice)

        # The store cannot write: every request that would write is refused, and nothing changes.
        before = snapshot_state(await alice.snapshot(table))
        solitaire_before = snapshot_state(await sol.snapshot(game.room))
        listed = len(await alice.list_rooms())
        first.limit_file_size(1)
        action = turn.view["legal"][0]
        await _refused(alice.act(table, "N", action), "store-unavailable")
        await _refused(sol.move(game.room, solitaire_before["view"]["legal"][0]), "store-unavailable")
        await _refused(sol.resign(game.room), "store-unavailable")
        await _refused(sol.open_solitaire("forty-thieves", seed=8), "store-unavailable")
        await _refused(alice.create_table("another"), "store-unavailable")
        assert snapshot_state(await alice.snapshot(table)) == before
        assert snapshot_state(await sol.snapshot(game.room)) == solitaire_before
        assert len(await alice.list_rooms()) == listed
        alice.take_pushes()

        # The limit is lifted: the same action goes through; the limit is back before the bots move.
        first.limit_file_size(None)
        await alice.act(table, "N", action)
        first.limit_file_size(1)
        acted = (await alice.snapshot(table)).seq
        assert acted == before["seq"] + 1
        await asyncio.sleep(2.0)  # five bot delays: the bots try, the store refuses, they wait
        assert (await alice.snapshot(table)).seq == acted, "a bot move took effect without being stored"
        assert first.proc.poll() is None

        # Lifted again: the bots play on by themselves until alice's turn comes back.
        first.limit_file_size(None)
        alice.take_pushes()
        try:
            turn = await _my_turn(alice, 30)
        except TimeoutError:
            raise AssertionError(f"{await alice.snapshot(table)}\n{''.join(first.lines)}") from None
        assert turn.seq > acted
        await sol.move(game.room, (await sol.snapshot(game.room)).view["legal"][0])  # type: ignore[index]
        final = snapshot_state(await alice.snapshot(table))
        solitaire_final = snapshot_state(await sol.snapshot(game.room))
        token = alice.token
    finally:
        await alice.close()
        await sol.close()
    log = "".join(first.lines)
    assert "cannot write the store" in log and "Traceback" not in log, log
    first.kill()

    # A crash now loses nothing and leaves no gap: every room comes back as it was.
    store = Store(db, readonly=True)
    try:
        seqs = [a.seq for a in store.actions(int(table))]
        assert seqs == list(range(1, final["seq"] + 1))
    finally:
        store.close()
    second = Serve(db, "--bot-delay", "0.4", "--log-level", "WARNING")
    serve.append(second)
    alice = await Connection.connect(second.url, timeout=20)
    sol = await Connection.connect(second.url, timeout=20)
    try:
        assert token is not None
        assert (await alice.resume(token)).rooms == [table]
        assert snapshot_state(await alice.snapshot(table)) == final
        await sol.login("sol")
        assert snapshot_state(await sol.snapshot(game.room)) == solitaire_final
    finally:
        await alice.close()
        await sol.close()
    out = tmp_path / "match.json"
    capsys.readouterr()
    assert barbu(["export", "--db", str(db), table, "--out", str(out)]) == 0
    assert json.loads(out.read_text())["format"] == "barbu-match/1"
    capsys.readouterr()
    assert barbu(["export", "--db", str(db), game.room]) == 0
    assert json.loads(capsys.readouterr().out)["format"] == "solitaire/1"


async def test_a_log_that_cannot_grow_is_folded_into_the_store_and_play_goes_on(
    tmp_path: Path, serve: list[Serve]
) -> None:
    """The file-size limit is set to the WAL file's size while bots play flat out: the next write fails (the
    log cannot grow), the failure makes the server checkpoint and start the log over, and play goes on by
    itself without the limit being lifted (it waited for a commit to checkpoint: forever)."""
    db = tmp_path / "barbu.sqlite3"
    server = Serve(db, "--bot-delay", "0", "--log-level", "WARNING")
    serve.append(server)
    wal = Path(f"{db}-wal")
    alice = await Connection.connect(server.url, timeout=20)
    try:
        await alice.login("alice")
        table = await alice.create_table("busy")
        for seat in SEATS:
            await alice.add_bot(table, seat, "random")
        async with asyncio.timeout(30):
            while not wal.exists() or wal.stat().st_size < 160_000:
                await asyncio.sleep(0.02)
        limit = wal.stat().st_size
        assert db.stat().st_size < limit // 2  # the store file has room to take the log in
        server.limit_file_size(limit)
        start = (await alice.snapshot(table)).seq
        async with asyncio.timeout(20):
            while "cannot write the store" not in "".join(server.lines):
                await asyncio.sleep(0.05)
        failed_at = (await alice.snapshot(table)).seq
        try:
            async with asyncio.timeout(60):
                while (await alice.snapshot(table)).seq < failed_at + 3 * max(failed_at - start, 40):
                    await asyncio.sleep(0.1)
        except TimeoutError:
            seq = (await alice.snapshot(table)).seq
            raise AssertionError(
                f"play stalled at {seq} (limit at {start}, a write failed at {failed_at})"
            ) from None
    finally:
        await alice.close()
    assert server.proc.poll() is None
    assert "Traceback" not in "".join(server.lines)


async def test_a_chat_line_the_store_cannot_keep_is_refused_and_nobody_hears_it(
    tmp_path: Path, serve: list[Serve]
) -> None:
    """A chat line said while the store cannot write gets ``store-unavailable``: no ``chat`` push, not in
    the table's history, and after a kill -9 and a restart the history is what was acknowledged."""
    db = tmp_path / "barbu.sqlite3"
    first = Serve(db, "--bot-delay", "0.4", "--log-level", "WARNING")
    serve.append(first)
    ann = await Connection.connect(first.url, timeout=20)
    wes = await Connection.connect(first.url, timeout=20)
    try:
        await ann.login("ann")
        await wes.login("wes")
        table = await ann.create_table("talky")
        await ann.sit(table, "N")
        for seat in "ESW":
            await ann.add_bot(table, seat, "random")  # a match in play: the table is restored after the kill
        await wes.watch(table)
        await ann.chat(table, "before")
        first.limit_file_size(1)
        await _refused(ann.chat(table, "lost"), "store-unavailable")
        assert [line["text"] for line in (await wes.snapshot(table)).chat] == ["before"]
        first.limit_file_size(None)
        await ann.chat(table, "after")
        heard: list[str] = []
        while len(heard) < 2:  # wes hears what was kept, in order, and nothing else
            push = await wes.next_push(20)
            if isinstance(push, ChatPush):
                heard.append(push.text)
        assert heard == ["before", "after"]
    finally:
        await ann.close()
        await wes.close()
    first.kill()
    second = Serve(db, "--log-level", "WARNING")
    serve.append(second)
    watcher = await Connection.connect(second.url, timeout=20)
    try:
        await watcher.login("wes")
        assert [line["text"] for line in (await watcher.watch(table)).chat] == ["before", "after"]
    finally:
        await watcher.close()


# In-process: the server's own SQLite connection refuses writes (``PRAGMA query_only``), as a full disk does.


async def test_chat_lines_the_store_refused_use_up_none_of_the_chat_budget(
    tmp_path: Path, serve: list[Serve]
) -> None:
    """A connection says 10 chat lines in 10 s at most (the server's default); lines refused with
    ``store-unavailable`` were not said: once the store writes again, all 10 may still be said."""
    first = Serve(tmp_path / "barbu.sqlite3", "--log-level", "WARNING")
    serve.append(first)
    ann = await Connection.connect(first.url, timeout=20)
    try:
        await ann.login("ann")
        table = await ann.create_table("talky")
        await ann.sit(table, "N")
        loop = asyncio.get_running_loop()
        started = loop.time()
        first.limit_file_size(1)
        for i in range(10):
            await _refused(ann.chat(table, f"lost {i}"), "store-unavailable")
        first.limit_file_size(None)
        for i in range(10):
            await ann.chat(table, f"said {i}")
        refused = await _refused(ann.chat(table, "one too many"), "slow-down")
        assert "at most 10 in 10 seconds" in refused.message
        # All within the budget's 10 s: the lines refused would still be in it, had they counted.
        assert loop.time() - started < 10, "too slow to tell: the chat window ran out meanwhile"
        assert [line["text"] for line in (await ann.snapshot(table)).chat] == [f"said {i}" for i in range(10)]
    finally:
        await ann.close()


def _writes(server: BarbuServer, allowed: bool) -> None:
    assert server.store is not None
    server.store._db.execute(f"PRAGMA query_only={'OFF' if allowed else 'ON'}")


def _table(server: BarbuServer, room: str) -> BarbuTable:
    assert server.lobby is not None
    table = server.lobby.rooms[room]
    assert isinstance(table, BarbuTable)
    return table


async def test_seats_wait_for_the_store(server: BarbuServer, connect: Connect) -> None:
    conns = [await connect(server, f"p{i}") for i in range(4)]
    room = await conns[0].create_table("seats")
    for conn, seat in zip(conns[:3], "NES", strict=True):
        await conn.sit(room, seat)
    _writes(server, False)
    await _refused(conns[3].sit(room, "W"), "store-unavailable")
    await _refused(conns[0].add_bot(room, "W"), "store-unavailable")
    table = _table(server, room)
    assert table.state == "waiting" and table.seats[3].owner is None
    _writes(server, True)
    await conns[3].sit(room, "W")
    assert server.store is not None and server.store.room(int(room)).status == "playing"


async def test_a_held_seat_is_freed_when_its_grace_ends_though_the_store_cannot_write(
    server: BarbuServer, connect: Connect
) -> None:
    host, friend, late = [await connect(server, name) for name in ("host", "friend", "late")]
    room = await host.create_table("outage", grace=0.5)
    await host.sit(room, "N")
    await friend.sit(room, "E")
    friend.take_pushes()
    _writes(server, False)
    await host.close()
    await until_dropped(server, "host")
    # Freed all the same: a restart would not bring a waiting table's human seats back anyway.
    freed = await next_of(friend, Players, lambda p: p.players["N"] is None)
    assert freed.away == [] and freed.freed_in == {}
    assert server.store is not None and server.store.room(int(room)).players == {"N": "host", "E": "friend"}
    _writes(server, True)
    assert (await late.sit(room, "N")).seat == "N"
    assert server.store.room(int(room)).players == {"N": "late", "E": "friend"}


def _all_but_the_last_action(db: Path) -> tuple[str, dict[str, str], Action]:
    """A store holding a match of four players with every action logged but the last; returns the room, each
    seat's resume token and that last action."""
    store = Store(db)
    names = {seat: f"p-{seat}" for seat in SEATS}
    config = {
        "seed": 5,
        "variants": Variants().to_dict(),
        "first_declarer": "N",
        "turn_time": None,
        "grace": 60,
    }
    room = store.create_room("barbu", "last", config, names, "playing")
    match = Match.new(5, Variants(), 0)
    seq = 0
    with store.transaction():
        while True:
            assert match.to_move is not None
            seat, action = match.to_move, match.legal_actions(match.to_move)[0]
            if match.hand_number == match.hands_total:
                probe = copy.deepcopy(match)
                probe.apply(seat, action)
                if probe.over:
                    break
            match.apply(seat, action)
            seq += 1
            store.append_action(room, seq, seat, action_to_wire(action))
    tokens = {seat: store.issue_token(name) for seat, name in names.items()}
    store.close()
    return str(room), tokens, action


async def test_the_last_action_of_a_match_waits_for_the_store(
    start_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    db = tmp_path / "barbu.sqlite3"
    room, tokens, action = _all_but_the_last_action(db)
    server = await start_server(db=str(db))
    assert server.store is not None
    by_seat = {}
    for seat, token in tokens.items():
        by_seat[seat] = await connect(server)
        await by_seat[seat].resume(token)
    table = _table(server, room)
    assert table.match is not None and table.match.to_move is not None
    seat = SEATS[table.match.to_move]
    before = snapshot_state(await by_seat["N"].snapshot(room))
    _writes(server, False)
    await _refused(by_seat[seat].act(room, seat, action_to_wire(action)), "store-unavailable")
    assert snapshot_state(await by_seat["N"].snapshot(room)) == before
    assert table.state == "playing" and server.store.room(int(room)).status == "playing"
    _writes(server, True)
    await by_seat[seat].act(room, seat, action_to_wire(action))
    row = server.store.room(int(room))
    assert table.state == "over" and row.status == "over" and row.record is not None
    assert len(server.store.actions(int(room))) == table.seq == before["seq"] + 1


def _auto_deal() -> int:
    """A Forty Thieves seed whose first position has at least two safe moves to the foundations."""
    return next(s for s in range(1, 500) if len(new_game("forty-thieves", seed=s).auto_moves()) >= 2)


async def test_auto_and_opening_another_room_are_all_or_nothing(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    assert server.store is not None and server.lobby is not None
    alice = await connect(server, "alice")
    seed = _auto_deal()
    room = (await alice.open_solitaire("forty-thieves", seed=seed)).room
    before = snapshot_state(await alice.snapshot(room))
    _writes(server, False)
    await _refused(alice.auto(room), "store-unavailable")
    await _refused(alice.open_solitaire("forty-thieves", seed=seed + 1), "store-unavailable")
    await _refused(alice.new_deal(room), "store-unavailable")
    assert snapshot_state(await alice.snapshot(room)) == before
    assert server.store.actions(int(room)) == [] and server.store.room(int(room)).status == "playing"
    assert [r.room_id for r in server.lobby.rooms.values()] == [room]
    _writes(server, True)
    await alice.auto(room)
    moved = snapshot_state(await alice.snapshot(room))
    made = moved["view"]["moves"]
    assert made >= 2 and len(server.store.actions(int(room))) == made == moved["seq"]

    # Opening another room resigns this one in the same transaction as the new room's row.
    _writes(server, False)
    await _refused(alice.open_solitaire("forty-thieves", seed=seed + 1), "store-unavailable")
    assert snapshot_state(await alice.snapshot(room)) == moved
    _writes(server, True)
    other = (await alice.open_solitaire("forty-thieves", seed=seed + 1)).room
    row = server.store.room(int(room))
    assert row.status == "over" and row.record is not None and len(row.record["moves"]) == made
    assert server.store.actions(int(room))[-1].action == {"action": "resign"}
    await server.stop()

    again = await start_server()
    assert again.store is not None and again.lobby is not None
    assert list(again.lobby.rooms) == [other]


async def test_accept_errors_are_logged_once_a_second(tmp_path: Path, serve: list[Serve]) -> None:
    server = Serve(tmp_path / "barbu.sqlite3", "--log-level", "WARNING")
    serve.append(server)
    host, port = server.url.removeprefix("ws://").rsplit(":", 1)
    resource.prlimit(server.proc.pid, resource.RLIMIT_NOFILE, (40, 40))  # out of descriptors soon
    writers = []
    loop = asyncio.get_running_loop()
    start = loop.time()
    while loop.time() - start < 2.0:
        with contextlib.suppress(OSError):
            writers.append((await asyncio.open_connection(host, int(port)))[1])
        await asyncio.sleep(0.005)
    for writer in writers:
        writer.close()
    await asyncio.sleep(0.5)
    assert server.proc.poll() is None
    server.kill()
    elapsed = loop.time() - start  # a connect waiting on a full backlog may have taken seconds
    lines = [line for line in server.lines if "out of system resource" in line]
    assert 1 <= len(lines) <= elapsed + 2, "".join(server.lines[-20:])
    assert any(" more since the last line" in line and "(0 more" not in line for line in lines)


async def test_barbu_bot_waits_for_the_store_instead_of_giving_up(server: BarbuServer) -> None:
    """``barbu bot``'s bots retry ``store-unavailable`` (logins, the table, seats, actions, resumes) with growing
    pauses, as the server's own bots do, and play the match to the end once the store writes again."""
    _writes(server, False)  # the logins are refused first
    bots = asyncio.get_running_loop().create_task(run_bots(server.url, "patient", 4, "heuristic", None))
    await asyncio.sleep(1.0)
    assert not bots.done()
    _writes(server, True)
    assert server.lobby is not None
    lobby = server.lobby
    for _ in range(200):  # the match under way: stop the writes between two actions
        tables = [r for r in lobby.rooms.values() if isinstance(r, BarbuTable) and r.state == "playing"]
        if tables:
            break
        await asyncio.sleep(0.05)
    assert tables and not bots.done()
    _writes(server, False)
    await asyncio.sleep(1.0)
    assert not bots.done()
    _writes(server, True)
    result = await asyncio.wait_for(bots, 120)
    assert set(result.totals) == set(SEATS)


async def test_a_bot_comes_back_through_a_store_outage(server: BarbuServer, connect: Connect) -> None:
    """``come_back``'s ``resume`` refused with ``store-unavailable`` (the new token cannot be saved) is retried."""
    first = await connect(server, "patient")
    token = first.token
    assert token is not None
    await first.close()
    _writes(server, False)
    back = asyncio.get_running_loop().create_task(come_back(server.url, token, delays=(0.1, 0.2, 0.4)))
    await asyncio.sleep(1.0)
    assert not back.done()
    _writes(server, True)
    conn = await asyncio.wait_for(back, 30)
    assert conn.name == "patient"
    await conn.close()


async def test_a_bot_stays_in_its_seat_when_its_removal_cannot_be_stored(
    tmp_path: Path, serve: list[Serve]
) -> None:
    server = Serve(tmp_path / "barbu.sqlite3")
    serve.append(server)
    host = await Connection.connect(server.url, timeout=20)
    try:
        await host.login("host")
        table = await host.create_table("bots")
        await host.add_bot(table, "E", "random")
        server.limit_file_size(1)
        await _refused(host.remove_bot(table, "E"), "store-unavailable")
        [listed] = await host.list_rooms()
        assert listed["players"]["E"] == "bot:random"
        server.limit_file_size(None)
        await host.remove_bot(table, "E")
        [listed] = await host.list_rooms()
        assert listed["players"]["E"] is None
    finally:
        await host.close()


async def test_a_removal_or_a_seat_that_cannot_be_stored_changes_nothing_and_holds_no_place(
    tmp_path: Path, serve: list[Serve]
) -> None:
    server = Serve(tmp_path / "barbu.sqlite3", "--max-waiting-seats", "1")
    serve.append(server)
    host, guest, other = [await Connection.connect(server.url, timeout=20) for _ in range(3)]
    try:
        await host.login("host")
        await guest.login("guest")
        await other.login("other")
        first = await host.create_table("first")
        second = await host.create_table("second")
        await guest.sit(first, "E")
        server.limit_file_size(1)
        await _refused(host.remove_player(first, "E"), "store-unavailable")
        await _refused(other.sit(first, "S"), "store-unavailable")
        listed = {room["room"]: room for room in await host.list_rooms()}
        assert listed[first]["players"] == {"N": None, "E": "guest", "S": None, "W": None}
        server.limit_file_size(None)
        await other.sit(second, "S")  # the refused seat held none of the player's one place
        await host.remove_player(first, "E")
        listed = {room["room"]: room for room in await host.list_rooms()}
        assert listed[first]["players"]["E"] is None
    finally:
        for conn in (host, guest, other):
            await conn.close()
