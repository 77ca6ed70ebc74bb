"""The terminal client's notice line against a real server (fixtures in ``conftest.py``, helpers in
``test_tui.py``): a pending question stays until it is answered, and a refusal said in the lobby stays there,
whatever news the player's table sends meanwhile (the log keeps that news); ``t`` switches between the
table and the solitaire room; a local game run again returns to its Barbu table, not to an unfinished
solitaire room, which still says its seed and options when it is opened again; the turn clock counts
down from the server's ``turn_left_ms``."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from client.tui.events import full_sentence
from client.tui.local import LocalServer, seat_local_player
from client.tui.session import ROOM_GONE
from server import BarbuServer
from tests.conftest import Connect, until
from tests.test_tui import DOWN, ENTER, on_screen, opened_table, running_tui, screen_lines, started_tui


async def test_a_pending_question_and_a_lobby_refusal_outlast_the_tables_news(
    server: BarbuServer, connect: Connect
) -> None:
    alice = await connect(server, "alice")
    room = await alice.create_table("busy")
    await alice.sit(room, "N")
    async with running_tui(server.url, "quin") as (tui, pipe):
        await tui.sit(room, "W")
        await until(lambda: tui.screen == "table", "the table")
        tui.show("lobby")
        pipe.send_text("o:")
        await until(lambda: tui.input_mode == "deal", "the options prompt")
        pipe.send_text(f"seed={2**64}" + ENTER)
        refusal = "seed=N takes a whole number from 0 to 2**53"
        await until(lambda: refusal in tui.model.notice, "the refusal")
        bob = await connect(server, "bob")
        await bob.sit(room, "E")
        await until(lambda: any("bob joined" in line for line in tui.model.log), "the table's news")
        assert refusal in tui.model.notice and on_screen(tui, refusal)

        pipe.send_text(DOWN * 9 + ENTER)  # Pyramid's day's deal; a turn of the stock puts it in play
        await until(lambda: tui.screen == "solitaire" and tui.solitaire is not None, "the day's deal")
        pipe.send_text("d")
        await until(lambda: tui.solitaire is not None and tui.solitaire.room.state()["moves"] == 1, "a move")
        pipe.send_text("n")
        await until(lambda: "one game a day counts" in tui.model.notice, "the question")
        carol = await connect(server, "carol")
        await carol.sit(room, "S")
        await until(lambda: any("carol joined" in line for line in tui.model.log), "more news")
        assert on_screen(tui, "one game a day counts") and tui.pending is not None
        pipe.send_text("q")
        await until(lambda: tui.model.notice == "Cancelled.", "cancelled")

        pipe.send_text("t")  # the table, whose news is said on the notice line there
        await until(lambda: tui.screen == "table", "back at the table")
        pipe.send_text("x")
        await until(lambda: tui.pending is not None, "the question to leave")
        dan = await connect(server, "dan")
        await dan.watch(room)
        await until(lambda: any("dan is watching" in line for line in tui.model.log), "news at the table")
        assert on_screen(tui, "(y: yes, any other key: no)")
        pipe.send_text("q")
        await until(lambda: tui.pending is None, "answered")
        eve = await connect(server, "eve")
        await eve.watch(room)
        await until(lambda: "eve is watching" in tui.model.notice, "news on the notice line at the table")


async def test_a_local_game_run_again_returns_to_the_table_not_the_solitaire_room(
    tmp_path: Path, data_home: Path, connect: Connect
) -> None:
    db = tmp_path / "local.sqlite3"
    rooms: dict[str, str] = {}
    for run in range(2):
        async with LocalServer(db, bot_delay=0.0, bot_policy="heuristic") as local:
            if run == 0:  # an unfinished solitaire room opened before the table: the first the player holds
                conn = await connect(local.server, "sol")
                rooms["solitaire"] = (await conn.open_solitaire("streets", {}, 5)).room
                await conn.close()
            options: dict[str, Any] = {"after_login": seat_local_player, "server_key": local.key}
            async with started_tui(local.url, "sol", **options) as (tui, _pipe):
                await until(
                    lambda: tui.screen == "table" and tui.model.table is not None and tui.model.table.my_turn,
                    "the Barbu table",
                )
                assert tui.model.table is not None
                rooms.setdefault("table", tui.model.table.room)
                assert tui.model.table.room == rooms["table"]
                assert rooms["solitaire"] in tui.session.held or run == 0
                await tui.session.refresh_rooms()
                assert rooms["solitaire"] in {str(r["room"]) for r in tui.model.rooms}


async def test_a_resumed_solitaire_room_says_its_seed_and_options_and_t_switches_games(
    server: BarbuServer, data_home: Path
) -> None:
    async with running_tui(server.url, "sid") as (tui, pipe):
        table = await opened_table(tui, "beside", "N")
        for seat in "ESW":
            await tui.session.add_bot(table, seat)
        await until(lambda: tui.screen == "table", "the table")
        pipe.send_text("lo:")  # the lobby, the games list (Forty Thieves first), options
        await until(lambda: tui.input_mode == "deal", "the options prompt")
        pipe.send_text("supermove=true seed=77" + ENTER)
        await until(lambda: tui.screen == "solitaire", "the solitaire room")
        assert tui.model.solitaire is not None
        room = tui.model.solitaire.room
        assert on_screen(tui, "seed 77, supermove=true")
    async with started_tui(server.url, "sid") as (tui, pipe):
        await until(lambda: tui.screen == "table", "back at the table held")
        assert room in tui.session.held
        pipe.send_text("t")
        await until(lambda: tui.screen == "solitaire", "t: the solitaire room")
        assert tui.model.solitaire is not None and tui.model.solitaire.room == room
        assert on_screen(tui, "seed 77, supermove=true")
        await until(
            lambda: tui.model.table is not None and tui.model.table.my_turn, "sid's turn at the table"
        )
        pipe.send_text("l")
        await until(lambda: tui.screen == "lobby", "the lobby")
        pipe.send_text("t")  # from the lobby: the turn waiting at the table before the game last shown
        await until(lambda: tui.screen == "table", "t: the table where the turn waits")
        pipe.send_text("t")
        await until(lambda: tui.screen == "solitaire", "t: back to the solitaire room")


async def test_the_turn_clock_counts_down_from_the_servers_turn_left(server: BarbuServer) -> None:
    async with running_tui(server.url, "tia") as (tui, _pipe):
        room = await opened_table(tui, "timed", "S", turn_time=30)
        for seat in "NEW":
            await tui.session.add_bot(room, seat)
        await until(lambda: tui.model.table is not None and tui.model.table.my_turn, "a turn")
        table = tui.model.table
        assert table is not None and table.turn_ends is not None
        status = screen_lines(tui)[0]
        assert "YOUR TURN" in status
        shown = int(re.search(r"YOUR TURN \(\w+\) (\d+)s", status).group(1))  # type: ignore[union-attr]
        assert 20 <= shown <= 30
        untimed = await tui.session.create_table("untimed", {})
        assert untimed is not None
        await tui.watch(untimed)
        assert tui.model.table is not None and tui.model.table.turn_clock() == ""


async def test_a_servers_refusal_reads_as_a_sentence_and_a_room_gone_in_words(server: BarbuServer) -> None:
    async with running_tui(server.url, "rhea") as (tui, _pipe):
        assert not await tui.session.watch("999")
        assert tui.model.notice == ROOM_GONE and not on_screen(tui, "no open room")
        assert not await tui.session.create_table("x" * 200, {})  # the server's words, lower case and bare
        assert tui.model.notice[:1].isupper() and tui.model.notice.endswith(".")
    assert full_sentence("no open room '1'") == "No open room '1'." and full_sentence("Done!") == "Done!"


async def test_a_question_cancelled_in_the_lobby_does_not_follow_the_player_to_the_table(
    server: BarbuServer,
) -> None:
    async with running_tui(server.url, "cyd") as (tui, pipe):
        await opened_table(tui, "cyd's")
        await until(lambda: tui.screen == "table", "the table")
        tui.show("lobby")
        tui.confirm("Open anyway?", lambda: None)  # as opening a game over one in play asks
        pipe.send_text("n")
        await until(lambda: tui.pending is None and tui.model.notice == "Cancelled.", "answered no")
        assert on_screen(tui, "Cancelled.")
        pipe.send_text("t")  # back to the table
        await until(lambda: tui.screen == "table", "the table again")
        assert not on_screen(tui, "Cancelled.")
