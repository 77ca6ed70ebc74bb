"""The terminal client driven by keys against a real server (fixtures in ``conftest.py``, helpers in
``test_tui.py``), for what a newcomer met: the terminal too small said plainly and a larger one used, a chat
message over the server's limit refused before sending, the last chat lines shown on joining, the turn timer
offered at table creation, a refused card said with its rule, a seed out of range refused in one line, the
day's deal never lost by accident, and a watcher following the player to a new deal without move keys."""

from __future__ import annotations

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.data_structures import Size
from prompt_toolkit.formatted_text import fragment_list_to_text
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from cli.main import main
from client.tui.app import TuiApp
from client.tui.barbu_screen import side_lines
from client.tui.cards import card_label
from client.tui.solitaire_words import turned_text
from engine.cards import RANKS, SUITS
from protocol import Removed
from server import BarbuServer
from tests.conftest import Connect, StartServer, finished_table, until
from tests.test_server_table_news import next_of
from tests.test_tui import (
    DOWN,
    ENTER,
    RIGHT,
    on_screen,
    opened_solitaire,
    opened_table,
    running_tui,
    screen_lines,
    seat_with_bots,
)


class SizedOutput(DummyOutput):
    """``DummyOutput`` of a terminal of ``columns`` x ``rows``."""

    def __init__(self, columns: int, rows: int):
        super().__init__()
        self.size = Size(rows=rows, columns=columns)

    def get_size(self) -> Size:
        """The size given."""
        return self.size


def test_a_small_terminal_is_told_and_a_large_one_used() -> None:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=SizedOutput(70, 20)):
        tui = TuiApp("ws://127.0.0.1:1", name="ann")
        shown = " ".join(screen_lines(tui))
        assert "The terminal is too small (80x24 needed)." in shown and "It is 70x20 now" in shown
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=SizedOutput(120, 40)):
        tui = TuiApp("ws://127.0.0.1:1", name="ann")
        assert not tui.too_small() and tui.table_height() == 13 + 8
        for i in range(30):
            tui.model.note(f"line {i} " + "x" * 150)
        tui.screen = "table"
        lines = screen_lines(tui)
        assert len(lines) == 40 and any(line.startswith("x" * 100) for line in lines)  # the log wraps


async def test_chat_over_the_limit_is_refused_and_the_last_lines_shown_on_joining(
    server: BarbuServer, connect: Connect
) -> None:
    alice = await connect(server, "alice")
    room = await alice.create_table("chatty")
    await alice.sit(room, "N")
    await alice.chat(room, "welcome, whoever comes next")
    async with running_tui(server.url, "bob") as (tui, pipe):
        await tui.session.refresh_rooms()
        pipe.send_text("w")
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "the table watched")
        table = tui.model.table
        assert table is not None
        await until(
            lambda: "alice: welcome, whoever comes" in "".join(screen_lines(tui)), "the last chat line"
        )
        panel = fragment_list_to_text(side_lines(table, tui.barbu))
        assert "alice: welcome, whoever comes\nnext" in panel  # wrapped in the panel, read whole
        pipe.send_text("c")
        await until(lambda: tui.input_mode == "chat", "the chat prompt")
        pipe.send_text("y" * 501 + ENTER)
        await until(lambda: "at most 500 characters" in tui.model.notice, "the refusal")
        assert tui.input_mode == "chat" and len(tui.input.text) == 501  # kept to be shortened
        assert "msgpack" not in " ".join(screen_lines(tui))
        tui.input.text = "hello alice " + "and everyone " * 30
        pipe.send_text(ENTER)
        await until(lambda: any("and everyone and everyone" in line for line in table.chat), "the chat")
        assert [line for line in (await alice.snapshot(room)).chat if line["name"] == "bob"]


