"""Places one person cannot take all of: spectators of a room come a few at most from one IP address, a
player sits at a few waiting tables at most (and an address at a few more), the host removes a player who
holds a seat and never lets the match start, a connected player who never acts hands the seat to a stand-in,
and the per-address caps of rooms hold after a restart. Real servers on loopback addresses (127.0.0.1,
127.0.0.2, ... are different addresses to the server), real WebSockets, real SQLite."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import Awaitable
from typing import Any

import pytest

from client import Connection, ServerError
from protocol import Players, Removed, Snapshot
from server import BarbuServer
from server.barbu_table import SPECTATOR_PUSH_DELAY, BarbuTable
from tests.conftest import (
    Connect,
    ConnectFrom,
    StartServer,
    finished_table,
    four_at_table,
    server_table,
    until,
    until_dropped,
)
from tests.test_server_table_news import next_of


def _to_move(table: BarbuTable) -> str:
    """The seat (``"N"`` .. ``"W"``) to move in ``table``'s match, which is in play."""
    match = table.match
    assert match is not None and match.to_move is not None
    return "NESW"[match.to_move]


async def _refused(call: Awaitable[Any], code: str) -> ServerError:
    with pytest.raises(ServerError) as info:
        await call
    assert info.value.code == code, info.value
    return info.value


async def test_one_address_takes_its_share_of_a_rooms_spectator_places(
    start_server: StartServer, connect: Connect, connect_from: ConnectFrom
) -> None:
    server = await start_server(max_spectators=5, max_spectators_per_address=2)
    host = await connect(server, "host")
    room = await host.create_table("popular")
    await host.sit(room, "N")
    fans = [await connect(server, f"throwaway{i}") for i in range(3)]
    await fans[0].watch(room)
    await fans[1].watch(room)
    await fans[1].watch(room)  # one connection watching again takes no second place
    refused = await _refused(fans[2].watch(room), "too-many-spectators")
    assert refused.field == "room" and "your address" in refused.message
    # Other addresses still find places, up to the room's own cap.
    others = [await connect_from(server, f"127.0.0.{i}", f"fan{i}") for i in (2, 3, 4)]
    for other in others:
        await other.watch(room)
    late = await connect_from(server, "127.0.0.5", "late")
    refused = await _refused(late.watch(room), "too-many-spectators")
    assert "5 spectators" in refused.message
    # A place freed by one of the address's spectators is the address's again.
    await fans[0].leave(room)
    await fans[2].watch(room)
    [summary] = await host.list_rooms()
    assert summary["spectators"] == 5


async def test_a_player_of_the_table_always_watches_and_comes_back_however_full(
    start_server: StartServer, connect: Connect, connect_from: ConnectFrom
) -> None:
    server = await start_server(max_spectators=1, max_spectators_per_address=1)
    room, by_seat = await four_at_table(server, connect, "full")
    watcher = await connect_from(server, "127.0.0.2", "watcher")
    await watcher.watch(room)
    await _refused((await connect_from(server, "127.0.0.3", "other")).watch(room), "too-many-spectators")
    south = by_seat["S"]
    await south.leave(room)  # a stand-in plays the seat; the player is no longer at the table
    snap = await south.watch(room)  # the table is full of spectators, but this is their table
    assert snap.seat is None
    back = await south.sit(room)
    assert back.seat == "S" and back.state == "playing"


