"""The terminal client driven by keys through prompt-toolkit's pipe input (output to ``DummyOutput``), against
a real server on 127.0.0.1 with its SQLite store in ``tmp_path`` (fixtures in ``conftest.py``).

Covers: log in, open a table from the lobby form, leave and sit again, choose a contract (Trumps, then the
suit) by keys, double the declarer and play a card by keys and see the trick move on, a solitaire move and its
undo in a server room (the day's deal), and a dropped connection (the server goes down and comes back) that the client resumes by itself, and
``--local``: three bots and the player at one table, Enter a legal first move, and back at the same hand
after a restart. Resume tokens: kept (mode 0600) per server and name, used on the next start, a refused one
replaced by a login, a corrupt file ignored, and a login by the name of a player holding a seat refused with
the reason said plainly (read whole on the 80x24 screen). Also: "Logging in" said once when the server asks
its password; no turn claimed while the connection is down, after another terminal took over, or by a refresh
answered after leaving; ``barbu play ws://...`` back at a held table at once. A hint refused on the day's deal
said on the notice line. Wide (CJK) and alike names: the lobby row, the table's divider and score panel keep
their columns, names cut in the middle so bots named alike stay apart.
"""

from __future__ import annotations

import asyncio
import json
import stat
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.application import create_app_session
from prompt_toolkit.application.current import set_app
from prompt_toolkit.formatted_text import StyleAndTextTuples, fragment_list_to_text
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Char, Screen, WritePosition
from prompt_toolkit.output import DummyOutput

from client.columns import width
from client.tui.app import ESC_WAIT, TABLE_HEIGHT, TuiApp
from client.tui.barbu_screen import TABLE_WIDTH, hand_line, side_lines, table_lines
from client.tui.cards import card_label
from client.tui.local import LOCAL_SEAT, LocalServer, seat_local_player
from client.tui.model import TableModel
from client.tui.solitaire_screen import solitaire_lines
from client.tui.tokens import TokenStore
from engine.cards import SEATS
from protocol import Snapshot
from server import BarbuServer
from tests import tui_support
from tests.conftest import Connect, StartServer, server_table, until

# The TUI tests written before tests/tui_support.py import these from here.
TerminalOutput = tui_support.TerminalOutput
on_screen, screen_lines = tui_support.on_screen, tui_support.screen_lines
running_tui, started_tui = tui_support.running_tui, tui_support.started_tui
opened_solitaire = tui_support.opened_solitaire
ENTER, SPACE = "\r", " "
RIGHT, DOWN = "\x1b[C", "\x1b[B"


def moved_on(table: TableModel, seq: int) -> Callable[[], bool]:
    """A condition: the table moved past action ``seq`` and it is this seat's turn again."""
    return lambda: table.seq > seq and table.my_turn


def text(fragments: StyleAndTextTuples) -> str:
    """Formatted text as plain text."""
    return fragment_list_to_text(fragments)


def view(tui: TuiApp) -> dict[str, Any]:
    """The client's current table view."""
    assert tui.model.table is not None and tui.model.table.view is not None
    return tui.model.table.view


