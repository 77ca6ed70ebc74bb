"""Raw WebSocket clients for the flood tests: a client logged in over a bare ``websockets`` connection, frames
masked by hand on a TCP socket upgraded by hand (pings, fragments), and what the server holds for them."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import os
import socket
import time
from typing import Any

import msgpack
import pytest
import websockets
from websockets.asyncio.server import ServerConnection
from websockets.protocol import State

from protocol import Message
from server import BarbuServer
from server.peer import BoundedConnection, Peer
from tests.conftest import Connect, until


def frame(message: dict[str, Any]) -> bytes:
    """``message`` as a msgpack request frame's payload."""
    data: bytes = msgpack.packb(message)
    return data


async def logged_in_raw(server: BarbuServer, name: str) -> websockets.ClientConnection:
    """A raw WebSocket client said hello and logged in as ``name`` (replies read)."""
    ws = await websockets.connect(server.url, compression=None, max_size=None, proxy=None)
    await ws.send(frame({"type": "hello", "id": 1, "version": 1, "client": "flood"}))
    await ws.recv()
    await ws.send(frame({"type": "login", "id": 2, "name": name}))
    await ws.recv()
    return ws


def count_requests(server: BarbuServer, monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the requests the lobby carries out, by player."""
    lobby = server.lobby
    assert lobby is not None
    handle = lobby.handle
    counts: dict[str, int] = {}

    async def counted(peer: Peer, request: Message) -> None:
        counts[peer.player or "?"] = counts.get(peer.player or "?", 0) + 1
        await handle(peer, request)

    monkeypatch.setattr(lobby, "handle", counted)
    return counts


#: Caps that let one host open the many tables a big lobby listing needs.
MANY_TABLES = {"max_waiting_tables": 100, "max_tables_per_player": 100, "max_tables_per_address": 100}


async def tables(server: BarbuServer, connect: Connect, count: int) -> None:
    """``count`` waiting tables, so that a lobby listing is a few KiB."""
    host = await connect(server, "host")
    for i in range(count):
        await host.create_table(f"table number {i:03d} with a long name")


def masked(opcode: int, payload: bytes, fin: bool = True) -> bytes:
    """One WebSocket frame of ``opcode`` as a client sends it (masked; payload under 64 KiB); ``fin`` False:
    a fragment that more of its message follows (``opcode`` 0 for a continuation)."""
    mask = os.urandom(4)
    size = (
        bytes([0x80 | len(payload)]) if len(payload) < 126 else bytes([0x80 | 126]) + len(payload).to_bytes(2)
    )
    first = (0x80 if fin else 0) | opcode
    return bytes([first]) + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


#: A ping with a 125-byte payload (the longest a control frame may carry): 131 bytes on the wire.
PING = masked(0x9, b"p" * 125)
#: Settings under which a ping flood meets the server's other bounds before its ping budget.
UNLIMITED_PINGS = {"ping_rate": 1e9, "ping_burst": 1e9}
#: Where the raw clients connect from (another address than the other clients': its caps are its own).
FLOODER = "127.0.0.9"


async def raw_upgraded(
    server: BarbuServer, login: str | None = None, receive_buffer: int = 4096
) -> socket.socket:
    """A non-blocking TCP socket from ``FLOODER`` with a ``receive_buffer`` of 4 KiB (set before the
    connect, so the window it offers stays small), upgraded to a WebSocket by hand: the 101 response read,
    nothing more. With ``login``, it then says hello and logs in as that name (msgpack frames; the replies
    left unread)."""
    loop = asyncio.get_running_loop()
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    sock.bind((FLOODER, 0))
    await loop.sock_connect(sock, ("127.0.0.1", server.port))
    key = base64.b64encode(os.urandom(16)).decode()
    await loop.sock_sendall(
        sock,
        (
            f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode(),
    )
    response = b""
    while b"\r\n\r\n" not in response:
        chunk = await loop.sock_recv(sock, 1)  # byte by byte: nothing after the response is taken
        assert chunk, "the server closed the connection during the handshake"
        response += chunk
    assert response.startswith(b"HTTP/1.1 101"), response
    if login is not None:
        hello = frame({"type": "hello", "id": 1, "version": 1, "client": "pinger"})
        await loop.sock_sendall(
            sock, masked(0x2, hello) + masked(0x2, frame({"type": "login", "id": 2, "name": login}))
        )
    return sock


def unsent_from(server: BarbuServer) -> list[int]:
    """Bytes waiting in the write buffer of each of the server's connections from ``FLOODER`` (closing ones
    too) whose TCP connection is still open."""
    assert server._server is not None
    return [
        ws.transport.get_write_buffer_size()
        for ws in server._server.all_connections
        if ws.remote_address is not None and ws.remote_address[0] == FLOODER and ws.state is not State.CLOSED
    ]


def rss() -> int:
    """This process's resident set (bytes): the server under test runs in it."""
    with open("/proc/self/status", encoding="ascii") as status:
        return next(int(line.split()[1]) * 1024 for line in status if line.startswith("VmRSS:"))


