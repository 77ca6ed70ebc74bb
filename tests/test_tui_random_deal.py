"""A random solitaire deal opened from the terminal client (``r`` in the games list, ``n`` in a room) has its
seed chosen by the server, so a watcher does not see it before the game is over (``docs/protocol.md``: a
seed the player gave shows at once, one the server chose only at the end) and cannot lay out the deal with
``barbu solitaire deal``. Real server, real application driven through a pipe."""

from __future__ import annotations

from server import BarbuServer
from tests.conftest import Connect, until
from tests.test_tui import running_tui


async def test_a_random_deals_seed_is_hidden_from_a_watcher(server: BarbuServer, connect: Connect) -> None:
    wes = await connect(server, "wes")
    async with running_tui(server.url, "alice") as (tui, pipe):
        pipe.send_text("o")
        await until(lambda: tui.lobby.picking, "the games list")
        pipe.send_text("r")
        await until(lambda: tui.screen == "solitaire" and tui.model.solitaire is not None, "the random deal")
        first = tui.model.solitaire
        assert first is not None and not first.view.get("daily")
        watched = await wes.watch(first.room)
        assert watched.view is not None and watched.view.get("seed") is None  # hidden until it is over
        pipe.send_text("n")  # a new deal: chosen by the server too
        await until(lambda: tui.model.solitaire is not None and tui.model.solitaire is not first, "new deal")
        second = tui.model.solitaire
        assert second is not None
        again = await wes.watch(second.room)
        assert again.view is not None and again.view.get("seed") is None
        assert second.seed is None  # nothing chosen here to show
