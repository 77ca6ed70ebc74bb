"""The browser client after a third review of whole hands played as a desktop host and a phone friend, in
Debian's Chromium against a real server: an offer's "Sit again" survives a redraw between the press and the
release of a click; coming back says what happened to every seat held; a stand-in's plays are told; the seat
marks follow the turn; the folded results are reachable; plain error words; bots for some seats only; and
small things (the address after a log out, the host's buttons, the score box, a resigned solitaire). Skipped,
naming the package, when Chromium is not installed."""

from __future__ import annotations

import pytest

from client import Connection
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, until, until_dropped
from tests.test_web_browser import OpenPage, _host_table, _table, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def test_sit_again_lands_though_a_push_redraws_the_table_mid_click(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """The host's seat at a waiting table was freed while away: a real click on "Sit again" (press, then a
    `players` push redraws the table, then release) sits them again."""
    server = await start_server(grace=0.5)
    lobby = server.lobby
    assert lobby is not None
    page = await open_page()
    room, table = await _host_table(page, server, "ann", "saturday")
    await lobby.online["ann"].ws.close(1011, "the phone switched app")
    await until(lambda: table.seats[0].owner is None, "the seat freed after the grace")
    sit = page.locator(".offer button:has-text('Sit again')")
    await sit.wait_for()
    box = await sit.bounding_box()
    assert box is not None
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await page.mouse.down()
    # A redraw while the button is pressed: a friend sits down (a `players` push, then a snapshot).
    await page.evaluate("document.querySelector('.felt').dataset.old = '1'")
    bob = await Connection.connect(server.url)
    await bob.login("bob")
    await bob.sit(room, "E")
    await page.wait_for_function("!document.querySelector('.felt').dataset.old")
    await page.mouse.up()
    await until(lambda: table.seats[0].owner == "ann", "seated again by the click")
    await page.locator(".offer").wait_for(state="detached")
    await bob.close()


async def test_back_at_a_seat_in_play_says_a_waiting_seat_elsewhere_was_freed(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """ann holds a seat in play at "friday" and one at waiting table "saturday"; away past the grace, she
    opens the bare address: she lands at friday, told that her seat at saturday was freed, with a button
    there that offers to sit again."""
    server = await start_server(grace=0.5, bot_delay=0.05)
    page = await open_page()
    friday, playing = await _host_table(page, server, "ann", "friday")
    for seat in "ESW":
        await page.click(f"[data-focus=bot-{seat}]")
    await until(lambda: playing.state == "playing", "friday's match to start")
    await page.click("text=Lobby")
    await page.wait_for_selector("#table-name")
    await page.fill("#table-name", "saturday")
    await page.click("text=Create and sit down")
    await page.wait_for_selector("[data-focus^=bot-]")
    saturday = page.url.rpartition("=")[2]
    waiting = _table(server, saturday)
    context = page.context
    await page.close()
    await until_dropped(server, "ann")
    await until(lambda: all(seat.owner != "ann" for seat in waiting.seats), "saturday's seat freed")
    page = await context.new_page()
    await page.goto(server.share_url)
    news = page.locator(f"#news [data-freed='{saturday}']")
    await news.wait_for()
    assert page.url.endswith(f"#table={friday}")
    assert "Your seat at table “saturday” (North) was freed after 1 s away." in await news.inner_text()
    await news.locator("button:has-text('sit again')").click()
    await page.locator(".offer button:has-text('Sit again')").click()
    await until(lambda: waiting.seats[0].owner == "ann", "seated again at saturday")
    assert await page.locator("#news [data-freed]").count() == 0
