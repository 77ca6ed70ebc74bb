"""The browser client after the whole-hands review (issue 9b), in Debian's Chromium against a real server: a
hand that stops early says why; a finished match offers no seat back. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, server_table, until
from tests.test_web_browser import OpenPage, _bot_table, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


#: The words of a hand's open summary (table_score.js) for South: `contract`, its last trick `tricks`.
SUMMARY_TEXT = """async ([contract, tricks]) => {
  const { handSummary } = await import('/js/table_score.js');
  const snap = { seat: 'S', players: { N: 'bot:random', E: 'bot:random', S: 'sam', W: 'bot:random' }, view: null };
  const zero = { N: 0, E: 0, S: 0, W: 0 };
  const scored = {
    hand_number: 2, declarer: 'N', contract, tricks,
    contract_scores: zero, settlements: zero, scores: zero, totals: zero,
  };
  return handSummary(snap, scored, () => {}).textContent;
}"""


async def test_a_hand_that_stops_early_says_why(server: BarbuServer, open_page: OpenPage) -> None:
    """No queens, No hearts and Barbu stop once nothing is left to score: the hand's summary says what fell
    and in which trick; a hand of 13 tricks, or a contract that never stops early, says nothing of it."""
    page = await open_page()
    await page.goto(server.share_url)
    stopped = "the hand stopped there, with nothing left to score."
    text = await page.evaluate(SUMMARY_TEXT, ["no-queens", 8])
    assert f"The last queen fell in trick 8: {stopped}" in text, text
    assert f"The last heart fell in trick 11: {stopped}" in await page.evaluate(
        SUMMARY_TEXT, ["no-hearts", 11]
    )
    assert f"The king of hearts fell in trick 3: {stopped}" in await page.evaluate(SUMMARY_TEXT, ["barbu", 3])
    for contract, tricks in (("no-queens", 13), ("no-tricks", 13), ("no-queens", None)):
        assert "stopped" not in await page.evaluate(SUMMARY_TEXT, [contract, tricks])


async def test_a_match_that_ends_after_a_stand_in_took_the_seat_offers_no_seat_back(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A stand-in takes the seat of a turn left idle and plays the match to its end while its player is on the
    page: once the match is over there is no seat to take back, and the header says the match is over rather
    than calling the player a watcher of their own match."""
    server = await start_server(idle_turn=1.0)
    page = await open_page()
    room = await _bot_table(
        page, server.share_url, "dozy", "siesta", shown=".seat.bottom .who", bot_policy="random"
    )
    table = server_table(server, room)
    await page.locator(".offer button:has-text('Take my seat back')").wait_for(timeout=60_000)
    # 120 s: a whole match of 28 hands, on a CI machine shared with other runs.
    await until(lambda: table.state == "over", "the end", 120)
    await page.locator(".where:has-text('the match is over')").wait_for()
    assert "you are watching" not in await page.inner_text(".where")
    assert await page.locator(".offer").count() == 0
