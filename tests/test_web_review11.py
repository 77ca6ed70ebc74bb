"""The browser client after an eleventh review, in Debian's Chromium against a real server: Pyramid refuses a
covered card at its first click, saying which card covers it, and picks nothing. Skipped, naming the
package, when Chromium is not installed. The table's "Copy invite link" keeps its place and width while it
says "Link copied", on a desktop and on a phone. A hinted move's target card is ringed with dashes, as an
empty target pile is. On a phone, Pyramid's bottom row keeps clear of the felt's edges."""

from __future__ import annotations

import pytest

from server import BarbuServer
from server.solitaire_room import SolitaireRoom
from tests.browser import MISSING, PHONE, chromium_found
from tests.test_web_browser import PHONE_SCREEN, OpenPage, _host_table, _solitaire_deal, browser, open_page
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


#: The copy button's left edge and width, and its words.
COPY_BOX = """() => {
  const button = document.querySelector('[data-focus=copy]');
  const box = button.getBoundingClientRect();
  return { left: Math.round(box.left), width: Math.round(box.width), words: button.textContent };
}"""


async def test_the_copy_button_keeps_its_width_while_it_says_link_copied(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """ "Copy invite link" (a phone's "Copy link") says "Link copied" for a moment in the same box: the
    button's left edge and width stay, so the header's buttons do not shift."""
    page = await open_page()
    await _host_table(page, server, "copier", "copying")
    for size in (None, PHONE):
        if size is not None:
            await page.set_viewport_size(size)
        before = await page.evaluate(COPY_BOX)
        await page.click("[data-focus=copy]")
        await page.wait_for_function(
            "() => document.querySelector('[data-focus=copy]').textContent === 'Link copied'"
        )
        after = await page.evaluate(COPY_BOX)
        assert (after["left"], after["width"]) == (before["left"], before["width"]), (before, after)
        await page.wait_for_function(
            "() => document.querySelector('[data-focus=copy]').textContent !== 'Link copied'", timeout=10_000
        )


#: The outline and border styles a card, then an empty pile, of the layout shows as a hint's target.
TARGET_STYLES = """() => {
  const styles = [];
  for (const el of [document.querySelector('.layout button.card'), document.querySelector('.layout .slot')]) {
    el.classList.add('hint-to');
    const style = getComputedStyle(el);
    styles.push([style.outlineStyle, style.borderStyle]);
    el.classList.remove('hint-to');
  }
  return styles;
}"""


async def test_a_hints_target_card_is_ringed_with_dashes(server: BarbuServer, open_page: OpenPage) -> None:
    """The board's card marked as a hint's target ("hint-to") shows a dashed outline, as an empty pile marked
    so shows a dashed border (docs/web.md: "where they go ringed with green dashes")."""
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "dashes", "forty-thieves")
    card, slot = await page.evaluate(TARGET_STYLES)
    assert card[0] == "dashed", card
    assert slot[1] == "dashed", slot


#: The felt's room each side of Pyramid's bottom row (inside its padding's outer edge), and whether it scrolls.
BOTTOM_ROW_ROOM = """() => {
  const felt = document.querySelector('.layout');
  const cards = [...document.querySelectorAll('.prow:last-child .card')];
  const box = felt.getBoundingClientRect();
  return { left: cards[0].getBoundingClientRect().left - box.left,
           right: box.right - cards[cards.length - 1].getBoundingClientRect().right,
           scrolls: felt.scrollWidth > felt.clientWidth };
}"""


async def test_a_phones_pyramid_keeps_its_bottom_row_off_the_felts_edges(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """On a 360-pixel phone Pyramid's seven bottom cards fit the felt with a margin of felt each side (they
    touched its edges, the felt scrolling sideways)."""
    page = await open_page(**PHONE_SCREEN)
    await _solitaire_deal(page, server.share_url, "phoner", "pyramid")
    room = await page.evaluate(BOTTOM_ROW_ROOM)
    assert not room["scrolls"], room
    assert room["left"] >= 8 and room["right"] >= 8, room