async def test_sit_at_a_second_seat_says_you_already_sit_here(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    room = await alice.create_table("one seat each")
    await alice.sit(room, "N")
    refused = await _refused(alice.sit(room, "E"), "already-seated")
    assert refused.field == "seat" and "you already sit at N here" in refused.message
    assert (await alice.sit(room, "N")).seat == "N"  # the seat held is given back, as before
    assert (await alice.sit(room)).seat == "N"


async def test_a_player_and_an_address_sit_at_a_few_waiting_tables_at_most(
    start_server: StartServer, connect: Connect, connect_from: ConnectFrom
) -> None:
    server = await start_server(
        max_waiting_seats=2, max_waiting_seats_per_address=3, max_waiting_tables=9, max_tables_per_player=9
    )
    lobby = server.lobby
    assert lobby is not None
    host = await connect_from(server, "127.0.0.2", "host")
    rooms = [await host.create_table(f"t{i}") for i in range(6)]
    griefer = await connect(server, "griefer")
    await griefer.sit(rooms[0])
    held = (await griefer.sit(rooms[1])).seat
    refused = await _refused(griefer.sit(rooms[2]), "too-many-seats")
    assert refused.field == "room" and "2 tables waiting" in refused.message
    # Coming back to a seat held is not a new seat.
    assert (await griefer.sit(rooms[0])).seat is not None
    # Another name from the same address: the address's cap (3 seats together).
    second = await connect(server, "griefer2")
    await second.sit(rooms[2])
    refused = await _refused(second.sit(rooms[3]), "too-many-seats")
    assert "your address" in refused.message
    # A seat left, or a table that starts, counts no more.
    await griefer.leave(rooms[0])
    await second.sit(rooms[3])
    for seat in "NESW".replace(held or "", ""):  # the host fills table t1 with bots: its match starts
        await host.add_bot(rooms[1], seat, "random")
    await until(lambda: lobby.rooms[rooms[1]].summary()["state"] == "playing", "the start")
    await second.leave(rooms[3])
    await griefer.sit(rooms[4])
    await griefer.sit(rooms[5])  # two places again: the started table holds none
    # Another address is not held back by this one's seats.
    stranger = await connect_from(server, "127.0.0.3", "stranger")
    for room in rooms[4:]:
        await stranger.sit(room)


async def test_coming_back_from_another_address_never_puts_it_over_its_waiting_seat_cap(
    start_server: StartServer, connect_from: ConnectFrom
) -> None:
    """Four players sit at three waiting tables each from four addresses, drop, and ``resume`` from one:
    that address takes back as many seats as its cap allows (in the order its players come back), the rest
    are freed, their players told (``removed``, reason ``too-many-seats``) and the tables too."""
    server = await start_server(
        max_waiting_seats=3, max_waiting_seats_per_address=4, max_waiting_tables=12, max_tables_per_player=12
    )
    lobby = server.lobby
    assert lobby is not None
    host = await connect_from(server, "127.0.0.9", "host")
    rooms = [await host.create_table(f"t{i}") for i in range(12)]
    tokens: list[str] = []
    for i in range(4):
        player = await connect_from(server, f"127.0.0.{2 + i}", f"p{i}")
        for room in rooms[3 * i : 3 * i + 3]:
            await player.sit(room)
        assert player.token is not None
        tokens.append(player.token)
        await player.close()
        await until_dropped(server, f"p{i}")
    assert +lobby.waiting_seats._addresses == Counter({f"127.0.0.{2 + i}": 3 for i in range(4)})

    back = [await connect_from(server, "127.0.0.1", f"p{i}", token) for i, token in enumerate(tokens)]
    assert +lobby.waiting_seats._addresses == Counter({"127.0.0.1": 4})
    assert [lobby.waiting_seats.seats_of(f"p{i}") for i in range(4)] == [3, 1, 0, 0]
    freed: list[list[str]] = []
    for conn in back:
        await conn.list_rooms()  # a round trip: every push of the resume has arrived
        pushes = conn.take_pushes()
        freed.append([p.room for p in pushes if isinstance(p, Removed) and p.reason == "too-many-seats"])
        kept = {p.room for p in pushes if isinstance(p, Snapshot) and p.seat is not None}
        assert kept.isdisjoint(freed[-1])
    assert [len(rooms_freed) for rooms_freed in freed] == [0, 2, 3, 3]
    listed = {summary["room"]: summary for summary in await host.list_rooms()}
    for rooms_freed in freed:
        for room in rooms_freed:  # freed, not held for the address the seat was played from
            assert set(listed[room]["players"].values()) == {None} and listed[room]["away"] == []
    # The seats came back to this address's count; any one left makes room for one more.
    await _refused(back[2].sit(freed[2][0]), "too-many-seats")
    await back[0].leave(rooms[0])
    assert (await back[2].sit(freed[2][0])).seat is not None


async def test_a_seat_kept_by_a_rematch_counts_once_taken(
    start_server: StartServer, connect: Connect
) -> None:
    """A seat a ``rematch`` keeps for a player holds nobody's place until they take it; taking it is a
    seat at a waiting table like any other (``too-many-seats`` beyond the caps; the seat stays kept)."""
    server = await start_server(max_waiting_seats=1)
    host = await connect(server, "host")
    room = await finished_table(server, host, "once")
    new = await host.rematch(room)
    other = await host.create_table("other")
    await host.sit(other)
    refused = await _refused(host.sit(new), "too-many-seats")
    assert "1 tables waiting" in refused.message
    await host.leave(other)
    assert (await host.sit(new)).seat == "S"


async def test_the_host_removes_a_player_who_never_lets_the_match_start(
    server: BarbuServer, connect: Connect
) -> None:
    host, griefer, friend = [await connect(server, name) for name in ("host", "griefer", "friend")]
    room = await host.create_table("friday")
    await host.sit(room, "N")
    await griefer.sit(room, "E")
    await friend.sit(room, "S")
    await _refused(friend.remove_player(room, "E"), "not-host")
    await _refused(host.remove_player(room, "N"), "bad-message")  # your own seat: leave it
    await _refused(host.remove_player(room, "W"), "bad-message")  # nobody there
    friend.take_pushes()
    await host.remove_player(room, "E")
    told = await next_of(griefer, Removed)
    assert (told.room, told.seat, told.reason, told.by) == (room, "E", "host", "host")
    seats = await next_of(friend, Players, lambda p: p.players["E"] is None)
    assert seats.players == {"N": "host", "E": None, "S": "friend", "W": None}
    refused = await _refused(griefer.sit(room), "removed")
    assert refused.field == "room"
    assert (await griefer.watch(room)).seat is None  # watching is still allowed
    # The seat is free for someone else; the match starts as usual, and nobody is removed from it then.
    late = await connect(server, "late")
    await late.sit(room, "E")
    await host.add_bot(room, "W", "random")
    await until(
        lambda: server.lobby is not None and server.lobby.rooms[room].summary()["state"] == "playing", "start"
    )
    await _refused(host.remove_player(room, "E"), "seat-taken")


async def test_a_player_who_never_acts_hands_the_seat_to_a_stand_in(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(idle_turn=0.5)
    room, by_seat = await four_at_table(server, connect, "no timer")
    table = server_table(server, room)
    first = _to_move(table)
    idle = by_seat[first]
    told = await next_of(idle, Removed)
    assert (told.room, told.seat, told.reason, told.by) == (room, first, "idle", None)
    other = by_seat[next(seat for seat in "NESW" if seat != first)]
    await next_of(other, Players, lambda p: first in p.standins)
    await until(lambda: table.seq > 0, "the stand-in to play")
    back = await idle.sit(room)
    assert back.seat == first
    assert not table.seats["NESW".index(first)].standin


async def test_per_address_caps_of_rooms_hold_after_a_restart(
    start_server: StartServer, connect: Connect, connect_from: ConnectFrom
) -> None:
    limits = {"max_tables_per_address": 2, "max_solitaire_rooms_per_address": 2}
    server = await start_server(**limits)
    for i in range(2):
        conn = await connect(server, f"table{i}")
        await conn.create_table(f"t{i}")
        conn = await connect(server, f"sol{i}")
        await conn.open_solitaire("forty-thieves", seed=i)
    await server.stop()

    again = await start_server(**limits)
    assert again.lobby is not None and again.store is not None
    assert len(again.lobby.rooms) == 4
    for room in again.lobby.rooms.values():  # the store keeps a keyed hash of the address, not the address
        origin = again.store.room(room.store_id).config["origin"]
        assert isinstance(origin, str) and len(origin) == 32 and "127.0.0.1" not in origin
    late = await connect(again, "late")
    refused = await _refused(late.create_table("t2"), "too-many-tables")
    assert "this address" in refused.message
    refused = await _refused(late.open_solitaire("pyramid", seed=7), "too-many-rooms")
    assert "this address" in refused.message
    elsewhere = await connect_from(again, "127.0.0.2", "elsewhere")
    await elsewhere.create_table("t3")
    await elsewhere.open_solitaire("pyramid", seed=8)


async def test_the_running_counts_of_waiting_seats_match_the_tables_after_any_mix_of_changes(
    start_server: StartServer, connect: Connect, connect_from: ConnectFrom
) -> None:
    server = await start_server(max_waiting_seats=2, max_waiting_seats_per_address=5, max_waiting_tables=6)
    lobby = server.lobby
    assert lobby is not None
    host = await connect_from(server, "127.0.0.9", "host")
    rooms = [await host.create_table(f"t{i}") for i in range(5)]
    players: dict[str, Connection] = {}
    #: The resume tokens of the players who dropped: a seat is held for them, waiting table or not.
    tokens: dict[str, str] = {}
    rng = random.Random(8)
    for step in range(100):
        name = f"p{rng.randrange(6)}"
        if name not in players:
            address = f"127.0.0.{1 + int(name[1:]) % 2}"
            players[name] = await connect_from(server, address, name, tokens.pop(name, None))
        conn, room = players[name], rooms[step // 40] if step in (39, 79) else rng.choice(rooms)
        move = "bots" if step in (39, 79) else rng.choice(("sit",) * 4 + ("leave", "drop", "remove"))
        with contextlib.suppress(ServerError):
            if move == "sit":
                await conn.sit(room)
            elif move == "leave":
                await conn.leave(room)
            elif move == "remove":
                owners = (await host.snapshot(room)).players
                seat = next((s for s, owner in owners.items() if owner == name), None)
                if seat is not None:
                    await host.remove_player(room, seat)
            elif move == "bots":  # now and then a table fills with bots and starts
                owners = (await host.snapshot(room)).players
                for seat in [s for s, owner in owners.items() if owner is None]:
                    await host.add_bot(room, seat, "random")
            elif move == "drop":
                assert conn.token is not None
                tokens[name] = conn.token
                await conn.close()
                await until_dropped(server, name)
                del players[name]
    expected_players: Counter[str] = Counter()
    expected_addresses: Counter[str] = Counter()
    for table in lobby.rooms.values():
        if isinstance(table, BarbuTable) and table.state == "waiting":
            for held in table.seats:
                # A dropped player's seat held for the grace still counts, for the address it was played from.
                if held.owner is not None and (held.peer is not None or held.held):
                    assert held.address is not None
                    expected_players[held.owner] += 1
                    expected_addresses[held.address] += 1
    counts = lobby.waiting_seats
    assert +counts._players == expected_players and +counts._addresses == expected_addresses
    assert all(n <= 2 for n in expected_players.values()) and expected_players
    assert sum(isinstance(t, BarbuTable) and t.state == "playing" for t in lobby.rooms.values()) >= 2


async def test_coming_back_again_and_again_does_not_put_off_the_idle_stand_in(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(idle_turn=1.0)
    room, by_seat = await four_at_table(server, connect, "stalling")
    table = server_table(server, room)
    first = _to_move(table)
    staller = by_seat[first]
    loop = asyncio.get_running_loop()
    started = loop.time()
    while not any(isinstance(push, Removed) for push in staller.take_pushes()):
        assert loop.time() - started < 5, "the stalling seat was never handed to a stand-in"
        with contextlib.suppress(ServerError):
            await staller.sit(room)  # "I am here", without playing
        await asyncio.sleep(0.2)
    assert loop.time() - started < 2.5


async def test_spectators_coming_and_going_in_a_burst_cost_the_seated_player_few_pushes(
    start_server: StartServer, connect: Connect, connect_from: ConnectFrom
) -> None:
    """Watchers who come and go as fast as their request budgets let them (each change costs 10 tokens) are
    told to the table's players in one ``players`` push per ``SPECTATOR_PUSH_DELAY`` at most, not one each:
    a player on a slow link is not flooded out of the room. The last push still names who watches."""
    server = await start_server()
    host = await connect(server, "host")
    room = await host.create_table("watched")
    await host.sit(room, "N")
    host.take_pushes()
    fans = [await connect_from(server, f"127.0.0.{i}", f"fan{i}") for i in range(2, 6)]
    loop = asyncio.get_running_loop()
    began = loop.time()
    for _ in range(10):
        for fan in fans:
            await fan.watch(room)
            await fan.leave(room)
    await fans[0].watch(room)
    told = 0
    while True:
        push = await next_of(host, Players)
        told += 1
        if push.spectators == ["fan2"]:
            break
    took = loop.time() - began
    # 81 changes; a push at most every SPECTATOR_PUSH_DELAY (the bound grows with the time the burst took,
    # so a slow machine does not fail it), and the last one tells the last change.
    assert told <= took / SPECTATOR_PUSH_DELAY + 2, (told, took)
    assert (await host.list_rooms())[0]["spectators"] == 1
