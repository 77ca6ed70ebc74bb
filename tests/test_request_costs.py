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
from server.costs import BAD_FRAME, COSTS, FRAGMENT
from server.peer import LOGGED_IN_FRAGMENTS
from tests.conftest import StartServer
from tests.test_server_limits import pieces

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


async def test_a_request_split_into_fragments_costs_each_fragment(start_server: StartServer) -> None:
    """websockets parses every fragment of a message: a cheap read split into 16 (the most allowed,
    ``LOGGED_IN_FRAGMENTS``) costs 1 + 15 × ``FRAGMENT`` tokens, so a connection sending 160 such splits
    back to back gets ``slow-down`` after some hundred, where the same 160 reads sent whole all pass."""
    assert LOGGED_IN_FRAGMENTS == 16
    server = await start_server(request_rate=RATE, request_burst=BURST)
    whole = await _logged_in(server, "whole")
    frames = [msgpack.packb({"type": "list-games", "id": 10 + i}) for i in range(160)]
    replies, _ = await _pipelined(whole, frames)
    assert all(r["type"] == "games" for r in replies)
    await whole.close()

    split = await _logged_in(server, "splitter")
    started = time.monotonic()
    for frame in frames:  # 15 pieces; websockets ends the message with an empty 16th fragment
        await split.send(iter(pieces(frame, 15)))
    replies = []
    while len(replies) < len(frames):
        message = msgpack.unpackb(await split.recv())
        if message.get("id") is not None:
            replies.append(message)
    seconds = time.monotonic() - started
    answered = sum(r["type"] == "games" for r in replies)
    assert answered <= _most(1 + 15 * FRAGMENT, seconds) < 160
    assert all(r["code"] == "slow-down" for r in replies if r["type"] == "error")
    await split.close()
