"""Requests cost their connection's request budget by their kind (``server.costs``): a connection pipelining
writes, new rooms or frames that do not decode within the number of requests a second it may send gets
``slow-down`` long before it could stall everyone else, and its reads carry on."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import msgpack
import websockets

from server import BarbuServer
from server.costs import BAD_FRAME, COSTS
from tests.conftest import StartServer

#: The budget of these tests' servers: 100 tokens a second, 200 at once.
RATE, BURST = 100.0, 200.0


async def _logged_in(server: BarbuServer, name: str) -> websockets.ClientConnection:
    ws = await websockets.connect(server.url, compression=None, max_size=None, proxy=None)
    for request in (
        {"type": "hello", "id": 1, "version": 1, "client": "t"},
        {"type": "login", "id": 2, "name": name},
    ):
        await ws.send(msgpack.packb(request))
        await ws.recv()
    return ws


async def _pipelined(
    ws: websockets.ClientConnection, frames: list[bytes], keyed: bool = True
) -> tuple[list[dict[str, Any]], float]:
    """Send ``frames`` back to back and read a reply to each (``keyed``: those with an ``id``, pushes
    skipped; else every message, as for frames that do not decode, whose errors have none); returns the
    replies and the seconds it took."""
    started = time.monotonic()
    for frame in frames:
        await ws.send(frame)
    replies: list[dict[str, Any]] = []
    while len(replies) < len(frames):
        message = msgpack.unpackb(await ws.recv())
        if not keyed or message.get("id") is not None:
            replies.append(message)
    return replies, time.monotonic() - started


def _most(cost: float, seconds: float) -> int:
    """How many requests of ``cost`` a fresh budget (less hello and login) pays for within ``seconds``."""
    return int((BURST - 2 + RATE * seconds) / cost) + 1


async def test_new_rooms_cost_more_than_reads(start_server: StartServer) -> None:
    server = await start_server(request_rate=RATE, request_burst=BURST)
    ws = await _logged_in(server, "opener")
    frames = [
        msgpack.packb({"type": "open-solitaire", "id": 10 + i, "game": "forty-thieves", "seed": i})
        for i in range(60)
    ]
    replies, seconds = await _pipelined(ws, frames)
    opened = sum(r["type"] == "snapshot" for r in replies)
    refused = [r for r in replies if r["type"] == "error"]
    assert opened <= _most(COSTS["open-solitaire"], seconds) < 60
    assert refused and all(r["code"] == "slow-down" and r["retry_after"] > 0 for r in refused)
    # A read costs one token: the same connection lists the lobby again a moment later.
    await asyncio.sleep(2 / RATE)
    await ws.send(msgpack.packb({"type": "list-rooms", "id": 500}))
    listed = msgpack.unpackb(await ws.recv())
    assert listed["type"] == "rooms", listed
    await ws.close()


async def test_frames_that_do_not_decode_spend_the_budget(start_server: StartServer) -> None:
    server = await start_server(request_rate=RATE, request_burst=BURST)
    ws = await _logged_in(server, "garbage")
    replies, seconds = await _pipelined(ws, [b"\xc1not msgpack"] * 300, keyed=False)
    codes = [r["code"] for r in replies]
    assert codes.count("bad-frame") <= _most(BAD_FRAME, seconds) < 300
    assert set(codes) == {"bad-frame", "slow-down"}
    await ws.close()