async def seat_with_bots(
    tui: TuiApp, pipe: PipeInput, server: BarbuServer, helper: Any, offset: int
) -> TableModel:
    """Open a table from the lobby form by keys, give the seat up (``x``; ``helper`` watches so the table
    stays open), let bots fill every seat but the one ``offset`` seats after the first declarer, and take
    that one by keys (Enter in the lobby). Returns the client's model of the table (its ``room``, ``seat``)."""
    pipe.send_text("n")
    await until(lambda: tui.input_mode == "table", "the table-name prompt")
    pipe.send_text(ENTER)
    await until(lambda: tui.lobby.form is not None and tui.input_mode is None, "the new-table form")
    pipe.send_text(ENTER)
    await until(
        lambda: tui.screen == "table" and tui.model.table is not None, f"the new table {tui.model.notice}"
    )
    assert tui.model.table is not None
    room, first_seat = tui.model.table.room, tui.model.table.seat
    assert first_seat == "N"
    await helper.watch(room)  # a spectator keeps the table open while nobody sits
    mine = SEATS[(server_table(server, room).first_declarer + offset) % 4]
    pipe.send_text("x")
    await until(lambda: "Leave your seat at this table?" in tui.model.notice, "the question")
    assert tui.screen == "table"
    pipe.send_text("y")
    await until(lambda: tui.screen == "lobby" and tui.model.table is None, "back in the lobby")
    for seat in SEATS:
        if seat != mine:
            await tui.session.add_bot(room, seat)  # the table's host adds its bots
    await tui.session.refresh_rooms()
    pipe.send_text(ENTER)
    await until(  # the snapshot lands before the screen switches: wait for both
        lambda: tui.screen == "table" and tui.model.table is not None and tui.model.table.view is not None,
        f"the match start {tui.model.notice} {tui.model.rooms} {tui.screen}",
    )
    table = tui.model.table
    assert table is not None and table.seat == mine
    return table


async def opened_table(tui: TuiApp, name: str, seat: str | None = None, **table: Any) -> str:
    """The terminal's player opens table ``name`` (``table``: ``turn_time``, ``bot_policy``) through its
    session and sits there, at ``seat`` (None: where the server puts them); returns the room id."""
    room = await tui.session.create_table(name, {}, **table)
    assert room is not None
    await tui.sit(room, seat)
    return room


async def test_choose_trumps_by_keys(server: BarbuServer, connect: Connect) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "ann") as (tui, pipe):
        table = await seat_with_bots(tui, pipe, server, helper, offset=0)
        await until(lambda: table.my_turn, "the contract turn")
        assert view(tui)["phase"] == "contract"
        screen = text(side_lines(table, tui.barbu))
        for name in ("No Tricks", "No Queens", "No Last Two", "No Hearts", "Barbu", "Trumps", "Dominoes"):
            assert name in screen
        pipe.send_text(DOWN * 5 + ENTER)
        await until(lambda: tui.barbu.stage == "trump", "the trump menu")
        assert "Hearts" in text(side_lines(table, tui.barbu))
        pipe.send_text(DOWN + ENTER)
        await until(lambda: view(tui).get("contract") == "trumps", "the contract")
        assert view(tui)["trump"] == "H"
        assert "Trumps ♥" in text(table_lines(table))


async def test_the_dominoes_ranks_menu_says_what_is_above_and_below(
    server: BarbuServer, connect: Connect
) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "dom") as (tui, pipe):
        table = await seat_with_bots(tui, pipe, server, helper, offset=0)
        await until(lambda: table.my_turn, "the contract turn")
        pipe.send_text(DOWN * 6 + ENTER)
        await until(lambda: tui.barbu.stage == "rank", "the ranks menu")
        shown = text(side_lines(table, tui.barbu))
        assert "start at 2" in shown and "start at 9" in shown and "start at 10" not in shown
        assert " ↓ 5 more" in shown and "↑" not in shown  # 10, J, Q, K and A are there below
        pipe.send_text(DOWN * 12)  # to the Ace, the last
        await until(lambda: "start at A" in text(side_lines(table, tui.barbu)), "the menu scrolled")
        shown = text(side_lines(table, tui.barbu))
        assert " ↑ 5 more" in shown and "↓" not in shown and "start at 2" not in shown
        pipe.send_text(ENTER)
        await until(lambda: view(tui).get("contract") == "dominoes", "the contract")
        assert view(tui)["start_rank"] == "A"


