"""A bot is a policy over its seat's view: it waits for ``turn`` pushes and answers each with an action.

``play_match`` plays the seat a connection holds at a table until the ``match-over`` event and returns the
final totals. The policies are the engine's (``engine.barbu.make_policy``: ``random``, ``heuristic``).
"""

from __future__ import annotations

from collections.abc import Callable

from client.connection import Connection, ConnectionLost, ServerError
from engine.barbu import Policy, action_from_wire, action_to_wire
from protocol import EventPush, Message, Turn


async def play_match(
    conn: Connection,
    room: str,
    policy: Policy,
    on_push: Callable[[Message], None] | None = None,
) -> dict[str, int]:
    """Play this connection's seat at ``room`` with ``policy`` until the match is over.

    Every push is passed to ``on_push`` first (e.g. to print a score sheet). A ``turn`` already answered
    (same or older ``seq``) is skipped.

    Returns:
        The final totals by seat letter (``{"N": 12, ...}``), from the ``match-over`` event.

    Raises:
        ConnectionLost: the connection closed before the match ended.
        ServerError: the server refused one of the bot's actions.
    """
    answered = -1
    async for push in conn.pushes():
        if on_push is not None:
            on_push(push)
        if isinstance(push, Turn) and push.room == room and push.seq > answered:
            answered = push.seq
            legal = [action_from_wire(a) for a in push.view["legal"]]
            action = policy.choose(push.view, legal)
            try:
                await conn.act(room, push.seat, action_to_wire(action))
            except ServerError as exc:
                if exc.rule != "not-your-turn":
                    raise
        elif isinstance(push, EventPush) and push.room == room and push.event.get("event") == "match-over":
            totals: dict[str, int] = push.event["totals"]
            return totals
    raise ConnectionLost(f"connection closed before the match at room {room} ended")
