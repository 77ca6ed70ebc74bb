"""What a newcomer met in a whole match and a server with a spectator (issue 10): coming back to a table says
what was played meanwhile and drops its old news, a watcher has no card keys and is counted only where it
watches, the last trick shows beside the hand's summary, names are whole when they fit, only the host is
offered the host's keys, Up/Down leave the new-table form's name field, solitaire headers are whole at 80
columns (a watcher told the seed the player gave), and smaller points (the day's deal offers no hint, the help
opens at a solitaire's card, ``x`` asks before resigning, the ``broken`` heart lead said right, Enter's card
starts on the lowest playable one).

Flows run against a real server on loopback (fixtures in ``conftest.py``, helpers in ``test_tui.py``); the
screens of a state set by hand run in ``offline_tui`` or are drawn alone.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from client.columns import width
from client.tui.app import KEY_HINTS
from client.tui.barbu_screen import WATCHING, BarbuScreen, side_lines, table_lines
from client.tui.events import event_text
from client.tui.help import help_page
from client.tui.lobby_screen import FORM_ROWS
from client.tui.model import Model, SolitaireModel, TableModel
from client.tui.refusals import refusal_text
from client.tui.session import seat_notices
from client.tui.solitaire_screen import SolitaireRoom, SolitaireScreen, solitaire_lines
from engine.cards import SEATS
from protocol import Players
from server import BarbuServer
from tests.conftest import Connect, until
from tests.test_tui import DOWN, ENTER, on_screen, opened_table, running_tui, screen_lines, text
from tests.test_tui_match_review import offline_tui, scored_table

UP = "\x1b[A"


def listed(rooms: list[dict[str, Any]], room: str) -> dict[str, Any]:
    """The lobby's summary of ``room``."""
    return next(r for r in rooms if str(r["room"]) == room)


async def test_coming_back_to_a_table_says_the_hands_played_meanwhile_and_drops_old_news(
    server: BarbuServer, connect: Connect
) -> None:
    watcher = await connect(server, "carol")
    async with running_tui(server.url, "rev") as (tui, pipe):
        room = await opened_table(tui, "friday", "S")
        await watcher.watch(room)  # keeps the table open while rev is away
        for seat in "NEW":
            await tui.session.add_bot(room, seat)
        await until(lambda: tui.model.table is not None and tui.model.table.my_turn, "rev's first turn")
        pipe.send_text(":zz" + ENTER)  # a refusal said at the table
        await until(lambda: "zz is not a card" in tui.model.notice, "the refusal")
        pipe.send_text("x")
        await until(lambda: tui.pending is not None, "the question")
        pipe.send_text("y")
        await until(lambda: tui.screen == "lobby" and tui.model.table is None, "the lobby")
        tui.model.say("zz is not a card: type e.g. qs or 10h.", error=True, place=f"table:{room}")

        async def hands_played() -> int:
            return int(listed(await watcher.list_rooms(), room).get("hand_number") or 0)

        for _ in range(500):
            if await hands_played() >= 3:
                break
            await asyncio.sleep(0.05)
        assert await hands_played() >= 3, "the stand-in played on"
        await tui.watch(room)
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "the table again")
        assert (
            "not a card" not in tui.model.notice + screen_lines(tui)[-2]
        )  # the log keeps it, not the notice
        said = [line for line in tui.model.earlier() if "while you were away" in line]
        assert said and re.match(
            r"Hands 1–\d+ were played while you were away \(a bot played S for you: you scored [-+]\d+\)\.",
            said[-1],
        ), said
        assert "watching your seat S" in screen_lines(tui)[0]

    table = TableModel(room="1", seat=None, state="over", players={s: f"p{s}" for s in SEATS})
    table.take_players(Players(room="1", state="over", players=table.players, away=[], spectators=[]))
    push = Players(room="1", state="over", players=table.players, away=[], spectators=["pS", "dan"])
    assert seat_notices(table, push, "me") == ["dan is watching.", "pS (seat S) is looking at the table."]


async def test_a_watcher_has_no_card_keys_counts_where_it_watches_and_a_chat_refusal_goes(
    server: BarbuServer, connect: Connect
) -> None:
    alice = await connect(server, "alice")
    first = await alice.create_table("first")
    await alice.sit(first, "N")
    for seat in "ESW":
        await alice.add_bot(first, seat)
    second = await alice.create_table("second")
    await alice.watch(second)
    async with running_tui(server.url, "wes") as (tui, pipe):
        await tui.watch(first)
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "watching")
        await until(lambda: (tui.model.table.view or {}).get("phase") is not None, "the match")  # type: ignore[union-attr]
        pipe.send_text(":")
        await until(lambda: tui.model.notice == WATCHING, "a watcher types no card")
        assert tui.input_mode is None
        tui.model.say("")
        pipe.send_text(ENTER)
        await until(lambda: tui.model.notice == WATCHING, "Enter plays no card")
        assert "not your turn" not in tui.model.notice

        pipe.send_text("c" + "x" * 501 + ENTER)
        await until(lambda: "at most 500 characters" in tui.model.notice, "the long message refused")
        pipe.send_text("\x7f" * 501 + "hello" + ENTER)
        await until(lambda: any("hello" in line for line in tui.model.table.chat), "the chat line")  # type: ignore[union-attr]
        await until(lambda: tui.model.notice == "", "the refusal gone once a message went through")

        assert listed(await alice.list_rooms(), first)["spectators"] == 1
        await tui.watch(second)  # watching another table stops watching the first
        await until(lambda: tui.model.table is not None and tui.model.table.room == second, "the second")
        for _ in range(200):
            if listed(await alice.list_rooms(), first)["spectators"] == 0:
                break
            await asyncio.sleep(0.05)
        assert listed(await alice.list_rooms(), first)["spectators"] == 0
        assert listed(await alice.list_rooms(), second)["spectators"] == 2  # alice and wes