async def test_double_then_play_a_card(server: BarbuServer, connect: Connect) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "bea") as (tui, pipe):
        table = await seat_with_bots(tui, pipe, server, helper, offset=1)
        me = table.seat
        await until(lambda: table.my_turn and view(tui)["phase"] == "double", "the doubling turn")
        declarer = view(tui)["declarer"]
        targets = tui.barbu.targets(table)
        assert declarer in targets
        assert "Double whom?" in text(side_lines(table, tui.barbu))
        pipe.send_text(DOWN * targets.index(declarer) + SPACE + ENTER)
        await until(lambda: [me, declarer] in view(tui)["doubles"], "the double")
        said = f"You doubled {declarer} "  # a line of the log begins with a capital, "you" too
        await until(lambda: any(line.startswith(said) for line in tui.model.log), "the double in the log")

        await until(lambda: table.my_turn and view(tui)["phase"] == "play", "the first turn to play")
        while view(tui)["legal"][0]["action"] == "pass":  # Dominoes: pass (by keys) until a card fits
            seq = table.seq
            assert "Enter passes" in text(hand_line(table, tui.barbu))
            pipe.send_text(ENTER)
            await until(moved_on(table, seq), "the next turn after a pass")
        before = list(view(tui)["hand"])
        legal = view(tui)["legal"]
        playable = {a["card"] for a in legal}
        assert "Hand" in text(hand_line(table, tui.barbu))
        pipe.send_text(RIGHT + ENTER)
        await until(lambda: len(view(tui)["hand"]) == len(before) - 1, "the card played")
        played = (set(before) - set(view(tui)["hand"])).pop()
        assert played in playable
        if view(tui)["rows"]:
            assert played in view(tui)["rows"][played[1]]
            return
        await until(lambda: table.last_trick is not None and played in table.last_trick["cards"], "the trick")
        await until(lambda: not table.my_turn or view(tui)["phase"] == "play", "the table settled")
        if not table.my_turn:
            assert "Last trick, won by" in text(side_lines(table, tui.barbu))
            assert card_label(played) in text(side_lines(table, tui.barbu))


async def test_solitaire_move_and_undo(server: BarbuServer) -> None:
    async with running_tui(server.url, "cid") as (tui, pipe):
        pipe.send_text("o")
        await until(lambda: tui.lobby.picking, "the game list")
        pipe.send_text(ENTER)
        await until(lambda: tui.screen == "solitaire" and tui.solitaire is not None, "the solitaire room")
        sol = tui.solitaire
        assert sol is not None
        start = sol.room.state()
        assert "Forty Thieves" in text(solitaire_lines(sol, 20))
        moves = [m for m in sol.room.legal() if m.startswith("t") and "*" not in m]
        if moves:
            src, dst = moves[0].split(">")
            keys = RIGHT * (int(src[1:]) - 1) + ENTER
            if dst == "f":
                keys += ENTER
            else:
                keys += RIGHT * ((int(dst[1:]) - int(src[1:])) % len(start["columns"])) + ENTER
        else:
            keys = "d"
        pipe.send_text(keys)
        await until(lambda: sol.room.state()["moves"] == 1, "the move")
        assert sol.room.state() != start
        pipe.send_text("u")
        await until(lambda: sol.room.state()["moves"] == 0, "the undo")
        assert sol.room.state() == start
        await until(lambda: "Undid" in sol.message, "the undo's notice")
        solitaire = tui.model.solitaire
        assert solitaire is not None and solitaire.seat == "player" and solitaire.view["daily"]
        assert server.store is not None and server.lobby is not None
        assert solitaire.room in server.lobby.rooms
        logged = [a.action["action"] for a in server.store.actions(int(solitaire.room))]
        assert logged == ["move", "undo"]


