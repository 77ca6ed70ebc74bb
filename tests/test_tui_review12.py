"""A fresh review of the terminal client's whole match (issue 10) found: a table whose four seats are taken
but whose player is away said "The match starts when all four seats are taken", and stayed so for as long
as they were away; and ``b`` on a solitaire room's row answered with the server's protocol words ("does not
take add-bot"). Now the table says whom it waits for, and ``b``/``f`` on a solitaire row say what bots are for,
before anything is sent."""

from __future__ import annotations

from client import Connection
from client.tui.barbu_screen import BarbuScreen, hand_line, waiting_for
from client.tui.model import TableModel
from server import BarbuServer
from tests.conftest import until
from tests.test_tui import running_tui
from tests.test_tui_review5 import notice_line
from tests.test_tui_table import text


def test_a_full_table_with_a_player_away_says_whom_it_waits_for() -> None:
    players = {"N": "ann", "E": "bob", "S": "bot", "W": "bot, random"}
    host = TableModel(room="1", seat="N", me="ann", host="ann", players=players, away=["E"])
    assert waiting_for(host) == "The match starts when E bob is back (k removes a player)."
    assert text(hand_line(host, BarbuScreen())) == waiting_for(host)
    guest = TableModel(
        room="1", seat="W", me="cat", host="ann", players={**players, "W": "cat"}, away=["E", "S"]
    )
    assert waiting_for(guest) == "The match starts when E bob and S bot are back."
    free = TableModel(room="1", seat="N", me="ann", host="ann", players={**players, "W": None}, away=["E"])
    assert waiting_for(free) is None  # a seat is free: the usual sentence
    assert "all four seats are taken" in text(hand_line(free, BarbuScreen()))
    assert waiting_for(TableModel(room="1", seat="N", me="ann", host="ann", players=players)) is None


async def test_b_on_a_solitaire_row_says_bots_are_for_barbu_tables(server: BarbuServer) -> None:
    other = await Connection.connect(server.url)
    await other.login("sol")
    await other.open_solitaire("pyramid", seed=3)
    async with running_tui(server.url, "kai") as (tui, pipe):
        await until(lambda: any(r.get("kind") == "solitaire" for r in tui.model.rooms), "the room listed")
        tui.lobby.room = next(i for i, r in enumerate(tui.model.rooms) if r.get("kind") == "solitaire")
        logged = tui.model.logged
        for key in "bf":
            pipe.send_text(key)
            said = f"{key} adds bots to a Barbu table: a solitaire room has only its player."
            await until(lambda said=said: notice_line(tui) == said, f"{key} on the solitaire row")  # type: ignore[misc]
        assert tui.model.logged == logged
    await other.close()
