"""One connection must not starve the others: the request budget, the bound on unsent bytes, a closed
connection's pipelined requests, the cached lobby listing, and the last wrong password's reply."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import time
from typing import Any

import msgpack
import pytest
import websockets

import server.lobby as lobby_module
import server.peer as peer_module
from client import ServerError
from protocol import Rooms, encode_frame, prepacked
from server import BarbuServer
from tests.conftest import Connect, StartServer, four_at_table, until
from tests.raw_clients import (
    MANY_TABLES,
    PING,
    UNLIMITED_PINGS,
    count_requests,
    dropped_within,
    frame,
    logged_in_raw,
    pings_until_dropped,
    raw_upgraded,
    rss,
    tables,
    unsent_from,
)


async def test_requests_beyond_the_budget_get_slow_down_and_the_connection_carries_on(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(request_rate=20, request_burst=10)
    ws = await logged_in_raw(server, "flooder")
    for i in range(60):
        await ws.send(frame({"type": "list-rooms", "id": 100 + i}))
    replies = [msgpack.unpackb(await ws.recv()) for _ in range(60)]
    assert [r["id"] for r in replies] == list(range(100, 160)), "every request answered, in order"
    refused = [r for r in replies if r["type"] == "error"]
    assert refused and all(r["code"] == "slow-down" and 0 < r["retry_after"] <= 0.1 for r in refused)
    assert sum(r["type"] == "rooms" for r in replies) >= 8  # the burst, less hello and login
    await asyncio.sleep(0.2)  # the budget refills: the connection carries on
    await ws.send(frame({"type": "list-rooms", "id": 500}))
    assert msgpack.unpackb(await ws.recv())["type"] == "rooms"
    other = await connect(server, "other")  # another connection has its own budget
    assert await other.list_rooms() == []
    await ws.close()


async def test_the_client_library_waits_out_slow_down(start_server: StartServer, connect: Connect) -> None:
    server = await start_server(request_rate=50, request_burst=2)
    conn = await connect(server, "patient")
    replies = await asyncio.gather(*(conn.list_rooms() for _ in range(12)))
    assert replies == [[]] * 12


async def test_a_client_that_never_reads_is_dropped_once_its_unsent_bytes_pass_the_bound(
    start_server: StartServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await start_server(
        max_queued_bytes=256 * 1024,
        max_backlog=1_000_000,
        request_rate=1e6,
        request_burst=1e6,
        **MANY_TABLES,
    )
    await tables(server, connect, 40)
    counts = count_requests(server, monkeypatch)
    ws = await logged_in_raw(server, "sink")
    flood = asyncio.create_task(_pipeline(ws, 3000))
    lobby = server.lobby
    assert lobby is not None
    await until(lambda: "sink" not in lobby.online, "the server to drop the client that never reads")
    flood.cancel()
    assert counts.get("sink", 0) < 3000, "its remaining requests were dropped, not carried out"
    other = await connect(server, "other")  # the server carries on
    assert len(await other.list_rooms()) == 40


async def _pipeline(ws: websockets.ClientConnection, count: int) -> None:
    """Send ``count`` ``list-rooms`` requests back to back and never read a reply."""
    with contextlib.suppress(websockets.ConnectionClosed):
        for i in range(count):
            await ws.send(frame({"type": "list-rooms", "id": 10 + i}))


async def test_a_closed_connections_pipelined_requests_are_not_carried_out(
    start_server: StartServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await start_server(max_backlog=4, request_rate=1e6, request_burst=1e6, **MANY_TABLES)
    await tables(server, connect, 40)
    counts = count_requests(server, monkeypatch)
    ws = await logged_in_raw(server, "sink")
    flood = asyncio.create_task(_pipeline(ws, 2000))
    lobby = server.lobby
    assert lobby is not None
    await until(lambda: "sink" not in lobby.online, "the server to drop the client that never reads")
    await asyncio.sleep(0.5)
    flood.cancel()
    assert counts.get("sink", 0) < 1000, counts


async def test_the_lobby_listing_is_built_once_until_a_room_changes(
    start_server: StartServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    server = await start_server(**MANY_TABLES)
    await tables(server, connect, 5)
    lobby = server.lobby
    assert lobby is not None
    built = 0
    current = lobby._current_listing

    def counted() -> Any:
        nonlocal built
        before = lobby._listing
        listing = current()
        built += listing is not before
        return listing

    monkeypatch.setattr(lobby, "_current_listing", counted)
    reader = await connect(server, "reader")
    for _ in range(20):
        assert len(await reader.list_rooms()) == 5
    assert built == 1
    room = (await reader.list_rooms())[-1]["room"]  # the oldest table
    await reader.sit(room)  # a change: the next listing shows it, reader's own table first
    rooms = await reader.list_rooms()
    assert rooms[0]["room"] == room and "reader" in rooms[0]["players"].values()
    assert built == 2
    other = await connect(server, "other")
    assert [r["room"] for r in await other.list_rooms()] == sorted((r["room"] for r in rooms), reverse=True)
    assert (await other.list_rooms())[-1]["room"] == room


async def test_the_fifth_wrong_password_is_answered_before_the_close(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(password="sesame", max_wrong_passwords=100)
    guesser = await connect(server)
    for guess in ("a", "b", "c", "d", "e"):
        with pytest.raises(ServerError) as info:
            await guesser.login("mallory", guess)
        assert info.value.code == "bad-password"
    await until(lambda: guesser.ws.close_code is not None, "the server to close the connection")
    assert guesser.ws.close_code == 1008


async def test_wrong_resume_tokens_are_limited_by_address(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(max_wrong_passwords=3, wrong_password_window=60)
    friend = await connect(server, "friend")
    token = friend.token
    assert token is not None
    await friend.close()
    for guess in ("a", "b", "c"):  # one guess per connection
        guesser = await connect(server)
        with pytest.raises(ServerError) as info:
            await guesser.resume(guess * 20)
        assert info.value.code == "bad-token"
    late = await connect(server)
    with pytest.raises(ServerError) as info:
        await late.resume("d" * 20)  # a further wrong token waits: guessing must stop
    assert (info.value.code, info.value.field) == ("slow-down", "token")
    assert info.value.retry_after is not None and info.value.retry_after > 5
    # The right token is never locked out (behind a proxy the guesser shares the player's address).
    await late.resume(token)
    assert late.name == "friend"
    again = await connect(server)
    with pytest.raises(ServerError) as info:
        await again.resume("e" * 20)  # and the window is still full for wrong ones
    assert info.value.code == "slow-down"
    back = await connect(server, "someone")  # logging in by name is not affected
    assert back.name == "someone"


@pytest.mark.parametrize("size", [0, 3, 20])
def test_a_prepacked_reply_is_the_same_bytes_as_encoding_it(size: int) -> None:
    rooms = [{"room": str(i), "name": f"t{i}", "players": {"N": None}} for i in range(size)]
    wire = Rooms(id=0, rooms=rooms, daily=[{"game": "pyramid", "results": []}]).to_wire()
    reply = prepacked(wire, "id")
    for rid in (0, 1, 127, 128, 70_000, 2**53):
        assert reply(rid) == encode_frame({**wire, "id": rid})


async def test_an_action_within_a_hand_keeps_the_cached_listing(
    server: BarbuServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    room, by_seat = await four_at_table(server, connect, "steady")
    lobby = server.lobby
    assert lobby is not None
    reader = await connect(server, "reader")
    assert [r["hand_number"] for r in await reader.list_rooms()] == [1]
    listing = lobby._listing
    view = (await by_seat["N"].snapshot(room)).view
    assert view is not None
    declarer = view["declarer"]
    await by_seat[declarer].act(room, declarer, {"action": "contract", "contract": "no-tricks"})
    await reader.list_rooms()
    assert lobby._listing is listing, "an action within a hand changes no summary: the listing stands"


async def test_bots_playing_on_keep_the_listing_current(
    server: BarbuServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lobby_module, "LISTING_MAX_AGE", 3600.0)  # only a change may rebuild it
    host = await connect(server, "host")
    room = await host.create_table("robots")
    reader = await connect(server, "reader")
    assert (await reader.list_rooms())[0]["state"] == "waiting"
    for seat in ("N", "E", "S", "W"):
        await host.add_bot(room, seat, "random")
    seen: list[int] = []
    deadline = asyncio.get_running_loop().time() + 30
    while asyncio.get_running_loop().time() < deadline:
        listed = [r for r in await reader.list_rooms() if r["room"] == room]
        if not listed:  # the match is over and nobody is at the table: it left the lobby
            break
        seen.append(listed[0]["hand_number"])
        await asyncio.sleep(0.01)
    assert not listed, "the end of the match reached the listing"
    assert len(set(seen)) > 2 and seen == sorted(seen), "the hands were seen to go by"


async def test_connections_from_one_address_share_its_request_budget(start_server: StartServer) -> None:
    """100 connections from one address must not get 100 times one connection's rate: an address has a
    budget of its own, which every connection from it spends; another address keeps its own."""
    server = await start_server(
        request_rate=1000, request_burst=60, address_request_rate=20, address_request_burst=100
    )
    flooders = [await logged_in_raw(server, f"flooder{i}") for i in range(10)]
    began = time.monotonic()
    for ws in flooders:
        for i in range(50):
            await ws.send(frame({"type": "list-rooms", "id": 100 + i}))
    replies = [[msgpack.unpackb(await ws.recv()) for _ in range(50)] for ws in flooders]
    elapsed = time.monotonic() - began
    answered = sum(r["type"] == "rooms" for each in replies for r in each)
    refused = [r for each in replies for r in each if r["type"] == "error"]
    # Each connection's own budget (60) would let all 500 through; the address's lets 100 (a full bucket)
    # and 20 a second.
    assert answered <= 100 + 20 * elapsed + 1, (answered, elapsed)
    assert len(refused) == 500 - answered
    assert all(r["code"] == "slow-down" and "your address" in r["message"] for r in refused)
    assert all(0 < r["retry_after"] <= 0.05 for r in refused)
    # Another address is not held back by this one's flood.
    other = await websockets.connect(server.url, compression=None, proxy=None, local_addr=("127.0.0.2", 0))
    await other.send(frame({"type": "hello", "id": 1, "version": 1, "client": "other"}))
    await other.recv()
    await other.send(frame({"type": "login", "id": 2, "name": "other"}))
    await other.recv()
    await other.send(frame({"type": "list-rooms", "id": 3}))
    assert msgpack.unpackb(await other.recv())["type"] == "rooms"
    await asyncio.sleep(0.2)  # the address's budget refills: its connections carry on
    await flooders[0].send(frame({"type": "list-rooms", "id": 900}))
    assert msgpack.unpackb(await flooders[0].recv())["type"] == "rooms"
    for ws in [*flooders, other]:
        await ws.close()


@pytest.mark.parametrize("login", [None, "pinger"])
async def test_a_ping_flood_never_read_is_dropped_before_its_pongs_pile_up(
    start_server: StartServer, connect: Connect, login: str | None
) -> None:
    """A client that sends pings as fast as it can and never reads: the pongs websockets sends by itself
    count against the bound on unsent bytes, so the connection is aborted once they pass it (logged in or
    not) and the server never holds much more than the bound for it; another client is answered meanwhile.
    Before, the pongs piled up at ~10 MiB/s until the client went away."""
    limit = 256 * 1024
    server = await start_server(
        max_queued_bytes=limit, **UNLIMITED_PINGS
    )  # the bound on unsent, not the ping budget
    victim = await connect(server, "victim")
    sock = await raw_upgraded(server, login)
    rss_before, rss_peak, peak = rss(), 0, 0
    trips: list[float] = []
    stop = asyncio.Event()

    async def watch() -> None:
        nonlocal peak, rss_peak
        while not stop.is_set():
            peak, rss_peak = max([peak, *unsent_from(server)]), max(rss_peak, rss())
            began = time.monotonic()
            assert await victim.list_rooms() == []
            trips.append(time.monotonic() - began)
            await asyncio.sleep(0.01)

    watching = asyncio.create_task(watch())
    began = time.monotonic()
    try:
        dropped = await pings_until_dropped(sock, 10.0)
    finally:
        sock.close()
        stop.set()
        await watching
    took = time.monotonic() - began
    assert dropped, f"not dropped after {took:.1f} s; {peak} bytes waited unsent for it"
    assert peak <= limit + 64 * 1024, f"{peak} bytes waited unsent for the flooder"
    assert rss_peak - rss_before < 32 << 20, f"RSS grew by {(rss_peak - rss_before) >> 20} MiB"
    assert trips and max(trips) < 2.0, f"the victim waited {max(trips):.2f} s"
    await dropped_within(server, 1.0)
    lobby = server.lobby
    assert lobby is not None and "pinger" not in lobby.online
    assert await victim.list_rooms() == []


async def _stuck(server: BarbuServer, login: str | None = None) -> socket.socket:
    """A raw client (``raw_upgraded``) that sent pings until more than 64 KiB of pongs waited in the
    server's write buffer (past the kernel's socket buffers: its writes are paused, above
    websockets' 32 KiB ``write_limit``), then stopped; it never reads. The pings the server had not read yet
    are answered after, so the server should bound its unsent bytes well above this."""
    sock = await raw_upgraded(server, login)
    loop = asyncio.get_running_loop()
    async with asyncio.timeout(10):
        while max(unsent_from(server), default=0) <= 64 * 1024:
            await loop.sock_sendall(sock, PING * 100)
    return sock


async def test_the_login_deadline_ends_a_connection_that_reads_nothing(
    start_server: StartServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The close frame of the login deadline waits behind the unread pongs, so websockets' close timeout
    never starts: the closing handshake is given ``END_WITHIN`` seconds, then the connection is aborted
    (the write timeout off, so that it is the deadline that ends it)."""
    monkeypatch.setattr(peer_module, "END_WITHIN", 1.0)
    server = await start_server(
        login_timeout=2.5, write_timeout=None, max_queued_bytes=64 << 20, **UNLIMITED_PINGS
    )
    began = time.monotonic()
    sock = await _stuck(server)
    try:
        await dropped_within(server, 6.0)
    finally:
        sock.close()
    assert time.monotonic() - began < 2.5 + 1.0 + 2.0


async def test_a_connection_whose_writes_stay_held_up_is_aborted(start_server: StartServer) -> None:
    """Logged in, with keepalive pings on (the first one due after the writes are held up, usually): a
    keepalive ping waits for room in the write buffer before its timeout starts, so it alone would never end
    the connection; writes held up for ``write_timeout`` seconds do."""
    server = await start_server(
        write_timeout=1.0, ping_interval=3.0, ping_timeout=1.0, max_queued_bytes=64 << 20, **UNLIMITED_PINGS
    )
    sock = await _stuck(server, "stuck")
    try:
        assert await dropped_within(server, 4.0) < 1.0 + 1.0
    finally:
        sock.close()
    lobby = server.lobby
    assert lobby is not None
    await until(lambda: "stuck" not in lobby.online, "the server to drop the player")
