"""The table's layout at a laptop's 1280x800 in Debian's Chromium against a real server: the score box and a
hand's summary show every seat's column whole, and a box that scrolls can be scrolled from the keyboard; a
keyboard player's turn to follow brings the trick into view. Skipped, naming the package, when Chromium is
not installed."""

from __future__ import annotations

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.web_pages import OpenPage, bot_table, browser, mid_hand, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]

LAPTOP = {"width": 1280, "height": 800}

#: The score box and a hand's summary with four-digit scores, drawn in a table screen's side column: whether
#: each table lies whole inside its box, and whether a box whose content is larger is a tab stop.
WIDE_SCORES = """async () => {
  const { scorePanel, handSummary } = await import('/js/table_score.js');
  const big = { N: -1035, E: 1260, S: -1110, W: 885 };
  const snap = { seat: 'N', players: { N: 'ann', E: 'bot:heuristic', S: 'bot:heuristic', W: 'bot:heuristic' }, view: null };
  const view = { totals: big, contract_scores: { N: -130, E: -125, S: -110, W: -105 }, tricks_won: { N: 13, E: 0, S: 0, W: 0 },
    doubles: [], redoubles: [], contract: 'no-tricks' };
  const scored = { hand_number: 12, declarer: 'W', contract: 'no-tricks', contract_scores: view.contract_scores,
    settlements: { N: -120, E: 120, S: -110, W: 110 }, scores: { N: -250, E: -5, S: -220, W: 5 }, totals: big, finish_order: null };
  // Drawn in a table screen of their own at the page's foot, laid out as the live one (its grid, the side
  // column), which no push redraws meanwhile.
  const probe = document.createElement('main');
  const screen = probe.appendChild(document.createElement('div'));
  screen.className = 'table-screen';
  const side = screen.appendChild(document.createElement('div'));
  side.className = 'side';
  const boxes = [scorePanel(snap, view), handSummary(snap, scored, () => {})];
  side.append(...boxes);
  document.body.append(probe);
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return boxes.map((box) => {
    const edge = box.getBoundingClientRect();
    const table = box.querySelector('table').getBoundingClientRect();
    const style = getComputedStyle(box);
    const inner = edge.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
    return { box: box.className, whole: table.right <= inner + 0.5 && table.left >= edge.left,
      scrolls: box.scrollWidth > box.clientWidth + 1, tabStop: box.tabIndex === 0 };
  });
}"""


async def test_at_1280x800_the_score_box_and_summary_show_every_column(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page(viewport=LAPTOP)
    await bot_table(page, server.share_url, "ann", "wide", shown=".side .scores")
    boxes = await page.evaluate(WIDE_SCORES)
    assert all(box["whole"] and not box["scrolls"] for box in boxes), boxes


#: A score box made too narrow for its table: it scrolls, and is then a tab stop the arrow keys scroll.
NARROW_SCORES = """async () => {
  const narrow = new CSSStyleSheet();
  narrow.replaceSync('.side .scores { width: 8rem; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, narrow];
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const box = document.querySelector('.side .scores');
  return { scrolls: box.scrollWidth > box.clientWidth + 1, tabStop: box.tabIndex === 0 };
}"""


async def test_a_score_box_that_scrolls_is_scrolled_from_the_keyboard(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page(viewport=LAPTOP)
    await bot_table(page, server.share_url, "ann", "narrow", shown=".side .scores")
    # The seat's turn: nothing moves (no push redraws the score box) until the page acts.
    await page.wait_for_selector(".prompt .choice, .hand .playable, [data-focus=pass]")
    assert await page.evaluate(NARROW_SCORES) == {"scrolls": True, "tabStop": True}
    await page.focus(".side .scores")
    await page.keyboard.press("ArrowRight")
    # the browser scrolls smoothly: the box is scrolled once the scroll ends
    await page.wait_for_function("() => document.querySelector('.side .scores').scrollLeft > 0")
    await page.evaluate("() => { document.adoptedStyleSheets = []; }")
    await page.wait_for_function("() => !document.querySelector('.side .scores').hasAttribute('tabindex')")


TALL_SIDE = """() => {
  const tall = new CSSStyleSheet();
  tall.replaceSync('.side { min-height: 1600px; }');
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, tall];
}"""
#: The page scrolled to its foot (the chat, the scores), then whether the trick's top is above the window.
SCROLLED_DOWN = """() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  return document.querySelector('.felt .trick').getBoundingClientRect().top < 0;
}"""
TRICK_SHOWN = """() => {
  const trick = document.querySelector('.felt .trick').getBoundingClientRect();
  return trick.top >= 0 && trick.bottom <= innerHeight - document.querySelector('.hand').offsetHeight;
}"""


async def test_a_keyboard_player_in_the_hand_sees_the_trick_to_follow(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """At 1280x800 with a side column taller than the window (a hand's results and a long chat there: made
    so by a style sheet, whatever the hand's words), the page is scrolled down to its foot at the seat's
    turn to follow; Tab into the hand and the arrows along it bring the trick back into view above the
    hand."""
    page = await open_page(viewport=LAPTOP)
    await bot_table(page, server.share_url, "kim", "keys", shown=".hand .card")
    await mid_hand(page)
    await page.evaluate(TALL_SIDE)
    assert await page.evaluate(SCROLLED_DOWN), "the trick is above the window"
    await page.focus("[data-focus=chat]")
    await page.keyboard.press("Shift+Tab")
    while not await page.evaluate("() => Boolean(document.activeElement.closest('.hand'))"):
        await page.keyboard.press("Shift+Tab")
    assert await page.evaluate(TRICK_SHOWN)
    assert await page.evaluate(SCROLLED_DOWN)
    await page.keyboard.press("ArrowRight")
    assert await page.evaluate(TRICK_SHOWN)
