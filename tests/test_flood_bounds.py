"""What one connection can make the server hold or do below the request budget: pings (answered by the
WebSocket library itself) within a ping budget, the kernel's send buffer fixed so that the bound on unsent
bytes and the write timeout mean what docs/protocol.md says, asyncio's lines for writes to lost connections
throttled, and messages before the login bounded tight."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time

import msgpack
import pytest
import websockets

from server import BarbuServer
from server.peer import BEFORE_LOGIN, READ_CHUNK
from tests.conftest import Connect, StartServer
from tests.raw_clients import (
    MANY_TABLES,
    PING,
    UNLIMITED_PINGS,
    close_code,
    count_writes,
    dropped_within,
    frame,
    logged_in_raw,
    masked,
    raw_upgraded,
    read_frames,
    rss,
    server_side,
    tables,
)

#: Pings a raw client's read may carry beyond the budget: websockets answers every ping of a read before
#: the server sees any of them (``READ_CHUNK`` bytes of 131-byte ``PING`` frames).
PINGS_IN_A_READ = READ_CHUNK // len(PING) + 1
#: A ``list-rooms`` request as a raw client sends it.
LIST_ROOMS = masked(0x2, frame({"type": "list-rooms", "id": 3}))


async def _flood_pings(server: BarbuServer, pings: int, frame: bytes = PING) -> list[tuple[int, bytes]]:
    """A raw client from ``FLOODER`` sends ``pings`` pings (or other ``frame``s) at once, reading nothing
    meanwhile (its receive buffer, 64 KiB, takes what the server sends), then reads it all until the server
    ends the stream."""
    sock = await raw_upgraded(server, receive_buffer=64 * 1024)
    try:
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):  # cut off while still sending
            await asyncio.get_running_loop().sock_sendall(sock, frame * pings)
        return await read_frames(sock)
    finally:
        sock.close()


async def test_pings_beyond_the_ping_budget_close_the_connection(
    start_server: StartServer, connect: Connect
) -> None:
    """20 connections from one address each send 300 pings at once: each has its pongs for its budget (10 at
    once) and the rest of that read, then a close frame 1008 and a reset; the pings after are never
    answered. Before,
    every ping was answered (and the pongs of a client reading none piled up to the bound on unsent bytes):
    100 such connections held another player's round trip at ~500 ms for 25 s."""
    server = await start_server(ping_rate=0.01, ping_burst=10)  # no refill worth counting meanwhile
    victim = await connect(server, "victim")
    floods = await asyncio.gather(*(_flood_pings(server, 300) for _ in range(20)))
    for frames in floods:
        pongs = sum(opcode == 0xA for opcode, _ in frames)
        assert pongs <= 10 + PINGS_IN_A_READ, f"{pongs} pings answered"
        assert close_code(frames) == (1008, "too many pings")
    await dropped_within(server, 10.0)
    assert await victim.list_rooms() == []


async def test_pongs_nobody_asked_for_spend_the_ping_budget(
    start_server: StartServer, connect: Connect
) -> None:
    """Pongs the server did not ask for cost as much to read as pings: 20 connections sending 300 each are
    closed (1008, ``too many pongs``) once past the ping budget. Before, they were read without end (5
    connections sending 428,000 a second took a core and another player's round trip to p50 72 ms)."""
    server = await start_server(ping_rate=0.01, ping_burst=10)
    victim = await connect(server, "victim")
    floods = await asyncio.gather(*(_flood_pings(server, 300, masked(0xA, b"")) for _ in range(20)))
    for frames in floods:
        assert close_code(frames) == (1008, "too many pongs")
    await dropped_within(server, 10.0)
    assert await victim.list_rooms() == []


