"""A Barbu match none of whose players is connected waits for them (``docs/protocol.md``, "A table nobody is
at"): no bot, stand-in or turn timer moves while it is paused, everyone still there (its watchers) and the
lobby are told, and the first player back finds it where it was, the turn clock included; a table of bots
alone plays on. Real server, real WebSockets, real SQLite."""

from __future__ import annotations

import asyncio

from client import Connection
from protocol import Players, Snapshot
from server import BarbuServer
from server.barbu_table import RESUME_TURN_MIN, BarbuTable
from tests.conftest import (
    Connect,
    StartServer,
    drop,
    playing_with_bots,
    room_summary,
    server_table,
    until,
)
from tests.test_server_table_news import next_of

#: How long a paused table is watched for a move that must not come (seconds): bots here move at once.
STILL = 2.5


async def _play_until(table: BarbuTable, room: str, conns: dict[str, Connection], seat: str) -> None:
    """The humans of ``conns`` (by seat) play their first legal action until ``seat`` is to move."""
    while True:
        match = table.match
        assert match is not None and not match.over
        to_move = "NESW"[match.to_move] if match.to_move is not None else None
        if to_move == seat:
            return
        if to_move in conns:
            view = (await conns[to_move].snapshot(room)).view
            if view is not None and view["to_move"] == to_move and view["legal"]:
                await conns[to_move].act(room, to_move, view["legal"][0])
                continue
        await asyncio.sleep(0.02)


async def _plays_on(table: BarbuTable, seq: int) -> None:
    """The table goes on from action ``seq``: a bot moves, or it is N's (the player's own) turn."""

    def on() -> bool:
        match = table.match
        return table.seq > seq or (match is not None and match.to_move == 0)

    await until(on, "the table to play on")


async def test_a_table_nobody_is_at_pauses_and_resumes_where_it_was(
    server: BarbuServer, connect: Connect
) -> None:
    ann, bob = await connect(server, "ann"), await connect(server, "bob")
    room = await ann.create_table("lights out", turn_time=30)
    await ann.sit(room, "N")
    await bob.sit(room, "S")
    await ann.add_bot(room, "E", "heuristic")
    await ann.add_bot(room, "W", "heuristic")
    table = server_table(server, room)
    await until(lambda: table.state == "playing", "the start")
    watcher = await connect(server, "watcher")
    await watcher.watch(room)
    await _play_until(table, room, {"N": ann, "S": bob}, "N")

    # One player gone: the others play on (a stand-in for bob after the grace). Both gone: it waits.
    await drop(server, bob)
    assert not table.paused
    watcher.take_pushes()
    left_before = table.turn_left_ms()
    assert left_before is not None
    token = await drop(server, ann)
    paused = await next_of(watcher, Players, lambda push: push.paused)
    assert paused.away == ["N", "S"] and paused.state == "playing"
    seq = table.seq
    await asyncio.sleep(STILL)
    assert table.seq == seq, "a move was played at a table nobody is at"
    snap = await watcher.snapshot(room)
    assert snap.paused and snap.turn_left_ms is None and snap.seq == seq  # no clock runs meanwhile
    assert room_summary(await watcher.list_rooms(), room)["paused"] is True

    # ann is back: the same position, her turn with the time she had left, and play goes on.
    ann = await connect(server)
    await ann.resume(token)
    back = await next_of(ann, Snapshot)
    assert back.seat == "N" and back.seq == seq and not back.paused
    assert back.turn_left_ms is not None and left_before - 1000 < back.turn_left_ms <= left_before
    await next_of(watcher, Players, lambda push: not push.paused)
    assert room_summary(await watcher.list_rooms(), room)["paused"] is False
    assert back.view is not None
    await ann.act(room, "N", back.view["legal"][0])
    await until(lambda: table.seq >= seq + 2, "the bot after ann to play")


