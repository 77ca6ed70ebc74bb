"""The room abstraction: what the lobby needs from any kind of room (a Barbu table, a solitaire room).

A room owns one game object and an ``asyncio.Lock``; every change to it happens under that lock, so actions
are applied one at a time in arrival order. A room kind is a ``Room`` subclass registered in
``server.lobby.ROOM_KINDS`` under its ``kind`` (the ``rooms.kind`` column of the store) and able to rebuild
itself from its store row and action log (``restore``). The lobby routes every request naming a ``room`` to
``handle``; ``join``/``watch``/``leave`` change who is in the room, ``detach``/``attach`` follow a player's
connection dropping and coming back. CPU-heavy work (a hint, a search bot's move) goes through
``self.workers`` (``server.workers``), the server's pool, which the lobby sets when it adds the room.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from protocol import Message, ProtocolError, Snapshot
from server.workers import WorkerPool, unavailable

if TYPE_CHECKING:
    from server.config import ServerConfig
    from server.peer import Peer
    from server.store import RoomRow, Store


class Room(ABC):
    """Base of all room kinds.

    Args:
        store_id: the room's row id in the store (its ``room`` id on the wire is ``str(store_id)``).
        name: the room's display name.
        store: the server's store, where every accepted action is logged before it is broadcast.
        config: the server configuration (bot delay, grace default, ...).

    Attributes:
        workers: the server's pool for CPU-heavy work, set by ``Lobby.add_room`` before the room's tasks
            first run (until then, and for a room no server serves, a pool refusing every job).
    """

    kind: ClassVar[str]

    def __init__(self, store_id: int, name: str, store: Store, config: ServerConfig):
        self.store_id = store_id
        self.room_id = str(store_id)
        self.name = name
        self.store = store
        self.config = config
        self.lock = asyncio.Lock()
        self.spectators: set[Peer] = set()
        self.workers: WorkerPool = unavailable()
        #: Where the room was opened from: a keyed hash of the opener's IP address (``Lobby.address_key``),
        #: kept in the room's stored config so per-address caps hold after a restart; None when not known.
        self.origin: str | None = None
        #: Called when the room's lobby summary changes on its own (a timer, a bot), not by a request: the
        #: lobby sets it to drop its cached listing.
        self.listing_changed: Callable[[], None] = _nothing

    @classmethod
    @abstractmethod
    def restore(cls, row: RoomRow, store: Store, config: ServerConfig) -> Room:
        """Rebuild a room interrupted by a server stop from its store ``row`` and action log.

        Raises:
            ValueError, KeyError, TypeError: the config or the log does not replay (``BadLog`` names the
                action): the lobby keeps the room out, as it is in the store (``server.unrestorable``).
        """

    @classmethod
    @abstractmethod
    def replayed(cls, row: RoomRow, store: Store, config: ServerConfig) -> Room:
        """The room of ``row`` rebuilt as ``restore`` does, but writing nothing and starting nothing (no
        event loop needed): ``barbu store check`` asks whether a room would restore.

        Raises:
            ValueError, KeyError, TypeError: as ``restore``.
        """

    @abstractmethod
    def summary(self) -> dict[str, Any]:
        """The room's lobby entry (``docs/protocol.md`` "Room summary")."""

    @abstractmethod
    def snapshot(self, peer: Peer | None, request_id: int | None, since: int | None = None) -> Snapshot:
        """Everything ``peer`` may see of the room now (None: a spectator's view); for a version 2 ``peer``
        asking ``since`` an action number, with the updates it missed since (``RecentActions.missed``)."""

    @abstractmethod
    async def join(self, peer: Peer, seat: str | None, request_id: int, since: int | None = None) -> None:
        """Seat ``peer``'s player (``seat`` None: any free seat); replies with the snapshot (with the updates
        missed ``since`` that action number, for a version 2 peer).

        Raises:
            ProtocolError: ``seat-taken``, ``room-over``.
        """

    async def watch(self, peer: Peer, request_id: int | None, since: int | None = None) -> None:
        """Add ``peer`` as a spectator and reply with its snapshot (with the updates missed ``since`` that
        action number, for a version 2 peer) (the public one; at a Barbu table, a player
        whose seat a stand-in plays sees that seat's: ``BarbuTable.snapshot``). A player of the room
        (``plays_here``) is never refused; anyone else takes one of its ``max_spectators`` places, at most
        ``max_spectators_per_address`` of them from one IP address (a place is counted once per connection,
        and a name has one connection at a time).

        Raises:
            ProtocolError: ``too-many-spectators`` (field ``room``) when the room has ``max_spectators``, or
                the players of ``peer``'s address watch it with ``max_spectators_per_address`` already.
        """
        async with self.lock:
            if peer not in self.spectators and not self.plays_here(peer.player or ""):
                self._check_spectator_place(peer)
            self.spectators.add(peer)
            peer.rooms.add(self)
            peer.send(self.snapshot(peer, request_id, since))

    def _check_spectator_place(self, peer: Peer) -> None:
        """Refuse one more spectator from ``peer``'s address when the room or the address's share is full (a
        count over the room's spectators: ``max_spectators`` at most).

        Raises:
            ProtocolError: ``too-many-spectators``.
        """
        config = self.config
        if len(self.spectators) >= config.max_spectators:
            raise ProtocolError(
                "too-many-spectators",
                f"room {self.room_id} has {config.max_spectators} spectators, as many as allowed",
                field="room",
            )
        address = peer.address
        near = sum(watcher.address == address for watcher in self.spectators)
        if near >= config.max_spectators_per_address:
            raise ProtocolError(
                "too-many-spectators",
                f"{near} spectators of room {self.room_id} come from your address already, as many as one "
                "address may have",
                field="room",
            )

    def plays_here(self, player: str) -> bool:
        """Whether ``player`` holds (or held, the game over) a seat in this room: they may always watch it."""
        return False

    @abstractmethod
    async def leave(self, peer: Peer) -> None:
        """``peer`` leaves: stops watching, or gives up / hands over its seat."""

    @abstractmethod
    async def handle(self, peer: Peer, request: Message) -> None:
        """Apply a room request (``act``, ``chat``, ``add-bot``, ``snapshot``) and send its reply.

        Raises:
            ProtocolError: the request is refused; the room is unchanged.
        """

    @abstractmethod
    async def detach(self, peer: Peer) -> None:
        """``peer``'s connection is gone: hold its seat (if any) and stop sending to it."""

    @abstractmethod
    async def attach(self, peer: Peer, since: int | None = None) -> bool:
        """``peer``'s player is back on a new connection: if they hold a seat, take it back, push the
        snapshot (with the updates missed ``since`` that action number, for a version 2 peer) and return
        True; otherwise return False."""

    @abstractmethod
    def holds_seat(self, player: str) -> bool:
        """Whether ``player`` holds a seat in this room."""

    def gives_back(self, player: str) -> bool:
        """Whether ``player`` holds a seat here that ``attach`` gives back (a ``resume`` or ``login``; all
        they hold, unless a room says otherwise)."""
        return self.holds_seat(player)

    @property
    @abstractmethod
    def idle(self) -> bool:
        """Whether the room can be dropped from the lobby (over or empty, nobody connected)."""

    @abstractmethod
    def discard(self) -> None:
        """The lobby drops the room: stop it, and mark it closed in the store if its game never started."""

    @abstractmethod
    def stop(self) -> None:
        """Cancel the room's timers and pending bot moves (server shutdown or room dropped)."""


def _nothing() -> None:
    """The default ``Room.listing_changed``: no lobby is listening."""
