"""Rooms and connections have limits one person cannot use up: solitaire rooms counted apart from Barbu
tables (also after a restart), idle solitaire rooms finished, abandoned rooms neither kept by a connection nor
left in the store, connection caps answered with HTTP 503 before the upgrade, and a message in too many
WebSocket fragments closed as the protocol document says."""

from __future__ import annotations

import asyncio
import itertools
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import AnyStr

import msgpack
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from client import ServerError
from server import BarbuServer
from server.addresses import address_group, forwarded_client
from server.peer import BEFORE_LOGIN, LOGGED_IN_FRAGMENTS
from server.solitaire_room import SolitaireRoom
from tests.conftest import Connect, StartServer, until

ROOT = Path(__file__).resolve().parent.parent


async def test_a_solitaire_flood_leaves_barbu_tables_free_also_after_a_restart(
    start_server: StartServer, connect: Connect
) -> None:
    limits = {"max_solitaire_rooms": 12, "max_tables": 3}
    server = await start_server(**limits)
    flooders = [await connect(server, f"f{i}") for i in range(16)]
    refused = 0
    for i, conn in enumerate(flooders):
        try:
            await conn.open_solitaire("forty-thieves", seed=i)
        except ServerError as exc:
            assert exc.code == "too-many-rooms"
            refused += 1
    assert refused == 4
    host = await connect(server, "host")
    await host.create_table("friday")
    await server.stop()

    again = await start_server(**limits)
    assert again.lobby is not None and len(again.lobby.rooms) == 13
    host = await connect(again, "host2")
    await host.create_table("saturday")
    late = await connect(again, "late")
    with pytest.raises(ServerError) as info:
        await late.open_solitaire("pyramid", seed=1)
    assert info.value.code == "too-many-rooms"


async def test_idle_solitaire_rooms_are_finished_with_their_record(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    played = await connect(server, "played")
    room = (await played.open_solitaire("forty-thieves", seed=3)).room
    view = (await played.snapshot(room)).view
    assert view is not None
    await played.move(room, view["legal"][0])
    untouched = await connect(server, "untouched")
    empty = (await untouched.open_solitaire("forty-thieves", seed=4)).room
    await server.stop()

    # The rooms were opened before this restart: their idle time counts from their last move (or opening).
    again = await start_server(solitaire_idle=0.5)
    assert again.lobby is not None and again.store is not None
    lobby, store = again.lobby, again.store
    assert {room, empty} <= set(lobby.rooms)
    await until(lambda: room not in lobby.rooms and empty not in lobby.rooms, "idle rooms finished", 10)
    row = store.room(int(room))
    assert row.status == "over" and row.record is not None and len(row.record["moves"]) == 1
    assert store.actions(int(room))[-1].action == {"action": "resign"}
    assert [r.id for r in store.rooms("solitaire")] == [int(room)]  # the room without a move is gone

    # A room in play is not touched while moves keep coming.
    fresh = await connect(again, "fresh")
    live = (await fresh.open_solitaire("forty-thieves", seed=5)).room
    for _ in range(3):
        await asyncio.sleep(0.3)
        view = (await fresh.snapshot(live)).view
        assert view is not None and view["result"] is None
        await fresh.move(live, view["legal"][0])


async def test_abandoned_rooms_are_neither_kept_by_the_connection_nor_left_in_the_store(
    server: BarbuServer, connect: Connect
) -> None:
    assert server.lobby is not None and server.store is not None
    alice = await connect(server, "alice")
    for seed in range(40):
        await alice.open_solitaire("forty-thieves", seed=seed)
    peer = server.lobby.online["alice"]
    mine = [r for r in server.lobby.rooms.values() if isinstance(r, SolitaireRoom)]
    assert len(mine) == 1 and peer.rooms == set(mine)
    assert len(server.store.rooms("solitaire")) == 1
    # A room with a move keeps its record when the next one is opened.
    room = mine[0].room_id
    view = (await alice.snapshot(room)).view
    assert view is not None
    await alice.move(room, view["legal"][0])
    await alice.open_solitaire("forty-thieves", seed=99)
    assert server.store.room(int(room)).status == "over" and len(peer.rooms) == 1


async def test_connections_over_the_caps_get_503_before_the_upgrade(start_server: StartServer) -> None:
    server = await start_server(max_connections=5, max_connections_per_address=3)
    opened = [await websockets.connect(server.url) for _ in range(3)]
    with pytest.raises(InvalidStatus) as info:
        await websockets.connect(server.url)
    assert info.value.response.status_code == 503
    opened += [await websockets.connect(server.url, local_addr=("127.0.0.2", 0)) for _ in range(2)]
    with pytest.raises(InvalidStatus) as info:
        await websockets.connect(server.url, local_addr=("127.0.0.3", 0))
    assert info.value.response.status_code == 503
    # Monitoring still hears the server is up (from a full address and with the server full).
    for address in ("127.0.0.1", "127.0.0.3"):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port, local_addr=(address, 0))
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
        await writer.drain()
        head = await asyncio.wait_for(reader.read(1024), 5)
        writer.close()
        await writer.wait_closed()
        assert head.startswith(b"HTTP/1.1 200"), head
    await opened.pop().close()
    await until(lambda: len(server._server.all_connections) == 4 if server._server else False, "a close")
    opened.append(await websockets.connect(server.url, local_addr=("127.0.0.3", 0)))
    for ws in opened:
        await ws.close()


