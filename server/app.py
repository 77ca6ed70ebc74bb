"""The server process: the store, the lobby, the WebSocket listener with ``/healthz`` and the browser client's
files (``server.static``), and clean shutdown.

The server owns one worker pool for CPU-heavy work (``server.workers``), started with it and closed after
the connections. ``BarbuServer`` is an async context manager (tests start one on port 0); ``run_server``
runs one until SIGINT or SIGTERM. WebSocket settings: compression off (frames are small msgpack), keepalive pings,
``max_size`` from the config (larger messages close the connection with 1009).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
import socket
from http import HTTPStatus
from types import TracebackType

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from server.config import ServerConfig
from server.connection import serve_connection
from server.lobby import Lobby
from server.static import StaticFiles
from server.store import Store
from server.workers import WorkerPool

log = logging.getLogger(__name__)


class BarbuServer:
    """One running server: ``await start()`` opens the store, restores rooms and listens; ``await stop()``
    closes connections, stops rooms' timers, stops the worker processes and closes the store.

    Raises (from ``start``):
        OSError: the address is in use or not available.
        StoreError, sqlite3.Error: the store cannot be opened.
    """

    def __init__(self, config: ServerConfig):
        self.config = config
        self.store: Store | None = None
        self.lobby: Lobby | None = None
        self._server: Server | None = None
        self.workers: WorkerPool | None = None
        self.static = StaticFiles()

    async def start(self) -> None:
        """Open the store, rebuild interrupted rooms from their logs, and start listening.

        Raises:
            StoreError: the store cannot be used (see :class:`server.store.Store`).
            OSError: the address cannot be bound; the store is closed and its lock released again.
        """
        self.store = Store(self.config.db)
        self.workers = WorkerPool(self.config.workers)
        self.lobby = Lobby(self.store, self.config, self.workers)
        try:
            self.lobby.restore()
            self._server = await serve(
                self._serve,
                self.config.host,
                self.config.port,
                process_request=self._process_request,
                compression=None,
                max_size=self.config.max_frame,
                ping_interval=self.config.ping_interval,
                ping_timeout=self.config.ping_timeout,
            )
        except BaseException:
            await self.stop()  # the store's lock is not left held by a server that never listened
            raise
        log.info("listening on %s", self.url)

    @property
    def port(self) -> int:
        """The TCP port actually bound (useful with port 0)."""
        assert self._server is not None, "server not started"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def url(self) -> str:
        """``ws://host:port`` of the listener."""
        return f"ws://{self.config.host}:{self.port}"

    @property
    def share_url(self) -> str:
        """``http://HOST:PORT/``, the address friends open in a browser: this machine's name when the server
        listens on every interface."""
        host = self.config.host
        if host in ("", "0.0.0.0", "::"):
            host = socket.gethostname()
        elif ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    async def stop(self) -> None:
        """Close every connection (code 1001), stop the rooms and the worker processes, close the store."""
        if self.lobby is not None:
            self.lobby.stop()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        if self.workers is not None:
            await self.workers.close()
            self.workers = None
        if self.store is not None:
            self.store.close()
            self.store = None

    async def __aenter__(self) -> BarbuServer:
        await self.start()
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    async def _serve(self, ws: ServerConnection) -> None:
        assert self.lobby is not None
        await serve_connection(ws, self.lobby)

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Plain HTTP before any WebSocket: ``/healthz``, then the browser client's files; None lets a
        WebSocket handshake go on."""
        return _healthz(connection, request) or self.static.respond(request)


def _healthz(connection: ServerConnection, request: Request) -> Response | None:
    """Answer ``GET /healthz`` over plain HTTP with ``200 ok``; other paths go on to the WebSocket handshake."""
    if request.path == "/healthz":
        return connection.respond(HTTPStatus.OK, "ok\n")
    return None


def tune_gc() -> None:
    """Collect cycles less often: a busy server allocates many short-lived frames and views, and the default
    thresholds make full collections (pauses of tens of ms with a thousand connections) frequent. Objects
    alive after start-up (the restored rooms) are frozen out of collection."""
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


async def run_server(config: ServerConfig) -> None:
    """Run a server until SIGINT or SIGTERM, then shut it down cleanly."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    server = BarbuServer(config)
    await server.start()
    tune_gc()
    print(f"barbu server listening on {server.url} (store {config.db})", flush=True)
    print(f"friends join from a browser at {server.share_url}", flush=True)
    try:
        await stop.wait()
    finally:
        log.info("shutting down")
        await server.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
