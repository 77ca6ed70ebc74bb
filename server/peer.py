"""One client connection as the server sees it: who it is, what it has joined, its outgoing queue and its
request budget.

Rooms never await a client: ``send`` puts the encoded frame on a queue that a writer task drains into the
WebSocket. A client that lets ``max_backlog`` frames or ``max_queued_bytes`` bytes pile up unread is
disconnected (close code 1008) and its queue dropped, so one slow (or never) reading client can neither hold
up a table nor grow the server's memory. The bytes counted are the queue's and those waiting in the
connection's write buffer (``BoundedConnection``), pongs and close frames websockets writes by itself
included: a client sending pings it never reads the pongs of has its connection aborted once they pass the
bound, as has one whose writes stay held up for ``write_timeout`` seconds (keepalive pings and closing
handshakes cannot go out to a client that reads nothing, and websockets' own timeouts wait for them). The
kernel's share is bounded too: each accepted socket gets a fixed send buffer (``send_buffer``; Linux would
otherwise grow it to megabytes on a connection that reads nothing, unseen by either bound). Pings have a
budget of their own (``ping_rate``, ``ping_burst``): websockets answers each at once, before any request
budget sees it, so a client sending more is closed (1008).

A peer speaks the encoding of its first frame (``protocol.encodings``): ``send`` encodes in it, and
``send_frame`` takes a broadcast's msgpack frame (encoded once for the whole room) and transcodes it for a
peer speaking JSON (whose queued size is then counted in characters).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections import deque
from typing import TYPE_CHECKING, ClassVar

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode, Frame, Opcode
from websockets.protocol import Event, State

from protocol import REQUEST_LIMITS, Message
from protocol.encodings import Encoding, encode, transcode
from server.addresses import address_group
from server.ratelimit import EventWindow, TokenBucket
from server.store import StoreUnavailable

if TYPE_CHECKING:
    from server.durability import GroupCommit
    from server.room import Room

log = logging.getLogger(__name__)
#: Seconds an ended connection (``Peer.end``) has to take the frames queued before its close; then it is
#: closed all the same, what is left unsent: a client that stopped reading holds no task for long.
END_WITHIN = 5.0
#: Bytes read from a connection's socket at a time: websockets parses every frame of a read in one go (and
#: answers every ping in it), and 256 KiB (asyncio's default) of pipelined small frames is a pause of tens
#: of ms.
READ_CHUNK = 4096
#: Before the login (or resume), the longest message in bytes and the most WebSocket fragments it may come
#: in; beyond either the connection is closed (1009). ``hello``, ``login`` and ``resume`` are small and
#: whole, and a request longer than the protocol's ``max_frame`` is refused anyway; but websockets holds a
#: message's fragments until the last one comes (each ~140 bytes even when empty), so with the bounds of a
#: logged-in connection (``ServerConfig.max_frame``, 1 MiB, and websockets' 4,096 fragments) 50
#: connections each sending most of a message held 32 MiB more until their login deadline.
BEFORE_LOGIN = (REQUEST_LIMITS.max_frame, 16)
#: Fragments a logged-in client's message may come in. websockets' own 4,096 let a free login hold ~560 KB
#: of empty fragments per connection for as long as it stays connected; and websockets parses every
#: fragment (~13 µs each), so with 256 a cheap request split into 250 cost the event loop four times a
#: whole one's CPU (a fresh attack: 8 connections of one address sending such splits held another player's
#: round trips at p50 301 ms; split into 16 at most, p50 49 ms at the same load, a whole-message flood
#: 18 ms). No client of ours splits a message; a 64 KiB one still fits in 16 fragments of 4 KiB.
LOGGED_IN_FRAGMENTS = 16


class BoundedConnection(ServerConnection):
    """A ``ServerConnection`` that is aborted (its TCP connection reset: a closing handshake cannot reach a
    client that reads nothing) when the client leaves too much unread:

    - when frames arrive and its unsent bytes (``unsent``: the write buffer, pongs included, and the frames
      its ``Peer`` holds) pass ``max_unsent``: websockets answers every ping at once, whatever waits unsent;
    - when its writes stay paused (more than websockets' ``write_limit``, 32 KiB, waiting in the write buffer)
      for ``write_timeout`` seconds: a keepalive ping or a close frame then waits for room in the buffer
      before websockets' ``ping_timeout`` or ``close_timeout`` even starts, so neither would ever end it.

    Both count only what the kernel has not taken, so the kernel's send buffer is fixed at ``send_buffer``
    bytes (Linux doubles the figure set for its own bookkeeping). And it is closed (a close frame 1008,
    ``too many pings``; its TCP connection cut ``END_WITHIN`` seconds later) when it sends pings faster
    than its ping budget (``ping_rate`` a second, ``ping_burst`` at once) allows, and the same way (1009)
    when before the login a message comes in more than ``max_fragments`` fragments.

    A subclass per server sets the limits (``server.app``).
    """

    #: Bytes that may wait unsent to the client (``ServerConfig.max_queued_bytes``).
    max_unsent: ClassVar[int] = 1 << 20
    #: Seconds the connection's writes may stay paused (``ServerConfig.write_timeout``; None: no limit).
    write_timeout: ClassVar[float | None] = 20.0
    #: The socket's ``SO_SNDBUF`` in bytes (``ServerConfig.send_buffer``; None: the kernel's own).
    send_buffer: ClassVar[int | None] = 64 * 1024
    #: Pings a second the client may send on average (``ServerConfig.ping_rate``).
    ping_rate: ClassVar[float] = 1.0
    #: Pings the client may send back to back (``ServerConfig.ping_burst``).
    ping_burst: ClassVar[float] = 10.0
    #: The longest message in bytes once logged in (``ServerConfig.max_frame``); before, ``BEFORE_LOGIN``.
    max_message: ClassVar[int] = 1 << 16
    #: Fragments a message may come in (``BEFORE_LOGIN``, then ``LOGGED_IN_FRAGMENTS``).
    max_fragments: int = BEFORE_LOGIN[1]
    _logged_in = False
    _fragments = 0
    _continued: deque[int] | None = None  # per message read and not yet taken: its fragments after the first
    #: Bytes of frames its ``Peer`` holds in its own queue, not yet handed to the connection.
    held = 0
    _stalled: asyncio.TimerHandle | None = None
    _pings: TokenBucket | None = None
    _failed = False  # a bound of ``process_event`` was broken: the connection is closing

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        if hasattr(transport, "max_size"):  # asyncio's socket transports read this much at a time
            transport.max_size = READ_CHUNK
        sock = transport.get_extra_info("socket")
        if self.send_buffer is not None and sock is not None:
            # Fixed, it also stops the kernel's autotuning, which gave a client reading nothing ~3 MB of it.
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)

    def unsent(self) -> int:
        """Bytes queued for the client and not yet handed to the kernel: the ``Peer``'s queue and the
        transport's write buffer."""
        return self.held + self.transport.get_write_buffer_size()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)  # answers pings (and a close) at once
        unsent = self.unsent()
        if unsent > self.max_unsent and not self.transport.is_closing():
            log.warning(
                "%s: %d bytes unsent (pongs included), aborting the connection", self.remote_address, unsent
            )
            self.transport.abort()

    def logged_in(self) -> None:
        """Ease the bounds of ``BEFORE_LOGIN``: messages of up to ``max_message`` bytes (a little over the
        protocol's ``max_frame``, so a request just too long gets ``too-large`` rather than a close), in at
        most ``LOGGED_IN_FRAGMENTS`` fragments."""
        self.protocol.max_message_size = self.max_message
        self.max_fragments = LOGGED_IN_FRAGMENTS
        self._logged_in = True

    def process_event(self, event: Event) -> None:
        if self._failed:
            return  # the rest of a read that broke a bound: already answered by websockets, if a ping
        if isinstance(event, Frame):
            # Pongs the server asks for come once per keepalive ping; unasked ones cost as much to parse as
            # pings (a fresh attack: 5 connections sending 428,000 empty pongs a second took a core and held
            # another player's round trip at p50 72 ms), so both share the ping budget.
            if event.opcode in (Opcode.PING, Opcode.PONG):
                if self._pings is None:
                    self._pings = TokenBucket(self.ping_rate, self.ping_burst)
                if self._pings.take() > 0:
                    kind = "pings" if event.opcode is Opcode.PING else "pongs"
                    why = (
                        f"more than {self.ping_burst:g} {kind} at once or {self.ping_rate:g} a second"
                        " (pings and pongs counted together)"
                    )
                    self._fail(CloseCode.POLICY_VIOLATION, f"too many {kind}", why)
                    return
            elif event.opcode in (Opcode.TEXT, Opcode.BINARY, Opcode.CONT):
                self._fragments = self._fragments + 1 if event.opcode is Opcode.CONT else 1
                if event.fin:
                    if self._continued is None:
                        self._continued = deque()
                    self._continued.append(self._fragments - 1)
                if self._fragments > self.max_fragments:
                    why = f"more than {self.max_fragments} fragments" + (
                        "" if self._logged_in else " before login"
                    )
                    self._fail(CloseCode.MESSAGE_TOO_BIG, why, why)
                    return
        super().process_event(event)

    def take_continued(self) -> int:
        """The fragments after its first of the oldest message read and not yet taken (0 when it came whole),
        for the request budget (``server.costs.FRAGMENT``). Messages are handed on in the order they are
        read, but websockets reads a chunk's frames at once, several messages ahead of the one served: so a
        count per message, each charged to its own request."""
        return self._continued.popleft() if self._continued else 0

    def _fail(self, code: CloseCode, reason: str, why: str) -> None:
        """Fail the connection: a close frame (``code``, ``reason``) and the end of the stream sent, nothing
        more read, and the TCP connection cut ``END_WITHIN`` seconds later unless the client has closed it.
        Reading on only to discard what it sends would let it keep the loop busy; cutting it at once would
        make its kernel drop what it had not read yet, the close frame too, as soon as it sends again.
        ``why`` goes to the log."""
        self._failed = True
        log.warning("%s: %s, closing the connection (%d)", self.remote_address, why, code)
        if self.protocol.state is State.OPEN:
            self.protocol.fail(code, reason)
            self.send_data()
        self.transport.pause_reading()
        self.loop.call_later(END_WITHIN, self.transport.abort)  # nothing if it is lost by then

    def pause_writing(self) -> None:
        super().pause_writing()
        if self.write_timeout is not None:
            self._stalled = self.loop.call_later(self.write_timeout, self._stall)

    def resume_writing(self) -> None:
        super().resume_writing()
        self._unstall()

    def connection_lost(self, exc: Exception | None) -> None:
        self._unstall()
        super().connection_lost(exc)

    def _unstall(self) -> None:
        if self._stalled is not None:
            self._stalled.cancel()
            self._stalled = None

    def _stall(self) -> None:
        self._stalled = None
        log.warning(
            "%s: nothing read for %g s, %d bytes unsent, aborting the connection",
            self.remote_address,
            self.write_timeout,
            self.unsent(),
        )
        self.transport.abort()


