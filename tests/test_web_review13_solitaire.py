"""The solitaires after the review of issue 9, in Debian's Chromium against a real server: in the Forty
Thieves family a foundation is no move's source (not selected, and said so when clicked) unless the game is
played with the option that takes its top card back; a lost game's hint tells a deal lost from the start
from one the moves lost, saying how many to undo. Skipped, naming the package, when Chromium is not
installed."""

from __future__ import annotations

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.test_web_browser import OpenPage, _solitaire_deal, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

#: Makes the page's random deal seed 81 (``randomSeed`` in ``solitaire_picker.js``): Pyramid 81 is
#: winnable, and lost once its stock is turned five times.
SEED_81 = (
    "crypto.getRandomValues = (words) => { words.fill(0); words[words.length - 1] = 81; return words; };"
)
STAYS = "Cards on a foundation stay there."
FOUNDATION_BACK = "Cards back from a foundation"


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


async def test_a_hint_says_how_many_moves_to_undo_when_the_moves_lost_the_game(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """Pyramid 81, winnable, is lost by five turns of the stock: the hint says so and that undoing one move
    gets back to a position that can be won; after that undo the hint is a move again."""
    page = await open_page()
    await page.add_init_script(SEED_81)
    await _solitaire_deal(page, server.share_url, "lou", "pyramid")
    for turned in range(1, 6):
        await page.click(".stock[data-pile=s]")
        await page.wait_for_selector(f"text={turned} move{'s' if turned > 1 else ''} ·")
    await page.click("text=Hint")
    said = "Your moves lost this game: undo 1 move to get back to a position that can be won, or play it out."
    await page.locator(".message-line .verdict", has_text=said).wait_for(timeout=10_000)
    await page.click("text=Undo")
    await page.wait_for_selector("text=4 moves ·")
    await page.click("text=Hint")
    await page.locator(".message-line .hint", has_text="Hint: ").wait_for(timeout=10_000)
