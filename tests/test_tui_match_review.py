"""What a third reviewer met in a whole 28-hand match of ``./run.sh``: the key that puts the end-of-hand
summary away decides nothing (the doubling dialog, the contract menu, the card), a table name too long is
refused while the form keeps its settings, a wrong solitaire option is said in words in the games list,
Enter opens a finished table as ``w`` does, and the new-table form shows the name as it is typed.

Flows run against a real server on loopback (fixtures in ``conftest.py``, helpers in ``test_tui.py``); the
keys of a table whose state is set by hand run in an application that reaches no server (``offline_tui``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from prompt_toolkit.input import PipeInput

from client.tui.app import KEY_HINTS, TuiApp
from client.tui.barbu_screen import BarbuScreen, hand_line
from client.tui.keys import quit_question
from client.tui.model import Model, SolitaireModel, TableModel
from client.tui.session import seat_notices
from client.tui.solitaire_screen import SolitaireRoom
from engine.cards import SEATS
from protocol import Players
from server import BarbuServer
from tests.conftest import Connect, until
from tests.test_tui import (
    DOWN,
    ENTER,
    RIGHT,
    SPACE,
    on_screen,
    running_tui,
    screen_lines,
    seat_with_bots,
    started_tui,
    text,
)
from tests.test_tui_review import play_first_legal_until

#: A loopback port nothing listens on: the application starts, cannot log in, and asks a name.
NOWHERE = "ws://127.0.0.1:1"


@asynccontextmanager
async def offline_tui() -> AsyncIterator[tuple[TuiApp, PipeInput]]:
    """The real application, its keys from a pipe, reaching no server: the name prompt closed, so that the
    test sets the screen and the table itself."""
    async with started_tui(NOWHERE, "ann", retry_delays=(60.0,)) as (tui, pipe):
        await until(lambda: tui.input_mode == "name", "the name asked again")
        tui.cancel_input()
        tui.model.name = "ann"
        yield tui, pipe


def scored_table(view: dict[str, Any]) -> TableModel:
    """Seat S at hand 2 with ``view``, hand 1's summary up."""
    table = TableModel(room="1", name="t", seat="S", state="playing", me="ann")
    table.players = {s: ("ann" if s == "S" else f"bot:{s}") for s in SEATS}
    table.set_view({"seat": "S", "hand_number": 2, "hands_total": 28, "to_move": "S", **view}, 5)
    table.summary = {"event": "hand-scored", "hand_number": 1, "scores": {}, "totals": {}}
    return table


def notice_is(tui: TuiApp, said: str) -> Callable[[], bool]:
    """A condition: the notice line says ``said``."""
    return lambda: tui.model.notice == said


async def test_the_key_that_puts_the_summary_away_does_not_double(
    server: BarbuServer, connect: Connect
) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "sue") as (tui, pipe):
        table = await seat_with_bots(
            tui, pipe, server, helper, offset=1
        )  # a bot declares: sue doubles in hand 2
        await play_first_legal_until(tui, lambda: table.summary is not None, "hand 1 scored")
        await until(
            lambda: table.my_turn and (table.view or {}).get("hand_number") == 2, "sue's double in hand 2"
        )
        assert table.showing_summary() and on_screen(tui, "Double whom?")
        seq, ticked = table.seq, set(tui.barbu.ticked)
        pipe.send_text(ENTER)  # only puts the summary away
        await until(lambda: not table.showing_summary(), "the summary put away by Enter")
        pipe.send_text(SPACE)  # the dialog's first key: a tick, once the summary is away
        await until(lambda: tui.barbu.ticked != ticked, "the tick")
        assert table.seq == seq and table.my_turn and (table.view or {}).get("phase") == "double"
        assert not any(line.lower().startswith("you doubled") for line in tui.model.log)


