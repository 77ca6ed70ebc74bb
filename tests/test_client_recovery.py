"""The client library when things go wrong, over real sockets on 127.0.0.1: ``barbu bot`` rides out a server
restart mid-match (same store, same port) and finishes the match with its resume tokens; a reply beyond the
client's unpack limits fails that request with ``BadReply`` and closes the connection cleanly."""

from __future__ import annotations

import asyncio
import time

import msgpack
import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.asyncio.server import ServerConnection, serve

from cli.bot import run_bots
from client import BadReply, Connection, ConnectionLost
from protocol import PROTOCOL_VERSION, REPLY_LIMITS, Hello, encode_frame
from server import BarbuServer
from server.barbu_table import BarbuTable
from tests.conftest import StartServer


def barbu_table(server: BarbuServer, name: str) -> BarbuTable | None:
    """The server's table named ``name``, once it is open."""
    assert server.lobby is not None
    for room in server.lobby.rooms.values():
        if isinstance(room, BarbuTable) and room.name == name:
            return room
    return None


async def test_bots_finish_the_match_across_a_server_restart(start_server: StartServer) -> None:
    server = await start_server()
    port = server.port
    bots = asyncio.get_running_loop().create_task(run_bots(server.url, "restart", 4, "heuristic", None))
    try:
        deadline = time.monotonic() + 30
        while True:
            table = barbu_table(server, "restart")
            if table is not None and table.seq >= 40:
                break
            assert not bots.done(), "the match ended before the restart"
            assert time.monotonic() < deadline, "the match did not get going"
            await asyncio.sleep(0.01)
        room = table.room_id
        await server.stop()
        await asyncio.sleep(0.3)
        await start_server(port=port)
        result = await asyncio.wait_for(bots, 90)
    finally:
        if not bots.done():
            bots.cancel()
        await asyncio.wait([bots])
        if not bots.cancelled():
            bots.exception()  # seen here; a failure shows in the assertions
    assert result.room == room
    assert set(result.totals) == {"N", "E", "S", "W"} and sum(result.totals.values()) == 0
    assert len(result.history) == 28
    assert all(str(name).startswith("heuristic-") for name in result.players.values())


async def test_a_reply_beyond_the_unpack_limits_is_a_bad_reply(server: BarbuServer) -> None:
    async with ws_connect(server.url, compression=None) as ws:
        hello = Hello(id=1, version=PROTOCOL_VERSION, client="test").to_wire()
        await ws.send(encode_frame(hello))
        welcome = await ws.recv()

    async def answer(peer: ServerConnection) -> None:
        await peer.recv()
        await peer.send(welcome)
        request = msgpack.unpackb(await peer.recv())
        huge = "x" * (REPLY_LIMITS.max_str + 1)
        await peer.send(msgpack.packb({"type": "rooms", "id": request["id"], "rooms": [{"name": huge}]}))
        await peer.wait_closed()

    async with serve(answer, "127.0.0.1", 0, compression=None) as peer_server:
        port = next(iter(peer_server.sockets)).getsockname()[1]
        conn = await Connection.connect(f"ws://127.0.0.1:{port}", timeout=5)
        try:
            with pytest.raises(BadReply) as caught:
                await conn.list_rooms()
            assert caught.value.code == "limit" and "unreadable reply" in str(caught.value)
            with pytest.raises(ConnectionLost):
                await conn.next_push(5)
            await asyncio.wait_for(asyncio.shield(conn._reader), 5)
            assert conn._reader.exception() is None
        finally:
            await conn.close()
