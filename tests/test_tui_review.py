"""What a second newcomer met in two whole matches of the terminal client, against a real server (fixtures in
``conftest.py``, helpers in ``test_tui.py``): the end-of-hand summary stays through the next hand's contract
and doubles until a key (Esc too) or the next card."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable

from prompt_toolkit.application import create_app_session
from prompt_toolkit.formatted_text import fragment_list_to_text as text
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from client import Connection
from client.columns import width
from client.tui.app import TuiApp
from client.tui.barbu_screen import BarbuScreen, match_end_lines, side_lines
from client.tui.events import event_text
from client.tui.lobby_screen import FORM_ROWS, LobbyScreen, TableForm, field_help, form_lines, lobby_lines
from client.tui.model import Model, TableModel
from client.tui.solitaire_screen import deal_text
from client.tui.solitaire_words import hint_words, moved_text, refusal_words
from engine.cards import SEATS
from server import BarbuServer
from tests.conftest import Connect, server_table, until
from tests.test_tui import (
    DOWN,
    ENTER,
    on_screen,
    opened_solitaire,
    opened_table,
    running_tui,
    screen_lines,
    seat_with_bots,
    started_tui,
    status,
)


async def play_first_legal_until(tui: TuiApp, done: Callable[[], bool], what: str, limit: float = 30) -> None:
    """Play this seat's first legal action at every turn (by the session, not keys) until ``done()``."""
    loop = asyncio.get_running_loop()
    end, acted = loop.time() + limit, -1
    while not done():
        assert loop.time() < end, f"timed out waiting for {what}"
        table = tui.model.table
        if table is not None and table.my_turn and table.seq != acted and not done():
            acted = table.seq
            await tui.session.act(dict((table.view or {})["legal"][0]))
        await asyncio.sleep(0.01)


async def _bots_but_the_first_declarer(server: BarbuServer, host: Connection, room: str) -> str:
    """``host`` puts bots in every seat of ``room`` but the match's first declarer's; returns that seat."""
    mine = SEATS[server_table(server, room).first_declarer]
    for seat in SEATS:
        if seat != mine:
            await host.add_bot(room, seat)
    return mine


async def test_the_summary_stays_through_the_next_contract_until_a_key(
    server: BarbuServer, connect: Connect
) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "sue") as (tui, pipe):
        table = await seat_with_bots(tui, pipe, server, helper, offset=1)  # a bot declares hands 1-7
        await play_first_legal_until(tui, lambda: table.summary is not None, "hand 1 scored", limit=90)
        await until(
            lambda: table.my_turn and (table.view or {}).get("hand_number") == 2, "sue's double in hand 2"
        )
        assert (table.view or {})["contract"]  # the bot chose hand 2's contract before
        await asyncio.sleep(0.3)
        assert table.showing_summary() and tui.barbu.choices(table)  # the menu beside the summary
        shown = " ".join(screen_lines(tui))
        assert "Hand 1 scored" in shown and "Double whom?" in shown
        pipe.send_text("\x1b")  # Esc: any key puts it away, with the dialog open too
        await until(lambda: not table.showing_summary(), "the summary put away by Esc")
        assert "Hand 2/28" in " ".join(screen_lines(tui))


async def test_the_turn_clock_counts_down_and_the_timers_move_is_said_as_such(
    server: BarbuServer, connect: Connect
) -> None:
    host = await connect(server, "host")
    room = await host.create_table("timed", turn_time=3)
    await host.watch(room)
    mine = await _bots_but_the_first_declarer(server, host, room)  # the timer chooses the contract for tia
    async with running_tui(server.url, "tia") as (tui, _pipe):
        await tui.sit(room, mine)
        await until(lambda: tui.model.table is not None and tui.model.table.my_turn, "tia's contract turn")
        await until(lambda: re.search(r"YOUR TURN \(contract\) \d+s", status(tui)) is not None, "the clock")
        await until(lambda: any("Time ran out: a bot chose" in line for line in tui.model.log), "the timer")
        said = next(line for line in tui.model.log if "Time ran out" in line)
        assert said.endswith("for you.") and not any(line.startswith("You chose") for line in tui.model.log)


