"""A dropped player's seat at a table waiting for players (``docs/protocol.md``, "A dropped seat before the
start"): held for the table's grace and shown away with a countdown (``players.freed_in``), taken back by a
``resume`` within it, freed after it (everyone hears, the lobby lists it empty, the store keeps it so), and
still counted against the waiting-seat caps while held. Real server, real WebSockets, real SQLite."""

from __future__ import annotations

from client import Connection
from protocol import Players, Snapshot
from server import BarbuServer
from tests.conftest import Connect, StartServer, drop, room_summary
from tests.test_seats_and_watchers import _refused
from tests.test_server_table_news import next_of


async def _back(server: BarbuServer, connect: Connect, token: str) -> Connection:
    """A new connection resuming with ``token``."""
    conn = await connect(server)
    await conn.resume(token)
    return conn


async def test_the_hosts_seat_is_held_while_they_send_the_link_and_given_back(
    server: BarbuServer, connect: Connect
) -> None:
    host, friend = await connect(server, "host"), await connect(server, "friend")
    room = await host.create_table("friday")
    await host.sit(room, "N")
    for seat in "EW":
        await host.add_bot(room, seat, "random")
    token = await drop(server, host)

    # A friend arriving from the link finds the host's seat taken, shown away with its countdown.
    summary = room_summary(await friend.list_rooms(), room)
    assert summary["players"]["N"] == "host" and summary["away"] == ["N"]
    assert (await friend.watch(room)).players["N"] == "host"
    await _refused(friend.sit(room, "N"), "seat-taken")
    friend.take_pushes()
    assert (await friend.sit(room)).seat == "S"
    seats = await next_of(friend, Players, lambda p: p.players["S"] == "friend")
    assert seats.state == "waiting" and seats.away == ["N"] and seats.standin_in == {}
    assert set(seats.freed_in) == {"N"} and 0 < seats.freed_in["N"] <= 60
    # Every seat is owned, but the match waits for its host.
    assert room_summary(await friend.list_rooms(), room)["state"] == "waiting"

    host = await _back(server, connect, token)
    back = await next_of(host, Snapshot)
    assert back.room == room and back.seat == "N"
    await next_of(host, Snapshot, lambda snap: snap.state == "playing")  # the host was all it waited for


async def test_a_held_seat_is_freed_when_the_grace_runs_out_and_everyone_hears(
    server: BarbuServer, connect: Connect
) -> None:
    host, friend = await connect(server, "host"), await connect(server, "friend")
    room = await host.create_table("short grace", grace=0.5)
    await host.sit(room, "N")
    await friend.sit(room, "E")
    friend.take_pushes()
    token = await drop(server, host)
    held = await next_of(friend, Players, lambda p: p.away == ["N"])
    assert held.players["N"] == "host" and 0 < held.freed_in["N"] <= 0.5
    freed = await next_of(friend, Players, lambda p: p.players["N"] is None)
    assert freed.away == [] and freed.freed_in == {} and freed.players["E"] == "friend"
    assert room_summary(await friend.list_rooms(), room)["players"]["N"] is None
    assert server.store is not None and server.store.room(int(room)).players == {"E": "friend"}
    assert server.lobby is not None and server.lobby.waiting_seats.seats_of("host") == 0

    # Back too late: the seat is anyone's, the host's among them.
    host = await _back(server, connect, token)
    assert (await host.sit(room, "N")).seat == "N"


async def test_a_held_seat_still_counts_against_the_waiting_seat_caps(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(
        max_waiting_seats=2, max_waiting_seats_per_address=3, max_waiting_tables=9, max_tables_per_player=9
    )
    lobby = server.lobby
    assert lobby is not None
    host = await connect(server, "host")
    rooms = [await host.create_table(f"t{i}") for i in range(4)]
    griefer = await connect(server, "griefer")
    for room in rooms[:2]:
        await griefer.sit(room)
    token = await drop(server, griefer)
    assert lobby.waiting_seats.seats_of("griefer") == 2
    # The seats held still count for the address they were played from (all clients here are 127.0.0.1).
    second = await connect(server, "griefer2")
    await second.sit(rooms[2])
    refused = await _refused(second.sit(rooms[3]), "too-many-seats")
    assert "your address" in refused.message
    await second.leave(rooms[2])
    # Dropping and coming back made no room for a third table; the seats held are given back.
    griefer = await _back(server, connect, token)
    refused = await _refused(griefer.sit(rooms[2]), "too-many-seats")
    assert "2 tables waiting" in refused.message
    for room in rooms[:2]:
        assert (await griefer.sit(room)).seat is not None
    assert lobby.waiting_seats.seats_of("griefer") == 2
