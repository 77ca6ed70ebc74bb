"""The browser client after a tenth review (two tabs, Pyramid's words, the keyboard), in Debian's Chromium
against a real server: a tab another tab of the same browser took over says so in view wherever it is
scrolled, with "Play here"; Pyramid's first tap asks for the card
making 13 (the stock's top card too) and the solitaires' refusals are plain sentences, naming cards, never
the engine's notation; the keyboard's focus stays on the table after a contract or a double is chosen, and
Home and End reach the hand's ends; a phone's tap leaves no highlight, the Dominoes rows follow the hand's
suit order, the desktop's invite link field shows the whole link. Skipped, naming the package, when Chromium
is not installed."""

from __future__ import annotations

import re

import pytest
from playwright.async_api import Page

from client import Connection
from engine.cards import SEATS
from server import BarbuServer
from server.solitaire_room import SolitaireRoom
from tests.browser import DESKTOP, MISSING, PHONE, chromium_found
from tests.conftest import server_table, until
from tests.test_web_browser import OpenPage, _bot_table, _solitaire_deal, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

TAKEN = "This game is open in another tab or window."

#: Whether the taken-over banner lies wholly inside the window, and whether its "Play here" has the focus.
BANNER_IN_VIEW = """() => {
  const banner = document.getElementById('taken');
  if (!banner) return null;
  const box = banner.getBoundingClientRect();
  return { shown: box.top >= 0 && box.bottom <= innerHeight && box.height > 0,
           focused: document.activeElement === document.getElementById('play-here') };
}"""


