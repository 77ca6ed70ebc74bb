"""Shared fixtures: a real server on 127.0.0.1 (port 0) with a SQLite file in ``tmp_path``, and clients.

``start_server(**config)`` starts one (several may run at once; all stop at teardown); ``server`` is one
with the test defaults (bots act at once, 60 s grace); ``connect(server, name)`` opens a logged-in client.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from client import Connection
from server import BarbuServer, ServerConfig

StartServer = Callable[..., Awaitable[BarbuServer]]
Connect = Callable[..., Awaitable[Connection]]


@pytest.fixture
async def start_server(tmp_path: Path) -> AsyncIterator[StartServer]:
    """A factory starting servers on free loopback ports; the store defaults to ``tmp_path/barbu.sqlite3``."""
    servers: list[BarbuServer] = []

    async def start(**overrides: Any) -> BarbuServer:
        settings: dict[str, Any] = {
            "host": "127.0.0.1",
            "port": 0,
            "db": str(tmp_path / "barbu.sqlite3"),
            "bot_delay": 0.0,
            "ping_interval": None,
        }
        settings.update(overrides)
        server = BarbuServer(ServerConfig(**settings))
        await server.start()
        servers.append(server)
        return server

    yield start
    for server in servers:
        await server.stop()


@pytest.fixture
async def server(start_server: StartServer) -> BarbuServer:
    """A running server with the test defaults."""
    return await start_server()


@pytest.fixture
async def connect() -> AsyncIterator[Connect]:
    """A factory of connections (logged in as ``name`` unless it is None), all closed at teardown."""
    opened: list[Connection] = []

    async def open_one(
        server: BarbuServer, name: str | None = None, password: str | None = None
    ) -> Connection:
        conn = await Connection.connect(server.url, timeout=20.0)
        opened.append(conn)
        if name is not None:
            await conn.login(name, password)
        return conn

    yield open_one
    for conn in opened:
        await conn.close()