async def test_the_turn_timer_is_offered_when_opening_a_table(server: BarbuServer) -> None:
    async with running_tui(server.url, "tim") as (tui, pipe):
        pipe.send_text("n")
        await until(lambda: tui.input_mode == "table", "the table-name prompt")
        pipe.send_text("timed" + ENTER)
        await until(lambda: tui.lobby.form is not None and tui.input_mode is None, "the form")
        pipe.send_text("\x1b[A" + RIGHT * 2)  # Up: round to the last row, the turn timer; 30 s
        await until(lambda: on_screen(tui, "Turn timer: < 30 s >"), "the timer chosen")
        pipe.send_text(ENTER)
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "the new table")
        await tui.session.refresh_rooms()
        timed = next(r for r in tui.model.rooms if r["name"] == "timed")
        assert timed["turn_time"] == 30 and timed["host"] == "tim"


async def test_a_refused_card_says_the_rule(server: BarbuServer, connect: Connect) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "rex") as (tui, pipe):
        table = await seat_with_bots(tui, pipe, server, helper, offset=1)
        while not (table.my_turn and (table.view or {})["phase"] == "play"):
            await until(lambda: table.my_turn, "a turn")
            if (table.view or {})["phase"] in ("double", "redouble"):
                seq = table.seq
                pipe.send_text(ENTER)  # nobody (or the declarer, when a double is owed)
                await until(lambda seq=seq: table.seq > seq, "the double sent")  # type: ignore[misc]
        hand = set((table.view or {})["hand"])
        missing = next(r + s for s in SUITS for r in RANKS if r + s not in hand)
        await tui.session.act({"action": "play", "card": missing})
        shown = missing.replace("T", "10")[:-1]
        assert tui.model.notice.startswith(f"You do not hold {shown}") and tui.model.notice_error
        tui.model.notice = ""
        pipe.send_text(":" + missing.lower() + ENTER)  # typed: refused by the client, by the same rule
        label = shown + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[missing[-1]]
        await until(lambda: tui.model.notice == f"You do not hold {label}.", "the typed card refused")


async def test_a_seed_out_of_range_is_one_line(server: BarbuServer) -> None:
    async with running_tui(server.url, "sid") as (tui, pipe):
        pipe.send_text("o")
        await until(lambda: tui.lobby.picking, "the game list")
        pipe.send_text(":")
        await until(lambda: tui.input_mode == "deal", "the options prompt")
        pipe.send_text(f"seed={2**64}" + ENTER)
        await until(lambda: "seed=N takes a whole number from 0 to 2**53" in tui.model.notice, "the refusal")
        assert "OverflowError" not in tui.model.notice and "\n" not in tui.model.notice
        assert tui.screen == "lobby" and tui.model.solitaire is None


async def test_the_days_deal_is_not_lost_by_accident(server: BarbuServer, connect: Connect) -> None:
    async with running_tui(server.url, "dee") as (tui, pipe):
        pipe.send_text("o" + DOWN * 9)  # Pyramid: a removal or a turn of the stock is always possible
        await until(lambda: tui.lobby.picking and tui.lobby.game_name() == "pyramid", "the game list")
        pipe.send_text(ENTER)
        await until(lambda: tui.screen == "solitaire" and tui.solitaire is not None, "the day's deal")
        sol = tui.solitaire
        assert sol is not None
        room = sol.room.model.solitaire
        assert room is not None and room.view["daily"]
        pipe.send_text("d")  # a move: now the day's deal is in play
        await until(lambda: sol.room.state()["moves"] == 1, "the move")
        for key in ("n", "x"):
            pipe.send_text(key)
            await until(lambda: "one game a day counts" in tui.model.notice, f"the question for {key}")
            pipe.send_text("q")  # any other key: no
            await until(lambda: tui.model.notice == "Cancelled.", "cancelled")
            assert tui.model.solitaire is room and room.view["result"] is None
        pipe.send_text("\x1b")
        await until(lambda: "Leave the day's deal" in tui.model.notice, "the question to leave")
        pipe.send_text("y")
        await until(lambda: tui.screen == "lobby", "the lobby")
        pipe.send_text("t")
        await until(lambda: tui.screen == "solitaire", "back at the deal")
        pipe.send_text("n")
        await until(lambda: "one game a day counts" in tui.model.notice, "the question")
        pipe.send_text("y")
        await until(
            lambda: tui.model.solitaire is not None and tui.model.solitaire.room != room.room, "new deal"
        )
        new = tui.model.solitaire
        assert new is not None and not new.view["daily"]
        assert new.seed is None and new.view.get("seed") is None  # the server's choice: shown at the end


