"""The terminal client at a Barbu match that waits for its players (none of them connected: the server pauses
it, ``docs/protocol.md`` "A table nobody is at waits"): a watcher reads that it is paused and why, in the
table's panel and its news, the lobby lists it as paused, and the news says when it goes on. Real server,
real application driven through a pipe."""

from __future__ import annotations

from client.tui.app import TuiApp
from client.tui.barbu_screen import away_lines, side_lines
from client.tui.lobby_screen import room_state
from client.tui.model import TableModel
from client.tui.session import seat_notices
from protocol import Players
from server import BarbuServer
from tests.conftest import Connect, drop, playing_with_bots, until
from tests.test_tui import on_screen, running_tui, text

PAUSED = "Paused: none of the players is connected; play goes on when one comes back."


def test_a_paused_table_is_said_in_the_panel_the_news_and_the_lobby() -> None:
    players = {"N": "ann", "E": "bot:heuristic", "S": "bob", "W": "bot:heuristic"}
    table = TableModel(room="1", state="playing", players=players, away=["S"])
    paused = Players(room="1", state="playing", players=players, away=["N", "S"], paused=True)
    assert seat_notices(table, paused, "viv") == [
        "The table is paused: none of its players is connected. It goes on when one comes back."
    ]
    table.take_players(paused)
    assert away_lines(table) == [PAUSED]
    back = Players(room="1", state="playing", players=players, away=["S"])
    assert seat_notices(table, back, "viv") == ["The table goes on: a player is back.", "N ann is back."]
    table.take_players(back)
    assert away_lines(table) == []
    summary = {"kind": "barbu", "state": "playing", "hand_number": 3}
    assert room_state(summary) == "hand 3/28" and room_state({**summary, "paused": True}) == "paused"


def _panel_says(tui: TuiApp, words: str) -> bool:
    """Whether the table's side panel, as drawn, says ``words`` (wrapped there: read it joined up), and the
    screen shows that panel."""
    table = tui.model.table
    if table is None or tui.screen != "table":
        return False
    panel = " ".join(text(side_lines(table, tui.barbu)).split())
    return words in panel and on_screen(tui, words[:30])


async def test_a_watcher_sees_the_table_pause_and_go_on(server: BarbuServer, connect: Connect) -> None:
    ann = await connect(server, "ann")
    room, _ = await playing_with_bots(server, ann, "lights out", turn_time=60)
    async with running_tui(server.url, "viv") as (tui, _pipe):
        await tui.watch(room)
        await until(lambda: tui.model.table is not None and tui.model.table.view is not None, "watching")
        token = await drop(server, ann)
        await until(lambda: _panel_says(tui, PAUSED), "the panel to say the table is paused")
        watched = tui.model.table
        assert watched is not None and watched.turn_clock() == ""  # the server's clock stands still
        assert not any("the timer plays" in line for line in away_lines(watched))
        assert any("The table is paused" in line for line in tui.model.log)
        back = await connect(server)
        await back.resume(token)
        await until(lambda: not _panel_says(tui, PAUSED), "the panel to drop it")
        await until(lambda: watched.turn_clock() != "" or watched.seq > 0, "the clock again, or a move")
        assert any("The table goes on" in line for line in tui.model.log)


def test_the_turn_clock_is_hidden_while_paused() -> None:
    players = {"N": "ann", "E": "bot:heuristic", "S": "bob", "W": "bot:heuristic"}
    table = TableModel(room="1", state="playing", players=players, away=["S"])
    table.view = {"to_move": "S", "phase": "play"}
    table.standin_at = {"S": 10_000.0}
    table.turn_left(3000)
    assert table.turn_clock() == "3s"
    table.take_players(Players(room="1", state="playing", players=players, away=["N", "S"], paused=True))
    assert table.turn_clock() == "" and not any("timer" in line for line in away_lines(table))