async def test_a_player_who_left_keeps_the_table_going_until_they_disconnect(
    start_server: StartServer, connect: Connect
) -> None:
    """``leave`` hands the seat to a stand-in, which plays while its player is still connected (in the
    lobby); once their connection goes too, the table waits; a ``resume`` brings the player back, so it
    goes on, the stand-in still playing the seat they left (a reload at another table sends a resume:
    it must not take this seat back, unseen), until ``sit`` takes it back."""
    server = await start_server(bot_delay=0.05)  # the match must not be over before the player goes
    ann = await connect(server, "ann")
    room, table = await playing_with_bots(server, ann, "stepped out")
    watcher = await connect(server, "watcher")
    await watcher.watch(room)
    await ann.leave(room)
    seq = table.seq
    await until(lambda: table.seq > seq + 4, "the stand-in and the bots to play")
    assert not table.paused
    token = await drop(server, ann)
    await next_of(watcher, Players, lambda push: push.paused)
    seq = table.seq
    await asyncio.sleep(STILL)
    assert table.seq == seq and table.paused

    ann = await connect(server)
    assert (await ann.resume(token)).rooms == []
    await until(lambda: not table.paused, "the table to go on: its player is connected again")
    await until(lambda: table.seq > seq + 4, "the stand-in and the bots to play on")
    assert table.seats[0].standin and table.seats[0].peer is None
    back = await ann.sit(room)
    assert back.seat == "N" and not table.seats[0].standin
    await _plays_on(table, table.seq)


async def test_a_table_of_bots_alone_plays_on_with_nobody_at_it(
    server: BarbuServer, connect: Connect
) -> None:
    host = await connect(server, "host")
    room = await host.create_table("robots")
    for seat in "NESW":
        await host.add_bot(room, seat, "heuristic")
    table = server_table(server, room)
    await until(lambda: table.state == "playing", "the start")
    await drop(server, host)
    seq = table.seq
    await until(lambda: table.seq > seq + 20, "the bots to play on")
    assert not table.paused and not table.summary()["paused"]


async def test_a_restored_table_waits_for_its_players(start_server: StartServer, connect: Connect) -> None:
    """After a restart nobody is connected yet: the match waits (its bots do not play the dropped seats out
    once the grace runs out) until a player comes back."""
    first = await start_server()
    ann = await connect(first, "ann")
    room, _ = await playing_with_bots(first, ann, "overnight", grace=0.2)
    token = ann.token
    assert token is not None
    await ann.close()
    await first.stop()

    second = await start_server()
    table = server_table(second, room)
    seq = table.seq
    assert table.paused and table.summary()["paused"]
    await asyncio.sleep(STILL)  # the grace (0.2 s) runs out meanwhile: a stand-in holds the seat, idle
    assert table.seq == seq
    ann = await connect(second)
    await ann.resume(token)
    back = await next_of(ann, Snapshot)
    assert back.seat == "N" and back.seq == seq and not back.paused
    await _plays_on(table, seq)


async def test_a_player_back_at_a_paused_table_has_a_usable_turn(
    server: BarbuServer, connect: Connect
) -> None:
    """Paused with less than ``RESUME_TURN_MIN`` seconds left, the seat to move gets that much on resuming
    (never more than the table's ``turn_time``): with the 3 s it kept, the timer played before the player
    coming back had seen the table."""
    ann = await connect(server, "ann")
    room, table = await playing_with_bots(server, ann, "short fuse", turn_time=16)
    await _play_until(table, room, {"N": ann}, "N")
    await until(lambda: (table.turn_left_ms() or 16_000) < 14_000, "less than 14 s left", timeout=20)
    token = await drop(server, ann)
    assert table.paused
    ann = await connect(server)
    await ann.resume(token)
    back = await next_of(ann, Snapshot)
    assert back.turn_left_ms is not None and RESUME_TURN_MIN * 1000 - 1000 < back.turn_left_ms <= 16_000
