"""What a won solitaire says, in Debian's Chromium: Pyramid is won with the pyramid cleared, cards left in
the stock and waste or not (docs/rules/solitaire.md), so it says so rather than "every card is home".
Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.web_pages import OpenPage, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]

#: The words of a won Pyramid (16 cards left in stock and waste), a won Forty Thieves, a lost Pyramid.
RESULTS = """async () => {
  const { resultText } = await import('/js/solitaire.js');
  const pyramid = { pyramid: [[null]], stock: 10, waste: ['2H', '3H', '4H', '5H', '6H', '7H'] };
  return [
    resultText({ result: 'won', layout: pyramid }),
    resultText({ result: 'won', layout: { columns: [[]], foundations: [] } }),
    resultText({ result: 'lost', layout: pyramid }),
  ];
}"""


async def test_a_won_pyramid_says_the_pyramid_is_cleared(server: BarbuServer, open_page: OpenPage) -> None:
    page = await open_page()
    await page.goto(server.share_url)
    assert await page.evaluate(RESULTS) == [
        "You won: the pyramid is cleared!",
        "You won: every card is home!",
        "Lost: no move was left.",
    ]