async def test_a_tab_taken_over_at_its_table_says_so_in_view(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The first tab plays at a table, scrolled down to its prompt and hand (the header, with its status
    line, out of view); the same browser opens the table in a second tab, which resumes the session. The
    first tab says so in a banner in view, its "Play here" focused; the rest of the page is out of use
    meanwhile (tests/test_web_review13_tabs.py), so no chat line can be sent from it."""
    first = await open_page()
    await _bot_table(first, server.share_url, "twotabs", "two tabs")
    await first.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert server.lobby is not None
    lobby = server.lobby
    at_first = lobby.online["twotabs"]

    second = await first.context.new_page()  # same browser: same localStorage, so the same token
    await second.goto(first.url)
    await second.wait_for_selector(".seat.bottom")
    await until(lambda: lobby.online.get("twotabs") not in (None, at_first), "the second tab resumed")

    await first.wait_for_selector("#taken")
    assert await first.evaluate(BANNER_IN_VIEW) == {"shown": True, "focused": True}
    assert await first.locator("#taken p").text_content() == TAKEN

    await first.click("#play-here")  # taken back: the banner and the notice go
    await until(lambda: lobby.online.get("twotabs") not in (None, at_first), "the first tab took it back")
    await first.wait_for_selector("#taken", state="detached")
    await second.wait_for_selector("#taken")


async def test_a_tab_taken_over_takes_the_game_back_by_itself_when_the_other_tab_closes(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The second tab of the same browser took the session; once it is closed, the first tab takes the game
    back by itself: its banner goes and it plays on."""
    first = await open_page()
    await _bot_table(first, server.share_url, "comeback", "come back")
    assert server.lobby is not None
    lobby = server.lobby
    at_first = lobby.online["comeback"]
    second = await first.context.new_page()
    await second.goto(first.url)
    await second.wait_for_selector(".seat.bottom")
    await first.wait_for_selector("#taken")
    at_second = lobby.online["comeback"]
    assert at_second is not at_first

    await second.close(run_before_unload=True)
    await first.wait_for_selector("#taken", state="detached")
    await until(lambda: lobby.online.get("comeback") not in (None, at_first, at_second), "the first tab back")
    await first.fill("[aria-label='chat message']", "back here")
    await first.click("text=Send")
    await first.locator(".chat", has_text="back here").wait_for()


#: Card codes and the rank words of Pyramid's values, for reading its bottom row.
SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
VALUES = {rank: value for value, rank in enumerate("A23456789TJQK", start=1)}
RANK_SAID = {1: "an ace", 8: "an 8", 11: "a jack", 12: "a queen"}


def _shown(card: str) -> str:
    """``card`` ("TH") as the page shows it ("10♥")."""
    return f"{'10' if card[0] == 'T' else card[0]}{SUIT_SYMBOLS[card[1]]}"


def _asked(card: str) -> str:
    """What Pyramid's first click on ``card`` ("6S") asks: "Selected 6♠: now click a 7 to make 13 with it."."""
    value = 13 - VALUES[card[0]]
    return f"Selected {_shown(card)}: now click {RANK_SAID.get(value, f'a {value}')} to make 13 with it."


async def test_pyramid_asks_for_the_card_making_13_and_refuses_in_plain_words(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A first tap on a bottom card of the pyramid says what it wants ("Selected 6♠: now click a 7 to make 13
    with it."); a second on a card that does not make 13 with it is refused in a sentence naming both cards,
    and one covered card tapped with a free one is named by its card and row, never "no pile 'p7.1>…'" or
    "pyramid row 7, card 1"."""
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "pyra", "pyramid")
    assert server.lobby is not None
    room = next(r for r in server.lobby.rooms.values() if isinstance(r, SolitaireRoom))
    rows = room.game.state()["pyramid"]
    bottom = [(f"p7.{i + 1}", card) for i, card in enumerate(rows[6]) if card[0] != "K"]
    first, second = next(
        (a, b) for a in bottom for b in bottom if a != b and VALUES[a[1][0]] + VALUES[b[1][0]] != 13
    )
    refusals = page.locator(".message-line .error")

    await page.click(f"[data-pile='{first[0]}']")
    assert await page.locator(".message-line").inner_text() == _asked(first[1])
    await page.click(f"[data-pile='{second[0]}']")
    await refusals.wait_for()
    total = VALUES[first[1][0]] + VALUES[second[1][0]]
    said = f"Not allowed: {_shown(first[1])} and {_shown(second[1])} total {total}, not 13."
    assert await refusals.inner_text() == said

    covered = rows[5][0]  # row 6's first card, covered by row 7's first two
    await page.click(f"[data-pile='{first[0]}']")  # a free card, then a covered one to pair with it
    await page.click("[data-pile='p6.1']")
    await page.locator(".message-line .error", has_text=f"{_shown(covered)} (row 6)").wait_for()
    text = await refusals.inner_text()
    assert text.startswith("Not allowed: ") and text.endswith("."), text
    assert not re.search(r"pyramid row|no pile|\bp\d\.\d|[>+]", text), text


async def test_a_column_card_onto_the_waste_is_refused_without_the_notation(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """In Forty Thieves a card clicked, then the waste, is refused in a sentence of the game's words, not the
    notation's ("by turning the stock (s)")."""
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "forty", "forty-thieves")
    await page.locator("[data-pile=t1]").last.click()
    await page.click("[data-pile=w]")
    refusal = page.locator(".message-line .error")
    await refusal.wait_for()
    assert await refusal.inner_text() == "Not allowed: cards reach the waste only by turning the stock."


#: Where the keyboard's focus is: the page itself, a control of the prompt, a card of the hand, or elsewhere.
FOCUS = """() => {
  const el = document.activeElement;
  if (!el || el === document.body || el.id === 'app') return 'page';
  if (el.closest('.prompt')) return 'prompt:' + (el.dataset.focus || el.textContent);
  if (el.closest('.hand')) return 'hand';
  return 'elsewhere:' + el.outerHTML.slice(0, 80);
}"""

#: The hand's cards the arrows step between (the playable ones on the seat's turn), and the focused one.
HAND_FOCUS = """() => {
  const playable = [...document.querySelectorAll('.hand button.playable')];
  const cards = playable.length ? playable : [...document.querySelectorAll('.hand button')];
  return { at: cards.indexOf(document.activeElement), last: cards.length - 1 };
}"""


async def _declaring(server: BarbuServer, page: Page, name: str) -> None:
    """A host (a client of its own) opens table ``name`` and seats bots at every seat but the first
    declarer's, where ``name`` sits from ``page``: once the page asks the contract."""
    host = await Connection.connect(server.url)
    await host.login(f"{name}-host")
    room = await host.create_table(name)
    declarer = SEATS[server_table(server, room).first_declarer]
    for seat in SEATS:
        if seat != declarer:
            await host.add_bot(room, seat, "heuristic")
    await host.close()
    await page.goto(f"{server.share_url}#table={room}")
    await page.fill("#login-name", name)
    await page.press("#login-name", "Enter")
    await page.click(f"[data-focus=sit-{declarer}]")
    await page.wait_for_selector("[data-contract]")


async def test_the_focus_stays_on_the_table_after_a_contract_by_keyboard_and_home_end_reach_the_hand_ends(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The browser player declares first: Trumps chosen with Enter puts the focus on the first trump suit's
    button, a suit chosen with Enter on the table (the question asked next, a redouble, or the hand), never on
    the page; so does "No redouble" when a bot doubles. In the hand, End and Home go to the last and first
    card."""
    page = await open_page()
    await _declaring(server, page, "keys")
    await page.locator("[data-contract=trumps]").focus()
    await page.keyboard.press("Enter")
    await page.wait_for_selector("[data-focus^=trump-]")
    assert (await page.evaluate(FOCUS)).startswith("prompt:trump-"), await page.evaluate(FOCUS)
    await page.keyboard.press("Enter")
    await page.wait_for_selector("[data-focus^=trump-]", state="detached")
    asked = page.locator(".hand .playable, [data-focus=no-double]")
    await asked.first.wait_for()
    where = await page.evaluate(FOCUS)
    assert where == "hand" or where.startswith("prompt:"), where
    if await page.locator("[data-focus=no-double]").count():  # a bot doubled: no redouble, by keyboard
        await page.locator("[data-focus=no-double]").focus()
        await page.keyboard.press("Enter")
        await page.wait_for_selector(".hand .playable")
        assert await page.evaluate(FOCUS) == "hand", await page.evaluate(FOCUS)

    await page.locator(".hand .playable").first.focus()
    await page.keyboard.press("End")
    at = await page.evaluate(HAND_FOCUS)
    assert at["at"] == at["last"] > 0, at
    await page.keyboard.press("Home")
    assert (await page.evaluate(HAND_FOCUS))["at"] == 0


#: A phone's tap: what it leaves on the tapped card, and the Dominoes rows' suits, top to bottom.
TAPPED = """() => {
  const card = document.querySelector('.hand button.card');
  const focused = document.activeElement;
  return { highlight: getComputedStyle(card).webkitTapHighlightColor,
           ring: Boolean(focused && focused.closest('.hand') && focused.matches(':focus-visible')),
           rows: [...document.querySelectorAll('.rows .row')].map((row) => row.className.match(/suit-(.)/)[1]) };
}"""


async def test_a_phone_tap_leaves_no_ring_and_the_dominoes_rows_go_as_the_hand(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """On a phone the declarer taps Dominoes, a starting rank, then a card: no ring (nor the browser's tap
    highlight) is left on the hand's cards, and the rows go ♠ ♥ ♣ ♦, the order the hand is sorted in."""
    page = await open_page(viewport=PHONE, is_mobile=True, has_touch=True)
    await _declaring(server, page, "tapper")
    await page.tap("[data-contract=dominoes]")
    held = await page.locator(".hand button.card").first.get_attribute("data-card")
    assert held is not None
    await page.tap(f"[data-focus=rank-{held[0]}]")  # a rank the declarer holds: they play first
    playable = page.locator(".hand button.playable")
    await page.locator(".hand button.playable, [data-focus=no-double]").first.wait_for()
    if await page.locator("[data-focus=no-double]").count():  # a bot doubled: no redouble
        await page.tap("[data-focus=no-double]")
    await playable.first.wait_for()
    await playable.first.tap()
    await page.wait_for_selector(".rows .row:not(.unopened)")
    tapped = await page.evaluate(TAPPED)
    assert tapped == {"highlight": "rgba(0, 0, 0, 0)", "ring": False, "rows": ["S", "H", "C", "D"]}, tapped


async def test_the_desktop_invite_link_field_shows_the_whole_link(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """At a table with a long name, the header's invite link field is wide enough for the whole link."""
    page = await open_page()
    await _bot_table(page, server.share_url, "linker", "a table with quite a long name")
    sizes = await page.evaluate(
        "() => { const box = document.querySelector('.invite');"
        " return { scroll: box.scrollWidth, client: box.clientWidth, page: document.documentElement.scrollWidth }; }"
    )
    assert sizes["scroll"] <= sizes["client"] and sizes["page"] <= DESKTOP["width"], sizes


async def _turn_the_stock(page: Page, room: SolitaireRoom) -> None:
    """Click the stock of ``page`` and wait until ``room`` has made the turn."""
    before = room.game.moves
    await page.click(".stock[data-pile=s]")
    await until(lambda: room.game.moves > before, "the stock turned")


async def test_pyramids_stock_top_card_is_picked_not_turned(server: BarbuServer, open_page: OpenPage) -> None:
    """With the option stock-top, a click on the stock's top card (not a King) picks it, asking for the card
    making 13, rather than turning the stock (its pile name is also the turn's)."""
    page = await open_page()
    await page.goto(server.share_url)
    await page.fill("#login-name", "stocky")
    await page.click("text=Log in")
    await page.wait_for_selector("#game")
    await page.select_option("#game", "pyramid")
    await page.get_by_label("Stock's top card in play").select_option(index=1)
    await page.click("text=Play a random deal")
    await page.wait_for_selector(".layout")
    assert server.lobby is not None
    room = next(r for r in server.lobby.rooms.values() if isinstance(r, SolitaireRoom))
    while room.game.state()["stock_top"][0] == "K":  # a King on the stock is turned before it is removed
        await _turn_the_stock(page, room)
    top, made = room.game.state()["stock_top"], room.game.moves
    await page.locator(f"button.card[data-pile=s][data-card='{top}']").wait_for()
    await page.click("button.card[data-pile=s]")
    await page.locator(".message-line", has_text=_asked(top)).wait_for()
    assert room.game.moves == made, "the stock turned"
