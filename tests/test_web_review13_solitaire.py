"""The solitaires after the review of issue 9, in Debian's Chromium against a real server: in the Forty
Thieves family a foundation is no move's source (not selected, and said so when clicked) unless the game is
played with the option that takes its top card back. Skipped, naming the package, when Chromium is not
installed."""

from __future__ import annotations

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.test_web_browser import OpenPage, _solitaire_deal, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

STAYS = "Cards on a foundation stay there."
FOUNDATION_BACK = "the top card of a foundation may go back to a column (PySolFC)"


async def test_a_forty_thieves_foundation_is_not_a_source(server: BarbuServer, open_page: OpenPage) -> None:
    """A click on a foundation selects nothing and says its cards stay there; with the option that takes a
    foundation's top card back to a column, it is selected as a source as before."""
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "forty", "forty-thieves")
    await page.click(".foundations [data-pile=f1]")
    await page.locator(".message-line", has_text=STAYS).wait_for(timeout=5_000)
    assert await page.locator(".solitaire-screen .pick").count() == 0

    await page.click("text=Lobby")
    await page.wait_for_selector("#game")
    await page.select_option("#game", "forty-thieves")
    await page.get_by_label(FOUNDATION_BACK).select_option(index=1)
    await page.click("text=Play a random deal")
    await page.wait_for_selector(".layout")
    await page.click(".foundations [data-pile=f1]")
    await page.locator(".message-line", has_text="Moving from foundation 1").wait_for(timeout=5_000)


