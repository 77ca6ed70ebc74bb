"""The terminal client's top line while the connection is lost, against a real server on 127.0.0.1 (fixtures
in ``conftest.py``, helpers in ``test_tui.py``): the words ``connection lost, reconnecting (try N)`` are read
whole at 80 columns beside the longest names, and ``turn: ?`` with them."""

from __future__ import annotations

from client.columns import width
from tests.conftest import StartServer, until
from tests.test_tui import running_tui, screen_lines

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
