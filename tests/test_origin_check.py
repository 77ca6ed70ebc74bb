"""Another site's page cannot open the server's WebSocket (issue 27, item 3): a handshake whose ``Origin`` is
not the server's own (its ``Host``, over http or https) nor one ``--allowed-origin`` names gets HTTP 403 with
a one-line reason, before any WebSocket work and counted against none of the address's caps; programs, which
send no ``Origin``, are unaffected. Real server on a loopback port, real handshakes (websockets' client with
``origin=``, or written by hand for the ``Host`` and odd headers); ``barbu serve --allowed-origin`` in a real
child process. The page in a real browser: tests/test_web_origin.py."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import msgpack
import pytest
import websockets
from websockets.exceptions import InvalidStatus

from server import BarbuServer
from server.origins import origin_key
from tests.conftest import Connect, StartServer
from tests.raw_clients import frame
from tests.raw_http import handshake_status, parse_reply, upgrade_headers

ROOT = Path(__file__).resolve().parent.parent


async def login_with_origin(url: str, origin: str, name: str) -> str:
    """Open a WebSocket to ``url`` sending ``Origin: origin``, say hello and log in as ``name``: the login's
    reply type."""
    async with websockets.connect(url, origin=origin, proxy=None) as ws:  # type: ignore[arg-type]
        await ws.send(frame({"type": "hello", "id": 1, "version": 1, "client": "origin-test"}))
        await ws.recv()
        await ws.send(frame({"type": "login", "id": 2, "name": name}))
        reply: str = msgpack.unpackb(await ws.recv())["type"]
        return reply


async def refused(url: str, origin: str) -> tuple[int, bytes]:
    """The status and body of the refusal a handshake to ``url`` with ``Origin: origin`` gets.

    Raises:
        AssertionError: the handshake was accepted.
    """
    try:
        async with websockets.connect(url, origin=origin, proxy=None):  # type: ignore[arg-type]
            pass
    except InvalidStatus as exc:
        return exc.response.status_code, bytes(exc.response.body)
    raise AssertionError(f"a handshake from {origin} was accepted")


async def test_a_page_of_the_servers_own_origin_connects_and_another_sites_is_refused(
    server: BarbuServer, connect: Connect
) -> None:
    own = f"http://127.0.0.1:{server.port}"
    assert await login_with_origin(server.url, own, "ann") == "logged-in"
    for foreign in (
        "http://evil.example",
        f"http://127.0.0.1:{server.port + 1}",  # another port is another origin
        f"http://127.0.0.2:{server.port}",
        f"ftp://127.0.0.1:{server.port}",
        "null",  # a sandboxed frame, a file:// page
        f"{own}/",
    ):
        status, body = await refused(server.url, foreign)
        assert status == 403, foreign
        assert body.count(b"\n") == 1 and b"may not open this server's WebSocket" in body, body
    # No Origin (the terminal client, bots): unaffected.
    bob = await connect(server, "bob")
    assert bob.name == "bob"


async def test_the_servers_own_origin_is_its_host_over_http_or_https(start_server: StartServer) -> None:
    server = await start_server(allowed_hosts=("barbu.example.org",))  # a name it answers under
    port = server.port
    accepted = [
        ("barbu.example.org", "Origin: https://barbu.example.org\r\n"),  # behind a TLS proxy passing Host on
        ("barbu.example.org", "Origin: http://barbu.example.org:80\r\n"),
        ("barbu.example.org:8443", "Origin: https://barbu.example.org:8443\r\n"),
        (f"LOCALHOST:{port}", f"Origin: http://localhost:{port}\r\n"),
        (f"[::1]:{port}", f"Origin: http://[::1]:{port}\r\n"),
        (f"127.0.0.1:{port}", ""),
    ]
    for host, origin in accepted:
        assert await handshake_status(port, host, origin) == 101, (host, origin)
    for host, origin in [
        ("barbu.example.org", "Origin: http://barbu.example.org:8080\r\n"),
        ("barbu.example.org", "Origin: https://barbu.example.org.evil.example\r\n"),
        ("barbu.example.org:443", "Origin: http://barbu.example.org\r\n"),
        ("barbu.example.org", "Origin: https://barbu.example.org\r\nOrigin: https://barbu.example.org\r\n"),
        ("", "Origin: http://localhost\r\n"),
    ]:
        assert await handshake_status(port, host, origin) == 403, (host, origin)


async def test_a_refused_handshake_counts_against_no_cap_of_its_address(start_server: StartServer) -> None:
    server = await start_server(max_connections_per_address=1)
    held = []
    for _ in range(5):  # refused handshakes whose TCP connections the page keeps open
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(
            (
                f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nOrigin: http://evil.example\r\n"
                f"{upgrade_headers()}\r\n"
            ).encode()
        )
        await writer.drain()
        assert parse_reply(await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5))[0] == 403
        held.append(writer)
    assert server.connections.total == 0, server.connections.by_address
    try:
        assert await login_with_origin(server.url, f"http://127.0.0.1:{server.port}", "ann") == "logged-in"
    finally:
        for writer in held:
            writer.close()


async def test_an_allowed_origin_connects_from_another_name(start_server: StartServer) -> None:
    server = await start_server(allowed_origins=("https://barbu.example.org", "http://lan.example:8000"))
    assert await login_with_origin(server.url, "https://barbu.example.org", "ann") == "logged-in"
    assert await login_with_origin(server.url, "HTTPS://Barbu.Example.org:443", "bea") == "logged-in"
    assert await login_with_origin(server.url, "http://lan.example:8000", "cy") == "logged-in"
    for other in ("https://barbu.example.org:8443", "http://barbu.example.org", "http://lan.example"):
        assert (await refused(server.url, other))[0] == 403, other


def test_an_origin_is_a_scheme_a_host_and_a_port() -> None:
    assert origin_key("https://Barbu.Example.org") == ("https", "barbu.example.org", 443)
    assert origin_key("http://[::1]:8765") == ("http", "::1", 8765)
    for wrong in ("barbu.example.org", "ftp://x", "https://", "https://x/", "https://x/a", "https://x?q",
                  "https://u@x", "https://x:99999", "https://x:port"):  # fmt: skip
        with pytest.raises(ValueError, match="is not an origin"):
            origin_key(wrong)


def _serve(tmp_path: Path, *flags: str) -> subprocess.Popen[str]:
    """``barbu serve`` on a free loopback port in a child process, with ``flags``."""
    command = ["serve", "--port", "0", "--db", str(tmp_path / "b.sqlite3"), *flags]
    return subprocess.Popen(
        [sys.executable, "-m", "cli.main", *command],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


async def test_barbu_serve_allowed_origin(tmp_path: Path) -> None:
    child = _serve(tmp_path, "--allowed-origin", "https://barbu.example.org", "--log-level", "WARNING")
    try:
        assert child.stdout is not None
        line = await asyncio.wait_for(asyncio.to_thread(child.stdout.readline), 60)
        url = line.split(" listening on ")[1].split()[0]
        assert await login_with_origin(url, "https://barbu.example.org", "ann") == "logged-in"
        assert (await refused(url, "https://evil.example"))[0] == 403
    finally:
        child.terminate()
        child.wait(20)
    bad = _serve(tmp_path, "--allowed-origin", "https://barbu.example.org/play")
    _, err = bad.communicate(timeout=60)
    assert bad.returncode == 2
    assert "--allowed-origin" in err and "nothing comes after http(s)://HOST[:PORT]" in err, err
