"""What a second newcomer met in two whole matches of the terminal client, against a real server (fixtures in
``conftest.py``, helpers in ``test_tui.py``): the end-of-hand summary stays through the next hand's contract
and doubles until a key (Esc too) or the next card."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from client.tui.app import TuiApp
from engine.cards import SEATS
from server import BarbuServer
from tests.conftest import Connect, until
from tests.test_tui import running_tui, screen_lines, seat_with_bots, status, table_of


async def play_first_legal_until(tui: TuiApp, done: Callable[[], bool], what: str, limit: float = 30) -> None:
    """Play this seat's first legal action at every turn (by the session, not keys) until ``done()``."""
    loop = asyncio.get_running_loop()
    end, acted = loop.time() + limit, -1
    while not done():
        assert loop.time() < end, f"timed out waiting for {what}"
        table = tui.model.table
        if table is not None and table.my_turn and table.seq != acted and not done():
            acted = table.seq
            await tui.session.act(dict((table.view or {})["legal"][0]))
        await asyncio.sleep(0.01)


async def test_the_summary_stays_through_the_next_contract_until_a_key(
    server: BarbuServer, connect: Connect
) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "sue") as (tui, pipe):
        await seat_with_bots(tui, pipe, server, helper, offset=1)  # a bot declares hands 1-7
        table = tui.model.table
        assert table is not None
        await play_first_legal_until(tui, lambda: table.summary is not None, "hand 1 scored")
        await until(
            lambda: table.my_turn and (table.view or {}).get("hand_number") == 2, "sue's double in hand 2"
        )
        assert (table.view or {})["contract"]  # the bot chose hand 2's contract before
        await asyncio.sleep(0.3)
        assert table.showing_summary() and tui.barbu.choices(table)  # the menu beside the summary
        shown = " ".join(screen_lines(tui))
        assert "Hand 1 scored" in shown and "Double whom?" in shown
        pipe.send_text("\x1b")  # Esc: any key puts it away, with the dialog open too
        await until(lambda: not table.showing_summary(), "the summary put away by Esc")
        assert "Hand 2/28" in " ".join(screen_lines(tui))


async def test_the_turn_clock_counts_down_and_the_timers_move_is_said_as_such(
    server: BarbuServer, connect: Connect
) -> None:
    host = await connect(server, "host")
    room = await host.create_table("timed", turn_time=3)
    await host.watch(room)
    mine = SEATS[table_of(server, room).first_declarer]  # the timer chooses the contract for tia
    for seat in SEATS:
        if seat != mine:
            await host.add_bot(room, seat)
    async with running_tui(server.url, "tia") as (tui, _pipe):
        await tui.sit(room, mine)
        await until(lambda: tui.model.table is not None and tui.model.table.my_turn, "tia's contract turn")
        await until(lambda: re.search(r"YOUR TURN \(contract\) \d+s", status(tui)) is not None, "the clock")
        await until(lambda: any("Time ran out: a bot chose" in line for line in tui.model.log), "the timer")
        said = next(line for line in tui.model.log if "Time ran out" in line)
        assert said.endswith("for you.") and not any(line.startswith("you chose") for line in tui.model.log)


async def test_the_server_marks_an_action_the_timer_played(server: BarbuServer, connect: Connect) -> None:
    host = await connect(server, "host2")
    room = await host.create_table("timed2", turn_time=1)
    mine = SEATS[table_of(server, room).first_declarer]
    await host.sit(room, mine)
    for seat in SEATS:
        if seat != mine:
            await host.add_bot(room, seat)
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while True:
        push = await asyncio.wait_for(host.next_push(), max(end - loop.time(), 0.1))
        event = getattr(push, "event", None) or {}
        if event.get("event") == "contract-chosen":
            assert event.get("by") == "timer" and event["declarer"] == mine
        if event.get("event") == "doubled" and event["seat"] != mine:
            assert "by" not in event  # a server bot in its own seat acts for nobody
            break
