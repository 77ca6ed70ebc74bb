"""The browser client after a fourth review, in Debian's Chromium against a real server: two tabs of one
browser (one stored token) do not take the seat from each other forever; the tab taken over says so and
offers "Play here"; long names with no spaces never make a phone's page wider than its screen. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import pytest
from playwright.async_api import Page

from server import BarbuServer
from tests.browser import MISSING, PHONE, chromium_found
from tests.conftest import until
from tests.test_web_browser import OpenPage, _bot_table, _login, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

TAKEN = "This game is open in another tab or window."

# Counts the WebSockets a page opens, so that "it stopped retrying" is checked by count, not by a wait.
COUNT_SOCKETS = """
(() => {
  const Real = window.WebSocket;
  window.__sockets = 0;
  window.WebSocket = class extends Real {
    constructor(...args) { super(...args); window.__sockets += 1; }
  };
})();
"""


async def _sockets(page: Page) -> int:
    return int(await page.evaluate("window.__sockets"))


async def _taken_and_stays_put(page: Page) -> None:
    """``page`` was taken over: it says so, offers "Play here", and opens no new connection however long
    its timers run (the page's clock is run 60 s ahead, past every retry wait of a dropped connection)."""
    await page.wait_for_function(
        "(words) => document.querySelector('#taken p')?.textContent === words", arg=TAKEN
    )
    await page.locator("#play-here").wait_for()
    before = await _sockets(page)
    await page.clock.run_for(60_000)
    assert await _sockets(page) == before
    assert await page.locator("#taken p").text_content() == TAKEN


async def test_a_second_tab_takes_the_seat_and_the_first_stops_then_takes_it_back(
    server: BarbuServer, open_page: OpenPage
) -> None:
    first = await open_page()
    context = first.context
    await context.add_init_script(COUNT_SOCKETS)
    await first.clock.install()
    await _login(first, server.share_url, "twotabs")
    await first.wait_for_selector("#game")
    assert server.lobby is not None
    lobby = server.lobby
    await until(lambda: "twotabs" in lobby.online, "the first tab logged in")
    at_first = lobby.online["twotabs"]

    second = await context.new_page()  # same browser: same localStorage, so the same token
    await second.clock.install()
    await second.goto(server.share_url)
    await second.wait_for_selector("#game")
    await until(lambda: lobby.online.get("twotabs") not in (None, at_first), "the second tab resumed")
    at_second = lobby.online["twotabs"]

    await _taken_and_stays_put(first)
    assert lobby.online["twotabs"] is at_second
    assert await second.locator("#play-here").count() == 0

    await first.click("#play-here")  # take it back here: now the second tab is the one taken over
    await until(lambda: lobby.online.get("twotabs") not in (None, at_second), "the first tab took it back")
    await first.wait_for_function("document.getElementById('status').textContent === ''")
    assert await first.locator("#play-here").count() == 0
    await _taken_and_stays_put(second)
    assert lobby.online["twotabs"] is not at_second


async def _page_width(page: Page) -> int:
    return int(await page.evaluate("document.documentElement.scrollWidth"))


async def test_long_names_with_no_spaces_keep_the_phone_page_within_its_screen(
    server: BarbuServer, open_page: OpenPage
) -> None:
    long_name, table_name = "N" * 24, "W" * 40
    phone = {"viewport": PHONE, "is_mobile": True, "has_touch": True}
    host = await open_page(**phone)
    await _bot_table(host, server.share_url, long_name, table_name)
    assert await _page_width(host) <= PHONE["width"], "the table screen"
    visitor = await open_page(**phone)  # every visitor's lobby lists the table and its host
    await _login(visitor, server.share_url, "visitor")
    await visitor.get_by_text(table_name[:20], exact=False).first.wait_for()
    assert await _page_width(visitor) <= PHONE["width"], "the lobby"


async def test_a_request_lost_with_the_connection_says_so_and_the_reconnect_clears_it(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page()
    await page.clock.install()
    await _bot_table(page, server.share_url, "lossy", "lossy table")
    await page.clock.pause_at(await page.evaluate("Date.now()") + 1000)  # the retry waits until run_for
    assert server.lobby is not None
    lobby = server.lobby
    first = lobby.online["lossy"]
    await first.ws.close(1011, "going away for a test")
    await page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('Connection lost')", polling=50
    )
    await page.fill("[aria-label='chat message']", "hello")
    await page.click("text=Send")
    notice = page.locator(".notice")
    await notice.wait_for()
    assert await notice.text_content() == "Connection lost: trying again…"
    await page.clock.run_for(15_000)
    await until(lambda: "lossy" in lobby.online and lobby.online["lossy"] is not first, "the page to resume")
    await page.wait_for_function("() => document.getElementById('status').textContent === ''", polling=50)
    await notice.wait_for(state="detached")
