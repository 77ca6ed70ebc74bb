"""Plain HTTP requests written by hand on a TCP socket, for the tests of what the server answers before any
WebSocket: any method, any header (``Host``, ``Origin`` twice), the response read whole, to the end of the
stream (the server closes each plain HTTP connection after its response)."""

from __future__ import annotations

import asyncio
import base64
import os

#: A parsed response: the status code, the header fields by lower-case name, the body.
Reply = tuple[int, dict[str, str], bytes]


def parse_reply(data: bytes) -> Reply:
    """A response's bytes as (status, header fields by lower-case name, body)."""
    head, _, body = data.partition(b"\r\n\r\n")
    status_line, *lines = head.decode("latin-1").split("\r\n")
    fields = {k.lower(): v for k, _, v in (line.partition(": ") for line in lines)}
    return int(status_line.split()[1]), fields, body


async def http_request(
    port: int, path: str = "/", method: str = "GET", headers: str = "", host: str = "localhost"
) -> Reply:
    """Send ``METHOD PATH HTTP/1.1`` with ``Host: host`` and ``headers`` (lines each ending ``\\r\\n``) to
    127.0.0.1:``port`` and read the whole response."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"{method} {path} HTTP/1.1\r\nHost: {host}\r\n{headers}\r\n".encode())
        await writer.drain()
        return parse_reply(await asyncio.wait_for(reader.read(), 5))
    finally:
        writer.close()
        await writer.wait_closed()


def upgrade_headers() -> str:
    """The header lines of a WebSocket handshake (``Upgrade``, ``Connection``, a fresh key, version 13)."""
    key = base64.b64encode(os.urandom(16)).decode()
    return f"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n"


async def handshake_status(port: int, host: str, headers: str = "") -> int:
    """The status a WebSocket handshake to 127.0.0.1:``port`` with ``Host: host`` and ``headers`` gets
    (101: upgraded; the connection is then closed at once)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(f"GET / HTTP/1.1\r\nHost: {host}\r\n{upgrade_headers()}{headers}\r\n".encode())
        await writer.drain()
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        return parse_reply(head)[0]
    finally:
        writer.close()
        await writer.wait_closed()
