"""A page under a name the server does not go by cannot talk to it (DNS rebinding): a WebSocket handshake with
an ``Origin`` and the page's plain HTTP requests are answered only under an IP literal, ``localhost``, the
server's own name (``--host``, the machine's name it prints), the hosts of ``--allowed-origin`` and the
``--allowed-host`` names; any other ``Host`` gets 403 (handshake) or 421 (the page, its files) with a
one-line reason, counted against no cap. Programs, which send no ``Origin``, connect under any ``Host``.
Real server on a loopback port, requests written by hand (``tests.raw_http``); ``barbu serve
--allowed-host`` in a real child process; a real Chromium that resolves ``evil.test`` to the server."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path

import pytest
from websockets.datastructures import Headers
from websockets.http11 import Request

from server import BarbuServer
from server.hosts import HostCheck, host_name, own_name
from tests.conftest import Connect, StartServer
from tests.raw_http import handshake_status, http_request
from tests.serve_process import Serve, serve_exits


async def test_a_rebinding_pages_handshake_and_page_are_refused(
    server: BarbuServer, connect: Connect
) -> None:
    port = server.port
    for host in (
        f"evil.test:{port}",
        "evil.test",
        f"127.0.0.1.evil.test:{port}",
        f"localhost.evil.test:{port}",
    ):
        origin = f"Origin: http://{host}\r\n"  # matches its own Host, as a rebinding page's does
        assert await handshake_status(port, host, origin) == 403, host
        status, _, body = await http_request(port, "/", host=host)
        assert status == 421, host
        assert body.count(b"\n") == 1 and b"does not answer browsers under the name" in body, body
        assert (await http_request(port, "/js/main.js", host=host))[0] == 421
        assert (await http_request(port, "/", method="HEAD", host=host))[0] == 421
    assert (await http_request(port, "/", headers="Host: localhost\r\n"))[0] == 421  # two Host headers
    assert server.connections.total == 0, server.connections.by_address
    assert (await http_request(port, "/healthz", host="evil.test"))[0] == 200  # monitoring: no page in it
    bob = await connect(server, "bob")  # the fixtures' clients: no Origin
    assert bob.name == "bob"


async def test_addresses_localhost_and_the_servers_names_are_answered(start_server: StartServer) -> None:
    server = await start_server(
        allowed_origins=("https://barbu.example.org",), allowed_hosts=("lan.example", "Play.Example.")
    )
    port = server.port
    for host in (
        f"127.0.0.1:{port}",
        "127.0.0.1",
        f"10.1.2.3:{port}",  # any address: an IP is not a name to re-resolve
        f"[::1]:{port}",
        f"[2001:db8::1]:{port}",
        f"localhost:{port}",
        f"LOCALHOST:{port}",
        "localhost.",
        "barbu.example.org",  # an --allowed-origin's host
        f"lan.example:{port}",  # an --allowed-host, any port
        "play.example",
    ):
        assert (await http_request(port, "/", host=host))[0] == 200, host
        assert await handshake_status(port, host, f"Origin: http://{host}\r\n") == 101, host
    assert await handshake_status(port, "barbu.example.org", "Origin: https://barbu.example.org\r\n") == 101
    assert (await http_request(port, "/", host="other.example.org"))[0] == 421


async def test_programs_without_origin_connect_under_any_host(server: BarbuServer) -> None:
    for host in ("evil.test", f"evil.test:{server.port}", "", "x y"):
        assert await handshake_status(server.port, host) == 101, host


def test_the_name_the_server_prints_for_friends_is_answered() -> None:
    # Listening on every interface, the server prints the machine's name (``share_url`` takes ``own_name``);
    # checked without listening there, as tests listen on loopback only.
    check, name = HostCheck("0.0.0.0"), own_name("0.0.0.0")
    assert name == socket.gethostname()
    for host in (name, f"{name}:8765", f"{name.upper()}:8765"):
        assert check.refusal(Request("/", Headers(Host=host, Origin=f"http://{host}"))) is None, host
    assert check.refusal(Request("/", Headers(Host="evil.test:8765"))) is not None


def test_a_host_name_is_a_name_alone() -> None:
    assert host_name("Barbu.Example.org") == "barbu.example.org"
    assert host_name("barbu.example.org.") == "barbu.example.org"
    for wrong in ("", "barbu.example.org:443", "https://barbu.example.org", "x/y", "u@x", "[::1]"):
        with pytest.raises(ValueError, match="is not a host name"):
            host_name(wrong)
    assert "barbu.local" in HostCheck("barbu.local").names  # --host given as a name
    assert "127.0.0.1" not in HostCheck("127.0.0.1").names  # an address needs no name


def test_barbu_serve_allowed_host(tmp_path: Path) -> None:
    child = Serve(tmp_path / "b.sqlite3", "--allowed-host", "barbu.lan", "--log-level", "WARNING")
    try:
        port = int(child.url.rsplit(":", 1)[1])

        async def check() -> None:
            assert (await http_request(port, "/", host=f"barbu.lan:{port}"))[0] == 200
            origin = f"Origin: http://barbu.lan:{port}\r\n"
            assert await handshake_status(port, f"barbu.lan:{port}", origin) == 101
            assert (await http_request(port, "/", host=f"evil.test:{port}"))[0] == 421

        asyncio.run(check())
    finally:
        child.kill()
    bad = serve_exits(tmp_path / "b.sqlite3", "--allowed-host", "barbu.lan:8765")
    assert bad.returncode == 2
    assert "--allowed-host" in bad.stderr and "is not a host name" in bad.stderr, bad.stderr