def test_the_last_trick_of_a_hand_shows_beside_its_summary() -> None:
    table = TableModel(room="1", seat="S", state="playing", me="ann")
    table.players = {s: ("ann" if s == "S" else f"bot:{s}") for s in SEATS}
    table.set_view({"seat": "S", "hand_number": 1, "hands_total": 28, "phase": "play", "tricks": []}, 40)
    table.take_event(
        {
            "event": "trick-won",
            "trick_number": 13,
            "leader": "N",
            "cards": ["QH", "8H", "3S", "9H"],
            "winner": "N",
        },
        41,  # the action after the view's: a view already holds its own action's events
    )
    event_text({"event": "hand-scored", "hand_number": 1, "scores": {}, "totals": {}}, table)
    table.set_view({"seat": "S", "hand_number": 2, "hands_total": 28, "phase": "contract", "tricks": []}, 42)
    assert table.showing_summary()
    panel = text(side_lines(table, BarbuScreen()))
    assert "Last trick, won by N:" in panel and "Q♥" in panel and "9♥" in panel
    assert "No trick yet." not in panel
    table.summary_seen = True
    assert "No trick yet." in text(side_lines(table, BarbuScreen()))


async def test_names_are_whole_when_they_fit_and_help_says_your_turn_here() -> None:
    table = TableModel(room="1", seat="S", state="playing", me="ann", name="game 12-01 23:20:10")
    table.players = {"N": "protobot", "E": "protobot2", "S": "ann", "W": "heuristic"}
    table.away = ["N", "E", "W"]
    view = {
        "seat": "S",
        "hand_number": 3,
        "hands_total": 28,
        "phase": "play",
        "declarer": "N",
        "to_move": "E",
    }
    table.set_view(view, 10)
    drawn = text(table_lines(table))
    assert "N protobot (away) *" in drawn and "E protobot2 (away)" in drawn and "W heuristic (away)" in drawn
    assert all(width(line) <= 46 for line in drawn.splitlines())
    table.players["W"] = "a-very-long-name-for-a-bot-indeed"
    narrow = text(table_lines(table))
    assert all(width(line) <= 46 for line in narrow.splitlines()) and "…" in narrow
    assert "E protobot2 (away)" in narrow  # the longer name is cut, not both
    panel = text(side_lines(table, BarbuScreen()))
    assert "protobot2" in panel

    async with offline_tui() as (tui, pipe):
        legal = [{"action": "double", "targets": []}]
        tui.model.table = scored_table({"phase": "double", "declarer": "N", "hand": ["2C"], "legal": legal})
        tui.model.table.summary_seen = True
        tui.model.table.name = "game 12-01 23:20:10"
        tui.model.status = "connected"  # as at a server (this one reaches none)
        tui.show("table")
        pipe.send_text("?")
        await until(lambda: tui.screen == "help", "the help")
        top = screen_lines(tui)[0]
        assert "your turn at" not in top and "YOUR TURN (double)" in top and "Esc back" in top
        assert "game 12-01 23:20:10 seat S" in top
        pipe.send_text("\x1b")
        await until(lambda: tui.screen == "table", "back")
        waiting = TableModel(room="2", seat="S", state="waiting", me="ann", players={"S": "ann"})
        waiting.name = "the long friday evening table, second try"
        tui.model.table = waiting
        lines = screen_lines(tui)
        shown = lines[0].split("│ ")[1].rsplit(" seat S", 1)[0]
        pane = " ".join(line[:46].rstrip() for line in lines[1:3])  # the message takes two lines if need be
        assert f"Table {shown}: waiting for" in pane, (shown, lines[:3])


async def test_only_the_host_is_offered_the_hosts_keys(server: BarbuServer, connect: Connect) -> None:
    alice = await connect(server, "alice")
    room = await alice.create_table("alice's")
    await alice.sit(room, "N")
    async with running_tui(server.url, "bea") as (tui, pipe):
        await tui.session.refresh_rooms()
        await tui.sit(room, "E")
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "seated")
        hints = tui._key_hints()
        assert "b bot" not in hints and "k remove" not in hints and "x leave the seat" in hints
        assert on_screen(tui, "the host, alice, adds bots")
        pipe.send_text("b")
        await until(lambda: "Only the table's host, alice, adds bots." in tui.model.notice, "said in words")
        assert (await alice.snapshot(room)).players.get("S") is None


