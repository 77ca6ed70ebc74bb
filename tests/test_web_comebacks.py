"""The browser client when its player is away and comes back, in Debian's Chromium against a real server: a
seat freed at a waiting table while away is said plainly, with a button to sit again; a seat a bot took from
an idle turn has a button that takes it back; a table none of whose players is connected says it is paused,
and goes on when one is back; and the address's hash names the table shown, after coming back by the bare
address or a reload, without a history entry to step back through. Skipped, naming the package, when
Chromium is not installed."""

from __future__ import annotations

import pytest

from client import Connection
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, drop, playing_with_bots, server_table, until, until_dropped
from tests.test_web_browser import (
    OpenPage,
    _bot_table,
    _host_table,
    _login,
    _open_table,
    browser,
    open_page,
)

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def test_the_host_back_after_the_grace_is_told_the_seat_was_freed_and_sits_again(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """The host of a waiting table drops (a phone switching app) past the grace: on the page's own resume,
    and later on opening the bare address again, the table says the seat was freed after so long away,
    once, with "Sit again"."""
    server = await start_server(grace=0.5)
    lobby = server.lobby
    assert lobby is not None
    page = await open_page()
    room, table = await _host_table(page, server, "ann", "friday")
    assert table.seats[0].owner == "ann"

    # The connection drops; the page resumes by itself a second later, the grace over.
    await lobby.online["ann"].ws.close(1011, "the phone switched app")
    await until(lambda: table.seats[0].owner is None, "the seat freed after the grace")
    offer = page.locator(".offer")
    await offer.wait_for()
    assert (
        "Your seat at table “friday” (North) was freed after 1 s away. Sit again?" in await offer.inner_text()
    )
    await page.click(".offer button:has-text('Sit again')")
    await until(lambda: table.seats[0].owner == "ann" and table.seats[0].peer is not None, "seated again")
    await offer.wait_for(state="detached")

    # Gone longer: the page closed, opened again later at the bare address.
    context = page.context
    await page.close()
    await until_dropped(server, "ann")
    await until(lambda: table.seats[0].owner is None, "the seat freed again")
    page = await context.new_page()
    await page.goto(server.share_url)
    await page.locator(".offer button:has-text('Sit again')").wait_for()  # brought to the table that says so
    assert page.url.endswith(f"#table={room}")
    assert "was freed after 1 s away" in await page.inner_text(".offer")
    await page.reload()  # said once: the table as it is now
    await page.wait_for_selector("[data-focus=sit-N]")
    assert await page.locator(".offer").count() == 0


async def test_a_seat_a_bot_took_from_an_idle_turn_has_a_button_to_take_it_back(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A turn left unplayed (``idle_turn``) hands the seat to a stand-in: the page says so with a button that
    takes the seat back, not "open this table again"."""
    server = await start_server(idle_turn=2.0, bot_delay=0.1)
    page = await open_page()
    room = await _bot_table(page, server.share_url, "dozy", "siesta", shown=".seat.bottom .who")
    table = server_table(server, room)
    index = next(i for i, seat in enumerate(table.seats) if seat.owner == "dozy")
    await until(lambda: table.seats[index].standin, "the idle turn handed to a stand-in", 60)
    seq = table.seq
    await until(lambda: table.seq > seq, "the stand-in to play the turn left idle")
    offer = page.locator(".offer")
    await offer.wait_for()
    assert "a bot now plays your seat" in await offer.inner_text()
    assert "open this table again" not in await page.inner_text("body")
    await page.click(".offer button:has-text('Take my seat back')")
    await until(lambda: not table.seats[index].standin and table.seats[index].peer is not None, "taken back")
    await page.wait_for_selector(".hand")
    assert page.url.endswith(f"#table={room}")


async def test_a_watcher_sees_a_table_nobody_is_at_paused_and_going_on(
    server: BarbuServer, open_page: OpenPage
) -> None:
    ann = await Connection.connect(server.url)
    await ann.login("ann")
    room, _ = await playing_with_bots(server, ann, "lights out")
    page = await open_page()
    await _login(page, f"{server.share_url}#table={room}", "dan")
    await page.wait_for_selector(".where:has-text('Hand 1 of')")
    assert await page.locator(".paused").count() == 0
    token = await drop(server, ann)
    paused = page.locator(".prompt .paused")
    await paused.wait_for()
    assert (await paused.inner_text()).startswith("Paused: nobody at the table.")
    assert "paused" in await page.inner_text(".where")
    await page.click("text=Lobby")
    card = page.locator(f"[data-room='{room}']")
    await card.locator("text=paused at hand 1 of 28: nobody at the table").wait_for()
    await card.locator("button:has-text('Watch')").click()
    await paused.wait_for()

    back = await Connection.connect(server.url)
    await back.resume(token)
    await paused.wait_for(state="detached")
    assert "paused" not in await page.inner_text(".where")
    await back.close()


async def test_the_address_names_the_table_shown_after_coming_back(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """Coming back by the bare address to a seat held lands on the table with ``#table=ID`` in the address,
    in place of the bare one (Back leads where the player was before, not to a copy of it without the
    hash), and a reload keeps it; a page with no hash shows the lobby as ``#lobby``."""
    page = await open_page()
    await _login(page, server.share_url, "homer")
    await page.wait_for_selector("#table-name")
    assert page.url.endswith("#lobby")
    room = await _open_table(page, "home")
    await page.click("text=Lobby")
    await page.wait_for_selector("#table-name")
    await page.goto(server.share_url)
    await page.wait_for_selector("[data-focus^=bot-]")
    assert page.url.endswith(f"#table={room}")
    await page.reload()
    await page.wait_for_selector("[data-focus^=bot-]")
    assert page.url.endswith(f"#table={room}")
    await page.go_back()
    await page.wait_for_selector("#table-name")
    assert page.url.endswith("#lobby"), page.url


async def test_the_bare_address_comes_back_to_the_table_shown_last(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A player seated at two tables comes back by the bare address to the one this browser showed last,
    not to the server's first; a solitaire room counts the same."""
    page = await open_page()
    await _login(page, server.share_url, "twofold")
    await page.wait_for_selector("#table-name")
    first = await _open_table(page, "first")
    await page.click("text=Lobby")
    await page.wait_for_selector("#table-name")
    second = await _open_table(page, "second")
    await page.click("text=Lobby")
    await page.wait_for_selector("#table-name")
    await page.goto(server.share_url)
    await page.wait_for_selector("[data-focus^=bot-]")
    assert page.url.endswith(f"#table={second}"), page.url
    await page.goto(f"{server.share_url}#table={first}")
    await page.wait_for_selector("[data-focus^=bot-]")
    await page.goto(f"{server.share_url}#lobby")
    await page.wait_for_selector("#table-name")
    await page.goto(server.share_url)
    await page.wait_for_selector("[data-focus^=bot-]")
    assert page.url.endswith(f"#table={first}"), page.url