async def test_a_room_holds_at_most_max_spectators(start_server: StartServer, connect: Connect) -> None:
    server = await start_server(max_spectators=2)
    host = await connect(server, "host")
    room = await host.create_table("crowded")
    await host.sit(room, "N")  # a seated player is no spectator: it does not count
    first, second, third = [await connect(server, f"fan{i}") for i in range(3)]
    await first.watch(room)
    await second.watch(room)
    await second.watch(room)  # watching again is no new spectator
    with pytest.raises(ServerError) as info:
        await third.watch(room)
    assert (info.value.code, info.value.field) == ("too-many-spectators", "room")
    await host.watch(room)  # the seated player still gets the table's snapshot
    await first.leave(room)
    snap = await third.watch(room)  # a place was freed
    assert snap.seat is None
    [summary] = await third.list_rooms()
    assert summary["spectators"] == 2


async def test_one_address_holds_a_share_of_the_solitaire_rooms_and_deals_at_a_pace(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(max_solitaire_rooms_per_address=3, deals_per_minute=6)
    names = [await connect(server, f"throwaway{i}") for i in range(4)]
    for i, conn in enumerate(names[:3]):
        await conn.open_solitaire("forty-thieves", seed=i)
    with pytest.raises(ServerError) as info:  # throwaway names from one address: its share is taken
        await names[3].open_solitaire("forty-thieves", seed=9)
    assert info.value.code == "too-many-rooms" and "this address" in info.value.message
    await names[0].open_solitaire("pyramid", seed=1)  # a player's own room is replaced, not added
    for seed in (2, 3):
        await names[0].open_solitaire("pyramid", seed=seed)
    with pytest.raises(ServerError) as info:  # the seventh deal within a minute from this address
        await names[1].open_solitaire("pyramid", seed=4)
    assert info.value.code == "slow-down" and info.value.retry_after is not None
    assert 1 <= info.value.retry_after <= 60
    assert server.lobby is not None and len(server.lobby.rooms) == 3


def test_an_ipv6_host_counts_as_its_64_network_and_a_mapped_ipv4_as_itself() -> None:
    # A host given a /64 may use a new address for every connection: the caps count the network.
    assert address_group("2001:db8:1:2::7") == address_group("2001:db8:1:2:ffff:1:2:3") == "2001:db8:1:2::/64"
    assert address_group("2001:db8:1:3::7") == "2001:db8:1:3::/64"
    assert address_group("fe80::1%eth0") == "fe80::/64"
    assert address_group("::ffff:192.0.2.7") == "192.0.2.7"
    assert address_group("192.0.2.7") == "192.0.2.7"
    assert address_group("unknown") == "unknown"


async def test_connections_over_ipv6_are_counted_by_their_network(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(host="::1", max_connections_per_address=2)
    url = server.url
    opened = [await websockets.connect(url) for _ in range(2)]
    assert server.connections.by_address == {"::/64": 2}
    with pytest.raises(InvalidStatus) as info:
        await websockets.connect(url)
    assert info.value.response.status_code == 503
    for ws in opened:
        await ws.close()
    player = await connect(server, "v6")
    await player.list_rooms()
    assert server.lobby is not None and server.lobby.online["v6"].address == "::/64"


def test_a_trusted_proxy_forwards_its_clients_address_and_nobody_else_does() -> None:
    proxy = frozenset({"127.0.0.1"})
    assert forwarded_client("127.0.0.1", ["203.0.113.5"], proxy) == "203.0.113.5"
    # A client may write anything left of what the proxy adds: only the rightmost entry counts.
    assert forwarded_client("127.0.0.1", ["10.9.9.9, 203.0.113.5"], proxy) == "203.0.113.5"
    assert forwarded_client("127.0.0.1", ["10.9.9.9", "2001:db8::1"], proxy) == "2001:db8::/64"
    assert forwarded_client("127.0.0.1", ["203.0.113.5, not-an-ip"], proxy) == "127.0.0.1"
    assert forwarded_client("127.0.0.1", [], proxy) == "127.0.0.1"
    assert forwarded_client("127.0.0.2", ["203.0.113.5"], proxy) == "127.0.0.2"  # not a trusted proxy


async def test_behind_a_trusted_proxy_each_player_has_the_caps_of_their_own_address(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(trusted_proxies=("127.0.0.1",), max_connections_per_address=2)
    url = server.url

    async def through_proxy(client: str) -> websockets.ClientConnection:
        return await websockets.connect(url, additional_headers={"X-Forwarded-For": client})

    first = [await through_proxy("203.0.113.5") for _ in range(2)]
    with pytest.raises(InvalidStatus):  # this client's own cap
        await through_proxy("203.0.113.5")
    second = [await through_proxy("198.51.100.7") for _ in range(2)]  # another's is untouched
    assert server.connections.by_address == {"203.0.113.5": 2, "198.51.100.7": 2}
    # Every per-address cap in the lobby counts the player as the forwarded address too.
    for request in (
        {"type": "hello", "id": 1, "version": 1, "client": "t"},
        {"type": "login", "id": 2, "name": "v"},
    ):
        await second[0].send(msgpack.packb(request))
        await second[0].recv()
    assert server.lobby is not None and server.lobby.online["v"].address == "198.51.100.7"
    # A client connecting directly cannot pass for another: the header is ignored from an untrusted peer.
    direct = await websockets.connect(
        url, local_addr=("127.0.0.2", 0), additional_headers={"X-Forwarded-For": "192.0.2.1"}
    )
    assert server.connections.by_address["127.0.0.2"] == 1
    for ws in [*first, *second, direct]:
        await ws.close()
    await until(lambda: server.connections.total == 0, "the closes")


async def _in_fragments(ws: websockets.ClientConnection, message: dict[str, object], fragments: int) -> None:
    """Send ``message`` as JSON split into ``fragments`` WebSocket frames (1: whole; else ``fragments`` - 1
    pieces, as websockets ends an iterable's message with an empty frame of its own)."""
    text = json.dumps(message)
    if fragments == 1:
        await ws.send(text)
        return
    await ws.send(iter(pieces(text, fragments - 1)))


def pieces(data: AnyStr, count: int) -> list[AnyStr]:
    """``data`` cut into ``count`` pieces of nearly equal length, in order."""
    cuts = [len(data) * k // count for k in range(count + 1)]
    return [data[a:b] for a, b in itertools.pairwise(cuts)]


async def _logged_in_json(
    server: BarbuServer, name: str, hello_fragments: int = 1
) -> websockets.ClientConnection:
    """A connection that said ``hello`` (in ``hello_fragments`` fragments) and logged in as ``name``, in
    JSON."""
    ws = await websockets.connect(server.url, compression=None, proxy=None)
    await _in_fragments(ws, {"type": "hello", "id": 1, "version": 1, "client": "t"}, hello_fragments)
    assert json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] == "welcome"
    await ws.send(json.dumps({"type": "login", "id": 2, "name": name}))
    assert json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] == "logged-in"
    return ws


async def test_a_message_in_too_many_fragments_closes_the_connection_as_the_protocol_says(
    server: BarbuServer,
) -> None:
    """Logged in, ``LOGGED_IN_FRAGMENTS``; before the login, ``BEFORE_LOGIN``'s 64 (``test_flood_bounds``)."""
    limit = LOGGED_IN_FRAGMENTS
    text = (ROOT / "docs" / "protocol.md").read_text()
    assert f"more than {limit:,} WebSocket fragments" in text
    assert f"in more than {BEFORE_LOGIN[1]} fragments" in text
    ws = await _logged_in_json(server, "patient", hello_fragments=BEFORE_LOGIN[1])
    try:
        await _in_fragments(ws, {"type": "list-rooms", "id": 3}, limit)
        assert json.loads(await asyncio.wait_for(ws.recv(), 20))["type"] == "rooms"
    finally:
        await ws.close()
    ws = await _logged_in_json(server, "splitter")
    await _in_fragments(ws, {"type": "list-rooms", "id": 3}, limit + 1)
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 20)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_a_logged_in_unfinished_long_message_closes_the_connection_past_64_kib(
    server: BarbuServer,
) -> None:
    """Logged in, a message's fragments are held until its last: one that keeps sending 16 KB fragments of a
    message it never finishes is closed (1009) once past the 64 KiB bound, not held up to 1 MiB as long as
    it stays connected (a free login could make 95 connections hold ~100 MiB)."""
    ws = await _logged_in_json(server, "hoarder")

    async def endless() -> AsyncIterator[bytes]:
        for _ in range(63):  # 1,008,000 bytes, never the last fragment
            yield b"x" * 16000
        await asyncio.Event().wait()

    sending = asyncio.create_task(ws.send(endless()))
    try:
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await asyncio.wait_for(ws.recv(), 20)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    finally:
        sending.cancel()
        await asyncio.gather(sending, return_exceptions=True)
        await ws.close()
