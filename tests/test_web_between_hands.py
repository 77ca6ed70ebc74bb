"""The browser client opened at a table between hands, in Debian's Chromium against a real server: it shows the
last hand's results, as the pages that saw the hand end do. Skipped, naming the package, when Chromium is not
installed."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest

from engine.cards import SEATS
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import four_seated
from tests.test_web_browser import (
    PHONE_SCREEN,
    SEAT_NAMES,
    OpenPage,
    _drive,
    _first_choice,
    _login,
    browser,
    open_page,
    seat_page,
    stop_driving,
)

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

#: The seats' totals row of the summary, as shown, in its columns' order.
TOTALS = """() => [...[...document.querySelectorAll('.summary tr')]
  .find((tr) => tr.querySelector('th').textContent === 'Total')
  .querySelectorAll('td')].map((td) => td.textContent)"""


class _HandOneOver(Exception):
    """Raised by the drivers' choice once hand 2 asks its first question: the drive stops there."""


def _hand_one_only(view: dict[str, Any]) -> dict[str, Any]:
    """Dominoes in hand 1, then ``_first_choice``; hand 2's first question stops the drive (``_HandOneOver``)."""
    if view["hand_number"] > 1:
        raise _HandOneOver
    if view["phase"] == "contract":
        return next(a for a in view["legal"] if a["contract"] == "dominoes")
    return _first_choice(view)


def _shown(total: int) -> str:
    return str(total).replace("-", "−")


async def test_a_page_opened_between_hands_shows_the_last_hands_results(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """Four players finish hand 1 (Dominoes) and hand 2 waits for its contract; a page opened at the table
    then shows hand 1's results from the snapshot's score sheet, as the pages that saw the hand end do: a
    watcher's open, with who went out first and the totals; the declarer's, on a phone in a second tab
    (asked the contract), folded to one line with their result and total."""
    conns, room, table = await four_seated(server, "r", "results")
    driver = asyncio.create_task(_drive(conns, room, table, _hand_one_only))
    try:
        with contextlib.suppress(_HandOneOver):
            await asyncio.wait_for(driver, 60)
        assert table.match is not None and table.match.hand_number == 2
        totals = dict(zip(SEATS, table.match.totals, strict=True))
        page = await open_page()
        await _login(page, f"{server.share_url}#table={room}", "dan")
        await page.locator(".summary h2:has-text('Hand 1: Dominoes')").wait_for(timeout=10_000)
        first = SEATS[table.match.history[0].finish_order[0]]
        assert (await page.inner_text(".summary .went-out")).startswith(
            f"{SEAT_NAMES[first]} (r{first.lower()})"
        )
        assert await page.evaluate(TOTALS) == [_shown(totals[s]) for s in SEATS]  # a watcher: N E S W

        declarer = SEATS[table.match.hand.declarer]
        phone = await seat_page(server, open_page, conns, declarer, **PHONE_SCREEN)
        line = phone.locator(".summary.folded > summary")
        await line.wait_for(timeout=10_000)
        assert (await line.inner_text()).startswith("Hand 1: you ")
        assert f"total {_shown(totals[declarer])}" in await line.inner_text()
    finally:
        with contextlib.suppress(_HandOneOver):
            await stop_driving(driver, conns)
