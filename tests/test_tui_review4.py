"""A fresh reviewer's small points of issue 10 (fourth round): a refusal on the notice line goes once what it
refused is done right; help pages are plain text, no markdown left;
the key line shows the keys that apply (a pass in Dominoes, none while the others double);
a table taken back says which hand it is at.

Flows run against a real server on loopback (fixtures in ``conftest.py``, helpers in ``test_tui.py``).
"""

from __future__ import annotations

import re

import pytest

from client.tui.app import KEY_HINTS
from client.tui.help import pages
from client.tui.model import TableModel
from engine.cards import SEATS
from engine.solitaire import GAMES
from server import BarbuServer
from tests.conftest import Connect, finished_table, until
from tests.test_tui import ENTER, running_tui, screen_lines, seat_with_bots, started_tui
from tests.test_tui_match_review import offline_tui


async def test_the_table_name_refusal_goes_once_a_shortened_name_is_taken(server: BarbuServer) -> None:
    async with running_tui(server.url, "kim") as (tui, pipe):
        pipe.send_text("n")
        await until(lambda: tui.input_mode == "table", "the table-name prompt")
        pipe.send_text("x" * 43 + ENTER)
        await until(lambda: "this one has 43: shorten it" in tui.model.notice, "refused")
        pipe.send_text("\x7f" * 3 + ENTER)
        await until(lambda: tui.lobby.form is not None and tui.input_mode is None, "the shortened name taken")
        assert tui.lobby.form is not None and tui.lobby.form.name == "x" * 40
        assert "shorten it" not in tui.model.notice, tui.model.notice
        assert any("shorten it" in line for line in tui.model.earlier())  # the log keeps it


MARKDOWN = re.compile(r"`|\*\*|__|^#+ |\[[^]]*\]\(", re.MULTILINE)  # code, bold, headings, links


@pytest.mark.parametrize("game", [None, *GAMES])
def test_every_help_page_is_plain_text(game: str | None) -> None:
    for number, page in enumerate(pages(game), 1):
        assert not MARKDOWN.search(page), (game, number, MARKDOWN.findall(page))


async def test_the_key_line_shows_the_pass_in_dominoes_and_no_card_keys_while_others_double() -> None:
    async with offline_tui() as (tui, _pipe):
        table = TableModel(room="1", name="t", seat="S", state="playing", me="ann")
        table.players = {s: ("ann" if s == "S" else f"bot:{s}") for s in SEATS}
        base = {"seat": "S", "hand_number": 3, "hands_total": 28, "hand": ["3C"], "contract": "dominoes"}
        table.set_view({**base, "phase": "play", "to_move": "S", "legal": [{"action": "pass"}]}, 5)
        tui.model.table = table
        tui.show("table")
        assert screen_lines(tui)[-1].strip() == KEY_HINTS["table-pass"]
        table.set_view({**base, "contract": "barbu", "phase": "double", "to_move": "E", "legal": []}, 6)
        assert screen_lines(tui)[-1].strip() == KEY_HINTS["table-others"]
        assert "Enter play" not in screen_lines(tui)[-1]


async def test_the_held_table_taken_back_at_a_start_says_which_hand_it_is_at(
    server: BarbuServer, connect: Connect
) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "rex") as (tui, pipe):
        await seat_with_bots(tui, pipe, server, helper, offset=2)
    async with started_tui(server.url, "rex") as (tui, _pipe):  # as `barbu play ws://...`: back to the seat
        await until(
            lambda: (
                tui.screen == "table" and tui.model.table is not None and tui.model.table.view is not None
            ),
            "the held table's screen",
        )
        said = [*tui.model.earlier(), tui.model.notice]
        assert any(re.fullmatch(r"Back at hand \d+ of 28\.", line) for line in said), said


async def test_following_to_a_rematch_says_the_match_begins(server: BarbuServer) -> None:
    async with running_tui(server.url, "hal") as (tui, _pipe):
        assert tui.session.conn is not None
        room = await finished_table(server, tui.session.conn, "rerun")  # hal's seat S, played by a stand-in
        await tui.watch(room)
        await until(
            lambda: tui.model.table is not None and tui.model.table.room == room, "the finished table"
        )
        await tui.session.rematch()  # the rematch-opened push seats hal at the new table
        await until(
            lambda: (
                tui.model.table is not None
                and tui.model.table.room != room
                and tui.model.table.view is not None
            ),
            "seated at the new match",
        )
        begins = "Hand 1 of 28: the match begins."
        await until(
            lambda: begins in (tui.model.shown_notice(), *tui.model.earlier()), "said at the new table"
        )