async def test_a_flood_of_short_connections_logs_a_line_a_second_of_each_kind_at_most(
    start_server: StartServer, caplog: pytest.LogCaptureFixture
) -> None:
    """30 connections from one address each break the ping budget: each made websockets' "connection open"
    and "connection closed" lines and the server's "more than 10 pings" warning (1,721 connections in 10 s
    made 357 KB of log); now each kind is logged once a second at most, saying how many were held back."""
    server = await start_server(ping_rate=0.01, ping_burst=10)
    caplog.set_level(logging.INFO, logger="websockets.server")
    caplog.set_level(logging.INFO, logger="server.peer")
    began = time.monotonic()
    for _ in range(3):
        await asyncio.gather(*(_flood_pings(server, 300) for _ in range(10)))
    await dropped_within(server, 10.0)
    seconds = time.monotonic() - began
    for kind in ("connection open", "connection closed", "pings at once"):
        lines = [r.getMessage() for r in caplog.records if kind in r.getMessage()]
        assert 1 <= len(lines) <= 1 + seconds, (kind, lines)


async def test_a_client_pinging_within_its_budget_carries_on(start_server: StartServer) -> None:
    """A client's own pings within the budget are answered (the reference client's keepalive sends one
    every 20 s), and past it the client learns why it was closed."""
    server = await start_server(ping_rate=1.0, ping_burst=10)
    ws = await logged_in_raw(server, "pinger")
    for _ in range(8):
        await asyncio.wait_for(await ws.ping(), 10)
    await ws.send(frame({"type": "list-rooms", "id": 3}))
    assert msgpack.unpackb(await ws.recv())["type"] == "rooms"  # still open
    with contextlib.suppress(websockets.ConnectionClosed):
        for _ in range(100):
            await ws.ping()
    with pytest.raises(websockets.ConnectionClosed) as closed:
        await asyncio.wait_for(ws.recv(), 10)
    assert closed.value.rcvd is not None
    assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1008, "too many pings")