async def test_a_watcher_follows_the_player_to_a_new_deal_without_move_keys(
    server: BarbuServer, connect: Connect
) -> None:
    pat = await connect(server, "pat")
    first = await pat.open_solitaire("streets", seed=3)
    async with running_tui(server.url, "viv") as (tui, pipe):
        await tui.watch(first.room)
        await until(lambda: tui.screen == "solitaire" and tui.model.solitaire is not None, "watching")
        assert on_screen(tui, "you watch: only the player moves") and on_screen(tui, "(pat plays; you watch)")
        pipe.send_text("d")  # no move keys for a watcher: nothing is sent
        moved = await pat.new_deal(first.room, seed=4)
        await until(
            lambda: tui.model.solitaire is not None and tui.model.solitaire.room == moved.room, "following"
        )
        assert tui.screen == "solitaire" and on_screen(tui, "(pat plays; you watch)")
        assert tui.solitaire is not None and tui.solitaire.room.watching


async def test_the_host_starts_another_match_with_the_same_players(server: BarbuServer) -> None:
    async with running_tui(server.url, "hal") as (tui, pipe):
        room = await opened_table(tui, "rerun", "W")
        for seat in "NES":
            await tui.session.add_bot(room, seat)
        await until(lambda: tui.model.table is not None and tui.model.table.view is not None, "the start")
        await tui.session.chat("good game, all")
        await tui.session.leave()  # a stand-in plays the seat: the match runs to its end
        await tui.watch(room)
        await until(
            lambda: tui.model.table is not None and (tui.model.table.view or {}).get("phase") == "over",
            "the end",
            240,  # 28 hands by stand-ins, every action on disk: slow on a busy machine
        )
        await tui.session.refresh_rooms()
        await tui.watch(room)  # the snapshot again, now that the lobby named the host
        if tui.model.table is not None and tui.model.table.showing_summary():
            await until(lambda: on_screen(tui, "Hand 28 scored"), "the last hand's summary first")
            pipe.send_text(" ")  # any key: the match's end
        await until(lambda: on_screen(tui, "r: another match with the same players"), "the host's key")
        assert on_screen(tui, "the final ranking") and (
            on_screen(tui, "won with") or on_screen(tui, "share first")
        )
        pipe.send_text("r")
        await until(
            lambda: (
                tui.model.table is not None and tui.model.table.room != room and tui.model.table.seat == "W"
            ),
            "seated at the new table",
        )
        await until(lambda: tui.model.table is not None and tui.model.table.view is not None, "the new match")
        assert tui.screen == "table"
        new_table = tui.model.table
        assert new_table is not None and "hal: good game, all" in new_table.chat  # the chat follows them
        assert new_table.name == "rerun (2)" and on_screen(tui, "rerun (2)")  # told apart from the first
        said = "You opened another match with the same players."  # hal is this client: not by name
        await until(lambda: said in (tui.model.shown_notice(), *tui.model.earlier()), "said at the new table")
        places = [place for _, place, line in tui.model.entries if line == said]
        assert places == [f"table:{new_table.room}"]  # once, where the player now is (not the old table)


