"""The async client library shared by the terminal client and the bots.

``Connection.connect(url)`` opens a WebSocket, says ``hello`` and returns a connection whose ``welcome``
holds the server's version, limits and features. Each request method sends one request and awaits the reply
with the same ``id`` (a refusal raises ``ServerError``); pushes (``snapshot`` with nil id, ``event``, ``turn``,
``chat``, ``players``, ``solitaire-state``, and errors without an id) arrive in order on ``next_push()`` / ``pushes()``.

A frame from the server that this client cannot read (over ``REPLY_LIMITS``, or malformed) closes the
connection with a one-line reason: the pending requests raise ``BadReply`` (a ``ConnectionLost``) saying why,
and the pushes end.

A connection speaks msgpack (binary frames) unless made with ``encoding="json"`` (text frames, as the browser
client does): ``docs/protocol.md`` "Encodings". It speaks protocol version 1 (``event`` and ``turn`` pushes:
the terminal client) unless made with ``version=2``: then the server tells each action in a room by one
``update``, and the connection keeps a ``RoomState`` per room it has a snapshot of (``rooms``), reduced over
the snapshots and updates as they arrive (before they are handed on as pushes), so a client reads its view
there and never asks for a snapshot during play; ``sit``, ``watch``, ``snapshot`` and ``resume`` take
``since`` to get back the updates missed.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator
from types import TracebackType
from typing import Any, TypeVar

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from client.room_state import RoomState
from protocol import (
    PROTOCOL_VERSION,
    REPLY_LIMITS,
    Act,
    AddBot,
    AutoMoves,
    Chat,
    CreateTable,
    Error,
    Games,
    GetHint,
    GetReplay,
    GetSnapshot,
    GetStandings,
    Hello,
    Hint,
    Leave,
    ListGames,
    ListMatches,
    ListRooms,
    LoggedIn,
    Login,
    Matches,
    Message,
    Move,
    NewDeal,
    Ok,
    OpenSolitaire,
    Players,
    ProtocolError,
    Redo,
    Rematch,
    RemoveBot,
    RemovePlayer,
    Replay,
    Resign,
    Resume,
    RoomCreated,
    Rooms,
    Sit,
    Snapshot,
    Standings,
    Undo,
    Update,
    Watch,
    Welcome,
    parse_server_message,
)
from protocol.encodings import Encoding, decode, encode

R = TypeVar("R", bound=Message)
#: Longest ``retry_after`` (seconds) of a ``slow-down`` refusal that ``request`` waits out and sends again;
#: a longer one (too many wrong passwords, say) is raised.
MAX_RETRY_WAIT = 5.0


class ServerError(Exception):
    """The server refused a request: ``code`` (``docs/protocol.md`` error codes), ``message``, the offending
    ``field``, for ``illegal`` the game's ``rule`` and its arguments (``rule_args``: led suit, trump, piles...),
    for ``slow-down`` the seconds to wait (``retry_after``)."""

    def __init__(self, error: Error):
        super().__init__(f"{error.code}: {error.message}")
        self.code = error.code
        self.message = error.message
        self.field = error.field
        self.rule = error.rule
        self.rule_args = error.args
        self.retry_after = error.retry_after


class ConnectionLost(Exception):
    """The connection closed before the reply arrived (or before the next push)."""


class BadReply(ConnectionLost):
    """The server sent a frame this client cannot read (beyond the client's unpack limits, or malformed); the
    client closed the connection. ``code`` is the ``ProtocolError`` code (``too-large``, ``limit``,
    ``bad-frame``, ``bad-message``)."""

    def __init__(self, code: str, message: str):
        super().__init__(f"unreadable reply from the server ({code}): {message}")
        self.code = code


class Connection:
    """A logged-in (or not yet) client connection; create with ``await Connection.connect(url)``.

    Args:
        ws: an open WebSocket client connection.
        timeout: seconds to wait for any reply before ``TimeoutError``.
        encoding: the protocol encoding spoken: ``msgpack`` or ``json``.
        version: the protocol version spoken (``connect`` says it in ``hello``).

    Attributes:
        rooms: version 2: room id -> what this connection knows of it (``RoomState``), kept up by the reader.
    """

    def __init__(
        self,
        ws: ClientConnection,
        timeout: float = 30.0,
        encoding: Encoding = "msgpack",
        version: int = PROTOCOL_VERSION,
    ):
        self.ws = ws
        self.timeout = timeout
        self.encoding: Encoding = encoding
        self.version = version
        self.rooms: dict[str, RoomState] = {}
        self.welcome: Welcome | None = None
        self.name: str | None = None
        self.token: str | None = None
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Message]] = {}
        self._pushes: asyncio.Queue[Message | None] = asyncio.Queue()
        self.lost: ConnectionLost | None = None
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def connect(
        cls,
        url: str,
        *,
        client: str = "barbu-client/0.1",
        timeout: float = 30.0,
        encoding: Encoding = "msgpack",
        version: int = PROTOCOL_VERSION,
    ) -> Connection:
        """Open ``url`` (``ws://host:port``) and exchange ``hello``/``welcome`` in ``encoding``, speaking
        protocol ``version`` (1, or 2: ``LATEST_VERSION``).

        Raises:
            OSError, websockets.exceptions.InvalidHandshake: the server cannot be reached.
            ServerError: ``version`` when the server does not speak this client's protocol version.
        """
        ws = await connect(
            url, compression=None, max_size=REPLY_LIMITS.max_frame, proxy=None, open_timeout=timeout
        )
        conn = cls(ws, timeout, encoding, version)
        try:
            conn.welcome = await conn.request(
                Hello(id=conn.next_id(), version=version, client=client), Welcome
            )
        except BaseException:
            await conn.close()
            raise
        return conn

    async def __aenter__(self) -> Connection:
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the WebSocket and stop reading."""
        await self.ws.close()
        await asyncio.wait([self._reader])

    def next_id(self) -> int:
        """A fresh request id."""
        return next(self._ids)

    # Requests ---------------------------------------------------------------------------------------

    async def request(self, message: Message, expect: type[R]) -> R:
        """Send ``message`` (whose ``id`` came from ``next_id``) and await its reply of type ``expect``. A
        ``slow-down`` refusal for going over the connection's request budget is waited out (its
        ``retry_after``, at most ``MAX_RETRY_WAIT`` s) and the request sent again.

        Raises:
            ServerError: the server answered with ``error``.
            ConnectionLost: the connection closed first.
            TimeoutError: no reply within ``timeout`` seconds.
        """
        rid: int = getattr(message, "id")  # noqa: B009 - every request has an id
        while True:
            future: asyncio.Future[Message] = asyncio.get_running_loop().create_future()
            self._pending[rid] = future
            try:
                await self.ws.send(self.encode(message.to_wire()))
                async with asyncio.timeout(self.timeout):
                    reply = await future
            except ConnectionClosed:
                raise self._lost() from None
            finally:
                self._pending.pop(rid, None)
            wait = reply.retry_after if isinstance(reply, Error) and reply.code == "slow-down" else None
            if wait is None or wait > MAX_RETRY_WAIT:
                break
            # Over the connection's request budget: nothing was done; send it again once there is room.
            await asyncio.sleep(wait)
        if isinstance(reply, Error):
            raise ServerError(reply)
        if not isinstance(reply, expect):
            raise ProtocolError("bad-message", f"expected {expect.TYPE} in reply, got {reply.TYPE}")
        return reply

    def encode(self, wire: dict[str, Any]) -> bytes | str:
        """``wire`` as one frame of this connection's encoding."""
        return encode(wire, self.encoding)

    async def send_raw(self, frame: bytes | str) -> None:
        """Send a frame as is (for tests of the server's error handling)."""
        await self.ws.send(frame)

    async def login(self, name: str, password: str | None = None, secret: str | None = None) -> LoggedIn:
        """Log in as ``name`` (with the server ``password``, and the player's personal ``secret``: it claims
        a name that has none, and must match one that has); keeps ``name`` and the resume ``token``. A
        ``snapshot`` push follows for each room where the player holds a seat.

        Raises:
            ServerError: ``bad-password``, ``bad-secret``, ``secret-needed``, ``name-taken``, ``seat-held``,
                ``bad-message``, ``already-logged-in``.
        """
        login = Login(id=self.next_id(), name=name, password=password, secret=secret)
        reply = await self.request(login, LoggedIn)
        self.name, self.token = reply.name, reply.token
        return reply

    async def resume(self, token: str, since: dict[str, int] | None = None) -> LoggedIn:
        """Come back as the player ``token`` belongs to (snapshots of their seats follow as pushes; version
        2: with the updates missed since ``since``, room id -> the ``seq`` last known).

        Raises:
            ServerError: ``bad-token``, ``already-logged-in``.
        """
        reply = await self.request(Resume(id=self.next_id(), token=token, since=since), LoggedIn)
        self.name, self.token = reply.name, reply.token
        return reply

    async def list_rooms(self) -> list[dict[str, Any]]:
        """The lobby: one summary map per open room (``docs/protocol.md`` "Room summary")."""
        return (await self.request(ListRooms(id=self.next_id()), Rooms)).rooms

    async def lobby(self) -> Rooms:
        """The whole ``rooms`` reply: ``rooms`` (summaries) and ``daily`` (each solitaire game's deal of the
        day with its results table, ``docs/protocol.md`` "The day's deals")."""
        return await self.request(ListRooms(id=self.next_id()), Rooms)

    async def create_table(
        self,
        name: str,
        variants: dict[str, Any] | None = None,
        turn_time: float | None = None,
        grace: float | None = None,
        bot_policy: str | None = None,
    ) -> str:
        """Open a Barbu table whose bots and stand-ins play ``bot_policy`` (a policy spec; None: the server's
        default); returns its room id (also its match id).

        Raises:
            ServerError: ``name-taken``, ``bad-message`` (e.g. unknown variants, field ``bot_policy``).
        """
        request = CreateTable(
            id=self.next_id(),
            name=name,
            variants=variants or {},
            turn_time=turn_time,
            grace=grace,
            bot_policy=bot_policy,
        )
        return (await self.request(request, RoomCreated)).room

    async def rematch(self, room: str) -> str:
        """Open another match with the same players as ``room`` (its match over; the host only); returns the
        new room's id, where each player's seat is kept for them (``sit`` takes it).

        Raises:
            ServerError: ``not-over``, ``not-host``, ``wrong-room``, ``no-such-room``.
        """
        return (await self.request(Rematch(id=self.next_id(), room=room), RoomCreated)).room

    async def sit(self, room: str, seat: str | None = None, since: int | None = None) -> Snapshot:
        """Take ``seat`` (None: any free one) or return to the seat held at ``room``; returns the snapshot
        (version 2: with the updates missed since action ``since``).

        Raises:
            ServerError: ``no-such-room``, ``seat-taken``, ``room-over``.
        """
        return await self.request(Sit(id=self.next_id(), room=room, seat=seat, since=since), Snapshot)

    async def watch(self, room: str, since: int | None = None) -> Snapshot:
        """Watch ``room`` as a spectator; returns the public snapshot (version 2: with the updates missed
        since action ``since``)."""
        return await self.request(Watch(id=self.next_id(), room=room, since=since), Snapshot)

    async def leave(self, room: str) -> None:
        """Leave ``room`` (during a match a stand-in bot plays the seat until ``sit`` again)."""
        await self.request(Leave(id=self.next_id(), room=room), Ok)

    async def add_bot(self, room: str, seat: str, policy: str | None = None) -> None:
        """Put a server bot playing the policy spec ``policy`` (None: the table's bot policy) into the empty
        ``seat``.

        Raises:
            ServerError: ``seat-taken``, ``not-host`` (only the table's creator adds bots), ``bad-message``
                (field ``policy``: not a valid policy spec).
        """
        await self.request(AddBot(id=self.next_id(), room=room, seat=seat, policy=policy), Ok)

    async def remove_bot(self, room: str, seat: str) -> None:
        """Take the server bot out of ``seat`` again (before the start; only the table's host may).

        Raises:
            ServerError: ``not-host``, ``seat-taken`` (the match started), ``bad-message`` (no bot there).
        """
        await self.request(RemoveBot(id=self.next_id(), room=room, seat=seat), Ok)

    async def remove_player(self, room: str, seat: str) -> None:
        """Free ``seat``, whoever holds it but you, before the start (only the table's host may); a removed
        player is told (a ``removed`` push) and may not sit there again.

        Raises:
            ServerError: ``not-host``, ``seat-taken`` (the match started), ``bad-message`` (nobody there, or
                your own seat).
        """
        await self.request(RemovePlayer(id=self.next_id(), room=room, seat=seat), Ok)

    async def chat(self, room: str, text: str) -> None:
        """Say ``text`` at ``room``."""
        await self.request(Chat(id=self.next_id(), room=room, text=text), Ok)

    async def act(self, room: str, seat: str, action: dict[str, Any]) -> None:
        """Play the wire ``action`` for ``seat`` (e.g. ``{"action": "play", "card": "QS"}``).

        Raises:
            ServerError: ``illegal`` (``rule`` says which), ``not-your-seat``, ``not-started``, ...
        """
        await self.request(Act(id=self.next_id(), room=room, seat=seat, action=action), Ok)

    # Solitaire --------------------------------------------------------------------------------------

    async def open_solitaire(
        self,
        game: str,
        options: dict[str, Any] | None = None,
        seed: int | None = None,
        winnable: bool = False,
        random: bool = False,
    ) -> Snapshot:
        """Open a solitaire room of ``game`` with ``options``, dealt from ``seed`` (None: the day's deal, or
        with ``winnable`` a random deal the solver proved winnable, with ``random`` a random deal the server
        chooses and shows only once the game is over), and play it; returns its snapshot
        (``view`` is the solitaire view). Another unfinished solitaire room of this player is finished first
        (resigned).

        Raises:
            ServerError: ``unknown-game`` (field ``game``), ``unknown-option`` (field ``options``),
                ``no-winnable-deals``, ``not-winnable``.
        """
        request = OpenSolitaire(
            id=self.next_id(), game=game, options=options or {}, seed=seed, winnable=winnable, random=random
        )
        return await self.request(request, Snapshot)

    async def move(self, room: str, move: str) -> None:
        """Make solitaire ``move`` (``docs/formats.md`` notation, e.g. ``t3>t5``); a ``solitaire-state``
        push follows.

        Raises:
            ServerError: ``illegal`` (``rule``: the rule broken, in words), ``not-your-room``, ``room-over``.
        """
        await self.request(Move(id=self.next_id(), room=room, move=move), Ok)

    async def undo(self, room: str) -> None:
        """Take back the last solitaire move.

        Raises:
            ServerError: ``illegal`` (rule ``nothing-to-undo``), ``not-your-room``, ``room-over``.
        """
        await self.request(Undo(id=self.next_id(), room=room), Ok)

    async def redo(self, room: str) -> None:
        """Make the last undone solitaire move again.

        Raises:
            ServerError: ``illegal`` (rule ``nothing-to-redo``), ``not-your-room``, ``room-over``.
        """
        await self.request(Redo(id=self.next_id(), room=room), Ok)

    async def auto(self, room: str) -> None:
        """Make every safe move to the foundations.

        Raises:
            ServerError: ``illegal`` (rule ``no-safe-move``), ``not-your-room``.
        """
        await self.request(AutoMoves(id=self.next_id(), room=room), Ok)

    async def hint(self, room: str) -> Hint:
        """A hint for solitaire ``room``: its ``move`` and ``status`` (``sure``, ``guess``, ``lost``, ``none``;
        ``docs/protocol.md``), for the position after action ``seq``; changes nothing. May take the server's
        hint budget (2 s by default).

        Raises:
            ServerError: ``not-your-room``, ``room-over``, ``no-hint`` (the day's deal), ``busy``.
        """
        return await self.request(GetHint(id=self.next_id(), room=room), Hint)

    async def new_deal(self, room: str, seed: int | None = None, winnable: bool | None = None) -> Snapshot:
        """Finish the game of ``room`` (resigned) and play a new deal of the same game and options from
        ``seed`` (None: a random one; winnable with ``winnable``, and with None when the old deal was) in a
        new room; returns the new room's snapshot.

        Raises:
            ServerError: ``not-your-room``, ``no-winnable-deals``, ``not-winnable``.
        """
        request = NewDeal(id=self.next_id(), room=room, seed=seed, winnable=winnable)
        return await self.request(request, Snapshot)

    async def resign(self, room: str) -> None:
        """Give up the game of ``room`` (recorded as lost when no move was left, else as resigned).

        Raises:
            ServerError: ``not-your-room``, ``room-over``.
        """
        await self.request(Resign(id=self.next_id(), room=room), Ok)

    async def snapshot(self, room: str, since: int | None = None) -> Snapshot:
        """Ask for the snapshot of ``room`` again (version 2: with the updates missed since action
        ``since``; a client needs it only when it came back or its ``RoomState`` went ``stale``)."""
        return await self.request(GetSnapshot(id=self.next_id(), room=room, since=since), Snapshot)

    def since(self) -> dict[str, int]:
        """Version 2: room id -> the ``seq`` this connection last knew of it, for ``resume`` on a new one."""
        return {room: state.seq for room, state in self.rooms.items()}

    async def list_games(self) -> list[dict[str, Any]]:
        """The solitaire games the server deals: ``name``, ``title``, ``rules``, ``options``."""
        return (await self.request(ListGames(id=self.next_id()), Games)).games

    async def list_matches(self) -> list[dict[str, Any]]:
        """The server's finished Barbu matches, newest first (``docs/protocol.md`` ``list-matches``)."""
        return (await self.request(ListMatches(id=self.next_id()), Matches)).matches

    async def standings(self) -> list[dict[str, Any]]:
        """The standings across the server's finished Barbu matches, best rating first: per player
        ``name``, ``matches``, ``firsts``, ``average_place``, ``rating`` (``docs/protocol.md`` ``standings``)."""
        return (await self.request(GetStandings(id=self.next_id()), Standings)).players

    async def replay(self, match: str) -> Replay:
        """Finished match ``match`` laid out for a replay: every hand dealt, its public events, its scores.

        Raises:
            ServerError: ``no-such-match``.
        """
        return await self.request(GetReplay(id=self.next_id(), match=match), Replay)

    # Pushes -----------------------------------------------------------------------------------------

    async def next_push(self, timeout: float | None = None) -> Message:
        """The next push (oldest first).

        Raises:
            ConnectionLost: the connection closed and no push is left.
            TimeoutError: none within ``timeout`` seconds (default: the connection's timeout).
        """
        if self._pushes.empty():
            async with asyncio.timeout(self.timeout if timeout is None else timeout):
                item = await self._pushes.get()
        else:
            item = self._pushes.get_nowait()
        if item is None:
            self._pushes.put_nowait(None)
            raise self._lost()
        return item

    def take_pushes(self) -> list[Message]:
        """Every push already received and not yet taken, oldest first, without waiting."""
        taken: list[Message] = []
        while not self._pushes.empty():
            item = self._pushes.get_nowait()
            if item is None:
                self._pushes.put_nowait(None)
                break
            taken.append(item)
        return taken

    async def pushes(self) -> AsyncIterator[Message]:
        """Every push in order until the connection closes (no timeout)."""
        while True:
            item = await self._pushes.get()
            if item is None:
                self._pushes.put_nowait(None)
                return
            yield item

    def _lost(self) -> ConnectionLost:
        """Why the connection is gone: the unreadable frame, or the close code and reason."""
        if self.lost is not None:
            return self.lost
        reason = self.ws.close_reason or ""
        code = self.ws.close_code
        if code in (None, 1000) and not reason:
            return ConnectionLost("connection closed")
        return ConnectionLost(f"connection closed ({code}{' ' + reason if reason else ''})")

    async def _read(self) -> None:
        try:
            async for frame in self.ws:
                try:
                    message = parse_server_message(decode(frame, self.encoding, REPLY_LIMITS))
                except ProtocolError as exc:
                    self.lost = BadReply(exc.code, exc.message)
                    await self.ws.close(1002, exc.code)
                    break
                self._reduce(message)
                rid = getattr(message, "id", None)
                future = self._pending.get(rid) if isinstance(rid, int) else None
                if future is not None and not future.done():
                    future.set_result(message)
                else:
                    self._pushes.put_nowait(message)
        except ConnectionClosed:
            pass
        finally:
            lost = self._lost()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(lost)
                    future.add_done_callback(_retrieved)
            self._pushes.put_nowait(None)

    def _reduce(self, message: Message) -> None:
        """Version 2: keep ``rooms`` up with a snapshot (a reply or a push) or an update, as it is read."""
        if self.version < 2:
            return
        if isinstance(message, Snapshot):
            state = self.rooms.get(message.room)
            if state is None:
                self.rooms[message.room] = RoomState(message)
            else:
                state.reset(message)
        elif isinstance(message, Update) and message.room in self.rooms:
            self.rooms[message.room].take(message)
        elif isinstance(message, Players) and message.room in self.rooms:
            self.rooms[message.room].seats_changed(message)


def _retrieved(future: asyncio.Future[Message]) -> None:
    """Mark a future's exception as seen: its request may have stopped waiting (no "never retrieved")."""
    if not future.cancelled():
        future.exception()