async def test_the_server_marks_an_action_the_timer_played(server: BarbuServer, connect: Connect) -> None:
    host = await connect(server, "host2")
    room = await host.create_table("timed2", turn_time=1)
    mine = SEATS[server_table(server, room).first_declarer]
    await host.sit(room, mine)
    for seat in SEATS:
        if seat != mine:
            await host.add_bot(room, seat)
    loop = asyncio.get_running_loop()
    end = loop.time() + 10
    while True:
        push = await asyncio.wait_for(host.next_push(), max(end - loop.time(), 0.1))
        event = getattr(push, "event", None) or {}
        if event.get("event") == "contract-chosen":
            assert event.get("by") == "timer" and event["declarer"] == mine
        if event.get("event") == "doubled" and event["seat"] != mine:
            assert "by" not in event  # a server bot in its own seat acts for nobody
            break


async def test_your_turn_elsewhere_keeps_its_key_and_the_name_whole_where_it_fits(
    server: BarbuServer, connect: Connect
) -> None:
    host = await connect(server, "hal")
    name = "game 12-01 23:24:32"  # the name a table gets when none is typed
    own = await host.create_table(name)
    await host.watch(own)
    mine = await _bots_but_the_first_declarer(server, host, own)  # the contract is due at once, and waits
    async with running_tui(server.url, "una") as (tui, _pipe):
        await tui.sit(own, mine)
        await until(lambda: tui.model.table is not None and tui.model.table.my_turn, "una's contract turn")
        tui.show("lobby")
        assert f"your turn at {name} (contract): t" in screen_lines(tui)[0]  # room for it whole: not cut
        tui.open_solitaire("pyramid", seed=1)
        await until(lambda: tui.screen == "solitaire", "the solitaire room")
        top = screen_lines(tui)[0]
        assert "solitaire: Pyramid" in top and top.endswith("(contract): t") and width(top) <= 80, top


async def test_t_goes_back_to_the_seat_from_a_watched_table_whose_log_is_its_own(
    server: BarbuServer, connect: Connect
) -> None:
    host = await connect(server, "hal")
    own = await host.create_table("mine")
    await host.watch(own)
    mine = SEATS[server_table(server, own).first_declarer]  # una's contract is due at once, and waits
    for seat in SEATS:
        if seat != mine:
            await host.add_bot(own, seat)
    other_host = await connect(server, "ola")
    other = await other_host.create_table("theirs")
    await other_host.sit(other, "N")
    async with running_tui(server.url, "una") as (tui, pipe):
        await tui.sit(own, mine)
        await until(lambda: tui.model.table is not None and tui.model.table.my_turn, "una's contract turn")
        await tui.watch(other)
        await until(lambda: tui.model.table is not None and tui.model.table.room == other, "watching theirs")
        await until(lambda: "your turn at mine (contract): t" in status(tui), "the own turn on the top line")
        await host.chat(own, "at the held table")
        await other_host.chat(other, "at the watched table")
        await until(lambda: any("at the watched table" in line for line in tui.model.earlier()), "its chat")
        await until(lambda: any("at the held table" in line for line in tui.model.log), "the held table's")
        assert not any("at the held table" in line for line in tui.model.earlier())  # not in this log
        pipe.send_text("t")
        await until(
            lambda: tui.model.table is not None and tui.model.table.room == own and tui.screen == "table",
            "back at the seat",
        )
        table = tui.model.table
        assert table is not None and table.seat == mine and table.my_turn
        assert "YOUR TURN (contract)" in status(tui) and tui.model.own_table is None
        assert any("at the held table" in line for line in tui.model.earlier())
        assert not any("at the watched table" in line for line in tui.model.earlier())


def test_the_panel_says_contract_and_the_log_gives_the_hands_parts() -> None:
    table = TableModel(room="1", seat="S", state="playing", players={s: f"p{s}" for s in SEATS})
    table.view = {"contract_scores": {"S": -40}, "totals": {"S": -740}, "hand_number": 28}
    panel = text(side_lines(table, BarbuScreen()))
    assert "contract" in panel.splitlines()[1] and "hand" not in panel.splitlines()[1]
    event = {
        "event": "hand-scored",
        "hand_number": 28,
        "contract_scores": {"S": -40},
        "settlements": {"S": 5},
        "scores": {"S": -35},
    }
    assert "You scored -35 (contract -40, doubles +5)." in event_text(event, table)