async def test_the_summary_takes_the_first_key_before_the_contract_menu_and_the_card() -> None:
    async with offline_tui() as (tui, pipe):
        legal = [{"action": "contract", "contract": c} for c in ("no-tricks", "no-queens", "barbu")]
        tui.model.table = scored_table({"phase": "contract", "declarer": "S", "hand": ["2C"], "legal": legal})
        tui.show("table")
        table = tui.model.table
        assert tui.summary_up()
        pipe.send_text(DOWN)  # puts the summary away: the menu's cursor stays on the first contract
        await until(lambda: not table.showing_summary(), "the summary put away by Down")
        assert tui.barbu.menu == 0
        pipe.send_text(DOWN)
        await until(lambda: tui.barbu.menu == 1, "the menu's cursor moved by the next key")

        said = tui.model.logged
        play = [{"action": "play", "card": "2C"}]
        tui.model.table = scored_table({"phase": "play", "contract": "barbu", "hand": ["2C"], "legal": play})
        tui.show("table")
        assert tui.summary_up()
        pipe.send_text(ENTER)  # puts the summary away: no card is sent (offline, it would be refused)
        await until(lambda: not tui.summary_up(), "the summary put away by Enter")
        await asyncio.sleep(0.2)  # a card sent would say "Not connected" within a few ms: bounded wait
        assert tui.model.logged == said, list(tui.model.log)[-2:]


async def test_enter_on_a_finished_table_opens_it_as_w_does() -> None:
    async with offline_tui() as (tui, pipe):
        watched: list[str] = []

        async def watch(room: str) -> None:
            watched.append(room)

        async def sit(room: str, seat: str | None = None) -> None:
            raise AssertionError("no seat to take at a finished table")

        tui.watch = watch  # type: ignore[method-assign]
        tui.sit = sit  # type: ignore[method-assign]
        tui.model.rooms = [{"room": "7", "name": "game 12-01 19:57:10", "kind": "barbu", "state": "over"}]
        tui.show("lobby")
        pipe.send_text(ENTER)
        await until(lambda: watched == ["7"], "the finished table watched")


async def test_a_table_name_too_long_is_refused_and_the_form_keeps_its_settings(server: BarbuServer) -> None:
    async with running_tui(server.url, "kim") as (tui, pipe):
        pipe.send_text("n")
        await until(lambda: tui.input_mode == "table", "the table-name prompt")
        assert "at most 40 characters" in tui.prompt and on_screen(tui, "kim's table (Enter takes it)")
        pipe.send_text(ENTER)
        await until(lambda: tui.lobby.form is not None and tui.input_mode is None, "the form")
        form = tui.lobby.form
        assert form is not None and form.name == "kim's table"
        pipe.send_text(DOWN + RIGHT)  # the heart lead: strict
        await until(lambda: form.values[0] == 1, "a setting changed")
        pipe.send_text("e")
        await until(lambda: tui.input_mode == "table", "the name edited")
        long = "x" * 41
        pipe.send_text("\x7f" * 20 + long)
        await until(lambda: on_screen(tui, f"{long[:20]}") and on_screen(tui, "41/40"), "the length said")
        pipe.send_text(ENTER)
        await until(lambda: "at most 40 characters; this one has 41" in tui.model.notice, "refused")
        assert tui.input_mode == "table" and tui.input.text == long  # to be shortened
        assert tui.lobby.form is form and form.values[0] == 1 and form.name == "kim's table"
        pipe.send_text("\x7f" + ENTER)
        await until(lambda: form.name == "x" * 40 and tui.input_mode is None, "the shortened name")
        pipe.send_text(ENTER)
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "the table opened")
        assert tui.model.table is not None and tui.model.table.variants == {"heart-lead": "strict"}


async def test_a_wrong_solitaire_option_is_said_in_words_in_the_games_list(server: BarbuServer) -> None:
    async with running_tui(server.url, "gus") as (tui, pipe):
        pipe.send_text("o")
        await until(lambda: tui.lobby.picking, "the games list")
        assert tui.lobby.game_name() == "forty-thieves"
        for typed, said in (
            ("draw=3", "Forty Thieves has no option draw; its options: foundation-back, supermove."),
            ("supermove=3", "Forty Thieves takes supermove=false or supermove=true, not supermove=3."),
        ):
            pipe.send_text(":")
            await until(lambda: tui.input_mode == "deal", "the options prompt")
            pipe.send_text(typed + ENTER)
            await until(notice_is(tui, said), f"{typed} refused: {tui.model.notice}")
            assert tui.lobby.picking and tui.screen == "lobby"
        assert tui.model.solitaire is None


