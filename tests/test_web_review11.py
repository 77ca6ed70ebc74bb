"""The browser client after an eleventh review, in Debian's Chromium against a real server: Pyramid refuses a
covered card at its first click, saying which card covers it, and picks nothing. Skipped, naming the
package, when Chromium is not installed."""

from __future__ import annotations

import pytest

from server import BarbuServer
from server.solitaire_room import SolitaireRoom
from tests.browser import MISSING, chromium_found
from tests.test_web_browser import OpenPage, _solitaire_deal, browser, open_page
from tests.test_web_review10 import _asked, _shown

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def test_pyramid_refuses_a_covered_card_at_its_first_click_and_picks_nothing(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A fresh deal's row 6 card is covered by row 7: clicking it says so at once, in the words of a refused
    pair ("Not allowed: 6♠ (row 6) is not exposed: J♥ (row 7) still covers it."), with no card picked and no
    move made; the next click is a first click again (it asks for the card making 13 with it)."""
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "covered", "pyramid")
    assert server.lobby is not None
    room = next(r for r in server.lobby.rooms.values() if isinstance(r, SolitaireRoom))
    rows = room.game.state()["pyramid"]

    await page.click("[data-pile='p6.6']")
    refusal = page.locator(".message-line .error")
    await refusal.wait_for()
    said = f"Not allowed: {_shown(rows[5][5])} (row 6) is not exposed: {_shown(rows[6][5])} (row 7) still covers it."
    assert await refusal.inner_text() == said
    assert await page.locator("[aria-pressed=true]").count() == 0, "the covered card was picked"
    assert room.game.moves == 0

    bottom = next((f"p7.{i + 1}", card) for i, card in enumerate(rows[6]) if card[0] != "K")
    await page.click(f"[data-pile='{bottom[0]}']")
    await page.locator(".message-line", has_text=_asked(bottom[1])).wait_for()
