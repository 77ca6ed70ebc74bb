"""What a second newcomer met in two whole matches of the terminal client, against a real server (fixtures in
``conftest.py``, helpers in ``test_tui.py``): the end-of-hand summary stays through the next hand's contract
and doubles until a key (Esc too) or the next card."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from client.tui.app import TuiApp
from server import BarbuServer
from tests.conftest import Connect, until
from tests.test_tui import running_tui, screen_lines, seat_with_bots


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
