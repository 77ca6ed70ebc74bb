"""The browser client after a fifth review, in Debian's Chromium against a real server: the turn timer's
plays are said; an idle seat is warned before a bot takes it and the table is told afterwards; the
starting-rank and trump buttons read as the summary does, in the hand's suit order; every name refusal is a
plain sentence; a bot's policy reads one way everywhere. Skipped, naming the package, when Chromium is not
installed."""

from __future__ import annotations

import asyncio
import re

import pytest
from playwright.async_api import Page

from client import Connection
from engine.cards import SEATS
from server import BarbuServer
from server.barbu_table import BarbuTable
from tests.browser import MISSING, chromium_found, token_given_once
from tests.conftest import StartServer, server_table
from tests.test_web_browser import OpenPage, _login, browser, open_page
from tests.test_web_kept import AskedSeat

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def _seated_with_bots(
    server: BarbuServer, open_page: OpenPage, name: str, **table: object
) -> tuple[Page, str, BarbuTable]:
    """``name`` creates a table (``table``: create-table's fields) over a real connection, sits at N with
    three server bots, and comes back in the browser by their resume token: the page, the room, the table."""
    conn = await Connection.connect(server.url)
    await conn.login(name)
    room = await conn.create_table(f"{name}'s table", **table)  # type: ignore[arg-type]
    await conn.sit(room, "N")
    for seat in SEATS[1:]:
        await conn.add_bot(room, seat)
    page = await _back_in_the_browser(server, open_page, conn)
    return page, room, server_table(server, room)


async def _back_in_the_browser(server: BarbuServer, open_page: OpenPage, conn: Connection) -> Page:
    """``conn``'s player comes back in a new page by its resume token (``conn`` closed first): the page,
    once it shows the felt."""
    token = conn.token
    await conn.close()
    page = await open_page()
    await page.add_init_script(token_given_once(token))
    await page.goto(server.share_url)
    await page.wait_for_selector(".felt")
    return page


async def test_the_turn_timer_playing_for_the_seat_is_said(server: BarbuServer, open_page: OpenPage) -> None:
    """At a table with a 1 s turn timer, the player leaves their turn: the timer acts for them (whatever
    the turn asks: a contract, a double, a card) and the page says what it did, "Time ran out: the timer
    … for you.", rather than the seat's cards or the contract changing unexplained."""
    page, _, _ = await _seated_with_bots(server, open_page, "ann", turn_time=1)
    line = page.locator(".timer-play.mine")
    await line.wait_for(timeout=60_000)
    text = await line.inner_text()
    assert re.fullmatch(
        r"Time ran out: the timer (played \S+|passed|passed \(no (re)?double\)|chose .+|(re)?doubled .+) for you\.",
        text,
    ), text


async def timed_with_a_friend(
    server: BarbuServer, open_page: OpenPage, friend: str
) -> tuple[Page, str, Connection]:
    """ann creates a table with a 1 s turn timer over a real connection and sits North, ``friend`` (a
    connection) East, server bots South and West; ann comes back in the browser by her resume token: the
    page (once it shows the felt), the room, ``friend``'s connection."""
    conn = await Connection.connect(server.url)
    await conn.login("ann")
    room = await conn.create_table("ann's table", turn_time=1)
    await conn.sit(room, "N")
    other = await Connection.connect(server.url)
    await other.login(friend)
    await other.sit(room, "E")
    for seat in ("S", "W"):
        await conn.add_bot(room, seat)
    page = await _back_in_the_browser(server, open_page, conn)
    return page, room, other