async def test_reconnects_after_the_server_comes_back(start_server: StartServer, connect: Connect) -> None:
    server = await start_server()
    port = server.port
    helper = await connect(server, "helper")
    async with running_tui(server.url, "dan") as (tui, pipe):
        room = (await seat_with_bots(tui, pipe, server, helper, offset=2)).room
        await helper.close()
        await server.stop()
        await until(lambda: not tui.model.connected, "the drop")
        await until(lambda: "reconnecting" in tui.model.status, "the reconnecting status")
        assert "reconnecting" in text(tui._status_text())
        await start_server(port=port)
        await until(lambda: tui.model.connected and tui.session.reconnects == 1, "the reconnection", 15)
        await until(
            lambda: tui.model.table is not None and tui.model.table.view is not None, "the table back"
        )
        assert tui.model.table is not None and tui.model.table.room == room
        status = text(tui._status_text())
        assert "connected" in status and room != "" and tui.model.table.name in status
        assert "Reconnected" in tui.model.notice


async def test_local_game_seats_the_player_with_three_bots(tmp_path: Path) -> None:
    async with LocalServer(tmp_path / "local.sqlite3", bot_delay=0.0, bot_policy="heuristic") as local:
        with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
            tui = TuiApp(local.url, name="newcomer", after_login=seat_local_player)
            task = asyncio.get_running_loop().create_task(tui.run())
            try:
                await until(
                    lambda: (
                        tui.screen == "table"
                        and tui.model.table is not None
                        and tui.model.table.view is not None
                    ),
                    "the match",
                )
                table = tui.model.table
                assert table is not None and table.seat == LOCAL_SEAT and tui.screen == "table"
                assert all(str(table.players[s]).startswith("bot:") for s in SEATS if s != LOCAL_SEAT)
                await until(lambda: table.my_turn, "the newcomer's first turn")
                # Only bots wait: the turn waits for the player however long (no stand-in after idle_turn).
                assert local.config.idle_turn is None
                assert server_table(local.server, table.room)._timer is None  # no hand-over scheduled
                seq = table.seq
                pipe.send_text(ENTER)  # Enter alone is always a legal choice
                await until(lambda: table.seq > seq, "the newcomer's action")
            finally:
                tui.app.exit(result=0)
                await asyncio.wait_for(task, 10)


async def test_no_reconnect_fight_when_resumed_elsewhere(server: BarbuServer, connect: Connect) -> None:
    async with running_tui(server.url, "eve") as (tui, _pipe):
        token = tui.session.token
        assert token is not None
        other = await connect(server)
        await other.resume(token)
        await until(lambda: tui.model.status == "signed in elsewhere", "the client to stop")
        await asyncio.sleep(0.3)
        assert tui.session.reconnects == 0 and other.name == "eve"


def tokens_file(data_home: Path) -> Path:
    """Where the client keeps resume tokens under the test's ``XDG_DATA_HOME``."""
    return data_home / "barbu" / "tokens.json"


async def test_the_resume_token_is_kept_and_used_on_the_next_start(
    server: BarbuServer, connect: Connect, data_home: Path
) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "gus") as (tui, pipe):
        room = (await seat_with_bots(tui, pipe, server, helper, offset=3)).room
        token = tui.session.token
    assert token is not None
    path = tokens_file(data_home)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert TokenStore(path).get(server.url, "gus") == token
    async with started_tui(server.url, "gus") as (tui, _pipe):
        await until(lambda: tui.model.table is not None and tui.model.table.room == room, "the seat back")
        assert tui.session.held == [room]  # resumed: a login by name is refused a held seat
        assert tui.session.token != token  # a resume hands out a fresh token, kept for the next start
        assert TokenStore(path).get(server.url, "gus") == tui.session.token


async def test_play_at_a_server_goes_straight_back_to_the_held_table(
    server: BarbuServer, connect: Connect
) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "rex") as (tui, pipe):
        held = await seat_with_bots(tui, pipe, server, helper, offset=2)
        room, seat = held.room, held.seat
    async with started_tui(server.url, "rex") as (tui, _pipe):  # as `barbu play ws://...` (no after_login)
        await until(  # the snapshot lands before the screen switches: wait for both
            lambda: (
                tui.screen == "table" and tui.model.table is not None and tui.model.table.view is not None
            ),
            "the held table's screen",
        )
        table = tui.model.table
        assert table is not None and table.room == room and table.seat == seat and not table.stale
        assert tui.session.held == [room]
        assert on_screen(tui, f"{table.name} seat {seat}")