async def pings_until_dropped(sock: socket.socket, seconds: float) -> bool:
    """Send pings in batches of 100 as fast as the socket takes them, for at most ``seconds``; whether the
    server aborted the connection (reset or broken pipe) meanwhile."""
    loop = asyncio.get_running_loop()
    batch = PING * 100
    try:
        async with asyncio.timeout(seconds):
            while True:
                await loop.sock_sendall(sock, batch)
    except (ConnectionResetError, BrokenPipeError):
        return True
    except TimeoutError:
        return False


async def dropped_within(server: BarbuServer, seconds: float) -> float:
    """Wait, reading nothing from the client, until the server holds no TCP connection from ``FLOODER``
    (``BarbuServer.connections`` counts them until they are lost), at most ``seconds``; how long it took.

    Raises:
        AssertionError: one was still open after ``seconds``.
    """
    began = time.monotonic()
    await until(
        lambda: not server.connections.by_address.get(FLOODER), "the server to end the connection", seconds
    )
    return time.monotonic() - began


async def server_side(server: BarbuServer) -> BoundedConnection:
    """The server's connection from ``FLOODER`` (there must be one, its handshake done or nearly)."""
    assert server._server is not None
    found: list[ServerConnection] = []

    def one() -> bool:
        assert server._server is not None
        found[:] = [ws for ws in server._server.all_connections if ws.remote_address[0] == FLOODER]
        return len(found) == 1

    await until(one, "the server's side of the raw connection")
    assert isinstance(found[0], BoundedConnection)
    return found[0]


def count_writes(ws: ServerConnection) -> list[int]:
    """Count the bytes the server hands to ``ws``'s transport from now on (the kernel's and the write
    buffer's), in the one item of the list returned."""
    written = [0]
    write = ws.transport.write

    def counted(data: bytes | bytearray | memoryview) -> None:
        written[0] += len(data)
        write(data)

    ws.transport.write = counted  # type: ignore[method-assign]
    return written


async def read_frames(sock: socket.socket, seconds: float = 10.0) -> list[tuple[int, bytes]]:
    """Read the server's (unmasked) frames on a raw socket until it ends the stream (or resets the
    connection, after what it sent before): each (opcode, payload).

    Raises:
        TimeoutError: the stream had not ended after ``seconds``.
    """
    loop = asyncio.get_running_loop()
    data = bytearray()
    async with asyncio.timeout(seconds):
        with contextlib.suppress(ConnectionResetError):
            while chunk := await loop.sock_recv(sock, 65536):
                data += chunk
    frames, at = [], 0
    while at < len(data):
        opcode, size, at = data[at] & 0x0F, data[at + 1] & 0x7F, at + 2
        if size >= 126:
            width = 2 if size == 126 else 8
            size, at = int.from_bytes(data[at : at + width]), at + width
        frames.append((opcode, bytes(data[at : at + size])))
        at += size
    return frames


def close_code(frames: list[tuple[int, bytes]]) -> tuple[int, str] | None:
    """The code and reason of the close frame among ``frames`` (``read_frames``), if there is one."""
    for opcode, payload in frames:
        if opcode == 0x8:
            return int.from_bytes(payload[:2]), payload[2:].decode()
    return None
