"""The client's side of the network: log in, keep the model up to date from pushes, and reconnect.

``Session.start(name, password)`` connects and comes back with the resume token kept from an earlier run
(``client.tui.tokens``), or logs in by name when there is none or the server refuses it (errors go back to the
login screen), with the personal secret kept for the name there (one the terminal makes, the first time: it
claims the name); then a background task reads pushes and, when the connection drops, reconnects with growing
pauses, comes back with the resume token (logging in again if the server forgot it) and re-joins the table it
was at. A server refuses a login by name with another secret (``bad-secret``, ``secret-needed``: the name was
claimed elsewhere, the login screen asks for its secret) and one for a name without a secret that holds a
seat (``seat-held``): that is said plainly.
Every change calls ``on_change`` so the screen redraws.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import Awaitable, Callable, Coroutine, Sequence
from typing import Any, TypeVar

from client.columns import shorten
from client.connection import BadReply, Connection, ConnectionLost, ServerError
from client.tui.events import duration, event_text, full_sentence, missed_text
from client.tui.model import Model, SolitaireModel, TableModel
from client.tui.refusals import refusal_text as action_refusal
from client.tui.tokens import TokenStore
from protocol import (
    ChatPush,
    Error,
    EventPush,
    Hint,
    Message,
    Players,
    ProtocolError,
    RematchOpened,
    Removed,
    Snapshot,
    SolitaireState,
    Turn,
)

log = logging.getLogger(__name__)

T = TypeVar("T")
RETRY_DELAYS = (0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
#: The server's close reason when the same player resumes on another connection (no reconnect then).
REPLACED = "resumed on another connection"
NETWORK_ERRORS = (OSError, ConnectionLost, TimeoutError, ProtocolError)
#: Said for the server's refusal of a request too long for it (``limit``, ``too-large``), in a reply or in an
#: ``error`` push (the codec's own words, "msgpack limit exceeded", are not for people).
TOO_LONG = "That is too long to send: the server refused it."


def failure_text(exc: BaseException) -> str:
    """The notice for a request that got no answer (``exc`` one of ``NETWORK_ERRORS``), never an empty
    "Request failed:": an exception's text may be empty (a ``TimeoutError`` has none), so its kind is said."""
    why = str(exc).strip()
    if not why:
        why = "no reply from the server in time" if isinstance(exc, TimeoutError) else type(exc).__name__
    return full_sentence(f"Request failed: {why}")


#: Refusals of a login after which retrying cannot help (the user must act).
FINAL_REFUSALS = ("seat-held", "bad-password", "bad-secret", "secret-needed")


#: Said for a request to a room the server no longer has (its ``no open room '12'`` is not for players).
ROOM_GONE = "That table or room is no longer open: the lobby lists what there is."
#: Said for a hint refused ``busy`` (the server's workers taken: ask again shortly; ``docs/protocol.md``),
#: in the browser's words.
BUSY_HINT = "The server is busy: try the hint again in a moment."
#: Said while a ``--local --watch`` terminal waits for the local game to run again.
GAME_STOPPED = (
    "The local game stopped: this terminal watches it again as soon as it runs (barbu play --local)."
)


def refusal_text(exc: ServerError, name: str) -> str:
    """Why the server refused to let ``name`` in, in words."""
    if exc.code == "seat-held":
        return (
            f"{name} holds a seat in a match, under a login without a personal password: only the terminal"
            " or program that has its resume token can take it back."
        )
    if exc.code in ("bad-secret", "secret-needed"):
        return (
            f"{name} is someone's name here, with a personal password: type it (it was chosen where the"
            " name was first used), or pick another name."
        )
    if exc.code == "bad-token":
        return f"The server no longer knows this terminal's resume token for {name}."
    if exc.code == "name-taken":
        return f"{name} is in use: connected from somewhere else."
    if exc.code == "bad-password":
        return "Wrong or missing server password."
    return full_sentence(exc.message)


def password_needed() -> ServerError:
    """The refusal raised, without asking the server, when it wants a password and none was given."""
    return ServerError(Error(id=None, code="bad-password", message="this server wants its password"))


