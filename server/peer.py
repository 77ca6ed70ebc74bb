"""One client connection as the server sees it: who it is, what it has joined, and its outgoing queue.

Rooms never await a client: ``send`` puts the encoded frame on a bounded queue that a writer task drains
into the WebSocket. A client that lets ``max_backlog`` frames pile up is disconnected (close code 1008),
so one slow reader cannot hold up a table.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from protocol import Message, encode_frame
from server.ratelimit import EventWindow

if TYPE_CHECKING:
    from server.room import Room

log = logging.getLogger(__name__)


class Peer:
    """A connected client: ``player`` once logged in, ``greeted`` after ``hello``, the ``rooms`` it is in.

    Args:
        ws: the accepted WebSocket connection.
        max_backlog: frames allowed to wait unsent before the client is dropped as too slow.
    """

    def __init__(self, ws: ServerConnection, max_backlog: int = 2048):
        self.ws = ws
        self.player: str | None = None
        self.greeted = False
        self.rooms: set[Room] = set()
        self.closed = False
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue(max_backlog)
        self._writer = asyncio.get_running_loop().create_task(self._write())
        self._chats: EventWindow | None = None
        self.failed_logins = 0

    def may_chat(self, burst: int, window: float) -> bool:
        """Whether one more chat message is allowed: at most ``burst`` in any ``window`` seconds (counted
        when allowed)."""
        if self._chats is None:
            self._chats = EventWindow(burst, window)
        if self._chats.full():
            return False
        self._chats.add()
        return True

    @property
    def address(self) -> str:
        """The client's IP address as the server sees it (a reverse proxy's own, behind one)."""
        remote = self.ws.remote_address
        return str(remote[0]) if isinstance(remote, tuple) and remote else "unknown"

    def __repr__(self) -> str:
        return f"<Peer {self.player or '?'} {self.ws.remote_address}>"

    def send(self, message: Message) -> None:
        """Queue ``message`` for this client (dropped silently once the connection is closed)."""
        self.send_frame(encode_frame(message.to_wire()))

    def send_frame(self, frame: bytes) -> None:
        """Queue an already encoded frame (lets a broadcast encode a public message once)."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(frame)
        except asyncio.QueueFull:
            log.warning("%r: %d frames unsent, disconnecting", self, self._queue.maxsize)
            self.closed = True
            asyncio.get_running_loop().create_task(self.ws.close(1008, "too slow: backlog full"))

    async def _write(self) -> None:
        while True:
            frame = await self._queue.get()
            if frame is None:
                return
            try:
                await self.ws.send(frame)
            except ConnectionClosed:
                self.closed = True
                return

    async def close(self) -> None:
        """Stop the writer after the frames already queued (the WebSocket itself is closed by its handler)."""
        self.closed = True
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(1.0):
                await self._writer