async def test_up_and_down_leave_the_name_field_of_the_new_table_form() -> None:
    async with offline_tui() as (tui, pipe):
        tui.show("lobby")
        pipe.send_text("n")
        await until(lambda: tui.input_mode == "table", "the name field")
        pipe.send_text("abc" + DOWN)
        await until(lambda: tui.input_mode is None, "the name taken by Down")
        form = tui.lobby.form
        assert form is not None and form.name == "abc" and form.row == 1
        pipe.send_text(UP)
        await until(lambda: tui.input_mode == "table" and tui.input.text == "abc", "back in the name field")
        pipe.send_text("d" + UP)
        await until(lambda: tui.input_mode is None, "the name taken by Up")
        assert form.name == "abcd" and form.row == FORM_ROWS - 1  # the last row: the turn timer


async def test_solitaire_headers_are_whole_at_80_columns_and_a_watcher_sees_the_seed(
    server: BarbuServer, connect: Connect
) -> None:
    dave = await connect(server, "dave")
    snap = await dave.open_solitaire("pyramid", {"draw": 3}, seed=279988109493316)
    async with running_tui(server.url, "wes") as (tui, _pipe):
        await tui.session.refresh_rooms()
        await tui.watch(snap.room)
        await until(lambda: tui.screen == "solitaire" and tui.solitaire is not None, "watching")
        assert on_screen(tui, "seed 279988109493316, draw=3") and on_screen(tui, "(dave plays; you watch)")
        await dave.resign(snap.room)
        await until(lambda: on_screen(tui, "Pyramid: dave resigned after 0 moves."), "dave resigned")
        assert on_screen(tui, "seed 279988109493316, draw=3")
        assert all(width(line) <= 80 for line in screen_lines(tui))

    model = Model("ws://x")
    view = {
        "game": "forty-thieves",
        "title": "Forty Thieves",
        "options": {},
        "daily": "2026-12-01",
        "winnable": True,
        "result": "resigned",
        "moves": 2,
        "layout": {
            "moves": 2,
            "won": False,
            "over": True,
            "stock": 0,
            "waste": [],
            "foundations": [[]] * 8,
            "columns": [[]] * 10,
            "redeals_left": 0,
        },
    }
    model.solitaire = SolitaireModel(room="3", seat="player", view=view)
    drawn = text(solitaire_lines(SolitaireScreen(SolitaireRoom(model, lambda k, m: None)), 20))
    assert "Forty Thieves: resigned after 2 moves. n: new deal" in drawn
    assert "the deal of 2026-12-01, winnable" in drawn
    assert all(width(line) <= 80 for line in drawn.splitlines())


async def test_small_points_hint_keys_help_page_resign_question_heart_lead_and_enters_card(
    server: BarbuServer,
) -> None:
    assert "h hint" not in KEY_HINTS["solitaire-daily"] and "h hint" in KEY_HINTS["solitaire"]
    broken = {"variants": {"heart-lead": "broken"}}
    assert refusal_text("hearts-lead", "", broken, {}) == (
        "Hearts may not be led until a heart has been discarded on a trick of another suit "
        "(or you hold only hearts)."
    )
    assert "while you hold other suits" in refusal_text("hearts-lead", "", {}, {})

    table = TableModel(room="1", seat="S", state="playing", me="ann")
    legal = [{"action": "play", "card": c} for c in ("AS", "2S", "KH", "5D")]
    table.set_view(
        {
            "seat": "S",
            "phase": "play",
            "to_move": "S",
            "hand": ["AS", "2S", "KH", "5D", "3C"],
            "legal": legal,
        },
        3,
    )
    screen = BarbuScreen()
    assert screen.confirm(table) == ({"action": "play", "card": "2S"}, "")  # the lowest playable card

    async with running_tui(server.url, "sol") as (tui, pipe):
        pipe.send_text("or")  # a random deal of Forty Thieves
        await until(lambda: tui.screen == "solitaire" and tui.solitaire is not None, "the random deal")
        await until(lambda: tui.solitaire is not None and tui.solitaire.room.state() != {}, "its state")
        assert "h hint" in tui._key_hints()
        pipe.send_text("?")
        await until(lambda: tui.screen == "help", "the help")
        assert help_page(0, "forty-thieves").startswith("Forty Thieves - the rules")
        assert on_screen(tui, "Forty Thieves - the rules") and "no table" not in screen_lines(tui)[0]
        assert "solitaire: Forty Thieves" in screen_lines(tui)[0]
        pipe.send_text("\x1b")
        await until(lambda: tui.screen == "solitaire", "back")
        pipe.send_text("x")
        await until(
            lambda: (
                tui.pending is not None and "Resign this game (after it, n deals a new one)?" in tui.question
            ),
            "x asks",
        )
        pipe.send_text("q")
        await until(lambda: tui.pending is None, "answered no")
        assert tui.solitaire is not None and not tui.solitaire.room.over()
        pipe.send_text("xy")
        await until(lambda: tui.solitaire is not None and tui.solitaire.room.over(), "resigned once asked")
