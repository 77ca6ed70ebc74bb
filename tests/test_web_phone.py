"""The browser client on a 360-pixel phone, in Debian's Chromium against a real server: the solitaire board
stays put while a hint comes and goes (the line above it keeps room for a hint's words). Skipped, naming the package,
when Chromium is not installed."""

from __future__ import annotations

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.test_web_browser import PHONE_SCREEN, OpenPage, _login, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

#: The board's box, as drawn.
BOARD = (
    "() => { const r = document.querySelector('.layout').getBoundingClientRect(); return [r.top, r.height]; }"
)

#: The longest words a hint says (a run of 13 cards, two-digit columns; the guess's longer opening).
LONGEST_HINTS = [
    "Hint: no sure win found; a reasonable move: move 10♠ and the 12 cards on it from column 10 onto J♥ in "
    "column 13.",
    "Hint: move 10♠ and the 12 cards on it from column 10 onto J♥ in column 13 (following the hints wins this "
    "game).",
    "Hint: no sure win found; a reasonable move: remove 10♠ (pyramid row 7, card 7) and 3♥ (waste 3).",
]

#: Whether ``text`` shown as a hint in the line above the board fits the room kept for it.
FITS = """(text) => {
  const line = document.querySelector('.message-line');
  const kept = line.innerHTML;
  line.innerHTML = '<p class="hint"></p>';
  line.firstChild.textContent = text;
  const fits = line.getBoundingClientRect().height <= parseFloat(getComputedStyle(line).minHeight) + 0.5;
  line.innerHTML = kept;
  return fits;
}"""


async def test_on_a_phone_the_solitaire_board_stays_put_while_a_hint_comes_and_goes(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page(**PHONE_SCREEN)
    await _login(page, server.share_url, "thumbs")
    await page.wait_for_selector("#game")
    await page.select_option("#game", "forty-thieves")
    await page.click("text=Play a random deal")
    await page.wait_for_selector(".layout .column")
    before = await page.evaluate(BOARD)
    await page.click("[data-focus=hint]")
    hint = page.locator(".message-line .hint")
    await hint.wait_for(timeout=30000)
    assert (await hint.inner_text()).startswith("Hint: ")
    assert await page.evaluate(BOARD) == before, "the board moved when the hint came"
    await page.locator("[data-pile=t2]").last.click()  # the next tap: the hint gives way to the move's line
    assert "now tap where it goes" in await page.inner_text(".message-line")
    assert await page.evaluate(BOARD) == before, "the board moved when the hint went"
    await page.locator("[data-pile=t2]").last.click()  # the same pile again: the move is dropped
    assert await page.evaluate(BOARD) == before
    for words in LONGEST_HINTS:  # whatever the deal, a hint's words fit the room kept
        assert await page.evaluate(FITS, words), words
