"""Support for the protocol version 2 tests (their clients come from the ``connect_v2`` fixture): reading
the views a version 2 connection keeps (``RoomState``) and the pushes it receives, no snapshot asked."""

from __future__ import annotations

from typing import Any

from client import Connection
from protocol import Message, Players, Update


def view_of(conn: Connection, room: str) -> dict[str, Any]:
    """The view ``conn`` holds of ``room`` (its ``RoomState``), which must have one."""
    state = conn.rooms[room]
    assert state.view is not None
    return state.view


async def room_news(conn: Connection, seq: int, timeout: float = 10.0) -> list[Message]:
    """The pushes ``conn`` receives up to the update of action ``seq`` (included), ``players`` pushes left
    out (seat changes are told apart from actions)."""
    got: list[Message] = []
    while True:
        push = await conn.next_push(timeout)
        if isinstance(push, Players):
            continue
        got.append(push)
        if isinstance(push, Update) and push.seq >= seq:
            return got


def first_legal(view: dict[str, Any]) -> dict[str, Any]:
    """The first legal action of ``view``, which must be the seat's turn."""
    legal = view["legal"]
    assert legal, "not this seat's turn"
    action: dict[str, Any] = legal[0]
    return action