class Session:
    """One player's session with one server.

    Args:
        model: the model to keep up to date (its ``url`` is the server's address).
        on_change: called after every change of the model (from the event loop).
        retry_delays: pauses between reconnection attempts (the last one repeats).
        timeout: seconds to wait for a reply.
        tokens: where resume tokens are kept between runs (None: nowhere).
        server_key: the server's name in ``tokens`` (default: its address; ``--local``, whose port changes,
            names its store file instead).
        locate: where the server is now, asked before each reconnect (``--local --watch``: the address the
            local game's store keeps, which changes when the game is run again; None: it is not running, and
            the attempt waits). Without it the address stays ``model.url``.
        follow: the room of the game a watcher follows among the lobby's rooms (``--local --watch``: the
            local game, ``local_game``); with it a watcher goes with the players to their next match, and
            back on a server run again whose list no longer has the watched table, to the game's table.
            Without it a watcher stays at a finished table (``w`` follows the players).
    """

    def __init__(
        self,
        model: Model,
        on_change: Callable[[], None],
        retry_delays: Sequence[float] = RETRY_DELAYS,
        timeout: float = 10.0,
        tokens: TokenStore | None = None,
        server_key: str | None = None,
        locate: Callable[[], str | None] | None = None,
        follow: Callable[[list[dict[str, Any]]], str | None] | None = None,
    ):
        self.model = model
        self.locate = locate
        self.follow = follow
        self.tokens = tokens
        self.server_key = server_key or model.url
        self.on_change = on_change
        self.retry_delays = tuple(retry_delays)
        self.timeout = timeout
        self.conn: Connection | None = None
        self.password: str | None = None
        #: The personal secret this session logs in by name with (``start``; ``secret`` there overrides
        #: the one kept).
        self.secret: str | None = None
        self.token: str | None = None
        self.reconnects = 0
        self.held: list[str] = []
        self._task: asyncio.Task[None] | None = None
        self._refreshing: asyncio.Task[None] | None = None
        self._dirty = False
        self._background: set[asyncio.Task[Any]] = set()
        #: Called when the server took the player off a table (a ``removed`` push): the app shows the lobby.
        self.on_removed: Callable[[], None] = lambda: None

    # Life -------------------------------------------------------------------------------------------

    async def start(self, name: str, password: str | None, secret: str | None = None) -> None:
        """Connect and log in as ``name`` (``secret``: the personal secret typed for it; None: the one kept
        for it, or a new one made and kept once a login with it is accepted); then follow pushes and
        reconnect in the background.

        Raises:
            ServerError: the server refused the login (``bad-password``, ``bad-secret``, ``name-taken``, ...).
            OSError, ConnectionLost, TimeoutError: the server cannot be reached.
        """
        self.model.status = f"connecting to {self.model.url}"
        self.on_change()
        conn = await Connection.connect(self.model.url, client="barbu-tui/0.1", timeout=self.timeout)
        self.password = password
        self.token = None if self.tokens is None else self.tokens.get(self.server_key, name)
        kept = None if self.tokens is None else self.tokens.secret(self.server_key, name)
        self.secret = secret or kept or secrets.token_urlsafe(18)
        try:
            rooms = await self._log_back_in(conn, name, announce=True)
        except BaseException:
            await conn.close()
            self.model.status = "not connected"
            raise
        self.held = rooms
        self._attach(conn)
        self._task = asyncio.get_running_loop().create_task(self._follow())
        await self.refresh_rooms()

    async def stop(self) -> None:
        """Stop following and close the connection."""
        for task in (self._task, self._refreshing):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        self._task = self._refreshing = None
        if self.conn is not None:
            with contextlib.suppress(Exception):
                await self.conn.close()
            self.conn = None
        self.model.connected = False

    def _attach(self, conn: Connection) -> None:
        self.conn = conn
        self.model.connected = True
        self.model.status = "connected"
        self.on_change()

    async def _follow(self) -> None:
        """Read pushes; on a drop, reconnect and carry on, forever (until cancelled)."""
        while True:
            conn = self.conn
            if conn is not None:
                try:
                    async for push in conn.pushes():
                        try:
                            self._on_push(push)
                        except (KeyError, TypeError, ValueError, AttributeError) as exc:
                            log.warning("cannot show %s: %r", push.TYPE, exc)
                            self.model.say(f"Cannot show a {push.TYPE} message: {exc!r}", error=True)
                except NETWORK_ERRORS:
                    pass
                self._mark_stale()
                with contextlib.suppress(Exception):
                    await conn.close()
                if isinstance(conn.lost, BadReply):
                    self.model.say(full_sentence(f"The connection was closed: {conn.lost}"), error=True)
                if REPLACED in (conn.ws.close_reason or ""):
                    self.conn = None
                    self.model.connected = False
                    self.model.status = "signed in elsewhere"
                    self.model.say("You logged in from another terminal; this one stopped.", error=True)
                    self.on_change()
                    return
            self.conn = None
            self.model.connected = False
            self._mark_stale()
            await self._reconnect()

    def _mark_stale(self) -> None:
        """The connection is gone: the table's view may be overtaken (a stand-in plays the seat meanwhile, or
        the terminal that took the player over does), so it no longer says whose turn it is until a snapshot
        comes on the next connection."""
        table = self.model.table
        if table is not None and not table.stale:
            table.stale = True
            self.on_change()

    async def _reconnect(self) -> None:
        attempt = 0
        while True:
            delay = self.retry_delays[min(attempt, len(self.retry_delays) - 1)]
            attempt += 1
            self.model.status = f"connection lost, reconnecting (try {attempt})"
            self.on_change()
            await asyncio.sleep(delay)
            if self.locate is not None:
                url = self.locate()
                if url is None:  # the local game stopped: it comes back on another port
                    if self.model.notice != GAME_STOPPED:
                        self.model.say(GAME_STOPPED)
                    continue
                self.model.url = url
            try:
                conn = await Connection.connect(self.model.url, client="barbu-tui/0.1", timeout=self.timeout)
            except (*NETWORK_ERRORS, ServerError) as exc:
                log.info("reconnect attempt %d failed: %s", attempt, exc)
                continue
            try:
                rooms = await self._log_back_in(conn, self.model.name)
            except (*NETWORK_ERRORS, ServerError) as exc:
                log.info("log-in after reconnect failed: %s", exc)
                with contextlib.suppress(Exception):
                    await conn.close()
                if not isinstance(exc, ServerError):
                    continue
                why = refusal_text(exc, self.model.name)
                if exc.code in FINAL_REFUSALS:
                    self.model.status = "not connected"
                    self.model.say(f"Cannot reconnect: {why}", error=True)
                    self.on_change()
                    return
                if self.model.notice != f"Reconnect refused: {why} Retrying.":
                    self.model.say(f"Reconnect refused: {why} Retrying.", error=True)
                continue
            self.reconnects += 1
            self._attach(conn)
            self.model.say(f"Reconnected to {self.model.url}.")
            await self._rejoin(rooms)
            await self.refresh_rooms()
            return

    async def _log_back_in(self, conn: Connection, name: str, announce: bool = False) -> list[str]:
        """Resume with the token when there is one, else (or when the server refuses it) log in as ``name``;
        keeps the token (here and in ``tokens``). Returns the rooms where the player holds a seat.

        A server that wants a password (its ``welcome`` says so) is not sent a login without one: that would
        only count as a wrong guess. ``announce`` says ``Logging in as NAME...`` once, when a request is sent.

        Raises:
            ServerError: the login was refused (``seat-held``, ``name-taken``, ``bad-password``, ...), or
                ``bad-password`` without asking the server when it wants a password and none was given.
        """
        welcome = conn.welcome
        needs_password = self.password is None and welcome is not None and welcome.password
        if self.token is None and needs_password:
            raise password_needed()
        if announce:
            self.model.say(f"Logging in as {name}...")
            self.on_change()
        reply = None
        if self.token is not None:
            try:
                reply = await conn.resume(self.token)
            except ServerError as exc:
                if exc.code != "bad-token":
                    raise
                self.model.say(refusal_text(exc, name) + " Logging in by name.", error=True)
                self._keep_token(name, None)
        if reply is None:
            if needs_password:
                raise password_needed()
            reply = await conn.login(name, self.password, self.secret)
            if self.tokens is not None and self.secret is not None:
                self.tokens.keep_secret(self.server_key, reply.name, self.secret)
        self.model.name = reply.name
        self._keep_token(reply.name, reply.token)
        return list(reply.rooms)

    def _keep_token(self, name: str, token: str | None) -> None:
        self.token = token
        if self.tokens is not None:
            self.tokens.put(self.server_key, name, token)

    async def _rejoin(self, held: list[str]) -> None:
        """After a reconnect: the server gives back held seats (and the player's solitaire room) itself; a
        seat freed before the start is taken again, a watched table or solitaire room watched again."""
        solitaire = self.model.solitaire
        if solitaire is not None and solitaire.room not in held and solitaire.seat is None:
            await self.watch(solitaire.room)
        table = self.model.table
        if table is None or table.room in held:
            return
        if table.seat is not None:
            await self.sit(table.room, table.seat)
        elif self.follow is None:
            await self.watch(table.room)
        else:
            await self._watch_game(table.room, table.rematch, self.follow)

    async def _watch_game(
        self, room: str, rematch: str | None, follow: Callable[[list[dict[str, Any]]], str | None]
    ) -> None:
        """Back on a server run again, watch ``room`` again when it is still listed; else (a finished table
        dropped once its next match began) the players' next match ``rematch``, or the game ``follow``
        finds, so that the watcher is never left at a table the server no longer has."""
        await self.refresh_rooms()
        listed = {str(r.get("room")) for r in self.model.rooms}
        target = next((r for r in (room, rematch) if r in listed), None) or follow(self.model.rooms)
        if target is None:
            self.model.table = None
            self.model.say("The watched table is no longer open: the lobby lists what there is.")
            self.on_removed()  # the lobby, rather than a table that is gone
            return
        await self.watch(target)

    # Pushes -----------------------------------------------------------------------------------------

    def _on_push(self, push: Message) -> None:
        table = self.model.table
        solitaire = self.model.solitaire
        if isinstance(push, Snapshot):
            self._take_snapshot(push)
        elif isinstance(push, SolitaireState):
            if solitaire is not None and solitaire.room == push.room:
                solitaire.take(push.seq, push.view)
        elif isinstance(push, Error) and push.code in ("limit", "too-large"):  # never a raw "msgpack limit"
            self.model.say(TOO_LONG, error=True)
        elif isinstance(push, Error):
            self.model.say(full_sentence(push.message), error=True)
        elif isinstance(push, Removed):
            self._removed(push)
        elif self._own_table_push(push):
            pass
        elif table is None or getattr(push, "room", None) != table.room:
            return
        elif isinstance(push, Turn):
            if push.seq >= table.seq:
                table.turn_left(push.turn_left_ms, push.idle_left_ms)
            table.set_view(push.view, push.seq)
        elif isinstance(push, EventPush):
            self._take_event(table, push)
            self.request_refresh()
        elif isinstance(push, ChatPush):
            table.chat.append(f"{push.name}: {push.text}")
            self.model.note(f"{push.name} says: {push.text}", f"table:{table.room}")
        elif isinstance(push, Players):
            changed = table.state != push.state or table.paused != push.paused  # a clock to take again
            for notice in seat_notices(table, push, self.model.name):
                self.model.news(notice)
            table.take_players(push)
            if changed:
                self.request_refresh()
        elif isinstance(push, RematchOpened):
            table.rematch = push.new_room
            said = rematch_text(push.host, self.model.name)
            if table.seat is not None or self.model.name in table.players.values():  # our seat is kept
                self._in_background(self._to_rematch(push.new_room, table.room, said))
            elif self.follow is not None:  # a watcher of the game goes where its players go
                self._in_background(self._watch_rematch(push.new_room, said))
            else:  # a watcher stays: the old table says where the players went (w follows them)
                self.model.say(said)
        self.on_change()

    async def _to_rematch(self, room: str, old: str, said: str) -> None:
        """Take the seat kept at the rematch ``room`` and say ``said`` there, where the player now is (said at
        the ``old`` table, in its log, the player would never read it); at the old table when the seat cannot
        be taken."""
        moved = await self.sit(room)
        if moved:
            self.note_arrival(room, rematch=True)
        self.model.say(said, place=f"table:{room if moved else old}")
        self.on_change()

    async def _watch_rematch(self, room: str, said: str) -> None:
        """Watch the rematch ``room`` (a watcher who ``follow``s the game) and say ``said`` there."""
        if await self.watch(room):
            self.model.say(said, place=f"table:{room}")
            self.on_change()

    def _removed(self, push: Removed) -> None:
        """The player no longer sits at table ``push.room``: forget it, say why and how to come back."""
        name = push.room
        for table in (self.model.table, self.model.own_table):
            if table is not None and table.room == push.room:
                name = shorten(table.name, 30)
                if push.reason not in ("host", "too-many-seats"):  # a bot plays the seat: see it back
                    self.model.seat_left(table)
        if self.model.table is not None and self.model.table.room == push.room:
            self.model.table = None
        if self.model.own_table is not None and self.model.own_table.room == push.room:
            self.model.own_table = None
        if push.reason == "host":  # said for the lobby, where the player is sent
            self.model.say(
                f"{push.by or 'The host'} removed you from {name}; you may still watch it (w).", place=""
            )
        elif push.reason == "too-many-seats":
            self.model.say(
                f"Your seat at {name} was freed: the players of the address you came back from sit at as "
                "many tables waiting for players as one address may.",
                place="",
            )
        else:
            self.model.say_handed_over(
                f"You left your turn at {name} unplayed a long while: a bot plays seat {push.seat} for you. "
                "Sit there again (Enter in the lobby) to take it back.",
                push.room,
            )
        self.on_removed()
        self.request_refresh()

    def _own_table_push(self, push: Message) -> bool:
        """A push of the table where the player holds a seat while another is watched: its turn (the top line
        says so), the public turn (the turn passed: the timer played, say) and its news (its own log)."""
        own = self.model.own_table
        if own is None or getattr(push, "room", None) != own.room:
            return False
        if isinstance(push, Turn):
            own.set_view(push.view, push.seq)
            own.turn_left(push.turn_left_ms, push.idle_left_ms)
        elif isinstance(push, EventPush):
            self._take_event(own, push, own.room)
        elif isinstance(push, ChatPush):
            own.chat.append(f"{push.name}: {push.text}")
            self.model.note(f"{push.name} says: {push.text}", f"table:{own.room}")
        return True

    def _take_event(self, table: TableModel, push: EventPush, room: str | None = None) -> None:
        """A public event of ``table``: its turn clock, its view (the table shows it as the log says it), the
        hands told, and its line in the news of ``room`` (None: the table shown)."""
        event = push.event
        if event.get("event") == "turn" and push.seq >= table.seq:
            table.turn_left(event.get("turn_left_ms"), event.get("idle_left_ms"))
        table.take_event(event, push.seq)
        text = event_text(event, table)
        self._told(table.room, event)
        if text:
            self.model.news(text, room)

    def _told(self, room: str, event: dict[str, Any]) -> None:
        """A ``hand-scored`` event of ``room`` is in the log: that many hands are told."""
        if event.get("event") == "hand-scored":
            self.model.told[room] = max(self.model.told.get(room, 0), int(event.get("hand_number") or 0))

    async def back_to_seat(self) -> bool:
        """Back to the table where the player holds a seat (``own_table``), no longer watching the other."""
        own, watched = self.model.own_table, self.model.table
        if own is None or own.seat is None or not await self.sit(own.room, own.seat):
            return False
        if watched is not None and watched.seat is None and watched.room != own.room:
            await self.call(lambda c: c.leave(watched.room))
        return True

    def _take_snapshot(self, snap: Snapshot) -> None:
        if snap.kind == "solitaire":
            solitaire = self.model.solitaire
            if solitaire is None or solitaire.room != snap.room or solitaire.seat != snap.seat:
                if solitaire is not None and solitaire.seat is None and solitaire.room != snap.room:
                    self._stop_watching(solitaire.room)
                solitaire = self.model.solitaire = SolitaireModel(room=snap.room, seat=snap.seat)
                if (
                    snap.seat is not None and self.tokens is not None
                ):  # a room resumed: its seed, if chosen here
                    solitaire.seed = self.tokens.seed(self.server_key, snap.room)
            solitaire.take(snap.seq, snap.view or {})
            return
        table, own = self.model.table, self.model.own_table
        if own is not None and own.room == snap.room:  # back at the held seat
            table, self.model.own_table = own, None
            self.model.table = table
        if table is None or table.room != snap.room:
            if (
                table is not None
                and table.seat is not None
                and snap.seat is None
                and table.state == "playing"
            ):
                self.model.own_table = table  # watching another table: the seat is still held
            elif table is not None and table.seat is None:
                self._stop_watching(table.room)  # else the server counts this watcher there for good
            # The snapshot lists no stand-ins: the first players push tells them, as they were on arrival.
            table = TableModel(room=snap.room, seats_known=False)
            self.model.table = table
        if not table.newer(snap.state, snap.seq):
            return
        missed = table.view is None or table.stale  # a table (re)entered, or the connection was down
        fresh = snap.view is not None and snap.view.get("hand_number") == 1 and not snap.view.get("history")
        begins = table.seen_waiting and table.view is None and fresh  # not a match found well under way
        table.seen_waiting = table.seen_waiting or snap.state == "waiting"
        table.name, table.seat, table.state = snap.name, snap.seat, snap.state
        table.players, table.away, table.variants = snap.players, snap.away, snap.variants
        if snap.chat:  # the table's last lines: what was said before joining or while away
            table.chat.clear()
            table.chat.extend(f"{line.get('name')}: {line.get('text')}" for line in snap.chat)
        self._take_summary(table)
        table.me = self.model.name
        table.set_view(snap.view, snap.seq)
        table.turn_left(snap.turn_left_ms, snap.idle_left_ms)
        table.paused = snap.paused
        table.stale = False
        history = list((snap.view or {}).get("history") or [])
        told = self.model.told.get(snap.room)
        if missed and told is not None and len(history) > told:
            self.model.note(missed_text(table, history[told:]), f"table:{snap.room}")
        self.model.told[snap.room] = max(told or 0, len(history))
        if begins:  # seen waiting, now under way: players and watchers alike read that it begins
            self._note_begins(table)

    def _stop_watching(self, room: str) -> None:
        """Leave ``room``, watched until now, in the background: another room shows instead, and the lobby
        must not go on counting this client among its watchers (a room already gone is no matter)."""
        conn = self.conn
        if conn is None:
            return

        async def leave() -> None:
            with contextlib.suppress(*NETWORK_ERRORS, ServerError):
                await conn.leave(room)

        self._in_background(leave())

    def _in_background(self, work: Coroutine[Any, Any, Any]) -> None:
        """Run ``work`` as a task the session holds until it ends (the event loop keeps only a weak reference
        to a task: one nobody holds may be collected before it is done)."""
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def request_refresh(self) -> None:
        """Ask for the table's snapshot soon (requests arriving meanwhile are merged into one)."""
        self._dirty = True
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.get_running_loop().create_task(self._refresh())

    async def _refresh(self) -> None:
        while self._dirty:
            self._dirty = False
            table, conn = self.model.table, self.conn
            if table is None or conn is None:
                return
            try:
                snap = await conn.snapshot(table.room)
            except (*NETWORK_ERRORS, ServerError):
                return
            if self.model.table is not table or self.conn is not conn:
                return  # left the table (or the connection) meanwhile: the reply must not bring it back
            self._take_snapshot(snap)
            self.on_change()

    # Requests ---------------------------------------------------------------------------------------

    async def call(self, make: Callable[[Connection], Awaitable[T]], place: str | None = None) -> T | None:
        """Run one request; a refusal or a lost connection becomes the notice and ``None``, said in ``place``
        (None: where the player was when it was sent, not where the reply finds them: a refusal of the
        solitaire room never lands in the log of the table shown meanwhile)."""
        where = self.model.place() if place is None else place
        conn = self.conn
        if conn is None:
            self.model.say("Not connected - wait for the reconnection.", error=True, place=where)
            self.on_change()
            return None
        try:
            return await make(conn)
        except ServerError as exc:
            if exc.code in ("limit", "too-large"):  # never the codec's raw "msgpack limit exceeded"
                self.model.say(TOO_LONG, error=True, place=where)
            else:
                # A refused move keeps the server's words and rule id: its screen puts them in words.
                why = f"{exc.message} ({exc.rule})" if exc.rule is not None else full_sentence(exc.message)
                self.model.say(ROOM_GONE if exc.code == "no-such-room" else why, error=True, place=where)
        except ProtocolError as exc:  # the codec refused to send it (a raw "msgpack limit exceeded")
            too_long = exc.code in ("limit", "too-large")
            why = "That is too long to send: the server would refuse it." if too_long else failure_text(exc)
            self.model.say(why, error=True, place=where)
        except NETWORK_ERRORS as exc:
            self.model.say(failure_text(exc), error=True, place=where)
        finally:
            self.on_change()
        return None

    async def refresh_rooms(self) -> None:
        """List the lobby's rooms and the day's solitaire deals again."""
        lobby = await self.call(lambda c: c.lobby())
        if lobby is not None:
            self.model.rooms, self.model.daily = lobby.rooms, lobby.daily
            self.on_change()

    async def create_table(
        self,
        name: str,
        variants: dict[str, Any],
        bot_policy: str | None = None,
        turn_time: float | None = None,
    ) -> str | None:
        """Open a table whose bots play ``bot_policy`` (None: the server's default) and whose seats have
        ``turn_time`` seconds to act (None: no limit); returns its room id. (Sit at once: the server drops a
        table nobody sits at or watches whenever the lobby is listed.)"""
        room = await self.call(
            lambda c: c.create_table(name, variants, turn_time=turn_time, bot_policy=bot_policy)
        )
        if room is not None:
            self.model.say(f'Table "{name}" is open: add bots (b, f) or wait for friends.')
        return room

    async def sit(self, room: str, seat: str | None = None) -> bool:
        """Take ``seat`` (any free one when None) at ``room`` and make it the current table."""
        snap = await self.call(lambda c: c.sit(room, seat))
        if snap is None:
            return False
        self._take_snapshot(snap)
        table = self.model.table
        if table is not None and table.room == room and not self.model.listed(room):
            await self.refresh_rooms()  # a table just opened: its host, turn timer and grace
            self._take_summary(table)
        self.on_change()
        return True

    def note_arrival(self, room: str, rematch: bool = False) -> None:
        """Start the log of table ``room`` just taken again (a resume, or a rematch followed), empty until
        then, with the hand it is at: ``Back at hand 5 of 28.``, or ``Hand 1 of 28: the match begins.`` at a
        ``rematch``; nothing while its view (so the hand) is not known."""
        table = self.model.table
        view = (table.view or {}) if table is not None and table.room == room else {}
        number, total = view.get("hand_number"), view.get("hands_total")
        if number is None or total is None or table is None:
            return
        if rematch:
            self._note_begins(table)
        else:
            self.model.note(f"Back at hand {number} of {total}.", f"table:{room}")

    def _note_begins(self, table: TableModel) -> None:
        """Start ``table``'s log of its match with ``Hand 1 of 28: the match begins.``, once: for a player
        seated at a rematch and for anyone (a watcher who followed the players there too) who saw the table
        waiting when its match starts."""
        total = (table.view or {}).get("hands_total")
        if total is not None and not table.begin_told:
            table.begin_told = True
            self.model.note(f"Hand 1 of {total}: the match begins.", f"table:{table.room}")

    def _take_summary(self, table: TableModel) -> None:
        """What the lobby's list says of ``table``: its host, next match, turn timer and grace period."""
        summary = self.model.listed(table.room)
        table.host = summary.get("host", table.host)
        table.rematch = summary.get("rematch") or table.rematch  # known after a restart too
        table.turn_time = summary.get("turn_time", table.turn_time)
        table.grace = summary.get("grace", table.grace)

    async def watch(self, room: str) -> bool:
        """Watch ``room``, making it the current table."""
        snap = await self.call(lambda c: c.watch(room))
        if snap is None:
            return False
        self._take_snapshot(snap)
        self.on_change()
        return True

    async def leave(self) -> None:
        """Leave the current table (a stand-in plays a held seat) and forget it."""
        table = self.model.table
        if table is None:
            return
        if table.seat is not None:
            self.model.own_table = None
        self.model.table = None
        await self.call(lambda c: c.leave(table.room))
        await self.refresh_rooms()

    async def remove_player(self, room: str, seat: str) -> None:
        """Free ``seat`` at ``room`` before the start (the host only); the player there is told, and the news
        here says the host removed them (not that they left)."""
        table = self.model.table
        if table is not None and table.room == room:
            table.removing.add(seat)  # the players push may come before the reply
        await self.call(lambda c: c.remove_player(room, seat))
        await self.refresh_rooms()

    async def add_bot(self, room: str, seat: str) -> None:
        """Put a server bot into ``seat`` at ``room``."""
        await self.call(lambda c: c.add_bot(room, seat))
        await self.refresh_rooms()

    async def act(self, action: dict[str, Any]) -> bool:
        """Play ``action`` for this client's seat at the current table."""
        table = self.model.table
        if table is None or table.seat is None:
            return False
        seat = table.seat

        async def send(conn: Connection) -> bool:
            try:
                await conn.act(table.room, seat, action)
            except ServerError as exc:
                if exc.code != "illegal":
                    raise
                self.model.say(action_refusal(exc.rule, exc.message, table.view or {}, action), error=True)
                return False
            return True

        done = await self.call(send)
        self.request_refresh()
        return done is True

    async def rematch(self) -> None:
        """Ask for another match with the same players at the current table (its host, the match over); the
        ``rematch-opened`` push that follows seats this client there."""
        table = self.model.table
        if table is not None:
            await self.call(lambda c: c.rematch(table.room))

    async def chat(self, text: str) -> bool:
        """Say ``text`` at the current table; returns whether the server took it."""
        table = self.model.table
        if table is None:
            return False

        async def send(conn: Connection) -> bool:
            await conn.chat(table.room, text)
            return True

        return await self.call(send) is True

    # Solitaire --------------------------------------------------------------------------------------

    async def open_solitaire(
        self,
        game: str,
        options: dict[str, Any],
        seed: int | None,
        winnable: bool = False,
        random: bool = False,
    ) -> bool:
        """Open a solitaire room of ``game`` (``seed`` None: the day's deal, or with ``winnable`` a deal the
        solver proved winnable, with ``random`` a random deal the server chooses: its seed is not shown to
        watchers before the game is over, ``docs/protocol.md``) and make it the current one."""
        snap = await self.call(lambda c: c.open_solitaire(game, options, seed, winnable, random))
        if snap is None:
            return False
        self._take_snapshot(snap)
        self._keep_seed(seed)
        self.on_change()
        return True

    async def solitaire(self, kind: str, move: str | None = None) -> bool:
        """Send ``kind`` (``move`` with ``move``, ``undo``, ``redo``, ``auto``, ``resign``, ``new-deal``) for the
        current solitaire room; the new state comes as a push (``new-deal``: the new room's snapshot)."""
        room = self.model.solitaire
        if room is None:
            return False

        async def send(conn: Connection) -> bool:
            if kind == "move" and move is not None:
                await conn.move(room.room, move)
            elif kind == "new-deal":  # the server chooses the seed: watchers see it only at the end
                self._take_snapshot(await conn.new_deal(room.room))
                self._keep_seed(None)
            else:
                calls = {"undo": conn.undo, "redo": conn.redo, "auto": conn.auto, "resign": conn.resign}
                await calls[kind](room.room)
            return True

        return await self.call(send, "solitaire") is True

    def _keep_seed(self, seed: int | None) -> None:
        """The current solitaire room was dealt from ``seed``, chosen here (None: the day's deal, or a winnable
        deal the server chose): say it in its header, now and after a restart (kept with the tokens)."""
        room = self.model.solitaire
        if room is None:
            return
        room.seed = seed
        if seed is not None and self.tokens is not None:
            self.tokens.keep_seed(self.server_key, room.room, seed)

    async def solitaire_hint(self) -> Hint | None:
        """The server's hint for the current solitaire room (None: the request failed; the notice says why)."""
        room = self.model.solitaire
        if room is None:
            return None

        async def ask(conn: Connection) -> Hint:
            try:
                return await conn.hint(room.room)
            except ServerError as exc:
                if exc.code != "busy":
                    raise
                # Said in words, not the server's figures (a storm of hints, every worker taken).
                raise ServerError(Error(id=None, code="busy", message=BUSY_HINT)) from None

        return await self.call(ask, "solitaire")


