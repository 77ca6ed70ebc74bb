"""The server's settings (``barbu serve`` options) with their defaults."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass(frozen=True)
class ServerConfig:
    """Settings of one server process.

    Attributes:
        host: interface to listen on.
        port: TCP port (0: any free port).
        db: path of the SQLite store file.
        password: the server password players must give at login (None: no password).
        grace: default seconds a dropped player's seat is held before a stand-in bot plays it (before the
            start: before it is freed).
        bot_delay: seconds a server or stand-in bot waits before acting (0 in tests).
        bot_policy: the policy spec (``engine.barbu.spec``) of a table's bots and stand-ins when its
            ``create-table`` names none.
        max_frame: hard WebSocket message limit in bytes once logged in; larger messages close the
            connection (1009). Frames above the protocol's ``max_frame`` but within this get a ``too-large``
            error; 64 KiB, so that no free login can make the server hold much of an unfinished message.
            Before the login the limit is the protocol's ``max_frame``, 16 KiB, in at most 16 fragments
            (``server.peer.BEFORE_LOGIN``); after, at most 16 too (``server.peer.LOGGED_IN_FRAGMENTS``).
        ping_interval: seconds between keepalive pings (None: no pings).
        ping_timeout: seconds to wait for a pong before closing the connection.
        ping_rate: pings per second a client may send on average (WebSocket pings, which the server answers
            by itself, outside the request budget); beyond ``ping_burst`` at once the connection is closed
            (1008, ``too many pings``). Clients' keepalive pings come one every 20 s or so.
        ping_burst: pings a client may send back to back before ``ping_rate`` applies.
        send_buffer: the kernel send buffer of each accepted socket, in bytes (``SO_SNDBUF``; Linux keeps
            twice this, for its bookkeeping); None: the kernel's own, which it grows to megabytes on a
            connection that reads nothing, on top of ``max_queued_bytes``.
        max_backlog: frames allowed to queue for a slow client before it is disconnected.
        max_queued_bytes: bytes allowed to wait unsent to a slow client before it is disconnected: the
            server's frames and what waits in the connection's write buffer, the pongs websockets sends by
            itself included (a client sending pings it never reads the answers of is aborted past it).
            What the kernel has taken (at most twice ``send_buffer``) is not counted.
        write_timeout: seconds a connection's writes may stay held up (more than websockets' ``write_limit``,
            32 KiB, waiting in its write buffer, past what the kernel takes: the client reads nothing)
            before it is aborted; neither a keepalive ping nor a closing handshake can go out before then
            (None: no limit). A client leaving less unread is ended by the keepalive instead.
        request_rate: requests per second one connection may send on average (its budget refills at this
            rate); beyond it requests are refused with ``slow-down``.
        request_burst: requests one connection may send back to back before ``request_rate`` applies.
        address_request_rate: requests per second all connections from one IP address may send together
            (None: 5 times ``request_rate``), so that opening many connections does not multiply the
            budget; beyond it their requests are refused with ``slow-down``. Behind a reverse proxy every
            player shares the proxy's address: raise it there.
        address_request_burst: requests the connections of one address may send back to back before
            ``address_request_rate`` applies (None: 5 times ``request_burst``).
        max_waiting_tables: unstarted tables one player may have created (or asked for by ``rematch``) at a
            time.
        max_tables_per_player: tables not over (waiting or playing, bots only or not) one player may host at
            a time: a table of four server bots starts at once, so the waiting cap alone would not bound them.
        max_tables_per_address: tables not over that the players of one IP address may have created during
            this run (throwaway names do not multiply ``max_tables_per_player``). Behind a reverse proxy every
            player shares the proxy's address: raise it to ``max_tables`` there.
        max_tables: Barbu tables the server holds at most (solitaire rooms are counted apart, so they can
            never use up the tables' room).
        max_solitaire_rooms: solitaire rooms the server holds at most (``too-many-rooms`` beyond); each
            player has one unfinished solitaire room at a time (opening another finishes it).
        max_solitaire_rooms_per_address: solitaire rooms the players of one IP address may hold (besides the
            one a new room replaces; ``too-many-rooms`` beyond), so throwaway names from one place cannot take
            every room. Behind a reverse proxy every player shares the proxy's address: raise it there.
        deals_per_minute: solitaire rooms (``open-solitaire``, ``new-deal``) the players of one IP address may
            open in any 60 seconds (``slow-down`` beyond): each finished game is kept in the store.
        solitaire_idle: seconds an unfinished solitaire room may go without a move before the server finishes
            it (resigned, its record kept; a room without a move is deleted).
        max_connections: WebSocket connections the server holds at most; more are refused with HTTP 503
            before the upgrade.
        max_connections_per_address: connections one IP address may hold at most (HTTP 503 beyond). Behind a
            reverse proxy every player shares the proxy's address: raise it to ``max_connections`` there.
        max_bot_time: seconds a server bot (or stand-in) may think about one decision in the worker pool at
            most: a table's ``bot_policy`` or an ``add-bot`` policy asking more (``search:time=T``) is refused
            (``bad-message``), and every decision, the server's default policy's too, is cut to it.
        max_spectators: spectators one room holds at most (``too-many-spectators`` beyond): each ``watch``
            tells everyone at the room who watches, so the cost grows with the square of their number.
        max_spectators_per_address: spectators of one room from one IP address at most
            (``too-many-spectators`` beyond), so throwaway names from one place cannot take every place; a
            player holding a seat at the room is never refused. Behind a reverse proxy every player shares
            the proxy's address: raise it to ``max_spectators`` there.
        max_waiting_seats: tables waiting for players (not started) one player may sit at at a time
            (``too-many-seats`` beyond), so nobody can hold a seat at every waiting table.
        max_waiting_seats_per_address: seats at waiting tables the players of one IP address may hold at a
            time (``too-many-seats`` beyond). Behind a reverse proxy every player shares the proxy's address:
            raise it there.
        trusted_proxies: IP addresses of reverse proxies whose ``X-Forwarded-For`` header names the client:
            a connection from one counts, for every per-address cap, as the client it forwards
            (``server.addresses.forwarded_client``); from anyone else the header is ignored.
        allowed_origins: origins (``http(s)://HOST[:PORT]``) whose pages may open the WebSocket besides the
            server's own (the request's ``Host``): a TLS proxy serving the page under another name
            (``server.origins``). A handshake without ``Origin`` (a program, not a browser) always may.
            Their hosts are names the server answers browsers under (``allowed_hosts``).
        allowed_hosts: host names (``barbu.example.org``) the server answers browsers under besides IP
            addresses, ``localhost``, its own name and the hosts of ``allowed_origins``; a browser's request
            under any other ``Host`` is refused, against DNS rebinding (``server.hosts``).
        idle_turn: seconds a connected human may leave their turn unplayed at a table without a turn timer
            before a stand-in bot takes the seat (the player is told, ``removed`` with reason ``idle``, and
            ``sit`` takes the seat back); None: never. A table with ``turn_time`` has its own timer instead.
        max_listed: rooms a ``list-rooms`` reply lists at most (the player's own first, then the newest).
        bad_password_delay: seconds a wrong server password waits before it is refused.
        max_failed_logins: wrong passwords one connection may send before it is closed (code 1008).
        max_wrong_passwords: wrong passwords one address may send within ``wrong_password_window`` seconds,
            over all its connections; then its password logins are refused (``slow-down``) until the
            window has room again. The same number of unknown resume tokens, counted apart, stops its
            ``resume`` requests the same way. Behind a reverse proxy every player shares the proxy's address.
        wrong_password_window: the span, in seconds, over which ``max_wrong_passwords`` counts.
        secret_hashes_per_minute: personal secrets (``login.secret``) the logins of one IP address may have
            hashed in any 60 seconds, to claim a name or to check one (scrypt, some 50 ms of CPU each; a
            refused login costs nothing); beyond it ``slow-down`` (field ``secret``, ``retry_after``). A
            ``resume`` costs none. Behind a reverse proxy every player shares the proxy's address: raise it
            there.
        max_hashes_waiting: logins that may wait for a hashing thread (``server.identity.Hasher``, 2 hashing at
            once) beyond those hashing; one more is answered ``busy`` (field ``secret``) at once rather than
            queued, so a storm of logins cannot hold up everyone's for seconds.
        login_timeout: seconds a new connection has to log in (or resume) before it is closed.
        token_ttl: seconds a resume token works unused: counted from when it was handed out (by ``login``
            or ``resume``, which hands out a fresh one each time) or, later, from when its player's last
            connection ended (a connection open counts as use: ``Store.touch_tokens``); 30 days.
        chat_burst: chat messages one connection may send within ``chat_window`` seconds.
        chat_window: the span, in seconds, over which ``chat_burst`` counts.
        workers: worker processes for CPU-heavy work (solver hints, search bots): ``server.workers``.
        hint_budget: seconds the solver may search for one solitaire hint (in a worker process).
        empty_table_ttl: seconds a new table waits for its first player before the lobby may drop it (so a
            table is not swept away between its creation and its creator sitting down).
    """

    host: str = "127.0.0.1"
    port: int = 8765
    db: str = "barbu.sqlite3"
    password: str | None = None
    grace: float = 60.0
    bot_delay: float = 0.3
    bot_policy: str = "search"
    max_frame: int = 1 << 16
    ping_interval: float | None = 20.0
    ping_timeout: float | None = 20.0
    ping_rate: float = 1.0
    ping_burst: float = 10.0
    send_buffer: int | None = 64 * 1024
    max_backlog: int = 2048
    max_queued_bytes: int = 1 << 20
    write_timeout: float | None = 20.0
    request_rate: float = 200.0
    request_burst: float = 400.0
    address_request_rate: float | None = None
    address_request_burst: float | None = None
    empty_table_ttl: float = 300.0
    login_timeout: float = 30.0
    token_ttl: float = 30 * 86400.0
    bad_password_delay: float = 1.0
    max_failed_logins: int = 5
    max_wrong_passwords: int = 20
    wrong_password_window: float = 300.0
    secret_hashes_per_minute: int = 20
    max_hashes_waiting: int = 16
    chat_burst: int = 10
    chat_window: float = 10.0
    max_waiting_tables: int = 3
    max_tables_per_player: int = 5
    max_tables_per_address: int = 20
    max_tables: int = 1000
    max_solitaire_rooms: int = 1000
    max_solitaire_rooms_per_address: int = 20
    deals_per_minute: int = 60
    solitaire_idle: float = 86400.0
    max_connections: int = 2000
    max_connections_per_address: int = 100
    max_spectators: int = 50
    trusted_proxies: tuple[str, ...] = ()
    allowed_origins: tuple[str, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    max_spectators_per_address: int = 5
    max_waiting_seats: int = 3
    max_waiting_seats_per_address: int = 20
    idle_turn: float | None = 300.0
    max_bot_time: float = 2.0
    max_listed: int = 200
    workers: int = 1
    hint_budget: float = 2.0

    #: How many connections' budgets one address gets when its own is not set.
    ADDRESS_SHARE: ClassVar[float] = 5.0

    @property
    def address_rate(self) -> float:
        """``address_request_rate``, or its default: 5 times ``request_rate``."""
        rate = self.address_request_rate
        return self.ADDRESS_SHARE * self.request_rate if rate is None else rate

    @property
    def address_burst(self) -> float:
        """``address_request_burst``, or its default: 5 times ``request_burst``."""
        burst = self.address_request_burst
        return self.ADDRESS_SHARE * self.request_burst if burst is None else burst
