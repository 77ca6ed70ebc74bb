"""A bot is a policy over its seat's view: it answers each view whose ``legal`` is its own with an action.

``play_match`` plays the seat a connection holds at a table until the ``match-over`` event (or a snapshot of
the match over, when it ended while the bot was away) and returns the final totals. Over protocol version 2
it is a reducer: it reads the view the connection keeps (``Connection.rooms``) after each ``update`` or
snapshot, acts when the view's ``legal`` is set, and asks for a snapshot only when that view went stale
(``since`` its last ``seq``); over version 1 it answers ``turn`` pushes. ``come_back`` reconnects
after a drop and resumes with the token, retrying with growing pauses for a bounded time; ``patiently`` retries
a request the server refused for now (``store-unavailable``, ``slow-down``) the same way, as the server's own
bots wait for the store. The policies are the engine's (``engine.barbu.make_policy``, from a policy spec).
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from websockets.exceptions import WebSocketException

from client.connection import Connection, ConnectionLost, ServerError
from engine.barbu import Policy, action_from_wire, action_to_wire
from protocol import EventPush, Message, ProtocolError, Snapshot, Turn, Update

#: Pauses between reconnection attempts (the last one repeats) and how long to keep trying, in seconds.
BACKOFF = (0.2, 0.5, 1.0, 2.0, 4.0, 8.0)
GIVE_UP_AFTER = 60.0
#: Refusals that say "not now" (the server's store cannot write, or the request came too soon): try again.
TRANSIENT = frozenset({"store-unavailable", "slow-down"})

T = TypeVar("T")


async def patiently(
    call: Callable[[], Awaitable[T]],
    delays: Sequence[float] = BACKOFF,
    give_up_after: float = GIVE_UP_AFTER,
) -> T:
    """``await call()``, calling it again after a ``TRANSIENT`` refusal: the pauses are ``delays`` (the last
    one repeats), at least the refusal's ``retry_after``, for at most ``give_up_after`` seconds in all.

    Raises:
        ServerError: any other refusal, or a transient one that lasted past ``give_up_after``.
    """
    deadline = time.monotonic() + give_up_after
    attempt = 0
    while True:
        try:
            return await call()
        except ServerError as exc:
            if exc.code not in TRANSIENT:
                raise
            pause = max(delays[min(attempt, len(delays) - 1)], exc.retry_after or 0.0)
            if time.monotonic() + pause > deadline:
                raise
            attempt += 1
            await asyncio.sleep(pause)


async def play_match(
    conn: Connection,
    room: str,
    policy: Policy,
    on_push: Callable[[Message], None] | None = None,
) -> dict[str, int]:
    """Play this connection's seat at ``room`` with ``policy`` until the match is over.

    Every push is passed to ``on_push`` first (e.g. to print a score sheet). A ``turn`` (version 1) or a
    view (version 2) already answered (same or older ``seq``) is skipped.

    Returns:
        The final totals by seat letter (``{"N": 12, ...}``), from the ``match-over`` event.

    Raises:
        ConnectionLost: the connection closed before the match ended (``BadReply``: the server sent a frame
            this client cannot read).
        ServerError: the server refused one of the bot's actions (after ``patiently`` retrying a
            ``store-unavailable`` or ``slow-down``).
    """
    if conn.version >= 2:
        return await _play_updates(conn, room, policy, on_push)
    answered = -1
    async for push in conn.pushes():
        if on_push is not None:
            on_push(push)
        if isinstance(push, Turn) and push.room == room and push.seq > answered:
            answered = push.seq
            legal = [action_from_wire(a) for a in push.view["legal"]]
            action = policy.choose(push.view, legal)
            seat, wire = push.seat, action_to_wire(action)
            try:
                await patiently(functools.partial(conn.act, room, seat, wire))
            except ServerError as exc:
                if exc.rule != "not-your-turn":
                    raise
        elif isinstance(push, EventPush) and push.room == room and push.event.get("event") == "match-over":
            totals: dict[str, int] = push.event["totals"]
            return totals
        elif isinstance(push, Snapshot) and push.room == room and push.state == "over" and push.view:
            final: dict[str, int] = push.view["totals"]
            return final
    if conn.lost is not None:
        raise conn.lost  # an unreadable frame (``BadReply``) closed it
    raise ConnectionLost(f"connection closed before the match at room {room} ended")


async def _play_updates(
    conn: Connection, room: str, policy: Policy, on_push: Callable[[Message], None] | None
) -> dict[str, int]:
    """``play_match`` over protocol version 2: act on the view ``conn.rooms[room]`` holds whenever its
    ``legal`` is set and its ``seq`` not yet answered; the match ends with a ``match-over`` event or a view
    of the match over. A snapshot is asked only when the view went stale."""
    answered = -1

    async def act() -> dict[str, int] | None:
        nonlocal answered
        state = conn.rooms.get(room)
        if state is not None and state.stale:
            await conn.snapshot(room, since=state.seq)  # the reader starts the state again from it
        if state is None or state.view is None:
            return None
        view = state.view
        if state.over:  # it ended while this bot was away (a snapshot), or the last update says so
            totals: dict[str, int] = view["totals"]
            return totals
        if view.get("legal") and view.get("seat") and state.seq > answered:
            answered = state.seq
            legal = [action_from_wire(a) for a in view["legal"]]
            wire = action_to_wire(policy.choose(view, legal))
            try:
                await patiently(functools.partial(conn.act, room, view["seat"], wire))
            except ServerError as exc:
                if exc.rule != "not-your-turn":
                    raise
        return None

    done = await act()  # the view the ``sit`` (or a resume's snapshot) left, if it is this seat's turn
    if done is not None:
        return done
    async for push in conn.pushes():
        if on_push is not None:
            on_push(push)
        if isinstance(push, Update) and push.room == room:
            for event in push.events:
                if event.get("event") == "match-over":
                    totals: dict[str, int] = event["totals"]
                    return totals
        if isinstance(push, Update | Snapshot) and push.room == room:
            done = await act()
            if done is not None:
                return done
    if conn.lost is not None:
        raise conn.lost
    raise ConnectionLost(f"connection closed before the match at room {room} ended")


async def come_back(
    url: str,
    token: str,
    client: str = "barbu-bot/0.1",
    delays: Sequence[float] = BACKOFF,
    give_up_after: float = GIVE_UP_AFTER,
    version: int = 1,
    since: dict[str, int] | None = None,
) -> Connection:
    """Reconnect to ``url`` and ``resume`` with ``token``, retrying with the pauses ``delays`` (the last one
    repeats) for at most ``give_up_after`` seconds; a ``TRANSIENT`` refusal (the store cannot write the new
    token, or too many wrong tokens from this address) is retried the same way, waiting at least its
    ``retry_after``. The server pushes the seats' snapshots (and a ``turn``, version 1) on the new connection;
    a ``version`` 2 connection gives ``since`` (room id -> the ``seq`` last known: ``Connection.since``) to be
    told the updates missed.

    Raises:
        ConnectionLost: the server did not come back in time.
        ServerError: the server refused the token (``bad-token``), or a transient refusal lasted past
            ``give_up_after``.
    """
    deadline = time.monotonic() + give_up_after
    attempt = 0
    last = "no attempt"
    wait = 0.0  # a transient refusal's retry_after
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise ConnectionLost(f"the server did not come back within {give_up_after:g} s ({last})")
        await asyncio.sleep(min(max(delays[min(attempt, len(delays) - 1)], wait), left))
        wait = 0.0
        attempt += 1
        try:
            conn = await Connection.connect(
                url, client=client, timeout=max(1.0, min(10.0, left)), version=version
            )
        except (OSError, TimeoutError, ConnectionLost, ProtocolError, WebSocketException) as exc:
            last = str(exc) or type(exc).__name__
            continue
        try:
            await conn.resume(token, since)
        except (TimeoutError, ConnectionLost, ProtocolError) as exc:
            last = str(exc) or type(exc).__name__
            await conn.close()
            continue
        except ServerError as exc:
            await conn.close()
            if exc.code not in TRANSIENT or time.monotonic() >= deadline:
                raise
            last, wait = str(exc), exc.retry_after or 0.0
            continue
        except BaseException:
            await conn.close()
            raise
        return conn
