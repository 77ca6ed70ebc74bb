"""Helpers of the standings tests (server, CLI, TUI, browser): matches finished on a real server."""

from __future__ import annotations

from typing import Any

from client import Connection
from server import BarbuServer
from tests.conftest import server_table, until


async def finish_match(server: BarbuServer, humans: dict[str, Connection], name: str) -> dict[str, Any]:
    """``humans`` (seat -> client) sit at a new table ``name`` with random bots in the other seats and
    leave at once (stand-ins play for them) until the match is over; then the first of them watches it,
    which keeps the finished table in the lobby's list. Returns the stored record."""
    host = next(iter(humans.values()))
    room = await host.create_table(name)
    for seat, conn in humans.items():
        await conn.sit(room, seat)
    for seat in "NESW":
        if seat not in humans:
            await host.add_bot(room, seat, "random")
    table = server_table(server, room)
    await until(lambda: table.match is not None, "the start")
    for conn in humans.values():
        await conn.leave(room)
    # 120 s: a whole match of 28 hands, on a CI machine shared with other runs.
    await until(lambda: table.store.room(table.store_id).status == "over", "the end", 120)
    await host.watch(room)
    record = table.store.room(table.store_id).record
    assert record is not None
    return record
