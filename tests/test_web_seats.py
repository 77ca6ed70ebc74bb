"""The browser client and the seats of a waiting table, in Debian's Chromium against a real server: the host
removes a player who never lets the match start (after confirming), and the removed player's page says so
and shows the table as a watcher. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

from typing import Any

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import until
from tests.test_web_browser import OpenPage, _host_table, _login, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def test_the_host_removes_a_player_after_confirming_and_the_player_is_told(
    server: BarbuServer, open_page: OpenPage
) -> None:
    host = await open_page()
    room, table = await _host_table(host, server, "hostess", "friday")
    griefer = await open_page()
    await _login(griefer, f"{server.share_url}#table={room}", "griefer")
    await griefer.click("[data-focus=sit-E]")
    await until(lambda: table.seats[1].owner == "griefer", "the griefer to sit at E")
    assert await griefer.locator("[data-focus^=unseat-]").count() == 0  # only the host removes players
    await host.wait_for_selector("[data-focus=unseat-E]")
    asked: list[str] = []

    async def answer(dialog: Any) -> None:
        asked.append(dialog.message)
        await (dialog.accept() if len(asked) > 1 else dialog.dismiss())

    host.on("dialog", answer)
    await host.click("[data-focus=unseat-E]")  # asked, and answered no: nothing happens
    await until(lambda: len(asked) == 1, "the question")
    assert "Remove griefer" in asked[0] and table.seats[1].owner == "griefer"
    await host.click("[data-focus=unseat-E]")
    await until(lambda: table.seats[1].owner is None, "the seat freed")
    await griefer.wait_for_selector("text=hostess removed you from this table")
    await until(lambda: any(p.player == "griefer" for p in table.spectators), "the griefer watching")
