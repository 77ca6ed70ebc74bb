"""The browser client on a 360-pixel phone, in Debian's Chromium against a real server: the solitaire board
stays put while a hint comes and goes (the line above it keeps room for a hint's words), and the score
sheet's seat columns are told apart when two seats hold bots of the same name. Skipped, naming the package,
when Chromium is not installed."""

from __future__ import annotations

import contextlib
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page

from client import Connection
from server import BarbuServer
from server.barbu_table import BarbuTable
from tests.browser import MISSING, PHONE, chromium_found
from tests.conftest import until
from tests.test_web_browser import (
    PHONE_SCREEN,
    OpenPage,
    _bot_table,
    _login,
    _solitaire_deal,
    browser,
    open_page,
)

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
    "Hint: move 10♠ and the 12 cards on it from column 10 onto J♥ in column 13; following the hints wins this "
    "game.",
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
    await _solitaire_deal(page, server.share_url, "thumbs", "forty-thieves", shown=".layout .column")
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


#: Each seat column's head on the open score sheet: its words, and whether they are shown whole (no part of
#: it cut off: "bot, h…").
HEADS = """() => [...document.querySelectorAll('dialog.sheet thead th[scope=col]')].map((th) => {
  const cut = [th, ...th.querySelectorAll('*')].filter((el) => el.scrollWidth > el.clientWidth + 0.5);
  return { text: th.innerText.replace(/\\s+/g, ' ').trim(), whole: cut.length === 0, right: th.getBoundingClientRect().right };
})"""


@pytest.mark.parametrize("seated", [False, True], ids=["watcher", "player"])
async def test_on_a_phone_the_score_sheet_tells_the_bots_columns_apart(
    server: BarbuServer, open_page: OpenPage, seated: bool
) -> None:
    """Bots of one policy have one name: each column's head writes its seat with it ("N bot", "E bot"), whole
    on a 360-pixel phone, four different heads; the screen reader hears the seat and the bot's policy."""
    page = await open_page(**PHONE_SCREEN)
    if seated:
        room = await _bot_table(page, server.share_url, "sam", "robots", shown=".seat.bottom .who")
    else:
        host = await Connection.connect(server.url)
        await host.login("host")
        room = await host.create_table("robots")
        for seat in "NES":
            await host.add_bot(room, seat, "heuristic")
        # The page watches before the match starts and the host goes: under load, a connection of this
        # process can fall 2048 frames behind bots that play at once, be dropped, and the room close with it.
        await _login(page, f"{server.share_url}#table={room}", "sam")
        await page.wait_for_selector(".seat")
        await host.add_bot(room, "W", "heuristic")
        await host.close()
    assert server.lobby is not None
    table = server.lobby.rooms[room]
    assert isinstance(table, BarbuTable)
    if seated:
        await _play_a_hand(page, table)
    await until(lambda: table.match is not None and table.match.hand_number >= 2, "a hand scored", 60)
    await page.click("text=Score sheet")
    await page.wait_for_selector("dialog.sheet tbody tr")
    heads: list[dict[str, Any]] = await page.evaluate(HEADS)
    texts = [head["text"] for head in heads]
    assert len(set(texts)) == 4, texts
    assert all(head["whole"] for head in heads), heads
    assert all(head["right"] <= PHONE["width"] for head in heads), heads
    assert {text.split()[0] for text in texts} == set("NESW"), texts
    names = {text.split()[0]: text.split(maxsplit=1)[1] for text in texts}
    mine = table.seats.index(next(s for s in table.seats if s.owner == "sam")) if seated else None
    for seat, name in names.items():
        assert name == ("you" if mine is not None and "NESW"[mine] == seat else "bot"), names
    label = await page.get_attribute("dialog.sheet thead th[scope=col]:last-child", "aria-label")
    assert label is not None and "bot, heuristic" in label, label


#: What the page's player clicks when asked, the first found: no double, a contract (its trump suit or
#: starting rank), a pass, a playable card.
ANSWERS = (
    "[data-focus=no-double]",
    "[data-focus=submit-double]",
    "[data-focus^=trump-]",
    "[data-focus^=rank-]",
    "[data-contract=no-tricks]",
    ".contract",
    "[data-focus=pass]",
    ".hand .playable",
)


async def answer_once(page: Page) -> None:
    """Click the first of ``ANSWERS`` the page shows, if any (redrawn meanwhile: the next call looks again)."""
    for selector in ANSWERS:
        target = page.locator(selector).first
        if await target.count():
            with contextlib.suppress(PlaywrightError):
                await target.click(timeout=1000)
            return


async def _play_a_hand(page: Page, table: BarbuTable) -> None:
    """The page's player answers every question and plays a card whenever asked, until hand 2 starts."""
    while table.match is not None and table.match.hand_number < 2:
        await answer_once(page)
        await page.wait_for_timeout(50)
