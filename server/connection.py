"""One WebSocket connection's life: read frames, decode and validate them, hand requests to the lobby, and
answer every refusal with a typed ``error`` while the connection and the rooms carry on.

Fairness: requests of one connection are carried out one at a time, and the loop yields to the event loop
after each, so a client pipelining thousands of requests takes turns with everyone else; a request beyond
the connection's budget (``ServerConfig.request_rate``, ``request_burst``), or beyond the budget all
connections from its IP address share (``address_request_rate``, ``address_request_burst``: many connections
do not multiply the rate), is refused with ``slow-down`` before it is carried out: a request costs both by its
kind (``server.costs``), a message split into fragments and a frame that does not decode cost more; once the server is done with a
connection (closed for a full backlog, a takeover,
too many wrong passwords) the requests it had already sent are dropped unread.

The first frame fixes the connection's encoding (msgpack in binary frames, JSON in text frames:
``protocol.encodings``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from protocol import REQUEST_LIMITS, Error, ProtocolError, parse_request, request_id
from protocol.encodings import decode, frame_encoding
from server.costs import BAD_FRAME, FRAGMENT, request_cost
from server.lobby import Lobby
from server.peer import BoundedConnection, Peer, close_within
from server.ratelimit import Throttle
from server.store import StoreUnavailable

log = logging.getLogger(__name__)
#: Requests refused because the store cannot write are logged once a second at most.
_store_refusals = Throttle(1.0)


async def serve_connection(ws: ServerConnection, lobby: Lobby) -> None:
    """Serve ``ws`` until it closes; then its seats are held (or freed before a match starts). A connection
    not logged in ``config.login_timeout`` seconds after it opened is closed (code 1008), its TCP connection
    aborted if the closing handshake is not over ``END_WITHIN`` seconds later (``close_within``). Until
    then its messages are bounded tighter (``server.peer.BEFORE_LOGIN``)."""
    config = lobby.config
    peer = Peer(
        ws,
        config.max_backlog,
        config.max_queued_bytes,
        config.request_rate,
        config.request_burst,
        lobby.durable,
    )

    def login_deadline() -> None:
        # A connection that never logs in holds a socket and a task for nothing: close it.
        if peer.player is None and not peer.closed:
            closing.add(
                asyncio.get_running_loop().create_task(
                    close_within(ws, 1008, "log in (or resume) within the time allowed")
                )
            )

    closing: set[asyncio.Task[None]] = set()  # held: the loop keeps only weak references to tasks
    deadline = asyncio.get_running_loop().call_later(lobby.config.login_timeout, login_deadline)
    lobby.budgets.open(peer.address)
    try:
        async for frame in ws:
            if peer.closed:
                break
            await handle_frame(peer, frame, lobby)
            if peer.close_after_reply is not None:
                peer.end(*peer.close_after_reply)
            # Take turns: the next request of this connection waits behind what others have sent meanwhile.
            await asyncio.sleep(0)
    except ConnectionClosed:
        pass
    finally:
        deadline.cancel()
        lobby.budgets.close(peer.address)
        await lobby.disconnected(peer)
        await peer.close()


def _spend(peer: Peer, cost: float, lobby: Lobby) -> None:
    """Take ``cost`` (``server.costs``) from ``peer``'s request budget, then from its address's.

    Raises:
        ProtocolError: ``slow-down`` (with ``retry_after``) when the budget has not that much left.
    """
    budgets: tuple[tuple[Callable[[], float], str], ...] = (
        (
            lambda: peer.budget.take(cost),
            f"this connection's request budget ({lobby.config.request_rate:g} a second",
        ),
        (
            lambda: lobby.budgets.take(peer.address, cost),
            f"your address's request budget ({lobby.config.address_rate:g} a second for all its connections together",
        ),
    )
    for take, budget in budgets:  # the address's budget is spent only once the connection's allows it
        wait = take()
        if wait > 0:
            raise ProtocolError(
                "slow-down",
                f"over {budget}, a request costing {cost:g}): wait {wait:.2f} s",
                retry_after=max(0.001, round(wait, 3)),
            )


async def handle_frame(peer: Peer, frame: bytes | str, lobby: Lobby) -> None:
    """Decode, validate and carry out one frame; a refusal or a server fault becomes an ``error`` reply (a
    store that cannot write: ``store-unavailable``, the request having changed nothing)."""
    rid: int | None = None
    if peer.encoding is None:
        peer.encoding = frame_encoding(frame)
    try:
        split = FRAGMENT * peer.ws.take_continued() if isinstance(peer.ws, BoundedConnection) else 0.0
        try:
            wire = decode(frame, peer.encoding, REQUEST_LIMITS)
        except ProtocolError:
            _spend(peer, BAD_FRAME + split, lobby)  # a flood of garbage is refused like any other
            raise
        rid = request_id(wire)
        _spend(peer, request_cost(wire) + split, lobby)
        await lobby.handle(peer, parse_request(wire))
    except ProtocolError as exc:
        peer.send(
            Error(
                id=rid,
                code=exc.code,
                message=exc.message,
                field=exc.field,
                rule=exc.rule,
                retry_after=exc.retry_after,
                args=exc.rule_args,
            )
        )
    except StoreUnavailable as exc:  # the room was left as it was: the request may be sent again later
        held = _store_refusals.ready()
        if held is not None:
            log.warning("%r: request refused (%d more since the last line), %s", peer, held, exc)
        peer.send(
            Error(id=rid, code="store-unavailable", message="the server cannot save this now; try again")
        )
    except Exception:
        log.exception("%r: request failed", peer)
        peer.send(Error(id=rid, code="internal", message="the server failed on this request"))
