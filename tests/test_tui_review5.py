"""A fresh reviewer's points of issue 10 (fifth round): a key that does nothing says so on the notice line,
``t`` says why it goes nowhere, the hands played while away are counted from the hand the player left, the
lobby's columns line up whatever the names, watchers and states, a random deal with moves made is not
resigned without asking, and a watcher who follows the players to their next match is told it begins.

Flows run against a real server on loopback (fixtures in ``conftest.py``, helpers in ``test_tui.py``); the
lobby is drawn from the model alone.
"""

from __future__ import annotations

from typing import Any

import pytest

from client.columns import width
from client.tui.app import TuiApp
from client.tui.lobby_screen import LobbyScreen, lobby_lines
from client.tui.model import Model
from server import BarbuServer
from tests.conftest import Connect, StartServer, finished_table, until
from tests.test_tui import ENTER, on_screen, opened_solitaire, opened_table, running_tui, screen_lines, text

LEFT, ESC = "\x1b[D", "\x1b"


def columns(line: str) -> dict[int, str]:
    """The characters of ``line`` by the terminal column each starts at (a CJK character takes two)."""
    out, at = {}, 0
    for char in line:
        out[at] = char
        at += width(char)
    return out


def start_of(line: str, words: str) -> int:
    """The terminal column where ``words`` begins in ``line``."""
    return width(line[: line.index(words)])


#: Rooms of every state, with names long and short, wide and narrow, and up to the 50 watchers a room holds.
LOBBY_ROOMS: list[dict[str, Any]] = [
    {"room": "1", "kind": "barbu", "name": "x", "state": "waiting", "spectators": 0,
     "players": {"N": "al", "E": None, "S": None, "W": None}, "away": []},
    {"room": "2", "kind": "barbu", "name": "the long friday evening table of the club", "state": "playing",
     "hand_number": 12, "spectators": 50, "away": ["E"],
     "players": {"N": "heuristic-2fa8-1", "E": "bartholomew", "S": "bot:a", "W": "maximiliana"}},
    {"room": "3", "kind": "barbu", "name": "金曜日のテーブル", "state": "playing", "paused": True,
     "spectators": 7, "players": {"N": "さくら", "E": "bot:b", "S": "bot:c", "W": "bot:d"}, "away": ["N"]},
    {"room": "4", "kind": "barbu", "name": "done", "state": "over", "spectators": 12,
     "players": {"N": "ann", "E": "bob", "S": "cy", "W": "dee"}, "away": []},
    {"room": "5", "kind": "solitaire", "name": "Pyramid (ann)", "state": "playing", "spectators": 3,
     "players": {"player": "ann"}, "game": "pyramid", "moves": 123, "away": False},
    {"room": "6", "kind": "solitaire", "name": "Forty Thieves (a-very-long-player-name)", "state": "playing",
     "spectators": 0, "players": {"player": "a-very-long-player-name"}, "game": "forty-thieves",
     "daily": "2026-12-02", "watchable": False, "moves": 4, "away": True},
    {"room": "7", "kind": "solitaire", "name": "Baker's Dozen (bo)", "state": "over", "result": "resigned",
     "spectators": 1, "players": {"player": "bo"}, "game": "bakers-dozen", "away": False},
]  # fmt: skip


@pytest.mark.parametrize("cols", [80, 120])
@pytest.mark.parametrize("rooms", [LOBBY_ROOMS, LOBBY_ROOMS[:1], LOBBY_ROOMS[1:2], LOBBY_ROOMS[4:]])
def test_the_lobby_columns_line_up_with_any_names_watchers_and_states(
    rooms: list[dict[str, Any]], cols: int
) -> None:
    model = Model("ws://127.0.0.1:1234", name="ann")
    model.rooms = rooms
    lines = text(lobby_lines(model, LobbyScreen(), cols)).splitlines()
    head = next(line for line in lines if "watch" in line and "state" in line)
    state, seats, watch_end = start_of(head, "state"), start_of(head, "seats"), width(head.rstrip()) - 1
    rows = lines[lines.index(head) + 1 : lines.index(head) + 1 + len(rooms)]
    for line, room in zip(rows, rooms, strict=True):
        cells = columns(line)
        assert width(line) <= cols, line
        assert cells[state - 1] == " " and cells[state] != " ", (line, "state")  # each column starts there
        assert cells[seats - 1] == " " and cells[seats] != " ", (line, "seats")
        count = "no" if room.get("watchable") is False else str(room["spectators"])
        assert line.rstrip().endswith(f" {count}"), line
        assert width(line.rstrip()) - 1 == watch_end, (line, "the count ends under watch")


def notice_line(tui: TuiApp) -> str:
    """The notice line as the screen shows it (the one above the key line)."""
    return screen_lines(tui)[-2].strip()


