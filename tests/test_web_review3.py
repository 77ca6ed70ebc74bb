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
from tests.conftest import StartServer, until
from tests.test_web_browser import OpenPage, _host_table, browser, open_page

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