async def test_the_days_deal_being_played_is_greyed_and_not_watched(
    server: BarbuServer, connect: Connect
) -> None:
    pat = await connect(server, "pat")
    daily = await pat.open_solitaire("streets")
    assert daily.view is not None and daily.view["daily"]
    async with running_tui(server.url, "viv") as (tui, pipe):
        await tui.session.refresh_rooms()
        await until(lambda: on_screen(tui, "Streets (pat)"), "the room listed")
        row = next(line for line in screen_lines(tui) if "Streets (pat)" in line)
        assert row.rstrip().endswith(" no")  # the watch column: no watching
        pipe.send_text("w")
        await until(lambda: "cannot be watched until it is finished" in tui.model.notice, "the refusal")
        assert tui.screen == "lobby"
        assert {r["room"]: r for r in (await pat.lobby()).rooms}[daily.room]["spectators"] == 0
        await pat.resign(daily.room)
        await tui.session.refresh_rooms()
        await until(
            lambda: any(r["room"] == daily.room and r["watchable"] for r in tui.model.rooms), "listed"
        )
        pipe.send_text("w")  # finished: it may be watched
        await until(lambda: tui.screen == "solitaire" and tui.model.solitaire is not None, "watching")
        assert tui.solitaire is not None and tui.solitaire.room.watching


async def test_the_host_removes_a_player_by_keys_and_the_removed_player_is_back_in_the_lobby(
    server: BarbuServer, connect: Connect
) -> None:
    griefer = await connect(server, "griefer")
    async with running_tui(server.url, "hal") as (tui, pipe):
        room = await tui.session.create_table("friday", {})
        assert room is not None
        await tui.session.refresh_rooms()  # the lobby names the host
        await tui.sit(room, "N")
        await griefer.sit(room, "E")
        await until(
            lambda: tui.model.table is not None and tui.model.table.players.get("E") == "griefer", "E"
        )
        assert on_screen(tui, "k remove a player")
        pipe.send_text("k")
        await until(lambda: tui.input_mode == "remove", "the seat prompt")
        pipe.send_text("e" + ENTER)
        await until(lambda: "Remove griefer from seat E?" in tui.model.notice, "the question")
        pipe.send_text("y")
        told = await next_of(griefer, Removed)
        assert (told.reason, told.by) == ("host", "hal")
        await until(lambda: tui.model.table is not None and tui.model.table.players.get("E") is None, "freed")
        assert "You removed griefer from seat E." in tui.model.log  # not "griefer left seat E."
        assert not any("left seat E" in line for line in tui.model.log)
    # The removed player's terminal: back in the lobby, told why.
    async with running_tui(server.url, "ivy") as (tui, pipe):
        host = await connect(server, "host")
        room = await host.create_table("saturday")
        await host.sit(room, "N")
        await tui.session.refresh_rooms()
        await tui.sit(room, "S")
        await until(lambda: tui.screen == "table", "the table")
        await host.remove_player(room, "S")
        await until(lambda: tui.screen == "lobby" and tui.model.table is None, "back in the lobby")
        assert "host removed you from saturday" in tui.model.notice


async def test_a_seat_left_idle_goes_to_a_bot_and_the_terminal_says_how_to_take_it_back(
    start_server: StartServer,
) -> None:
    server = await start_server(idle_turn=0.5)
    async with running_tui(server.url, "dozy") as (tui, _pipe):
        room = await opened_table(tui, "sleepy", "N")
        for seat in "ESW":
            await tui.session.add_bot(room, seat)
        await until(lambda: tui.screen == "lobby" and tui.model.table is None, "back in the lobby", 30)
        assert "a bot plays seat N for you" in tui.model.notice
        await tui.sit(room)  # Enter in the lobby: the seat is taken back
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "at the table again")
        assert tui.model.table is not None and tui.model.table.seat == "N"
        assert "a bot plays seat N" not in tui.model.notice  # the hand-over's notice goes


async def test_the_days_deal_asks_from_the_moment_it_is_opened(server: BarbuServer) -> None:
    async with running_tui(server.url, "dot") as (tui, pipe):
        await opened_solitaire(
            tui, "pyramid", what="the day's deal"
        )  # a turn of the stock is always possible
        room = tui.model.solitaire
        assert room is not None and room.view["daily"] and room.view["moves"] == 0
        for key in ("x", "n", "\x1b"):  # no move yet: a resign would count all the same
            pipe.send_text(key)
            await until(lambda: tui.pending is not None, f"the question for {key!r}")
            assert "one game a day counts" in tui.question
            pipe.send_text("q")
            await until(lambda: tui.pending is None, "answered no")
        pipe.send_text("dx")  # x at once after the move, before its state comes back
        await until(lambda: tui.pending is not None, "the question before the state")
        assert "one game a day counts" in tui.question
        pipe.send_text("q")
        await until(lambda: tui.pending is None and room.view["moves"] == 1, "no, and the move's state")
        assert room.view["result"] is None and tui.model.solitaire is room
        pipe.send_text("q")  # quitting says the day's deal waits, as Esc does
        await until(lambda: tui.pending is not None, "the quit question")
        assert "The day's deal of Pyramid is kept: it waits for you." in tui.question
        pipe.send_text("n")
        await until(lambda: tui.pending is None, "answered no")
        assert server.store is not None and not server.store.has_result(room.view["daily"], "pyramid", "dot")