async def test_a_refused_token_falls_back_to_a_login(server: BarbuServer, data_home: Path) -> None:
    TokenStore(tokens_file(data_home)).put(server.url, "ivy", "not-a-token-the-server-knows")
    async with running_tui(server.url, "ivy") as (tui, _pipe):
        token = tui.session.token
        assert token is not None and token != "not-a-token-the-server-knows"
        assert any("no longer knows this terminal's resume token" in line for line in tui.model.log)
    assert TokenStore(tokens_file(data_home)).get(server.url, "ivy") == token


async def test_a_name_claimed_elsewhere_asks_for_its_personal_password(
    server: BarbuServer, connect: Connect, data_home: Path
) -> None:
    """The terminal made hal's personal secret and kept it with the tokens; that file lost, a login by the
    name is refused in words and the secret asked for; typed, it takes hal's seat back."""
    helper = await connect(server, "helper")
    async with running_tui(server.url, "hal") as (tui, pipe):
        await seat_with_bots(tui, pipe, server, helper, offset=1)
    secret = TokenStore(tokens_file(data_home)).secret(server.url, "hal")
    assert secret is not None and len(secret) >= 16
    tokens_file(data_home).write_text("{ this is not json", encoding="utf-8")  # corrupt: ignored
    async with started_tui(server.url, "hal") as (tui, pipe):
        await until(lambda: tui.input_mode == "secret", f"the personal password prompt ({tui.model.notice})")
        assert tui.model.notice == (
            "hal is someone's name here, with a personal password: type it (it was chosen where the name was"
            " first used), or pick another name."
        )
        assert tui.model.notice_error and not tui.model.connected and tui.secret  # typed unseen
        pipe.send_text(secret + ENTER)
        await until(lambda: tui.screen == "table", f"hal back at his seat ({tui.model.notice})")
        assert tui.model.table is not None and tui.model.table.seat is not None


async def test_local_game_comes_back_to_the_same_hand(tmp_path: Path, data_home: Path) -> None:
    db = tmp_path / "local.sqlite3"
    seen: dict[str, Any] = {}
    for run in range(3):
        if run == 2:
            tokens_file(data_home).unlink()  # as after an upgrade: the token comes from the local store
        async with LocalServer(db, bot_delay=0.0, bot_policy="heuristic") as local:
            local.seed_token(TokenStore(), "lou")
            options: dict[str, Any] = {"after_login": seat_local_player, "server_key": local.key}
            async with started_tui(local.url, "lou", **options) as (tui, _pipe):
                await until(  # the snapshot lands before the screen switches: wait for both
                    lambda: tui.screen == "table" and tui.model.table is not None and tui.model.table.my_turn,
                    "the turn",
                )
                table = tui.model.table
                assert table is not None and table.view is not None and tui.screen == "table"
                now = {"room": table.room, "hand": table.view["hand"]}
                # Each resume hands out a fresh token; the kept one is the latest.
                assert TokenStore().get(local.key, "lou") == tui.session.token
                if run == 0:
                    seen = now
                else:
                    assert now == seen
    keys = list(json.loads(tokens_file(data_home).read_text(encoding="utf-8")))
    assert keys == [f"local:{db.resolve()}\nlou"]


async def test_typing_a_table_name_replaces_the_suggested_one(server: BarbuServer) -> None:
    async with running_tui(server.url, "kim") as (tui, pipe):
        pipe.send_text("n")
        await until(lambda: tui.input_mode == "table", "the table-name prompt")
        assert tui.input.text == "" and on_screen(tui, "kim's table (Enter takes it)")  # in the form
        pipe.send_text("poker night" + ENTER)
        await until(lambda: tui.lobby.form is not None and tui.input_mode is None, "the new-table form")
        assert tui.lobby.form is not None and tui.lobby.form.name == "poker night"


