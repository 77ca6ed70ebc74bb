"""Issue 11, a fresh reviewer's 28-hand match in ``./run.sh`` and ``./run.sh --watch``: the small points of
the terminal client (its questions on the day's deal, the quit line, Pyramid's example move, one wording of
Dominoes' places, and no game-changing keys offered to a watcher)."""

from __future__ import annotations

import pytest

from client.tui.app import KEY_HINTS
from client.tui.help import HELP, WATCHER_HELP, help_page, solitaire_page
from client.tui.keys import daily_kept, quit_question
from client.tui.model import Model, TableModel
from client.tui.solitaire_screen import MOVE_LENGTH
from server import BarbuServer
from tests.conftest import Connect, until
from tests.test_tui import opened_solitaire, running_tui
from tests.test_tui_review10 import solitaire
from tests.test_tui_seat_back import seat_given_to_a_bot


async def test_n_on_the_days_deal_says_it_resigns_it(server: BarbuServer) -> None:
    async with running_tui(server.url, "nan") as (tui, pipe):
        await opened_solitaire(tui, "pyramid", what="the day's deal")
        pipe.send_text("n")
        await until(lambda: tui.pending is not None, "the question")
        assert "the day's deal" in tui.question and "resigns it" in tui.question
        pipe.send_text("q")
        await until(lambda: tui.pending is None, "answered no")


async def test_quitting_on_the_days_deal_says_it_is_kept_and_prints_it_at_exit(
    server: BarbuServer, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running_tui(server.url, "quy") as (tui, pipe):
        await opened_solitaire(tui, "pyramid", what="the day's deal")
        pipe.send_text("q")
        await until(lambda: tui.pending is not None, "the quit question")
        assert daily_kept("Pyramid") in tui.question
        pipe.send_text("y")
        await until(lambda: tui.app.future is None or tui.app.future.done(), "the client gone")
    assert "The day's deal of Pyramid is kept: it waits for you.\n" in capsys.readouterr().out
    local = quit_question(True, local=True, daily="Pyramid")  # ./run.sh says both
    assert "goes on from here when you run it again" in local and daily_kept("Pyramid") in local


def test_pyramids_example_move_is_a_pyramid_move() -> None:
    pyramid = solitaire("pyramid")
    pyramid.typed("p7.1+p7.4" * 4)
    assert (
        pyramid.message == f"That move is too long: a move has at most {MOVE_LENGTH} characters (p7.1+p7.4)."
    )
    assert "(p7.1+p7.4)" in solitaire_page("pyramid") and "t3>t5" not in solitaire_page("pyramid")
    assert "(t3>t5)" in solitaire_page("forty-thieves")
    assert all(
        len(line) <= 80 for game in ("pyramid", "forty-thieves") for line in solitaire_page(game).split("\n")
    )


async def test_a_watcher_is_offered_no_key_that_plays_or_changes_a_game(
    server: BarbuServer, connect: Connect, monkeypatch: pytest.MonkeyPatch
) -> None:
    ann = await connect(server, "ann")
    room = await ann.create_table("ann's")
    await ann.sit(room, "S")
    async with running_tui(server.url, "wes") as (tui, pipe):
        assert await tui.session.watch(room)
        tui.show("table")
        table = tui.model.table
        assert isinstance(table, TableModel) and table.seat is None and tui.only_watching()
        monkeypatch.setattr(tui, "summary_up", lambda: True)  # a hand's summary over the table
        assert "t game" not in tui._key_hints() and "summary" in tui._key_hints()
        monkeypatch.undo()
        assert KEY_HINTS["table-summary-watching"] == KEY_HINTS["table-summary"].replace("  t game", "")
        pipe.send_text("?")
        await until(lambda: tui.screen == "help", "the help")
        assert help_page(0, None, tui.only_watching()) == WATCHER_HELP
        assert "t switch" not in WATCHER_HELP and "x seat to a bot" not in WATCHER_HELP
        assert "t switch" in HELP and "Only the players play" in WATCHER_HELP


async def test_sitting_again_after_other_screens_says_so(server: BarbuServer) -> None:
    async with running_tui(server.url, "gil") as (tui, pipe):
        room = await seat_given_to_a_bot(tui, pipe, "away")
        pipe.send_text("?")  # the help and back: the bot's notice is old news by then
        await until(lambda: tui.screen == "help", "the help")
        pipe.send_text("\x1b")
        await until(lambda: tui.screen == "lobby", "the lobby again")
        tui.show("help")
        tui.show("lobby")
        await tui.sit(room)  # Enter on its row in the lobby
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "at the table again")
        assert "You sit in seat E at away again: the bot no longer plays it." in tui.model.notice


def test_a_double_the_bot_made_while_the_player_was_away_is_logged() -> None:
    model = Model("ws://test")
    view = {"hand_number": 3, "hand": ["2C"] * 13, "doubles": [["N", "W"]], "phase": "double"}
    table = TableModel(room="1", name="t", seat="N", state="playing", view=view)
    table.players = {"N": "nia", "E": "bot:heuristic", "S": "bot:heuristic", "W": "bot:search"}
    model.table = table
    model.seat_left(table)
    table.view = {**view, "hand": ["2C"] * 12, "doubles": [["N", "W"], ["N", "E"], ["S", "N"]]}
    model.seat_taken_back("1", "N", "t")
    assert "While you were away, the bot played 1 card for you." in model.log
    assert "While you were away, the bot doubled E bot for you." in model.log
    assert model.notice == "You sit in seat N at t again: the bot no longer plays it."
