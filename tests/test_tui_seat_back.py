"""The terminal client around a seat a bot plays, against a real server on loopback (fixtures in
``conftest.py``, helpers in ``test_tui.py``): the notice that a bot plays the seat goes once the player sits
there again, a player watching their own seat is told about it as about them, the key line says that any
key puts the end-of-hand summary away, and the player whose turn waits is warned before the idle hand-over
gives their seat to a stand-in."""

from __future__ import annotations

import re

from prompt_toolkit.input import PipeInput

from client.tui.app import KEY_HINTS, TuiApp
from client.tui.model import TableModel
from client.tui.session import seat_notices
from engine.cards import SEATS
from protocol import Players
from server import BarbuServer
from tests.conftest import Connect, StartServer, playing_with_bots, until
from tests.test_tui import on_screen, opened_table, running_tui, screen_lines
from tests.test_tui_match_review import offline_tui, scored_table
from tests.test_tui_review import play_first_legal_until


async def seat_given_to_a_bot(tui: TuiApp, pipe: PipeInput, name: str) -> str:
    """The terminal's player opens table ``name`` at seat E with three bots and, once the match plays, gives
    the seat to a bot (``x``, ``y``); returns the room id, the player in the lobby."""
    room = await opened_table(tui, name, "E")
    for seat in "NSW":
        await tui.session.add_bot(room, seat)
    await until(lambda: tui.model.table is not None and tui.model.table.state == "playing", "the start")
    pipe.send_text("x")
    await until(
        lambda: tui.pending is not None and "Give your seat to a bot?" in tui.question, "the question"
    )
    pipe.send_text("y")
    await until(lambda: tui.screen == "lobby" and "A bot now plays" in tui.model.notice, "the bot said")
    return room


async def test_the_bot_notice_goes_once_the_seat_is_taken_back(server: BarbuServer) -> None:
    async with running_tui(server.url, "gus") as (tui, pipe):
        room = await seat_given_to_a_bot(tui, pipe, "handover")
        said = "A bot now plays seat E at handover for you: sit there again"
        assert on_screen(tui, said)
        await tui.sit(room)  # Enter on its row in the lobby
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "at the table again")
        assert tui.model.table is not None and tui.model.table.seat == "E"
        assert not on_screen(tui, said)
        assert "You sit in seat E at handover again: the bot no longer plays it." in tui.model.notice


async def test_a_player_watching_their_own_seat_is_told_a_bot_plays_it(server: BarbuServer) -> None:
    async with running_tui(server.url, "gus") as (tui, pipe):
        room = await seat_given_to_a_bot(tui, pipe, "mine")
        await tui.watch(room)  # the snapshot lists no stand-ins: the next players push says a bot plays E
        said = "A bot plays your seat E now: sit there again from the lobby (l, then Enter on it)."
        await until(lambda: said in (tui.model.shown_notice(), *tui.model.earlier()), "told about them")
        assert not any("A bot plays for E" in line for _, _, line in tui.model.entries)


async def test_the_key_line_says_any_key_puts_the_summary_away() -> None:
    async with offline_tui() as (tui, pipe):
        play = [{"action": "play", "card": "2C"}]
        tui.model.table = scored_table(
            {"phase": "play", "contract": "barbu", "hand": ["2C", "3C"], "legal": play}
        )
        tui.show("table")
        assert tui.summary_up()
        assert screen_lines(tui)[-1].strip() == KEY_HINTS["table-summary"]
        assert "←→ card" not in screen_lines(tui)[-1]  # the arrows put the summary away, as any key does
        card = tui.barbu.card
        pipe.send_text("\x1b[D")  # Left
        await until(lambda: not tui.summary_up(), "the summary put away by Left")
        assert tui.barbu.card == card  # the cursor did not move: the key only put the summary away
        assert "←→ card" in screen_lines(tui)[-1]


async def test_the_player_is_warned_before_the_idle_hand_over(start_server: StartServer) -> None:
    server = await start_server(idle_turn=20)  # under the warning's 30 s: it shows from the turn's start
    async with running_tui(server.url, "dozy") as (tui, _pipe):
        room = await opened_table(tui, "drowsy", "N")
        for seat in "ESW":
            await tui.session.add_bot(room, seat)
        await until(lambda: tui.model.table is not None and tui.model.table.my_turn, "a turn", 30)
        warning = re.compile(r"A bot takes your seat in \d+ s unless you play\.")
        await until(lambda: warning.search(" ".join(screen_lines(tui))) is not None, "the warning")
        assert not any("A bot takes your seat" in line for _, _, line in tui.model.entries)  # never logged
        table = tui.model.table
        assert table is not None

        def passed_unwarned() -> bool:
            return not table.my_turn and warning.search(" ".join(screen_lines(tui))) is None

        await play_first_legal_until(tui, passed_unwarned, "the turn played, the warning gone")


def test_ones_own_seat_dropping_while_looked_at_is_said_as_about_them() -> None:
    players = {s: ("gus" if s == "E" else f"bot:{s}") for s in SEATS}
    table = TableModel(room="1", seat=None, state="playing", players=players, me="gus", turn_time=15)
    push = Players(room="1", state="playing", players=players, away=["E"], standin_in={"E": 42.0})
    assert seat_notices(table, push, "gus") == [
        "Your seat E is away: a bot plays it in 42 s (meanwhile the 15 s turn timer plays its turns)."
    ]


async def test_a_watcher_is_not_told_as_news_of_a_stand_in_already_playing(
    server: BarbuServer, connect: Connect
) -> None:
    """A watcher who comes while a stand-in plays ann's seat is not told "A bot plays for N ann now" (it
    played before they came; the panel marks the seat "(bot)"), but hears what changes after: "N ann is
    back." when she sits there again."""
    ann = await connect(server)
    await ann.login("ann")
    room, played = await playing_with_bots(server, ann, "standing")
    await ann.leave(room)  # during the match: a stand-in plays N at once
    await until(lambda: played.seats[0].left, "the stand-in")
    async with running_tui(server.url, "wes") as (tui, _):
        await tui.watch(room)
        await until(
            lambda: tui.model.table is not None and tui.model.table.seats_known, "the first players push"
        )
        table = tui.model.table
        assert table is not None and table.standins == ["N"]
        assert not any("A bot plays for" in line for _, _, line in tui.model.entries)
        await ann.sit(room, "N")
        await until(lambda: any("N ann is back." in line for _, _, line in tui.model.entries), "ann back")