async def test_a_failing_reconnect_says_why(
    start_server: StartServer, connect: Connect, tmp_path: Path
) -> None:
    server = await start_server()
    port = server.port
    async with started_tui(server.url, "max", retry_delays=(1.0,)) as (tui, _pipe):
        await until(lambda: tui.screen == "lobby", "the lobby after login")
        await server.stop()
        await until(lambda: not tui.model.connected, "the drop")
        fresh = await start_server(port=port, db=str(tmp_path / "fresh.sqlite3"))  # knows no token
        other = await connect(fresh, "max")
        await until(lambda: "is in use" in tui.model.notice, f"the refusal said ({tui.model.notice})", 15)
        assert (
            tui.model.notice == "Reconnect refused: max is in use: connected from somewhere else. Retrying."
        )
        assert any("no longer knows this terminal's resume token for max" in line for line in tui.model.log)
        await other.close()
        await until(lambda: tui.model.connected and tui.session.reconnects == 1, "the reconnection", 15)


async def test_logging_in_is_said_once_when_the_server_asks_its_password(start_server: StartServer) -> None:
    server = await start_server(password="sesame")
    async with started_tui(server.url, "pat") as (tui, pipe):
        await until(lambda: tui.input_mode == "password", f"the password prompt ({tui.model.notice})")
        assert not any("Logging in" in line for line in tui.model.log)  # no login sent without it
        pipe.send_text("sesame" + ENTER)
        await until(lambda: tui.screen == "lobby", f"the lobby after login ({tui.model.notice})")
        assert [line for line in tui.model.log if "Logging in" in line] == ["Logging in as pat..."]
        assert server.lobby is not None and "pat" in server.lobby.online


async def test_a_long_refusal_is_shown_whole_at_80_columns(
    server: BarbuServer, connect: Connect, data_home: Path
) -> None:
    name = "hal-with-a-long-nickname"  # 24 characters, the longest name a server takes
    helper = await connect(server, "helper")
    async with running_tui(server.url, name) as (tui, pipe):
        await seat_with_bots(tui, pipe, server, helper, offset=1)
    tokens_file(data_home).unlink()
    async with started_tui(server.url, name) as (tui, _pipe):
        await until(lambda: tui.input_mode == "secret", f"the personal password prompt ({tui.model.notice})")
        refusal = (
            f"{name} is someone's name here, with a personal password: type it (it was chosen where the"
            " name was first used), or pick another name."
        )
        assert tui.model.notice == refusal and len(refusal) > 80
        lines = screen_lines(tui)
        assert len(lines) == 24 and all(len(line) <= 80 for line in lines)
        assert on_screen(tui, refusal), "\n".join(lines)
        assert lines[-2].startswith("Personal password:") and lines[-1].startswith("Enter: confirm")


def status(tui: TuiApp) -> str:
    """The status line as plain text."""
    return text(tui._status_text())


def my_turn(tui: TuiApp) -> bool:
    """Whether the client's current table says it is this client's turn."""
    return tui.model.table is not None and tui.model.table.my_turn


async def test_no_turn_is_claimed_while_the_connection_is_down(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    port = server.port
    helper = await connect(server, "helper")
    async with running_tui(server.url, "ned") as (tui, pipe):
        await seat_with_bots(tui, pipe, server, helper, offset=0)
        await until(lambda: my_turn(tui), "the contract turn")
        assert "YOUR TURN" in status(tui)
        await helper.close()
        await server.stop()
        await until(lambda: not tui.model.connected, "the drop")
        # A stand-in may play the seat while the client is away: the old view no longer says whose turn it is.
        assert not my_turn(tui) and "YOUR TURN" not in status(tui) and "turn: ?" in status(tui)
        await start_server(port=port)
        await until(lambda: tui.model.connected and tui.session.reconnects == 1, "the reconnection", 15)
        await until(lambda: my_turn(tui), "the turn given back by the server's snapshot")
        assert "YOUR TURN" in status(tui)


async def test_no_turn_is_claimed_after_another_terminal_took_over(
    server: BarbuServer, connect: Connect
) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "oda") as (tui, pipe):
        room = (await seat_with_bots(tui, pipe, server, helper, offset=0)).room
        await until(lambda: my_turn(tui), "the contract turn")
        token = tui.session.token
        assert token is not None
        other = await connect(server)
        await other.resume(token)  # the player goes on at another terminal, which plays the turn
        await until(lambda: tui.model.status == "signed in elsewhere", "the client to stop")
        snap = await other.snapshot(room)
        assert snap.seat is not None and snap.view is not None
        await other.act(room, snap.seat, snap.view["legal"][0])
        assert not my_turn(tui) and "YOUR TURN" not in status(tui)