async def test_the_timer_playing_for_another_seat_is_told_as_theirs(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """At a table with a 1 s turn timer, ann (the page, North) and carl (a connection that never acts, East)
    both let their time run out: the page marks as ann's own (``.mine``, "… for you") only what the timer
    played for her seat, and tells carl's as his, "Time ran out for East (carl): …", by the event's seat."""
    page, _, carl = await timed_with_a_friend(server, open_page, "carl")
    # The line is drawn anew at each timer play: each wait matches the class and the words at once.
    theirs = page.locator(".timer-play:not(.mine)", has_text="Time ran out for East (carl): the timer")
    await theirs.wait_for(timeout=60_000)
    await page.locator(".timer-play.mine", has_text="for you.").wait_for(timeout=60_000)
    await carl.close()


#: Records in ``window.heard`` the words a screen reader would announce: text changed inside a live region
#: (``aria-live``, or a role that implies it) that is not "off" (``role="timer"`` is), and a live region put
#: in with its words (``alert``, ``status``).
HEARD = """(() => {
  window.heard = [];
  const LIVE = { alert: "assertive", status: "polite", log: "polite", timer: "off", marquee: "off" };
  const own = (el) => (el.hasAttribute("aria-live") ? el.getAttribute("aria-live") : LIVE[el.getAttribute("role")]);
  const live = (node) => {
    for (let el = node.nodeType === 1 ? node : node.parentElement; el; el = el.parentElement) {
      const said = own(el);
      if (said) return said !== "off";
    }
    return false;
  };
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "characterData") {
        if (live(record.target) && record.target.data.trim()) heard.push(record.target.data);
        continue;
      }
      for (const node of record.addedNodes) {
        if (live(node)) { if (node.textContent.trim()) heard.push(node.textContent); continue; }
        if (node.nodeType !== 1) continue;
        for (const region of node.querySelectorAll("[role=alert], [role=status]")) {
          if (live(region) && region.textContent.trim()) heard.push(region.textContent);
        }
      }
    }
  }).observe(document, { childList: true, subtree: true, characterData: true });
})();"""


async def _heard(page: Page, words: str) -> list[str]:
    """What ``page`` announced (``HEARD``) that holds ``words``."""
    heard: list[str] = await page.evaluate("() => window.heard")
    return [text for text in heard if words in text]


async def _ticks(page: Page, timer: str) -> None:
    """Wait until the countdown ``timer`` (a selector) shows two different numbers of seconds."""
    first = await page.locator(timer).inner_text()
    assert re.fullmatch(r"\d+ s", first), first
    await page.wait_for_function(
        "([timer, first]) => { const el = document.querySelector(timer); return el && el.textContent !== first; }",
        arg=[timer, first],
        timeout=60_000,
    )


async def test_an_idle_seat_is_warned_and_the_table_told_after(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """At a table without a turn timer, the host leaves their turn unplayed: before the stand-in takes the
    seat their page counts down ("play within … s, or a bot takes your seat") and a watcher's page shows it
    on the seat; afterwards the host is told, and that they are still the host, and the watcher is told
    whose seat a bot plays now, why, and who is host. Before, the seat changed hands without a word. A
    screen reader hears each warning once and then its outcome: the seconds tick in a ``role="timer"``, not
    announced (before, the whole warning was announced again every second)."""
    # The bots at a human pace: at no delay, the stand-in and the bots finished the match (and its "over"
    # took the offer away) between the test seeing the offer and reading it, once in ten runs.
    server = await start_server(idle_turn=6, bot_delay=0.05)
    watcher = await open_page()
    await watcher.add_init_script(HEARD)
    conn = await Connection.connect(server.url)
    await conn.login("ann")
    room = await conn.create_table("ann's table")
    await conn.sit(room, "N")
    for seat in SEATS[1:]:
        await conn.add_bot(room, seat)
    token = conn.token
    await conn.close()
    await _login(watcher, f"{server.share_url}#table={room}", "bob")
    await watcher.wait_for_selector(".felt")
    page = await open_page()
    await page.add_init_script(token_given_once(token))
    await page.add_init_script(HEARD)
    await page.goto(server.share_url)
    await page.locator(".idle-warning", has_text="or a bot takes your seat").wait_for(timeout=60_000)
    match = server_table(server, room).match
    assert match is not None
    phase = match.phase  # what North is asked: its warning names it
    await watcher.locator(".seat [data-idle=N]", has_text="a bot takes the seat in").wait_for(timeout=60_000)
    await asyncio.gather(
        _ticks(page, ".idle-warning [role=timer]"), _ticks(watcher, ".seat [data-idle=N] [role=timer]")
    )
    offer = page.locator(".offer", has_text="a bot now plays your seat (North)")
    await offer.wait_for(timeout=60_000)
    assert "You are still the table's host." in await offer.inner_text()
    news = watcher.locator(".timer-play", has_text="North (ann) left the turn unplayed too long")
    await news.wait_for(timeout=60_000)
    assert "ann is still the table's host." in await news.inner_text()
    warned = await _heard(page, "or a bot takes your seat")
    asked = {"contract": "choose the contract", "double": "choose whom to double"}.get(phase, "play")
    assert len(warned) == 1 and re.search(rf"{asked} within \d+ s, or", warned[0]), await _heard(page, "")
    assert await _heard(page, "a bot now plays your seat (North)")
    warned = await _heard(watcher, "a bot takes the seat in")
    assert len(warned) == 1 and re.search(r"in \d+ s", warned[0]), await _heard(watcher, "")
    assert await _heard(watcher, "North (ann) left the turn unplayed too long")


async def test_trump_and_starting_rank_buttons_read_as_the_hand_and_the_summary(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The declarer's trump suit buttons come in the hand's suit order (♠ ♥ ♣ ♦, not ♠ ♥ ♦ ♣), each read as
    the summary and the score sheet name the contract ("Trumps (spades)"); the starting-rank buttons read
    "Dominoes from J", not "start from J"."""
    asked = await AskedSeat.open(server, open_page, "contract")
    page = asked.page
    await page.click("[data-contract=trumps]")
    await page.wait_for_selector("[data-focus^=trump-]")
    suits = await page.eval_on_selector_all("[data-focus^=trump-]", "els => els.map(e => e.dataset.focus)")
    assert suits == ["trump-S", "trump-H", "trump-C", "trump-D"], suits
    labels = await page.eval_on_selector_all("[data-focus^=trump-]", "els => els.map(e => e.ariaLabel)")
    assert labels == ["Trumps (spades)", "Trumps (hearts)", "Trumps (clubs)", "Trumps (diamonds)"], labels
    await page.click("[data-focus=back]")
    await page.click("[data-contract=dominoes]")
    jack = page.locator("[data-focus=rank-J]")
    assert await jack.get_attribute("aria-label") == "Dominoes from J"
    await asked.close()


#: Names the server refuses at login, each with the plain sentence the page says for it (the server's own
#: words, for programs, are not shown).
REFUSED_NAMES = {
    "\u200bann": "A name is made of letters you can see",
    "ａｎｎ": "Type the name in ordinary letters: full-width letters",
    "bot (random)": "That name would pass for a bot",
    "\u200b": "A name is made of letters you can see",
}


async def test_every_name_refusal_is_a_plain_sentence(server: BarbuServer, open_page: OpenPage) -> None:
    """A zero-width, a full-width and a bot-like name, and a name in use, are each refused with a sentence
    saying what to do; never the server's "name: ..." message."""
    page = await open_page()
    await page.goto(server.share_url)
    error = page.locator(".login .error")
    for name, said in REFUSED_NAMES.items():
        await page.fill("#login-name", name)
        await page.click("text=Log in")
        await error.filter(has_text=said).wait_for()
        text = await error.inner_text()
        assert not text.startswith("name") and "must" not in text, text
    ann = await Connection.connect(server.url)
    await ann.login("ann")
    await page.fill("#login-name", "Ann")
    await page.click("text=Log in")
    await error.filter(has_text="is too like “ann”, who is playing here: pick another name.").wait_for()
    await ann.close()


async def test_a_bots_policy_reads_one_way_in_the_form_and_at_the_table(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The new-table form names each policy as the seats name a bot ("bot, random: a beginner…" beside the
    seat's "bot, random"), not "beginner (random)" in one place and "bot, random" in another."""
    page = await open_page()
    await _login(page, server.share_url, "ann")
    await page.wait_for_selector("#table-name")
    options = await page.eval_on_selector_all(
        "select[name=bot_policy] option", "els => els.map(e => e.textContent)"
    )
    assert [option.split(":")[0] for option in options[:3]] == [
        "bot, search",
        "bot, heuristic",
        "bot, random",
    ]
    await page.select_option("select[name=bot_policy]", "random")
    await page.select_option("select[name=bots]", "3")
    await page.click("text=Create and sit down")
    await page.locator(".seat .who", has_text="bot, random").first.wait_for()