def seat_notices(table: TableModel, push: Players, me: str) -> list[str]:
    """What a ``players`` push changed, in words: who sat down or left, who watches, who dropped (and when
    a bot takes the seat over, or before the start how long the seat is kept), who came back, whether the
    match paused (none of its players connected) or goes on; nothing about this client's own player but
    what becomes of their seat while they only look at it (``Your seat E is away``, ``A bot plays your seat E
    now``). The first push at a table just entered (``table.seats_known`` False) tells no other seat's drop
    or stand-in: those came before the player did, and the panel shows them."""
    out = []
    for seat, owner in push.players.items():
        before = table.players.get(seat)
        if owner in (before, me):
            continue
        name = "A bot" if str(owner).startswith("bot:") else str(owner)  # it starts the sentence
        if owner is not None and before is None:
            out.append(f"{name} joined (seat {seat}).")
        elif owner is None and before is not None and before != me:
            if seat in table.removing:
                table.removing.discard(seat)
                out.append(f"You removed {table.player(seat)} from seat {seat}.")
            else:
                out.append(f"{table.player(seat)} left seat {seat}.")
    # The first push after joining lists who watched already: only those who come later are news.
    watchers = set(push.spectators) - set(table.spectators) - {me} if table.spectators_known else set()
    for name in sorted(watchers):
        held = next((s for s, p in push.players.items() if p == name), None)
        if held is None:
            out.append(f"{name} is watching.")
        else:  # a player of the table looking on: at the finished match, or while a bot plays their seat
            out.append(f"{name} (seat {held}) is looking at the table.")
    if push.state == "over":
        return out
    if push.paused and not table.paused:
        out.append("The table is paused: none of its players is connected. It goes on when one comes back.")
    elif table.paused and not push.paused:
        out.append("The table goes on: a player is back.")
    for seat in push.players:
        who = f"{seat} {table.player(seat)}"
        mine = push.players.get(seat) == me  # their own seat, looked at: said as about them
        if seat == table.seat or push.players.get(seat) != table.players.get(seat):
            continue
        if not table.seats_known and not mine:
            continue  # the table just entered: a stand-in already there, or a drop, is no news (the panel shows it)
        if seat in push.freed_in and seat not in table.freed_at:
            out.append(f"{who} dropped: their seat is kept for {duration(push.freed_in[seat])}.")
        elif push.state == "waiting" and seat not in table.freed_at:
            continue  # a kept seat of a rematch, its player not come yet: nobody dropped or came back
        elif seat in push.standin_in and seat not in table.standin_at:
            whose = "its" if mine else "their"
            timer = (
                f" (meanwhile the {table.turn_time:.0f} s turn timer plays {whose} turns)"
                if table.turn_time
                else ""
            )
            left = duration(push.standin_in[seat])
            out.append(
                f"Your seat {seat} is away: a bot plays it in {left}{timer}."
                if mine
                else f"{who} dropped: a bot plays for them in {left}{timer}."
            )
        elif seat in push.standins and seat not in table.standins:
            out.append(
                f"A bot plays your seat {seat} now: sit there again from the lobby (l, then Enter on it)."
                if mine
                else f"A bot plays for {who} now."
            )
        elif seat in table.away and seat not in push.away:
            out.append(f"{who} is back.")
    return out


def rematch_text(host: str, me: str) -> str:
    """The notice of a ``rematch-opened`` push: ``You opened another match with the same players.`` for
    this client's own request (``host`` is ``me``), ``hal opened another match with the same players.`` for
    everyone else's."""
    who = "You" if host == me else host
    return f"{who} opened another match with the same players."
