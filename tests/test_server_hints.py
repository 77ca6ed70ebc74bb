"""Hints through the real server: worked out in the worker pool (never in the event loop), one at a time per
player (``busy``), cancelled when the player leaves, following the kept winning line to a win, and saying
plainly when a game is lost."""

from __future__ import annotations

import asyncio

import pytest

from client import Connection
from client.connection import ServerError
from protocol import Hint
from server import BarbuServer
from tests.conftest import Connect, StartServer, until


async def test_pressing_hint_repeatedly_wins_over_the_server(server: BarbuServer, connect: Connect) -> None:
    ann = await connect(server, "ann")
    for game, options, seed in [("bakers-dozen", {}, 2), ("pyramid", {"draw": 3}, 2)]:
        room = (await ann.open_solitaire(game, options, seed)).room
        assert server.workers is not None
        searches = server.workers.finished
        while True:
            hint = await ann.hint(room)
            assert hint.status == "sure" and hint.move is not None
            await ann.move(room, hint.move)
            view = (await ann.snapshot(room)).view
            assert view is not None
            if view["result"] is not None:
                break
            assert hint.seq + 1 == (await ann.snapshot(room)).seq
        assert view["result"] == "won"
        assert server.workers.finished == searches + 1, "one search; the room kept its winning line"


async def test_a_hint_is_worked_out_off_the_loop_and_one_at_a_time(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server(hint_budget=1.0)
    ann = await connect(server, "ann")
    room = (await ann.open_solitaire("forty-thieves", {}, 1)).room  # the solver finds no win in 1 s
    first = asyncio.create_task(ann.hint(room))
    await asyncio.sleep(0)
    with pytest.raises(ServerError) as busy:
        await ann.hint(room)
    assert busy.value.code == "busy"
    await ann.snapshot(room)  # answered while the hint is being worked out: the connection is not held up
    assert not first.done()
    hint = await first
    assert hint.status == "guess" and hint.move is not None and hint.seq == 0


async def test_leaving_cancels_the_hint(start_server: StartServer, connect: Connect) -> None:
    server = await start_server(hint_budget=5.0)
    assert server.workers is not None
    ann = await connect(server, "ann")
    room = (await ann.open_solitaire("forty-thieves", {}, 1)).room
    asked = asyncio.create_task(ann.hint(room))
    await until(lambda: server.workers is not None and server.workers.running == 1, "the hint to run")
    await ann.leave(room)
    with pytest.raises(ServerError) as left:
        await asked
    assert left.value.code == "not-your-room"
    assert server.workers.pending("player:ann") == 0
    await until(lambda: server.workers is not None and server.workers.running == 0, "the worker to be freed")


async def test_a_lost_game_says_so(server: BarbuServer, connect: Connect) -> None:
    ann: Connection = await connect(server, "ann")
    room = (await ann.open_solitaire("pyramid", {}, 1)).room
    hint: Hint = await ann.hint(room)
    assert (hint.status, hint.move) == ("lost", None)
    await ann.move(room, "s")  # a move made: the deal was lost all the same, and the hint says so
    hint = await ann.hint(room)
    assert (hint.status, hint.from_start, hint.undo) == ("lost", True, None)


async def test_a_lost_hint_says_how_many_moves_lost_it(server: BarbuServer, connect: Connect) -> None:
    """Pyramid 81 is winnable, and lost after five turns of the stock: the hint says to undo one move, also
    when it is asked again (from the positions kept)."""
    ann: Connection = await connect(server, "ann")
    room = (await ann.open_solitaire("pyramid", {}, 81)).room
    for _ in range(5):
        await ann.move(room, "s")
    for _ in range(2):
        hint: Hint = await ann.hint(room)
        assert (hint.status, hint.from_start, hint.undo) == ("lost", False, 1)