async def test_turning_the_stock_names_the_card(server: BarbuServer) -> None:
    async with running_tui(server.url, "tim") as (tui, pipe):
        screen = await opened_solitaire(tui, "forty-thieves", seed=5, what="the deal")
        pipe.send_text("d")
        await until(lambda: screen.room.state().get("moves") == 1, "the turn's state")
        top = screen.room.state()["waste"][-1]
        await until(lambda: on_screen(tui, f"Turned the stock: {card_label(top)}."), "the card named")
        assert "T" not in card_label(top)  # people's notation: 10♣, not TC


def test_a_turn_of_the_stock_in_words() -> None:
    one = {"stock": 20, "waste": ["3D"]}
    assert turned_text(one, {"stock": 19, "waste": ["3D", "TC"]}) == "Turned the stock: 10♣."
    assert turned_text(one, {"stock": 17, "waste": ["3D", "4S", "5H", "7C"]}) == (
        "Turned the stock: 3 cards, 7♣ on top."
    )
    assert turned_text({"stock": 0, "waste": ["3D", "TC"]}, {"stock": 2, "waste": []}) == (
        "Turned the waste over into the stock."
    )
    three = {"stock": 21, "waste": [["2S"], ["9H"], []]}
    assert turned_text(three, {"stock": 18, "waste": [["2S", "4D"], ["9H", "9S"], ["7C"]]}) == (
        "Turned the stock: 4♦ 9♠ 7♣."
    )


async def test_a_finished_table_points_to_the_next_match_listed_in_the_lobby(
    server: BarbuServer, connect: Connect
) -> None:
    host = await connect(server, "hank")
    room = await finished_table(server, host, "wednesday")
    new = await host.rematch(room)  # before the client came: it learns of it from the lobby
    async with running_tui(server.url, "viv") as (tui, pipe):
        await tui.session.refresh_rooms()
        await until(lambda: on_screen(tui, "wednesday (2)"), "the next match listed under its own name")
        await tui.watch(room)
        table = tui.model.table
        assert table is not None and table.rematch == new
        if table.showing_summary():
            pipe.send_text(" ")  # any key: the match's end
        await until(lambda: on_screen(tui, f"Another match is open (room {new}): w to watch it."), "told")
        assert "w to the next match" in screen_lines(tui)[-1]
        pipe.send_text("w")
        await until(lambda: tui.model.table is not None and tui.model.table.room == new, "following")


async def test_a_watcher_is_told_who_opened_another_match(server: BarbuServer, connect: Connect) -> None:
    host = await connect(server, "hank")
    room = await finished_table(server, host, "thursday")
    async with running_tui(server.url, "viv") as (tui, _pipe):
        await tui.watch(room)
        await until(lambda: tui.model.table is not None and tui.model.table.room == room, "watching")
        new = await host.rematch(room)  # while the client watches: the rematch-opened push tells it
        said = "hank opened another match with the same players."  # someone else's request: by name
        await until(lambda: said in (tui.model.shown_notice(), *tui.model.earlier()), "told who")
        assert tui.model.table is not None and tui.model.table.rematch == new
        assert not any("You opened" in line for _, _, line in tui.model.entries)


def test_play_help_names_the_local_store_file(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "local.sqlite3 in $XDG_DATA_HOME/barbu, or in ~/.local/share/barbu" in said