async def _pipeline_until(sock: socket.socket, written: list[int], enough: int) -> None:
    """Send ``list-rooms`` requests in batches of 20 until the server has written ``enough`` bytes to the
    connection (``count_writes``) or cut it off."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(ConnectionResetError, BrokenPipeError):
        while written[0] < enough:
            await loop.sock_sendall(sock, LIST_ROOMS * 20)
            await asyncio.sleep(0.01)  # the server answers in turn


async def test_a_client_that_never_reads_gets_the_bound_and_the_fixed_kernel_buffer_at_most(
    start_server: StartServer, connect: Connect
) -> None:
    """Logged in, pipelining ``list-rooms`` and never reading (a 4 KiB receive buffer): the server cuts it
    off once ``max_queued_bytes`` wait unsent, having handed it at most that plus the kernel's send buffer
    (``send_buffer``, which Linux doubles) and a little. Before, the kernel's buffer grew by itself to ~3 MB
    a connection, unseen by the bound."""
    limit, send_buffer = 256 * 1024, 64 * 1024
    server = await start_server(
        max_queued_bytes=limit, send_buffer=send_buffer, request_rate=1e6, request_burst=1e6, **MANY_TABLES
    )
    await tables(server, connect, 40)
    sock = await raw_upgraded(server, "sink")
    try:
        written = count_writes(await server_side(server))
        await _pipeline_until(sock, written, 64 << 20)
        await dropped_within(server, 10.0)
    finally:
        sock.close()
    kernel = written[0] - limit
    assert kernel <= 2 * send_buffer + 64 * 1024, f"{kernel} bytes beyond the bound went to the kernel"


async def test_a_client_leaving_more_than_the_kernel_holds_unread_is_cut_after_the_write_timeout(
    start_server: StartServer, connect: Connect, caplog: pytest.LogCaptureFixture
) -> None:
    """400 KiB of replies left unread, well within the bound on unsent bytes: past the kernel's fixed
    128 KiB and websockets' 32 KiB ``write_limit``, the writes pause and ``write_timeout`` ends it (no
    keepalive here). Before, the kernel took all 400 KiB, the writes never paused, and only the keepalive
    ended such a client, ~45 s later, where the docs said 20 s."""
    server = await start_server(write_timeout=1.0, request_rate=1e6, request_burst=1e6, **MANY_TABLES)
    await tables(server, connect, 40)
    sock = await raw_upgraded(server, "slow")
    try:
        written = count_writes(await server_side(server))
        await _pipeline_until(sock, written, 400 * 1024)
        took = await dropped_within(server, 1.0 + 4.0)
    finally:
        sock.close()
    assert took <= 1.0 + 4.0
    assert any("nothing read for 1 s" in r.getMessage() for r in caplog.records), "the write timeout cut it"


def _reset_after_pings(sock: socket.socket, pings: int) -> None:
    """Put ``pings`` pings in the server's receive buffer, then reset the connection (``SO_LINGER`` 0),
    without letting the event loop (the server's) run in between: the server reads them after the reset
    and every pong it writes goes to a lost connection."""
    sock.setblocking(True)
    sock.sendall(PING * pings)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, (1).to_bytes(4, "little") + bytes(4))
    sock.close()


async def test_writes_to_lost_connections_log_a_line_a_second_at_most(
    start_server: StartServer, caplog: pytest.LogCaptureFixture
) -> None:
    """20 connections from one address put 250 pings each in the server's buffer and reset: asyncio logs
    ``socket.send() raised exception.`` for each write after the fifth to a lost connection, and
    websockets writes each pong of a read on its own. Before, that was ~26 lines a connection (2,314 lines
    a second in a flood); now one line a second at most, saying how many were held back."""
    server = await start_server(**UNLIMITED_PINGS)  # every ping of a read is answered anyway
    caplog.set_level(logging.WARNING, logger="asyncio")
    socks = [await raw_upgraded(server) for _ in range(20)]
    began = time.monotonic()
    for sock in socks:
        _reset_after_pings(sock, 250)
    await dropped_within(server, 10.0)
    lines = [r for r in caplog.records if r.getMessage().startswith("socket.send() raised exception.")]
    assert len(lines) <= 1 + (time.monotonic() - began), [r.getMessage() for r in lines]
    assert lines, "the writes were made (and logged once)"
    assert any("more since the last line" in r.getMessage() for r in lines[1:]) or len(lines) == 1


async def _unfinished_message(server: BarbuServer, fragments: int, size: int) -> list[tuple[int, bytes]]:
    """A raw client from ``FLOODER``, not logged in, sends a binary message in ``fragments`` fragments of
    ``size`` bytes, all but the last, then reads what the server sends until it ends the stream."""
    sock = await raw_upgraded(server)
    loop = asyncio.get_running_loop()
    try:
        data = masked(0x2, b"x" * size, fin=False) + masked(0x0, b"x" * size, fin=False) * (fragments - 1)
        with contextlib.suppress(ConnectionResetError, BrokenPipeError):
            await loop.sock_sendall(sock, data)
        return await read_frames(sock)
    finally:
        sock.close()


async def test_before_the_login_a_long_message_closes_the_connection(start_server: StartServer) -> None:
    """50 connections each send most of a 1 MiB message (in 4 KiB fragments) and never log in: each is
    closed (1009) once its message passes 16 KiB, and the server holds none of it. Before, all 50 held
    their fragments until the login deadline: +32 MiB."""
    server = await start_server()
    before = rss()
    floods = await asyncio.gather(*(_unfinished_message(server, 255, 4096) for _ in range(50)))
    grown = rss() - before
    for frames in floods:
        code = close_code(frames)
        assert code is not None and code[0] == 1009, code
    assert grown < 16 << 20, f"RSS grew by {grown >> 20} MiB"
    await dropped_within(server, 10.0)


async def test_before_the_login_a_message_in_many_fragments_closes_the_connection(
    start_server: StartServer,
) -> None:
    """Each fragment held costs ~140 bytes even empty: before the login a message comes in 16 fragments at
    most (as many after: ``test_server_limits``; and a logged-in client's long request gets
    ``too-large``, not a close: ``test_server``)."""
    server = await start_server()
    frames = await _unfinished_message(server, BEFORE_LOGIN[1] + 1, 0)
    assert close_code(frames) == (1009, f"more than {BEFORE_LOGIN[1]} fragments before login")
    await dropped_within(server, 10.0)
    assert BEFORE_LOGIN[0] == 16384