def test_notices_and_the_log_belong_to_the_room_on_screen() -> None:
    model = Model("ws://x")
    model.table, model.screen = TableModel(room="1", seat="S"), "table"
    model.news("Trick 11 (7♠ 9♦ 6♥ 2♥) won by E bob.")
    assert model.shown_notice().startswith("Trick 11")
    model.screen = "solitaire"  # another room: the table's news is not its notice
    assert model.notice.startswith("Trick 11") and model.shown_notice() == ""
    model.screen = "lobby"
    assert model.shown_notice() == ""
    model.say("Forty Thieves has no option draw; its options: foundation-back, supermove.")
    model.table, model.screen = TableModel(room="2", seat="S"), "table"  # a rematch table
    assert model.shown_notice().startswith("Forty Thieves")  # said in the lobby: it travels one screen
    model.say("")
    assert model.earlier() == []  # neither the other table's lines nor the games list's


def test_who_watched_before_joining_is_not_news_again() -> None:
    table = TableModel(room="1", seat="S", state="playing", players={s: f"p{s}" for s in SEATS})
    push = Players(room="1", state="playing", players=table.players, away=[], spectators=["carol"])
    assert seat_notices(table, push, "pS") == []  # the first push after joining: carol watched already
    table.take_players(push)
    later = Players(room="1", state="playing", players=table.players, away=[], spectators=["carol", "dan"])
    assert seat_notices(table, later, "pS") == ["dan is watching."]


async def test_t_goes_first_to_the_table_where_it_is_your_turn() -> None:
    async with offline_tui() as (tui, pipe):
        legal = [{"action": "contract", "contract": "barbu"}]
        table = scored_table({"phase": "contract", "declarer": "S", "hand": ["2C"], "legal": legal})
        table.summary, table.name = None, "game 12-01 19:57:10 (2)"
        tui.model.table = table
        tui.model.solitaire = SolitaireModel(room="9", seat="player", view={"title": "Pyramid"})
        tui.last_game = "solitaire"  # the screen shown last: t went there, past the turn waiting
        tui.show("lobby")
        top = screen_lines(tui)[0]  # the long "connecting to ..." leaves the name 13 columns: the key stays
        assert "your turn at game 1…10 (2)" in top and top.endswith("(contract): t")
        pipe.send_text("t")
        await until(lambda: tui.screen == "table", "the table where the turn waits")
        assert "(2) seat S" in screen_lines(tui)[0]


def test_the_quit_question_of_a_local_game_says_it_waits() -> None:
    assert quit_question(True, local=True) == (
        "Quit barbu? The game is kept: it goes on from here when you run it again."
    )
    assert "a bot plays it until you come back" in quit_question(True, local=False)
    assert quit_question(False, local=False) == "Quit barbu?"


async def test_what_is_over_shows_no_hand_nor_move_keys_and_end_goes_to_the_last_contract() -> None:
    async with offline_tui() as (tui, pipe):
        legal = [{"action": "contract", "contract": c} for c in ("no-tricks", "no-queens", "barbu")]
        tui.model.table = scored_table({"phase": "contract", "declarer": "S", "hand": ["2C"], "legal": legal})
        tui.model.table.summary_seen = True
        tui.show("table")
        pipe.send_text("\x1b[F")  # End
        await until(lambda: tui.barbu.menu == 2, "the last contract")
        pipe.send_text("\x1b[H")  # Home
        await until(lambda: tui.barbu.menu == 0, "the first contract")
        over = scored_table(
            {"phase": "over", "hand_number": 28, "hand": ["QH"], "legal": [], "to_move": None}
        )
        over.summary_seen = True
        assert "Q♥" not in text(hand_line(over, BarbuScreen()))  # the cards a hand ended early left
        early = scored_table({"phase": "play", "hand_number": 1, "hand": ["QH"], "legal": []})
        assert text(hand_line(early, BarbuScreen())) == "The hand is over."  # beside its summary
    room = SolitaireRoom(Model("ws://x"), lambda kind, move: None)
    room.model.solitaire = SolitaireModel(room="9", seat="player", view={"title": "Pyramid", "result": None})
    assert not room.over()
    room.model.solitaire.view["result"] = "resigned"
    assert room.over() and "d draw" not in KEY_HINTS["solitaire-over"]