async def test_a_key_that_does_nothing_says_so_on_one_line_and_not_in_the_log(server: BarbuServer) -> None:
    async with running_tui(server.url, "kai") as (tui, pipe):
        logged = tui.model.logged
        for keys, name in (("z", "z"), ("\x1b[15~", "F5"), ("\x01", "Ctrl-A"), (LEFT, "Left"), ("Z", "Z")):
            pipe.send_text(keys)
            said = f"{name} does nothing here; ? for the keys."
            await until(lambda said=said: notice_line(tui) == said, f"{name} said")  # type: ignore[misc]
        assert tui.model.logged == logged, tui.model.earlier()  # one line, replaced: the log holds none
        pipe.send_text("?")  # a key that does something still does it
        await until(lambda: tui.screen == "help", "the help")
        pipe.send_text("t")
        await until(lambda: notice_line(tui) == "t does nothing here; Esc goes back.", "t on the help")
        pipe.send_text(ESC)
        await until(lambda: tui.screen == "lobby" and notice_line(tui) == "", "back, the remark gone")

        await opened_table(tui, "quiet", "S")  # waiting for players: no hand, no menu
        await until(lambda: tui.screen == "table", "the table")
        pipe.send_text(LEFT)
        await until(lambda: notice_line(tui) == "Left does nothing here; ? for the keys.", "no hand")
        pipe.send_text("w")
        await until(lambda: notice_line(tui) == "w does nothing here; ? for the keys.", "no next match")

        await opened_solitaire(tui, "pyramid", seed=7)
        pipe.send_text("z")
        await until(lambda: notice_line(tui) == "z does nothing here; ? for the keys.", "in the room")
        assert not any("does nothing" in said for _, _, said in tui.model.entries)


async def test_t_says_where_the_seat_given_to_a_bot_is_in_the_room_and_the_lobby(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(bot_delay=0.05)  # the match lasts while the test looks
    helper = await connect(server, "helper")
    async with running_tui(server.url, "ivy") as (tui, pipe):
        room = await opened_table(tui, "friday", "S")
        await helper.watch(room)  # keeps the table open once ivy has left it
        for seat in "NEW":
            await tui.session.add_bot(room, seat)
        await until(lambda: tui.model.table is not None and tui.model.table.state == "playing", "the start")
        tui.put_summary_away()
        pipe.send_text("x")
        await until(lambda: tui.pending is not None, "the question")
        pipe.send_text("y")
        # The table is forgotten before the server's reply; the notice comes after it, and t must come later.
        await until(lambda: tui.screen == "lobby" and "A bot now plays" in tui.model.notice, "the lobby")
        await tui.session.refresh_rooms()
        pipe.send_text("t")
        said = (
            "You have no table nor solitaire room open; a bot plays your seat S at friday: Enter on its row"
        )
        await until(lambda: on_screen(tui, said), "t in the lobby")

        screen = await opened_solitaire(tui, "pyramid", seed=7)
        assert screen.message  # the room's own line, which hid what t said there
        pipe.send_text("t")
        said = (
            "You have no Barbu table open: a bot plays your seat S at friday; sit there again from the lobby"
        )
        await until(lambda: on_screen(tui, said), "t in the solitaire room")
        assert tui.screen == "solitaire"


async def test_a_random_deal_with_moves_made_is_not_resigned_without_asking(server: BarbuServer) -> None:
    async with running_tui(server.url, "ned") as (tui, pipe):
        pipe.send_text("o")
        await until(lambda: tui.lobby.picking, "the games list")
        pipe.send_text("r")  # a random deal: the server chooses its seed
        await until(lambda: tui.screen == "solitaire" and tui.model.solitaire is not None, "the deal")
        first = tui.model.solitaire
        assert first is not None and not first.view.get("daily")
        pipe.send_text("n")  # no move made: nothing to resign, no question
        await until(lambda: tui.model.solitaire is not first, "a new deal at once")
        assert tui.pending is None
        room = tui.model.solitaire
        assert room is not None and tui.solitaire is not None
        pipe.send_text(":" + tui.solitaire.room.legal()[0] + ENTER)
        await until(lambda: room.seq > 0, "the move made")

        pipe.send_text("n")
        await until(lambda: on_screen(tui, "This game is not finished: deal a new one?"), "n asks")
        pipe.send_text("z")  # any other key: no
        await until(lambda: tui.pending is None, "answered")
        pipe.send_text("l")
        await until(lambda: tui.screen == "lobby", "the lobby")
        pipe.send_text("or")
        await until(lambda: on_screen(tui, "is not finished: opening another game resigns it"), "r asks")
        pipe.send_text("z")
        await until(lambda: tui.pending is None, "answered again")
        assert tui.model.solitaire is room and room.view.get("result") is None  # still in play
        pipe.send_text("r")
        await until(lambda: tui.pending is not None, "asked again")
        pipe.send_text("y")
        await until(lambda: tui.model.solitaire is not room and tui.screen == "solitaire", "the new deal")


async def test_a_watcher_who_follows_to_the_next_match_is_told_it_begins(
    server: BarbuServer, connect: Connect
) -> None:
    host = await connect(server, "hal")
    room = await finished_table(server, host, "rerun")  # hal's seat S, played by a stand-in to the end
    async with running_tui(server.url, "wes") as (tui, pipe):
        await tui.watch(room)
        await until(lambda: tui.model.table is not None and tui.model.table.room == room, "the old table")
        new = await host.rematch(room)
        await until(lambda: on_screen(tui, "w to watch it"), "told where the players went")
        pipe.send_text("w")
        await until(lambda: tui.model.table is not None and tui.model.table.room == new, "following")
        assert tui.model.table is not None and tui.model.table.view is None  # waiting for hal
        await host.sit(new, "S")  # the last seat taken: the match begins
        begins = "Hand 1 of 28: the match begins."
        await until(
            lambda: begins in (tui.model.shown_notice(), *tui.model.earlier()), "said at the new table"
        )