async def test_a_refresh_answered_after_leaving_does_not_bring_the_table_back(
    server: BarbuServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "pia") as (tui, pipe):
        await seat_with_bots(tui, pipe, server, helper, offset=0)
        await until(lambda: my_turn(tui), "the contract turn")
        conn = tui.session.conn
        assert conn is not None
        real, asked, gate = conn.snapshot, asyncio.Event(), asyncio.Event()

        async def held_back(room: str) -> Snapshot:
            snap = await real(room)  # taken while the seat is still the player's: their turn
            asked.set()
            await gate.wait()
            return snap

        monkeypatch.setattr(conn, "snapshot", held_back)
        tui.session.request_refresh()
        refreshing = tui.session._refreshing
        assert refreshing is not None
        await until(asked.is_set, "the snapshot taken")
        pipe.send_text("x")  # leave: a stand-in plays the seat from now on
        await until(lambda: "Give your seat to a bot?" in tui.model.notice, "the question")
        pipe.send_text("y")
        await until(lambda: tui.screen == "lobby" and tui.model.table is None, "back in the lobby")
        gate.set()
        await until(refreshing.done, "the refresh answered")
        assert tui.model.table is None and "YOUR TURN" not in status(tui)


async def test_w_in_the_games_list_opens_a_winnable_deal(server: BarbuServer) -> None:
    async with running_tui(server.url, "wyn") as (tui, pipe):
        pipe.send_text("o")
        await until(lambda: tui.lobby.picking, "the game list")
        assert on_screen(tui, "w winnable")
        pipe.send_text("w")
        await until(lambda: tui.screen == "solitaire" and tui.solitaire is not None, "the winnable deal")
        solitaire = tui.model.solitaire
        assert solitaire is not None and solitaire.view["winnable"] and not solitaire.view["daily"]
        assert on_screen(tui, "winnable")


async def test_a_hint_refused_on_the_days_deal_is_said(server: BarbuServer) -> None:
    async with running_tui(server.url, "quin") as (tui, pipe):
        pipe.send_text("o")
        await until(lambda: tui.lobby.picking, "the game list")
        pipe.send_text(ENTER)
        await until(lambda: tui.screen == "solitaire" and tui.solitaire is not None, "the day's deal")
        pipe.send_text("h")
        await until(lambda: "No hints on the day's deal" in tui.model.notice, "the server's refusal")
        lines = screen_lines(tui)
        assert on_screen(tui, "No hints on the day's deal"), "\n".join(lines)


def cells(tui: TuiApp) -> list[list[str]]:
    """The screen as cells, row by row: a wide character's second cell is ``""``."""
    size = tui.app.output.get_size()
    screen_lines(tui)  # draw
    screen = Screen(default_char=Char(" ", ""), initial_width=size.columns, initial_height=size.rows)
    with set_app(tui.app):
        tui.app.layout.container.write_to_screen(
            screen, MouseHandlers(), WritePosition(0, 0, size.columns, size.rows), "", False, None
        )
    return [[screen.data_buffer[y][x].char for x in range(size.columns)] for y in range(size.rows)]


