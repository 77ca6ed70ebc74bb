"""What the server answers over plain HTTP, whatever is asked (issue 27, item 8): only ``GET`` and ``HEAD``
(405 with ``Allow`` for any other method, on every path), ``HEAD`` with the ``GET``'s headers and no body,
routing without the query string, a ``Server`` header (and the WebSocket ``welcome``) naming no versions, and the page's CSP keeping its
connections and forms to its own origin. Raw requests on a real server's loopback port."""

from __future__ import annotations

import asyncio
import re

import msgpack
import websockets

from server import BarbuServer
from tests.raw_clients import frame
from tests.raw_http import http_request

PATHS = ("/", "/js/main.js", "/healthz", "/nope")


async def test_a_method_other_than_get_and_head_is_refused_on_every_path(server: BarbuServer) -> None:
    for method in ("DELETE", "TRACE", "OPTIONS", "PUT", "POST", "PATCH", "BREW"):
        for path in PATHS:
            status, head, body = await http_request(server.port, path, method)
            assert status == 405, (method, path, status)
            assert head["allow"] == "GET, HEAD", (method, path)
            assert body.count(b"\n") == 1 and b"GET and HEAD" in body, body
    # A handshake asked with another method is refused the same way, before any WebSocket work.
    status, head, _ = await http_request(
        server.port,
        "/",
        "POST",
        "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: AAAAAAAAAAAAAAAAAAAAAA==\r\n"
        "Sec-WebSocket-Version: 13\r\n",
    )
    assert (status, head["allow"]) == (405, "GET, HEAD")


async def test_head_sends_the_headers_of_get_and_no_body(server: BarbuServer) -> None:
    for path in PATHS:
        got, got_head, got_body = await http_request(server.port, path)
        status, head, body = await http_request(server.port, path, "HEAD")
        assert (status, body) == (got, b""), path
        assert head["content-length"] == got_head["content-length"] == str(len(got_body)), path
        assert head.get("content-type") == got_head.get("content-type"), path
        assert head.get("etag") == got_head.get("etag"), path
    _, page, _ = await http_request(server.port, "/")
    status, _, body = await http_request(server.port, "/", "HEAD", f"If-None-Match: {page['etag']}\r\n")
    assert (status, body) == (304, b"")


async def test_the_query_string_is_ignored_for_routing(server: BarbuServer) -> None:
    for path in ("/healthz?x", "/healthz?", "/healthz?probe=1&b=2"):
        status, _, body = await http_request(server.port, path)
        assert (status, body) == (200, b"ok\n"), path
    _, _, script = await http_request(server.port, "/js/main.js")
    status, _, body = await http_request(server.port, "/js/main.js?v=2")
    assert (status, body) == (200, script)
    assert (await http_request(server.port, "/nope?x"))[0] == 404


async def test_the_server_header_names_no_version(server: BarbuServer) -> None:
    for path in PATHS:
        _, head, _ = await http_request(server.port, path)
        assert head["server"] == "barbu", (path, head["server"])
    _, head, _ = await http_request(server.port, "/", "DELETE")
    assert head["server"] == "barbu"
    async with websockets.connect(server.url, proxy=None) as ws:
        assert ws.response is not None
        assert ws.response.headers["Server"] == "barbu"
    assert not re.search(r"\d", head["server"])


async def test_a_request_with_a_body_is_closed_unanswered(server: BarbuServer) -> None:
    """websockets' parser refuses a request body before the server's ``process_request`` sees the request
    (docs/protocol.md, Transport): the connection ends with no response, whatever the method."""
    for method, body in (("POST", "Content-Length: 1\r\n"), ("GET", "Transfer-Encoding: chunked\r\n")):
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(f"{method} / HTTP/1.1\r\nHost: localhost\r\n{body}\r\nx".encode())
        await writer.drain()
        assert await asyncio.wait_for(reader.read(), 5) == b"", method
        writer.close()
    assert (await http_request(server.port, "/"))[0] == 200  # the server goes on


async def test_the_welcome_names_the_server_without_a_version(server: BarbuServer) -> None:
    async with websockets.connect(server.url, proxy=None) as ws:
        await ws.send(frame({"type": "hello", "id": 1, "version": 1, "client": "http-test"}))
        welcome = msgpack.unpackb(await ws.recv())
    assert welcome["type"] == "welcome" and welcome["server"] == "barbu", welcome


async def test_the_page_connects_and_sends_forms_to_its_own_origin_only(server: BarbuServer) -> None:
    _, head, _ = await http_request(server.port, "/")
    policy = [rule.strip() for rule in head["content-security-policy"].split(";")]
    assert "connect-src 'self'" in policy and "form-action 'self'" in policy, policy
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy, policy
