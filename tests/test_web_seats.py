"""The browser client and the seats of a waiting table, in Debian's Chromium against a real server: the host
removes a player who never lets the match start (after confirming), and the removed player's page says so
and shows the table as a watcher. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

from typing import Any

import pytest

from server import BarbuServer
from tests.browser import MISSING, PHONE, chromium_found
from tests.conftest import until
from tests.test_web_browser import PHONE_SCREEN, OpenPage, _host_table, _login, browser, open_page
from tests.web_pages import answer_ask

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
    await host.click("[data-focus=unseat-E]")  # asked, and answered no: nothing happens
    asked = await answer_ask(host, yes=False)
    assert "Remove griefer" in asked and table.seats[1].owner == "griefer"
    await host.click("[data-focus=unseat-E]")
    await answer_ask(host, yes=True)
    await until(lambda: table.seats[1].owner is None, "the seat freed")
    await griefer.wait_for_selector("text=hostess removed you from this table")
    await until(lambda: any(p.player == "griefer" for p in table.spectators), "the griefer watching")


#: The header's words: their text, width, and height in lines.
WHERE = """() => {
  const where = document.querySelector('.where');
  const box = where.getBoundingClientRect();
  return { text: where.innerText, width: box.width, lines: box.height / parseFloat(getComputedStyle(where).lineHeight) };
}"""


async def test_a_watcher_from_the_invite_link_on_a_phone_reads_the_header_across_the_screen(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """On a phone, a waiting table opened from its invite link: the header's words wrap across the screen's
    width (not a word or two a line beside the buttons), and they name the other watchers only, the viewer
    being "you are watching"."""
    host = await open_page()
    room, table = await _host_table(host, server, "hostess", "friday")
    carol = await open_page()
    await _login(carol, f"{server.share_url}#table={room}", "carol")
    await carol.wait_for_selector(".where:has-text('you are watching')")
    assert "watching: " not in await carol.inner_text(".where")  # nobody else watches yet
    bob = await open_page(**PHONE_SCREEN)
    await _login(bob, f"{server.share_url}#table={room}", "bob")
    await bob.wait_for_selector(".where:has-text('watching: carol')")
    where: dict[str, Any] = await bob.evaluate(WHERE)
    assert "you are watching" in where["text"] and "bob" not in where["text"], where
    assert where["width"] >= PHONE["width"] * 0.6 and where["lines"] <= 4.5, where
    await carol.wait_for_selector(".where:has-text('watching: bob')")
    assert "carol" not in await carol.inner_text(".where")
    await host.wait_for_function(  # the host, seated, is told of both
        "() => /watching: (bob, carol|carol, bob)$/.test(document.querySelector('.where').innerText)"
    )
    assert {p.player for p in table.spectators} == {"bob", "carol"}