def divider_kept(tui: TuiApp) -> bool:
    """Whether every row of the table screen has its ``│`` divider in place with no wide character of the
    table's half running into it."""
    rows = cells(tui)[1 : 1 + TABLE_HEIGHT]
    return all(
        row[TABLE_WIDTH + 1] == "│" and width("".join(row[: TABLE_WIDTH + 1])) <= TABLE_WIDTH + 1
        for row in rows
    )


async def test_wide_and_alike_names_keep_the_columns(server: BarbuServer, connect: Connect) -> None:
    """A player named with 24 CJK characters at a table named with 40, and three ``barbu bot``-like names
    that differ only at their end: the lobby row keeps its columns (the watching count included), the table
    screen its divider and score panel, and the names are whole where they fit, else cut in the middle so the
    bots are told apart."""
    wide = await connect(server, "表" * 24)
    room = await wide.create_table("漢" * 40)
    await wide.sit(room, "N")
    bots = [await connect(server, f"heuristic-2fa8-{i}") for i in (1, 2, 3)]
    await bots[0].sit(room, "E")
    await bots[1].sit(room, "W")
    await bots[2].watch(room)
    async with running_tui(server.url, "ann") as (tui, pipe):
        await tui.session.refresh_rooms()
        expected = "  漢漢漢漢漢…漢漢漢漢漢  waiting    N:表表…表表 E:heur…a8-1 S:- W:heur…a8-2" + "    1"
        assert expected in screen_lines(tui), "\n".join(screen_lines(tui))
        assert width(expected) == 80  # the count ends under "watch", in the last column
        pipe.send_text(ENTER)
        await until(
            lambda: (
                tui.screen == "table" and tui.model.table is not None and tui.model.table.view is not None
            ),
            f"the table {tui.model.notice}",
        )
        table = tui.model.table
        assert table is not None and table.seat == "S"
        assert divider_kept(tui), "\n".join(screen_lines(tui))
        shown = "\n".join(screen_lines(tui))
        # the side seats' names whole, as they fit; the top one cut in the middle to the table's width
        assert "W heuristic-2fa8-2" in shown and "E heuristic-2fa8-1" in shown, shown
        assert "N 表表表表表表表表…表表表表表表表表" in shown, shown
        assert all(width(line) <= 80 for line in screen_lines(tui))
        if (
            table.my_turn
        ):  # the first declarer: choose the first contract offered, then the others are to move
            pipe.send_text(ENTER)
            await until(lambda: not table.my_turn, "the contract sent")
        panel = text(side_lines(table, tui.barbu)).splitlines()
        scores = [line for line in panel if line[:2] in ("N ", "E ", "S ", "W ")]
        assert [width(line) for line in scores] == [width(scores[0])] * 4, scores
        assert scores[0].startswith("N 表表表…表表表 ") and scores[1].startswith("E heuris…-2fa8-1 ")
        assert "heuris…-2fa8-2" in scores[3]


async def test_the_help_screen_turns_to_the_rules(server: BarbuServer) -> None:
    async with running_tui(server.url, "reader") as (tui, pipe):
        pipe.send_text("?")
        await until(lambda: tui.screen == "help" and on_screen(tui, "barbu play - keys"), "the keys page")
        pipe.send_text(RIGHT)
        # The rules as docs/rules/barbu.md says them, its first section first (client/tui/rules_text.py).
        await until(lambda: on_screen(tui, "Players, cards, seats"), "the rules' first page")
        pipe.send_text("\x1b[D\x1b[D")  # Left twice: round to the last page, the named variants
        await until(lambda: on_screen(tui, "Named variants"), "the variants' page")
        pipe.send_text("\x1b")
        await until(lambda: tui.screen == "lobby", "back in the lobby")
        # A lone Esc waits 0.1 s to be told from an arrow key's sequence, not prompt-toolkit's 0.5 s.
        assert tui.app.ttimeoutlen == ESC_WAIT == 0.1
