"""The terminal client's top line while the connection is lost, and a watcher's end-of-hand summary, against a
real server on 127.0.0.1 (fixtures in ``conftest.py``, helpers in ``test_tui.py``): the words
``connection lost, reconnecting (try N)`` are read whole at 80 columns beside the longest names, and
``turn: ?`` with them; a watcher's summary goes once the next hand's contract is chosen, so the table shows
the contract and the doubles as they come."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from client import Connection
from client.columns import width
from engine.cards import SEATS
from server import BarbuServer
from tests.conftest import Connect, StartServer, server_table, until
from tests.test_tui import on_screen, running_tui, screen_lines

LONGEST_NAME = "marguerite-dela-vallée-1"  # names have at most 24 characters, tables 40
LONGEST_TABLE = "the long friday evening table, second go"


async def test_the_connection_lost_words_are_whole_at_80_columns(start_server: StartServer) -> None:
    server = await start_server()
    port = server.port
    async with running_tui(server.url, LONGEST_NAME) as (tui, _pipe):
        room = await tui.session.create_table(LONGEST_TABLE, {})
        assert room is not None
        await tui.sit(room, "N")
        for seat in "ESW":
            await tui.session.add_bot(room, seat)
        await until(lambda: tui.model.table is not None and tui.model.table.view is not None, "the match")
        await server.stop()  # the real drop: the server is gone
        await until(lambda: "reconnecting" in tui.model.status, "the tries to reconnect")
        assert tui.model.status.startswith("connection lost, reconnecting (try ")
        for screen in ("table", "help", "lobby", "table"):
            tui.show(screen)
            top = screen_lines(tui)[0]
            assert top.startswith(f" {tui.model.status}"), (screen, top)  # a try may go by meanwhile
            assert width(top) <= 80, top
            if screen == "table":  # the rest is cut to fit, its end kept: the turn is not claimed
                assert top.endswith("│ turn: ?") and "seat N" in top, top
        await start_server(port=port)
        await until(lambda: tui.model.connected, "reconnected", 15)


async def act_until(conn: Connection, room: str, seat: str, done: Callable[[dict[str, Any]], bool]) -> None:
    """Play ``seat``'s first legal action at each of its turns until ``done(view)`` (bounded: 60 s)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + 60
    while True:
        view = (await conn.snapshot(room)).view or {}
        if done(view):
            return
        assert loop.time() < end, "the match did not get there"
        if view.get("to_move") == seat and view.get("legal"):
            await conn.act(room, seat, dict(view["legal"][0]))
        else:
            await asyncio.sleep(0.01)


async def test_a_watchers_summary_goes_when_the_next_contract_is_chosen(
    server: BarbuServer, connect: Connect
) -> None:
    dora = await connect(server, "dora")
    room = await dora.create_table("watched")
    seat = SEATS[server_table(server, room).first_declarer]  # dora declares hands 1-7: hand 2 waits for her
    await dora.sit(room, seat)
    async with running_tui(server.url, "wes") as (tui, _pipe):
        await tui.watch(room)
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "the watched table")
        for other in SEATS:
            if other != seat:
                await dora.add_bot(room, other)
        await act_until(dora, room, seat, lambda v: v.get("hand_number") == 2)
        table = tui.model.table
        assert table is not None and table.seat is None
        await until(
            lambda: (table.view or {}).get("hand_number") == 2 and table.summary is not None, "hand 2"
        )
        assert table.showing_summary() and on_screen(tui, "Hand 1 scored")  # while dora chooses
        await act_until(dora, room, seat, lambda v: bool(v.get("contract")))
        await until(lambda: bool((table.view or {}).get("contract")), "hand 2's contract at the watcher's")
        assert not table.showing_summary()
        centre = " ".join(line[:46] for line in screen_lines(tui)[1:14])  # the table, beside the panel
        assert "Hand 2/28" in centre and "Hand 1 scored" not in centre
