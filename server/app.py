"""The server process: the store, the lobby, the WebSocket listener with ``/healthz`` and the browser client's
files (``server.static``), and clean shutdown.

The server owns one worker pool for CPU-heavy work (``server.workers``), started with it and closed after
the connections. ``BarbuServer`` is an async context manager (tests start one on port 0); ``run_server``
runs one until SIGINT or SIGTERM. WebSocket settings: compression off (frames are small msgpack), keepalive pings,
a closing handshake given ``END_WITHIN`` seconds once its close frame is written (websockets'
``close_timeout``; then the TCP connection is aborted), a connection aborted when more than
``max_queued_bytes`` wait unsent, pongs included, or when its writes stay held up for ``write_timeout``
seconds, the kernel's send buffer fixed, pings beyond their budget closing it
(``server.peer.BoundedConnection``), ``max_size`` from the config once logged in and 16 KiB in at most 64
fragments before (``server.peer.BEFORE_LOGIN``; larger messages close the connection with 1009, as do
messages in more than ``server.peer.LOGGED_IN_FRAGMENTS`` fragments once logged in, docs/protocol.md).
Connections beyond ``max_connections`` in all, or ``max_connections_per_address`` from one address, are
refused with HTTP 503 before the upgrade (``over_capacity``), a browser's request under a name the server
does not go by with 403 or 421 (``server.hosts``, against DNS rebinding), and a handshake from another site's
page with 403 (``server.origins``), counted against nothing; methods but ``GET`` and ``HEAD`` get 405. A listener out
of file descriptors (EMFILE) is logged once a second at most, and so are asyncio's lines for writes to lost
connections and every line one connection makes (websockets' "connection open" and "connection closed", a
connection closed for breaking a bound), each kind by itself (``ThrottledLines``). Unfinished solitaire rooms idle for ``solitaire_idle`` are finished in the background.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import signal
from http import HTTPStatus
from types import TracebackType
from typing import Any, ClassVar

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from server.addresses import address_group, forwarded_client
from server.config import ServerConfig
from server.connection import serve_connection
from server.durability import GroupCommit
from server.hosts import HostCheck, own_name
from server.lobby import SERVER_NAME, Lobby
from server.origins import OriginCheck
from server.peer import BEFORE_LOGIN, END_WITHIN, BoundedConnection
from server.ratelimit import Throttle
from server.static import StaticFiles, path_of, wants_websocket
from server.store import Store, StoreError
from server.workers import WorkerPool

log = logging.getLogger(__name__)
#: The ``Server`` header of every response: the program's name, no versions (websockets' default names
#: Python's and its own, which tells a scanner what to try); the ``welcome`` names the same.
SERVER_HEADER = SERVER_NAME


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
        self.durable: GroupCommit | None = None
        #: Why the store stopped writing for good (a failed fsync), once it has; ``failed`` is then set and
        #: ``run_server`` stops the server.
        self.failure: str | None = None
        self.failed = asyncio.Event()
        self.static = StaticFiles()
        self.origins = OriginCheck(config.allowed_origins)
        self.hosts = HostCheck(config.host, config.allowed_origins, config.allowed_hosts)
        self._expiry: asyncio.Task[None] | None = None
        self._accept_errors = Throttle(1.0)
        # Logger -> its filter: asyncio's lost writes only; every line of a connection's opening and end.
        self._log_filters = {
            "asyncio": ThrottledLines(only=LOST_WRITE),
            "websockets.server": ThrottledLines(),
            "server.peer": ThrottledLines(),
        }
        self.connections = ConnectionCounts()
        self._connection_class = type(
            "Counted",
            (CountedConnection,),
            {
                "counts": self.connections,
                "max_unsent": config.max_queued_bytes,
                "write_timeout": config.write_timeout,
                "max_message": config.max_frame,
                "send_buffer": config.send_buffer,
                "ping_rate": config.ping_rate,
                "ping_burst": config.ping_burst,
            },
        )
        self._loop_handler: Any = None

    async def start(self) -> None:
        """Open the store, rebuild interrupted rooms from their logs, and start listening.

        Raises:
            StoreError: the store cannot be used (see :class:`server.store.Store`).
            OSError: the address cannot be bound; the store is closed and its lock released again.
        """
        self.store = Store(self.config.db, group_commit=True)
        self.durable = GroupCommit(self.store, self._store_failed)
        self.durable.start()
        self.workers = WorkerPool(self.config.workers)
        self.lobby = Lobby(self.store, self.config, self.workers, self.durable)
        try:
            self.lobby.restore()
            self._server = await serve(
                self._serve,
                self.config.host,
                self.config.port,
                process_request=self._process_request,
                create_connection=self._connection_class,
                compression=None,
                max_size=min(self.config.max_frame, BEFORE_LOGIN[0]),  # raised by the login
                ping_interval=self.config.ping_interval,
                ping_timeout=self.config.ping_timeout,
                close_timeout=END_WITHIN,
                server_header=SERVER_HEADER,
            )
        except BaseException:
            await self.stop()  # the store's lock is not left held by a server that never listened
            raise
        for name, lines in self._log_filters.items():
            logging.getLogger(name).addFilter(lines)
        loop = asyncio.get_running_loop()
        self._loop_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_exception)
        self._expiry = loop.create_task(self.lobby.run_expiry())
        log.info("listening on %s", self.url)

    def _store_failed(self, why: str) -> None:
        self.failure = why
        self.failed.set()

    @property
    def port(self) -> int:
        """The TCP port actually bound (useful with port 0)."""
        assert self._server is not None, "server not started"
        port: int = self._server.sockets[0].getsockname()[1]
        return port

    @property
    def url(self) -> str:
        """``ws://host:port`` of the listener (an IPv6 host in brackets: ``ws://[::1]:8765``)."""
        host = self.config.host
        return f"ws://[{host}]:{self.port}" if ":" in host else f"ws://{host}:{self.port}"

    @property
    def share_url(self) -> str:
        """``http://HOST:PORT/``, the address friends open in a browser: this machine's name when the server
        listens on every interface."""
        host = own_name(self.config.host)
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{self.port}/"

    async def stop(self) -> None:
        """Close every connection (code 1001), stop the rooms and the worker processes, close the store."""
        if self._expiry is not None:
            self._expiry.cancel()
            self._expiry = None
            asyncio.get_running_loop().set_exception_handler(self._loop_handler)
        if self.lobby is not None:
            self.lobby.stop()
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()
            self._server = None
        for name, lines in self._log_filters.items():
            logging.getLogger(name).removeFilter(lines)
        if self.workers is not None:
            await self.workers.close()
            self.workers = None
        if self.durable is not None:
            await self.durable.close()
            self.durable = None
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

    def _loop_exception(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """asyncio's error handler, but a listener's failing ``accept()`` (out of file descriptors: EMFILE)
        is logged once a second at most, with the count of those held back."""
        if "accept" in str(context.get("message", "")):
            held = self._accept_errors.ready()
            if held is not None:
                log.error(
                    "%s (%d more since the last line): %s", context["message"], held, context.get("exception")
                )
            return
        if self._loop_handler is not None:
            self._loop_handler(loop, context)
        else:
            loop.default_exception_handler(context)

    async def _serve(self, ws: ServerConnection) -> None:
        assert self.lobby is not None
        await serve_connection(ws, self.lobby)

    def _process_request(self, connection: ServerConnection, request: Request) -> Response | None:
        """Plain HTTP before any WebSocket: first the method (``GET`` and ``HEAD`` only: 405), then
        ``/healthz`` (answered at the connection caps too: a connection flood must not read as a server down
        to its monitoring), then a browser's ``Host`` (``server.hosts``: 403 for a handshake with ``Origin``,
        421 for the page and its files, under a name the server does not go by), then a handshake's
        ``Origin`` (403 for another site's page), then the
        connection caps (``over_capacity``: 503; a connection from a trusted reverse proxy counted as the
        client it forwards), then the browser client's files; None lets a WebSocket handshake go on. Paths
        are routed without their query string; a ``HEAD`` gets the ``GET``'s headers and no body."""
        if self.config.trusted_proxies and isinstance(connection, CountedConnection):
            connection.forwarded(request, frozenset(self.config.trusted_proxies))
        response = (
            _method_not_allowed(connection, request)
            or _healthz(connection, request)
            or self._foreign_host(connection, request)
            or self._foreign_origin(connection, request)
            or over_capacity(connection, self.config)
            or self.static.respond(request)
        )
        if response is not None and request.method == "HEAD":
            response.body = b""  # headers only; Content-Length stays the GET's
        return response

    def _foreign_host(self, connection: ServerConnection, request: Request) -> Response | None:
        """A browser's request under a name the server does not go by (``server.hosts``, against DNS
        rebinding), no longer counted against the connection caps: HTTP 403 for a WebSocket handshake with
        ``Origin``, 421 for the page and its files; None for anything else (a handshake without ``Origin``
        is a program's, whatever its ``Host``)."""
        if wants_websocket(request):
            if not request.headers.get_all("Origin"):
                return None
            status = HTTPStatus.FORBIDDEN
        else:
            status = HTTPStatus.MISDIRECTED_REQUEST
        why = self.hosts.refusal(request)
        if why is None:
            return None
        if isinstance(connection, CountedConnection):
            connection.uncount()
        return connection.respond(status, why + "\n")

    def _foreign_origin(self, connection: ServerConnection, request: Request) -> Response | None:
        """HTTP 403 for a WebSocket handshake from another site's page (``server.origins``), no longer
        counted against the connection caps; None for anything else."""
        if not wants_websocket(request):
            return None
        why = self.origins.refusal(request)
        if why is None:
            return None
        if isinstance(connection, CountedConnection):
            connection.uncount()
        return connection.respond(HTTPStatus.FORBIDDEN, why + "\n")


#: asyncio's line for each write to a connection already lost, after the fifth: websockets writes each pong
#: of a read on its own, so a client that floods pings and resets its connection made thousands a second.
LOST_WRITE = "socket.send() raised exception."


class ThrottledLines(logging.Filter):
    """Lets a logger's lines up to WARNING through at most once every ``interval`` seconds for each kind (its
    message before formatting), with the count held back since in the line let through: a flood of short
    connections made a line or two apiece (1,721 connections in 10 s: 357 KB of log). ``only``: throttle
    that one message alone, let every other line through. Errors always pass."""

    def __init__(self, interval: float = 1.0, only: str | None = None) -> None:
        super().__init__()
        self.interval = interval
        self.only = only
        self._kinds: dict[str, Throttle] = {}  # a few: the loggers' message templates

    def filter(self, record: logging.LogRecord) -> bool:
        """False for a held-back line; the line let through says how many were held back."""
        kind = str(record.msg)
        if record.levelno > logging.WARNING or (self.only is not None and kind != self.only):
            return True
        throttle = self._kinds.setdefault(kind, Throttle(self.interval))
        held = throttle.ready()
        if held is None:
            return False
        if held:
            record.msg = f"{kind} ({held} more since the last line)"  # adds no "%" to format
        return True


class ConnectionCounts:
    """The server's connections (from the TCP accept, handshake included, to the close), in all and by IP
    address: what the caps count, kept up to date so that checking one costs nothing however many there are
    (a count over every open connection made each accept cost O(n): a login storm's quadratic)."""

    def __init__(self) -> None:
        self.total = 0
        self.by_address: dict[str, int] = {}

    def add(self, address: str) -> None:
        """Count a connection from ``address``."""
        self.total += 1
        self.by_address[address] = self.by_address.get(address, 0) + 1

    def remove(self, address: str) -> None:
        """A connection from ``address`` is gone (or refused)."""
        self.total -= 1
        left = self.by_address[address] - 1
        if left:
            self.by_address[address] = left
        else:
            del self.by_address[address]


class CountedConnection(BoundedConnection):
    """A ``ServerConnection`` counted in its server's ``counts`` while its TCP connection is open, and aborted
    when it leaves too much unsent (``BoundedConnection``); a subclass per server sets ``counts`` and the
    bounds."""

    counts: ClassVar[ConnectionCounts]
    counted: str | None = None
    #: The socket peer's host, as it is.
    peer_host = "unknown"
    #: The address the per-address caps count this connection as (``server.addresses``).
    client = "unknown"

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        peer = transport.get_extra_info("peername")
        self.peer_host = str(peer[0]) if isinstance(peer, tuple) and peer else "unknown"
        self.client = self.counted = address_group(self.peer_host)
        self.counts.add(self.counted)

    def forwarded(self, request: Request, trusted: frozenset[str]) -> None:
        """Count the connection as the client a trusted reverse proxy forwards it for (``X-Forwarded-For``,
        ``forwarded_client``), not as the proxy."""
        client = forwarded_client(self.peer_host, request.headers.get_all("X-Forwarded-For"), trusted)
        if client != self.client and self.counted is not None:
            self.counts.remove(self.counted)
            self.counts.add(client)
            self.counted = client
        self.client = client

    def connection_lost(self, exc: Exception | None) -> None:
        try:
            super().connection_lost(exc)
        finally:
            self.uncount()

    def uncount(self) -> None:
        """Stop counting this connection (it closes, or is refused and closes soon)."""
        if self.counted is not None:
            self.counts.remove(self.counted)
            self.counted = None


def over_capacity(connection: ServerConnection, config: ServerConfig) -> Response | None:
    """HTTP 503 when ``connection`` makes more than ``config.max_connections`` connections in all or
    ``config.max_connections_per_address`` from its address (a ``CountedConnection``, counted from its
    accept; a refused one is no longer counted); None when there is room."""
    if not isinstance(connection, CountedConnection) or connection.counted is None:
        return None
    counts, address = connection.counts, connection.counted
    if counts.total > config.max_connections:
        why = "the server is full: too many connections; try later"
    elif counts.by_address.get(address, 0) > config.max_connections_per_address:
        why = "too many connections from your address; close some and try again"
    else:
        return None
    connection.uncount()
    return _unavailable(connection, why)


def _unavailable(connection: ServerConnection, why: str) -> Response:
    response = connection.respond(HTTPStatus.SERVICE_UNAVAILABLE, why + "\n")
    response.headers["Retry-After"] = "5"
    return response


def _healthz(connection: ServerConnection, request: Request) -> Response | None:
    """Answer ``GET /healthz`` (any query string) over plain HTTP with ``200 ok``; other paths go on."""
    if path_of(request) == "/healthz":
        return connection.respond(HTTPStatus.OK, "ok\n")
    return None


#: The methods the server answers (the page, its files, ``/healthz``, the WebSocket handshake's ``GET``).
ALLOWED_METHODS = ("GET", "HEAD")


def _method_not_allowed(connection: ServerConnection, request: Request) -> Response | None:
    """HTTP 405 with ``Allow: GET, HEAD`` for any other method, whatever the path; None for those two."""
    if request.method in ALLOWED_METHODS:
        return None
    response = connection.respond(
        HTTPStatus.METHOD_NOT_ALLOWED, f"method {request.method[:20]} not allowed: only GET and HEAD\n"
    )
    response.headers["Allow"] = ", ".join(ALLOWED_METHODS)
    return response


def tune_gc() -> None:
    """Collect cycles less often: a busy server allocates many short-lived frames and views, and the default
    thresholds make full collections (pauses of tens of ms with a thousand connections) frequent. Objects
    alive after start-up (the restored rooms) are frozen out of collection."""
    gc.freeze()
    gc.set_threshold(100_000, 50, 100)


async def run_server(config: ServerConfig) -> None:
    """Run a server until SIGINT or SIGTERM, then shut it down cleanly.

    Raises:
        StoreError: the store failed an fsync (``server.durability``): the server stopped at once.
    """
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    server = BarbuServer(config)
    await server.start()
    tune_gc()
    print(f"barbu server listening on {server.url} (store {config.db})", flush=True)
    print(f"friends join from a browser at {server.share_url}", flush=True)
    waits = [asyncio.ensure_future(stop.wait()), asyncio.ensure_future(server.failed.wait())]
    try:
        await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
        log.info("shutting down")
        await server.stop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.remove_signal_handler(sig)
    if server.failure is not None:
        raise StoreError(f"{config.db}: the disk failed ({server.failure}); stopped, start the server again")