async def test_dominoes_refusals_name_the_rule(server: BarbuServer, connect: Connect) -> None:
    helper = await connect(server, "helper")
    async with running_tui(server.url, "dot") as (tui, pipe):
        table = await seat_with_bots(tui, pipe, server, helper, offset=0)  # dot chooses Dominoes
        await until(lambda: table.my_turn and bool(tui.barbu.choices(table)), "the contract menu")
        pipe.send_text(DOWN * 6 + ENTER)
        await until(lambda: tui.barbu.stage == "rank", "the starting rank")
        pipe.send_text(ENTER)
        await until(lambda: (table.view or {}).get("contract") == "dominoes", "Dominoes")

        def unfit() -> list[str]:
            view = table.view or {}
            legal = {a.get("card") for a in view.get("legal") or []}
            return [c for c in view.get("hand") or [] if c not in legal]

        def can_play() -> bool:
            legal = (table.view or {}).get("legal") or []
            return table.my_turn and any(a.get("action") == "play" for a in legal)

        await play_first_legal_until(tui, lambda: can_play() and len(unfit()) > 0, "a card to refuse")

        pipe.send_text("p")
        await until(lambda: tui.model.notice == "You can play a card, so you may not pass.", "no pass")
        card = unfit()[0]
        pipe.send_text(":" + card.lower() + ENTER)
        await until(lambda: "does not fit a row" in tui.model.notice, f"the Dominoes rule {tui.model.notice}")


def test_small_things_a_newcomer_met() -> None:
    model = Model("ws://x")
    model.rooms = [
        {"room": "3", "kind": "barbu", "name": "game", "state": "over", "players": {}},
        {"room": "7", "kind": "barbu", "name": "game", "state": "waiting", "players": {}},
        {"room": "8", "kind": "barbu", "name": "solo", "state": "waiting", "players": {}},
    ]
    lobby = LobbyScreen()
    drawn = text(lobby_lines(model, lobby))
    assert "game #3" in drawn and "game #7" in drawn and "solo #" not in drawn  # alike names told apart
    lobby.move(model, -1)
    assert lobby.room == 0  # the list stops at its ends
    lobby.move(model, 5)
    assert lobby.room == 2
    lobby.picking = True
    lobby.move(model, -1)
    assert lobby.game == 0

    form = TableForm()
    for row in range(FORM_ROWS):  # every field, every value, has its line of help
        form.row = row
        for _ in range(8):
            drawn = text(form_lines(form))
            assert field_help(form) and max(width(line) for line in drawn.splitlines()) <= 80
            form.cycle(1)
            assert " ".join(field_help(form).split()) in " ".join(text(form_lines(form)).split())  # whole
    assert "Heart lead:        < as the rules >  (default)" in text(form_lines(TableForm()))  # not "seed"

    table = TableModel(room="1", seat="S", state="playing", players={s: f"p{s}" for s in SEATS})
    table.view = {"phase": "double", "to_move": "S", "declarer": "E", "doubles_owed": {"S": 0}}
    table.view["legal"] = [{"action": "double", "targets": []}]
    table.view["double_targets"] = ["E"]
    assert "You owe" not in text(side_lines(table, BarbuScreen()))
    table.view["doubles_owed"] = {"S": 2}
    assert "You owe E 2 more doubles" in text(side_lines(table, BarbuScreen()))

    over = TableModel(room="1", seat=None, state="over", players={s: f"p{s}" for s in SEATS}, rematch="9")
    over.view = {"phase": "over", "ranking": [["N"], ["E"], ["S"], ["W"]], "totals": {}}
    assert "Another match is open (room 9): w to watch it." in text(match_end_lines(over))
    assert "winnable (seed shown at the end)" in deal_text({"game": "klondike", "winnable": True})
    assert deal_text({"game": "klondike", "winnable": True, "daily": "2026-12-01"}).endswith("01, winnable")