async def close_within(ws: ServerConnection, code: int, reason: str) -> None:
    """Close ``ws`` with ``code`` and ``reason``, or abort its TCP connection if the closing handshake is not
    over within ``END_WITHIN`` seconds. A client that reads nothing needs this: the close frame waits behind
    what it left unread, and websockets' ``close_timeout`` starts only once it is written."""
    try:
        async with asyncio.timeout(END_WITHIN):
            await ws.close(code, reason)
    except TimeoutError:
        ws.transport.abort()


class Peer:
    """A connected client: ``player`` once logged in, ``greeted`` after ``hello``, the ``rooms`` it is in.

    ``closed`` is set once the server is done with the connection: nothing more is sent, and requests it
    had already sent are not carried out.

    Args:
        ws: the accepted WebSocket connection.
        max_backlog: frames allowed to wait unsent before the client is dropped as too slow.
        max_queued_bytes: bytes of frames allowed to wait unsent before the client is dropped as too slow.
        request_rate: requests per second the connection's budget refills (``budget``).
        request_burst: requests the connection may send back to back.
        durable: the store's group commit (None: the store fsyncs each write itself): a frame is sent only
            once the writes committed before it was queued are on disk, so nothing said can be taken back
            by a power cut.
    """

    def __init__(
        self,
        ws: ServerConnection,
        max_backlog: int = 2048,
        max_queued_bytes: int = 1 << 20,
        request_rate: float = 200.0,
        request_burst: float = 400.0,
        durable: GroupCommit | None = None,
    ):
        self.ws = ws
        self._durable = durable
        self.player: str | None = None
        self.greeted = False
        #: The protocol version its ``hello`` asked for: 1 (``event``, ``turn`` pushes) or 2 (``update``).
        self.version = 1
        self.rooms: set[Room] = set()
        self.closed = False
        self.budget = TokenBucket(request_rate, request_burst)
        #: Set by a request whose reply must be the last thing sent: (close code, reason).
        self.close_after_reply: tuple[int, str] | None = None
        self._max_backlog = max_backlog
        self._max_bytes = max_queued_bytes
        self._queued_bytes = 0
        self._bounded = ws if isinstance(ws, BoundedConnection) else None
        self.encoding: Encoding | None = None  # set by the first frame received
        # Each frame (or close) with the store's commit count when it was queued (``durable``).
        self._queue: asyncio.Queue[tuple[int, bytes | str | tuple[int, str] | None]] = asyncio.Queue()
        self._writer = asyncio.get_running_loop().create_task(self._write())
        self._closing: asyncio.Task[None] | None = None  # the close of an end that ran out of time
        self._chats: EventWindow | None = None
        self.failed_logins = 0
        #: The fresh token of this connection's ``resume`` until it sends another request (then the token it
        #: replaced stops working: ``Lobby._confirm_token``).
        self.unconfirmed_token: str | None = None

    def may_chat(self, burst: int, window: float) -> bool:
        """Whether one more chat line may be said: fewer than ``burst`` said (``chat_said``) in the last
        ``window`` seconds. A line refused (``store-unavailable``, ``not-seated``...) was not said, so it
        uses up none of the budget."""
        if self._chats is None:
            self._chats = EventWindow(burst, window)
        return not self._chats.full()

    def chat_said(self) -> None:
        """Count a chat line said (kept and heard) against the budget ``may_chat`` checks."""
        if self._chats is not None:
            self._chats.add()

    @property
    def address(self) -> str:
        """The client's IP address as the per-address caps count it (``server.addresses``): an IPv6 address
        as its /64 network; behind a reverse proxy, the proxy's own unless the server trusts it
        (``trusted_proxies``: then the client's it forwards)."""
        client = getattr(self.ws, "client", None)  # a counted connection's, a trusted proxy's client
        if isinstance(client, str):
            return client
        remote = self.ws.remote_address
        return address_group(str(remote[0])) if isinstance(remote, tuple) and remote else "unknown"

    def __repr__(self) -> str:
        return f"<Peer {self.player or '?'} {self.ws.remote_address}>"

    def log_in(self, name: str) -> None:
        """The connection is ``name``'s from now on: its messages may be as long as a logged-in player's
        (``BoundedConnection.logged_in``). Called before the ``logged-in`` reply is queued, so no message
        the client sends after reading it meets the tighter bound."""
        self.player = name
        if self._bounded is not None:
            self._bounded.logged_in()

    def send(self, message: Message) -> None:
        """Queue ``message`` for this client in its encoding (dropped silently once the connection is closed)."""
        if not self.closed:
            self._put(encode(message.to_wire(), self.encoding or "msgpack"))

    def send_frame(self, frame: bytes) -> None:
        """Queue an already encoded msgpack frame (lets a broadcast encode a public message once); a peer
        speaking JSON gets it transcoded."""
        if not self.closed:
            self._put(transcode(frame, self.encoding or "msgpack"))

    def unsent(self) -> int:
        """Bytes waiting to go to the client: the queued frames' (a JSON frame's in characters) and the
        connection's write buffer's (pongs included)."""
        return self._queued_bytes + self.ws.transport.get_write_buffer_size()

    def _put(self, frame: bytes | str) -> None:
        if self._queue.qsize() >= self._max_backlog or self.unsent() + len(frame) > self._max_bytes:
            log.warning(
                "%r: %d frames (%d bytes) unsent, disconnecting",
                self,
                self._queue.qsize(),
                self.unsent(),
            )
            self._drop_queue()
            self.end(1008, "too slow: backlog full")
            return
        self._count(len(frame))
        self._queue.put_nowait((self._mark(), frame))

    def _count(self, change: int) -> None:
        """Add ``change`` to the queued bytes, which the connection counts too (``BoundedConnection``)."""
        self._queued_bytes += change
        if self._bounded is not None:
            self._bounded.held = self._queued_bytes

    def _mark(self) -> int:
        return 0 if self._durable is None else self._durable.store.commits

    def end(self, code: int, reason: str) -> None:
        """Close the connection with ``code`` and ``reason`` once the frames already queued are sent (each
        after the store writes it tells of are on disk); nothing queued later is sent. Not done within
        ``END_WITHIN`` seconds (a client not reading, a slow disk), it closes then, the rest unsent."""
        if not self.closed:
            self.closed = True
            self._queue.put_nowait((self._mark(), (code, reason)))
            asyncio.get_running_loop().call_later(END_WITHIN, self._end_now, code, reason)

    def _end_now(self, code: int, reason: str) -> None:
        if self._writer.done():
            return
        self._writer.cancel()
        self._drop_queue()
        self._closing = asyncio.get_running_loop().create_task(close_within(self.ws, code, reason))

    def _drop_queue(self) -> None:
        while not self._queue.empty():
            self._queue.get_nowait()
        self._count(-self._queued_bytes)

    async def _write(self) -> None:
        while True:
            mark, item = await self._queue.get()
            if item is None:
                return
            try:
                if self._durable is not None and self._durable.pending(mark):
                    await self._durable.wait(mark)
                if isinstance(item, tuple):
                    await self.ws.close(*item)
                    return
                self._count(-len(item))
                await self.ws.send(item)
                # A long backlog is written a frame at a time, in turn with everything else.
                await asyncio.sleep(0)
            except ConnectionClosed:
                self.closed = True
                self._drop_queue()
                return
            except StoreUnavailable:  # what this frame tells may not be on disk: it is never sent
                self.closed = True
                self._drop_queue()
                with contextlib.suppress(ConnectionClosed):
                    await self.ws.close(1011, "the server cannot save; come back after its restart")
                return

    async def close(self) -> None:
        """Stop the writer after the frames already queued (the WebSocket itself is closed by its handler)."""
        self.closed = True
        self._queue.put_nowait((0, None))
        await asyncio.wait([self._writer], timeout=1.0)  # the writer may have been cancelled: _end_now
        self._writer.cancel()
