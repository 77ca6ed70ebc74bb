"""The browser client while a stand-in bot plays the player's seat (a turn left idle), in Debian's Chromium
against a real server: the page stays the seat's page, not a watcher's. Skipped, naming the package, when
Chromium is not installed."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

import pytest
from playwright.async_api import Page

from engine.cards import SEATS
from server.barbu_table import BarbuTable
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, four_seated, until
from tests.test_web_browser import (
    OWN_TURN,
    PHONE_SCREEN,
    OpenPage,
    _drive,
    browser,
    open_page,
    play_own_turn,
    seat_page,
    stop_driving,
)

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

#: What the page clicks on its turns of hand 1: OWN_TURN, and a double the must-double rule requires.
HAND_ONE = (*OWN_TURN, ("[data-focus=submit-double]", "[data-focus=submit-double]"))


def _hand(table: BarbuTable, index: int) -> list[str]:
    """Seat ``index``'s unplayed cards, as the engine shows them to that seat, sorted."""
    assert table.match is not None
    return sorted(table.match.view(index)["hand"])


async def test_a_seat_a_stand_in_plays_stays_its_players_page(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A phone player plays hand 1, then leaves hand 2's first question (a double) unplayed past the idle
    time: while the stand-in plays for them, their page shows their own cards (and no other seat's), their
    seat at the bottom, their column first in the scores, hand 1's results still folded to one line while
    the stand-in is asked, and says a stand-in bot plays the seat, with the button that takes it back; never
    "you are watching". Gone to the lobby, it stops watching the table."""
    server = await start_server(idle_turn=4.0, bot_delay=3.0)
    conns, room, table = await four_seated(server, "i", "stand-in page")
    assert table.match is not None
    index = (table.match.hand.declarer + 1) % 4  # the first to double in hand 2 too (the same declarer)
    page = await seat_page(server, open_page, conns, SEATS[index], **PHONE_SCREEN)
    await page.wait_for_selector(".seat.bottom .who")
    driver = asyncio.create_task(_drive(conns, room, table))
    try:
        while table.match.hand_number == 1:
            await play_own_turn(page, HAND_ONE)
            await page.wait_for_timeout(40)
        await page.locator(".summary.folded").wait_for(timeout=20_000)  # asked to double: folded
        await until(lambda: table.seats[index].standin, "the idle seat handed to a stand-in")
        assert table.match.to_move == index  # the stand-in takes its time (bot_delay)
        await page.locator(".where:has-text('a stand-in bot plays your seat')").wait_for(timeout=2_000)
        assert "you are watching" not in await page.inner_text(".where")
        assert "(you)" in await page.inner_text(".seat.bottom .who")
        # Marked as the bot's seat, but not "away": its player is here, watching it.
        await page.locator(".seat.bottom .badge.away:has-text('a bot plays for you')").wait_for(timeout=5_000)
        shown = await page.eval_on_selector_all(
            ".hand [data-card]", "cards => cards.map((c) => c.dataset.card)"
        )
        assert sorted(shown) == _hand(table, index) and len(shown) == 13
        own = "[...document.querySelectorAll('.scores thead th')].findIndex((th) => th.classList.contains('own'))"
        assert await page.evaluate(own) == 1  # the first seat column, after the rows' heads
        assert await page.locator(".summary.folded").count() == 1
        assert await page.locator(".hand .playable").count() == 0
        assert "Take my seat back" in await page.inner_text(".offer")
        assert "Waiting for the stand-in bot playing your seat to double" in await page.inner_text(".prompt")

        # The stand-in plays on: the hand shown is the seat's as it goes.
        await until(lambda: len(_hand(table, index)) < 13, "the stand-in to play a card", 60)
        cards = "[...document.querySelectorAll('.hand [data-card]')].map((c) => c.dataset.card).sort().join()"
        await _until_shows(page, cards, lambda: ",".join(_hand(table, index)))
        # Gone to the lobby, the page stops watching; the table opened again takes the seat back (as the
        # offer's button does).
        await page.click("text=Lobby")
        await until(lambda: not table.spectators, "the page to stop watching")
        await page.goto(f"{server.share_url}#table={room}")
        await until(
            lambda: table.seats[index].peer is not None and not table.seats[index].standin, "taken back"
        )
        await page.locator(".where:has-text('a stand-in bot plays your seat')").wait_for(state="detached")
    finally:
        await stop_driving(driver, conns)


async def _until_shows(page: Page, script: str, expected: Callable[[], str], timeout: float = 20.0) -> None:
    """Wait until ``script`` evaluated in ``page`` gives ``expected()`` (the table moving on meanwhile)."""
    deadline = time.monotonic() + timeout
    while (shown := await page.evaluate(script)) != (wanted := expected()):
        assert time.monotonic() < deadline, (shown, wanted)
        await asyncio.sleep(0.05)
