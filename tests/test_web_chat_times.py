"""The table's chat in Debian's Chromium against a real server: each line heard says when (local HH:MM),
and on a phone, where the chat is below the hand, lines said while it is out of sight are marked in the
table's header until the player goes there. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import re

import pytest

from client import Connection
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.web_pages import PHONE_390, OpenPage, bot_table, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]

LOCAL_HHMM = "() => { const d = new Date(); return [d.getHours(), d.getMinutes()]; }"


async def test_a_chat_line_says_when_it_was_said(server: BarbuServer, open_page: OpenPage) -> None:
    page = await open_page()
    room = await bot_table(page, server.share_url, "ann", "talk", shown=".hand .card")
    wes = await Connection.connect(server.url)
    await wes.login("wes")
    await wes.watch(room)
    before = await page.evaluate(LOCAL_HHMM)
    await wes.chat(room, "good luck")
    line = page.locator(".chat-log li", has_text="good luck")
    await line.wait_for()
    after = await page.evaluate(LOCAL_HHMM)
    said = await line.inner_text()
    found = re.fullmatch(r"(\d\d):(\d\d) wes \(watching\) good luck", said)
    assert found, said
    assert [int(found[1]), int(found[2])] in (before, after)
    # A reload's snapshot has no time for a line said before the page came: it shows none.
    await page.reload()
    await line.wait_for()
    assert await line.inner_text() == "wes (watching) good luck"
    await wes.close()


async def test_on_a_phone_lines_said_out_of_sight_are_marked_until_read(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page(**PHONE_390)
    room = await bot_table(page, server.share_url, "pia", "talk", shown=".hand .card")
    await page.evaluate("() => window.scrollTo(0, 0)")
    assert not await page.evaluate("async () => (await import('/js/chat.js')).chatInView()")
    wes = await Connection.connect(server.url)
    await wes.login("wes")
    await wes.watch(room)
    await wes.chat(room, "hello")
    await wes.chat(room, "anyone?")
    mark = page.locator("[data-focus=chat-unread]")
    await page.wait_for_function("() => document.querySelectorAll('.chat-log li').length === 2")
    assert await mark.inner_text() == "Chat: 2 new lines"
    assert await mark.is_visible()
    await mark.click()
    await mark.wait_for(state="detached")
    assert await page.evaluate("() => document.activeElement.dataset.focus") == "chat"
    # The player's own line, and lines said with the chat on screen, are not marked.
    await page.fill("[data-focus=chat]", "here")
    await page.press("[data-focus=chat]", "Enter")
    await wes.chat(room, "hi pia")
    await page.locator(".chat-log li", has_text="hi pia").wait_for()
    assert await mark.count() == 0
    await wes.close()


async def test_a_desktop_shows_no_mark_beside_its_chat(server: BarbuServer, open_page: OpenPage) -> None:
    page = await open_page(viewport={"width": 1280, "height": 800})
    room = await bot_table(page, server.share_url, "dan", "talk", shown=".hand .card")
    wes = await Connection.connect(server.url)
    await wes.login("wes")
    await wes.watch(room)
    await wes.chat(room, "hello")
    await page.locator(".chat-log li", has_text="hello").wait_for()
    assert not await page.locator("[data-focus=chat-unread]").is_visible()
    await wes.close()
