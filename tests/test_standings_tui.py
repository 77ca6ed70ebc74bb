"""The standings in the terminal client: ``s`` in the lobby shows the players of the server's finished
matches with their matches, firsts, average place and rating; ``r`` asks again; Esc goes back to the list."""

from __future__ import annotations

from tests.conftest import Connect, StartServer, until
from tests.standings_support import finish_match
from tests.tui_support import on_screen, running_tui, screen_lines


async def test_s_in_the_lobby_shows_the_standings_and_esc_goes_back(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    async with running_tui(server.url, "cat") as (tui, pipe):
        pipe.send_text("s")
        await until(lambda: on_screen(tui, "No finished match yet"), "the empty standings")
        assert on_screen(tui, "Esc or s: back to the lobby")

        ann, bob = await connect(server, "ann"), await connect(server, "bob")
        await finish_match(server, {"N": ann, "E": bob}, "evening")
        rows = await ann.standings()
        pipe.send_text("r")
        await until(lambda: on_screen(tui, "avg place"), "the standings table")
        lines = screen_lines(tui)
        for place, row in enumerate(rows, 1):
            words = [
                str(place),
                row["name"],
                str(row["matches"]),
                str(row["firsts"]),
                f"{row['average_place']:.2f}",
                f"{row['rating']:.1f}",
            ]
            assert words in [line.split() for line in lines], (words, lines)
        assert not on_screen(tui, "bot:")

        pipe.send_text("\x1b")
        await until(lambda: on_screen(tui, "Lobby of"), "the lobby list again")
        assert tui.lobby.standings is None and on_screen(tui, "s standings")
