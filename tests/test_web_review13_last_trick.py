"""The browser client after the review of issue 9 (its part e), in Debian's Chromium against a real server: the
last trick of a hand is seen, beside the hand's summary ("Last trick of hand 1"), which comes at once; a
watcher's page does not scroll itself at the end of a hand. Skipped, naming the package, when Chromium is not
installed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from playwright.async_api import Page

from engine.cards import SEATS, card_text
from server import BarbuServer
from server.barbu_table import BarbuTable
from tests.browser import MISSING, chromium_found
from tests.conftest import four_seated, until
from tests.test_web_browser import (
    PHONE_SCREEN,
    SEAT_NAMES,
    OpenPage,
    _drive,
    _first_choice,
    _login,
    browser,
    open_page,
    stop_driving,
)

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

#: Kept in the page every 40 ms, when it changed: the trick on the felt (its cards, its caption; its height
#: when nothing is led), the last trick's heading and cards, whether a summary is shown, how far the page is
#: scrolled, where the felt ends and the hand begins.
WATCH = """() => {
  window.seen = [];
  let last = '';
  setInterval(() => {
    const trick = [...document.querySelectorAll('.trick .card')].map((card) => card.dataset.card);
    const caption = (document.querySelector('.trick .caption') || {}).textContent || '';
    const lastTrick = [...document.querySelectorAll('.last-trick h3')].map((el) => el.textContent);
    const lastCards = [...document.querySelectorAll('.last-trick .card')].map((card) => card.dataset.card);
    const box = (selector) => { const el = document.querySelector(selector); return el ? el.getBoundingClientRect() : null; };
    const empty = box('.trick.empty');
    const sample = { trick, caption, lastTrick, lastCards, summary: Boolean(document.querySelector('.summary')),
      scrolled: scrollY, where: document.querySelector('.where').textContent, empty: empty && empty.height,
      feltBottom: box('.felt').bottom, handTop: (box('.hand') || { top: innerHeight }).top,
      lastBottom: (box('.last-trick') || { bottom: null }).bottom, height: innerHeight };
    const key = JSON.stringify(sample);
    if (key !== last) { last = key; window.seen.push({ at: performance.now(), ...sample }); }
  }, 40);
}"""


def hand_number(table: BarbuTable) -> int:
    """The number of the hand being played at ``table`` (0 before the start)."""
    return table.match.hand_number if table.match is not None else 0


def _last_trick(table: BarbuTable) -> tuple[list[str], str]:
    """The cards of hand 1's last trick as the page names them, in play order, and its winner's seat name."""
    assert table.match is not None
    _, cards, winner = table.match.history[0].tricks[-1]
    return [card_text(c) for c in cards], SEAT_NAMES[SEATS[winner]]


async def _watch_hand_one(
    server: BarbuServer, page: Page, prefix: str, choose: Any = None
) -> tuple[list[dict[str, Any]], BarbuTable]:
    """Four drivers play hand 1 of a new table (as ``choose``, by default ``_drive``'s), and no more, while
    ``page`` watches it from the top of the page; what the page showed meanwhile (``WATCH``) up to 2.5 s after
    the hand ended, and the server's table."""
    conns, room, table = await four_seated(server, prefix, "last")
    await _login(page, f"{server.share_url}#table={room}", f"{prefix}watcher")
    await page.wait_for_selector(".felt")
    await page.evaluate(WATCH)
    # Hand 2 waits for its contract: nothing played in it takes the felt from hand 1's last trick.
    driver = asyncio.create_task(
        _drive(conns, room, table, choose or _first_choice, lambda: hand_number(table) >= 2)
    )
    try:
        await until(lambda: hand_number(table) >= 2, "hand 1 over", 60)
        await page.wait_for_timeout(2500)
        seen: list[dict[str, Any]] = await page.evaluate("window.seen")
    finally:
        await stop_driving(driver, conns)
    return seen, table


def _no_queens_first(view: dict[str, Any]) -> dict[str, Any]:
    """The drivers declare No queens in hand 1, else play as ``_first_choice``."""
    if view["phase"] == "contract" and view["hand_number"] == 1:
        return next(a for a in view["legal"] if a["contract"] == "no-queens")
    return _first_choice(view)


def _told_beside_summary(seen: list[dict[str, Any]], cards: list[str], winner: str) -> None:
    """From the first moment the page showed the hand's summary to the end of ``seen``, the last trick beside it
    was the hand's last, ``cards`` won by ``winner``: the summary did not wait for it, nor it for the summary."""
    shown = [sample for sample in seen if sample["summary"]]
    assert shown, seen[-8:]
    for sample in shown:
        assert f"Last trick of hand 1: won by {winner}" in sample["lastTrick"], sample
        assert sample["lastCards"] == cards, sample


@pytest.mark.parametrize("screen", ["desktop", "phone"])
async def test_the_last_trick_of_a_hand_is_told_beside_its_summary(
    server: BarbuServer, open_page: OpenPage, screen: str
) -> None:
    """A No tricks hand played to its 13th trick: the hand's summary comes at once (the next question is asked
    at once, and a player who answers it fast saw no results when the trick held the felt 1.5 s first), with
    "Last trick of hand 1: won by ..." and that trick's four cards beside it (they vanished with the hand);
    and the watcher's page stayed at its top all along (nothing scrolled it)."""
    page = await open_page(
        **(PHONE_SCREEN if screen == "phone" else {"viewport": {"width": 1280, "height": 800}})
    )
    seen, table = await _watch_hand_one(server, page, "l" if screen == "phone" else "k")
    cards, winner = _last_trick(table)
    assert len(cards) == 4
    _told_beside_summary(seen, cards, winner)
    assert all(sample["scrolled"] == 0 for sample in seen), [s["scrolled"] for s in seen]
    if screen == "desktop":  # in the side column above the summary, on screen (under it, cut by the window)
        assert all(s["lastBottom"] <= s["height"] for s in seen if s["summary"]), seen[-3:]


async def test_the_last_trick_of_a_hand_that_stops_early_is_seen(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A No queens hand stops once the last queen falls: the trick it fell in is shown beside the summary that
    says why the hand stopped."""
    page = await open_page()
    seen, table = await _watch_hand_one(server, page, "q", _no_queens_first)
    cards, winner = _last_trick(table)
    _told_beside_summary(seen, cards, winner)