def test_the_key_line_follows_the_decision_and_q_asks_before_quitting() -> None:
    with create_pipe_input() as pipe, create_app_session(input=pipe, output=DummyOutput()):
        tui = TuiApp("ws://127.0.0.1:1", name="ann")
        tui.screen = "table"
        tui.model.table = table = TableModel(room="1", seat="S", state="playing")
        table.view = {"phase": "double", "to_move": "S", "legal": [{"action": "double", "targets": []}]}
        assert "Space tick" in tui._key_hints()
        table.view = {"phase": "play", "to_move": "S", "legal": [{"action": "play", "card": "2C"}]}
        assert "Space" not in tui._key_hints() and "Enter play" in tui._key_hints()
        table.view = {"phase": "contract", "to_move": "S", "legal": [{"action": "contract"}]}
        assert "Enter choose" in tui._key_hints()


async def test_q_at_the_table_asks_then_quits(server: BarbuServer) -> None:
    async with started_tui(server.url, "quinn") as (tui, pipe):
        await until(lambda: tui.screen == "lobby", "the lobby")
        await opened_table(tui, "quitting")
        await until(lambda: tui.screen == "table", "the table")
        assert 'Table "quitting" is open' in " ".join(tui.model.log)
        pipe.send_text("q")
        await until(lambda: tui.pending is not None and "Quit barbu?" in tui.question, "the question")
        pipe.send_text("n")
        await until(lambda: tui.pending is None, "answered no")
        assert not tui.app.is_done
        pipe.send_text("q")
        await until(lambda: tui.pending is not None, "asked again")
        pipe.send_text("y")
        await until(lambda: not tui.app.is_running, "quit")


def test_solitaire_moves_refusals_and_hints_in_peoples_words() -> None:
    assert (
        refusal_words("t2>t5: 8H does not go on 8H: columns build down in the same suit (column-build)")
        == "Not allowed: column 2 → column 5: 8♥ does not go on 8♥: columns build down in the same suit."
    )
    assert refusal_words("p7.4+p7.6: AH and 9C total 10, not 13 (not-thirteen)") == (
        "Not allowed: pair row 7, card 4 with row 7, card 6: A♥ and 9♣ total 10, not 13."
    )
    assert (
        refusal_words("no safe move to the foundations (no-safe-move)") == "No safe move to the foundations."
    )
    assert refusal_words("w>f: TC does not go on 8C (foundation-build)").startswith(
        "Not allowed: the waste → a foundation: 10♣"
    )
    assert moved_text("s") == "Turned the stock." and moved_text("t3>f2") == "Moved column 3 → foundation 2."
    assert moved_text("t1>t4*3") == "Moved column 1 → column 4 (3 cards)."
    assert hint_words("sure", "s") == "Hint: turn the stock (d) - a sure win: keep following the hints."
    assert (
        hint_words("guess", "w")
        == "No sure win found; a reasonable move: remove the king at the waste (Enter)."
    )


async def test_a_refused_solitaire_move_reads_in_words_and_no_clears_it(server: BarbuServer) -> None:
    async with running_tui(server.url, "sol") as (tui, pipe):
        screen = await opened_solitaire(tui, "forty-thieves")  # the day's deal: x asks first
        await until(lambda: bool(screen.room.legal()), "the deal")
        pipe.send_text(":t1>t1" + ENTER)  # refused by the server: a column onto itself
        await until(
            lambda: screen.message.startswith("Not allowed: column 1 → column 1"), f"{screen.message}"
        )
        assert "(" not in screen.message.split(":", 2)[-1] or "-" not in screen.message  # no rule id
        pipe.send_text("d")
        await until(lambda: screen.message.startswith("Turned the stock"), f"the stock {screen.message}")
        await until(lambda: screen.room.state().get("moves") == 1, "the deal in play")
        pipe.send_text("x")
        await until(lambda: tui.pending is not None, "give it up?")
        pipe.send_text("n")
        await until(lambda: tui.pending is None, "answered no")
        assert screen.message == "Cancelled." and not on_screen(tui, "Not allowed")
        said = [place for _, place, line in tui.model.entries if "t1>t1" in line]
        assert said and set(said) == {"solitaire"}  # never in a Barbu table's log
