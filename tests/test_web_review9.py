"""The browser client after the invite-link review (issue 9), in Debian's Chromium against a real server:
"Link copied" goes back; the invite's ``?at=`` leaves the address once used; a phone's replay folds the
doubles and its lobby's selects fit; the solitaire's empty waste keeps off its edges; badges read apart; a
busy replay is asked again; a comeback names who played; the turn timer says what it does; a watcher's chat
lines say so. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import json
import re

import pytest
from playwright.async_api import WebSocketRoute

from client import Connection
from engine.cards import SEATS, texts
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, finished_table, server_table, until, until_dropped
from tests.test_web_browser import PHONE_SCREEN, SEAT_NAMES, OpenPage, _host_table, _login, browser, open_page
from tests.test_web_review5 import timed_with_a_friend

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def test_the_invite_query_goes_once_used_and_link_copied_goes_back(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A guest opens the host's invite link (``/?at=NAME#table=ID``) and logs in: the address keeps the
    table's hash but no longer the ``at`` query, on the table and on the screens after it. The host's
    "Copy invite link" says "Link copied" for a moment, then offers to copy again."""
    host = await open_page()
    room, _ = await _host_table(host, server, "hana", "friday")
    link = await host.input_value(".invite")
    assert "?at=friday#table=" in link, link
    guest = await open_page()
    await _login(guest, link, "gus")
    await guest.wait_for_selector(f"[data-focus=sit-{SEATS[1]}]")
    assert guest.url == f"{server.share_url.rstrip('/')}/#table={room}", guest.url
    await guest.click("[data-focus=Lobby]")
    await guest.wait_for_selector("#table-name")
    assert guest.url == f"{server.share_url.rstrip('/')}/#lobby", guest.url

    copy = host.locator("[data-focus=copy]")
    await copy.click()
    # The words come once the clipboard has taken the link (an await in the page): waited for, not read at once.
    await host.wait_for_function(
        "() => document.querySelector('[data-focus=copy]').textContent === 'Link copied'", timeout=10_000
    )
    await host.wait_for_function(
        "() => document.querySelector('[data-focus=copy]').textContent === 'Copy invite link'", timeout=10_000
    )


#: The doubles' box of a replay: whether it is open, its folded line's height and the page's line height.
DOUBLES = """() => {
  const box = document.querySelector('.replay-doubles');
  const line = box.querySelector('summary');
  return { open: box.open, height: line.getBoundingClientRect().height,
           line: parseFloat(getComputedStyle(line).lineHeight) || 24,
           narration: document.querySelector('.narration').textContent };
}"""


async def test_a_busy_replay_is_asked_again_and_a_phone_folds_its_doubles(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The server answers the page's first ``replay`` with ``busy`` (faked on the WebSocket): the page says
    "The server is busy; trying again…" and asks again, which opens the replay. On a phone, the doubles in
    force are one folded line under the step's words (which no longer list them), opened on a tap and left
    open from step to step."""
    host = await Connection.connect(server.url)
    await host.login("host")
    room = await finished_table(server, host, "doubled")
    asked: list[int] = []

    def route(page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()

        def from_page(message: str | bytes) -> None:
            request = json.loads(message) if isinstance(message, str) else {}
            if request.get("type") == "replay":
                asked.append(request["id"])
                if len(asked) == 1:  # the first ask only: the workers are all taken
                    busy = {
                        "type": "error",
                        "id": request["id"],
                        "code": "busy",
                        "message": "the workers are busy",
                    }
                    page_side.send(json.dumps(busy))
                    return
            server_side.send(message)

        page_side.on_message(from_page)
        server_side.on_message(page_side.send)

    page = await open_page(**PHONE_SCREEN)
    await page.route_web_socket(lambda url: True, route)
    await _login(page, f"{server.share_url}#replay={room}", "pat")
    await page.locator(".busy", has_text="The server is busy; trying again…").wait_for()
    await page.wait_for_selector(".narration", timeout=20_000)
    assert len(asked) == 2, asked

    for _ in range(28):  # a hand whose players doubled (random bots double often)
        await page.click("text=End of hand")
        if await page.locator(".replay-doubles").count():
            break
        await page.click("[aria-label='next hand']")
    else:
        pytest.skip("nobody doubled in the whole match")
    folded = await page.evaluate(DOUBLES)
    assert not folded["open"], folded
    assert folded["height"] < 2 * folded["line"], folded  # one line
    assert "doubled" not in folded["narration"], folded
    await page.click(".replay-doubles summary")
    await page.click("[aria-label='one step back']")
    opened = await page.evaluate(DOUBLES)
    assert opened["open"], opened
    await host.close()


#: Each select of the new-table form whose options' words do not fit its closed box: the words' width (in
#: the select's font) against the box's, less its padding and the arrow's room.
CUT_SELECTS = """() => {
  const ctx = document.createElement('canvas').getContext('2d');
  const cut = [];
  for (const select of document.querySelectorAll('.new-table select')) {
    const style = getComputedStyle(select);
    ctx.font = `${style.fontSize} ${style.fontFamily}`;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 24;
    for (const option of select.options) {
      if (ctx.measureText(option.text).width > room) cut.push(`${select.name}: ${option.text}`);
    }
  }
  return cut;
}"""


async def test_a_phones_new_table_form_fits_and_says_what_the_timer_does(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """At 360 pixels, every option of the new-table form's selects fits its closed box; the whole sentence
    of the chosen one is said under it, changing with the choice, and the turn timer says what happens when
    it runs out; a screen reader hears them as the select's description."""
    page = await open_page(**PHONE_SCREEN)
    await _login(page, server.share_url, "ann")
    await page.wait_for_selector("#table-name")
    assert await page.evaluate(CUT_SELECTS) == []

    async def said(name: str) -> str:
        text: str = await page.evaluate(
            "(name) => { const s = document.querySelector(`select[name=${name}]`);"
            " return document.getElementById(s.getAttribute('aria-describedby')).textContent; }",
            name,
        )
        return text

    assert await said("rotation") == "the same declarer for 7 hands in a row"
    await page.select_option("select[name=rotation]", "each-hand")
    assert await said("rotation") == "the declarer moves left every hand"
    # "no limit" first: the server's idle hand-over (idle_turn, 300 s by default) is what it still has.
    assert await said("turn_time") == (
        "No clock; but a turn left unplayed 5 minutes hands the seat to a bot, until its player takes it back."
    )
    await page.select_option("select[name=turn_time]", "60")
    timer = "When it runs out, a legal move is played for you; on a doubling turn, no double."
    assert await said("turn_time") == timer
    assert await page.locator(".choice-hint", has_text=timer).is_visible()
    # which seats the bots take: the ones after the host's, clockwise
    await page.select_option("select[name=bots]", "2")
    assert await said("bots") == "on your left and across; a friend takes the seat on your right"


async def test_a_phones_empty_waste_keeps_its_word_off_the_edges(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """Forty Thieves on a phone, its waste empty: the word "waste" is whole inside its dashed box, clear of
    its edges (a padding inside the border)."""
    page = await open_page(**PHONE_SCREEN)
    await _login(page, server.share_url, "sol")
    await page.click("text=Play a random deal")
    await page.wait_for_selector(".slot[data-pile=w]")
    fit = await page.evaluate(
        """() => {
          const slot = document.querySelector('.slot[data-pile=w]');
          const word = slot.querySelector('span');
          const range = document.createRange();
          range.selectNodeContents(word);
          const text = range.getBoundingClientRect();
          const box = slot.getBoundingClientRect();
          const border = parseFloat(getComputedStyle(slot).borderLeftWidth);
          return { word: word.textContent, whole: word.scrollWidth <= word.clientWidth,
                   left: text.left - box.left - border, right: box.right - border - text.right };
        }"""
    )
    assert fit["word"] == "waste" and fit["whole"], fit
    assert fit["left"] >= 2 and fit["right"] >= 2, fit


async def test_a_seats_badges_read_apart(server: BarbuServer, open_page: OpenPage) -> None:
    """A seat that is the dealer or the declarer and away shows two badges: the page's text (what a screen
    reader reads) has a space between them, "declarer away", as the screen shows them apart."""
    page = await open_page()
    room, table = await _host_table(page, server, "ann", "badges")
    others: dict[str, Connection] = {}
    for seat, name in zip(SEATS[1:], ("bob", "cat", "dan"), strict=True):
        others[seat] = await Connection.connect(server.url)
        await others[seat].login(name)
        await others[seat].sit(room, seat)
    await until(lambda: table.state == "playing", "the start")
    await page.wait_for_selector(".badge.declarer")
    marked: list[str] = await page.evaluate(
        "() => [...document.querySelectorAll('.felt .seat')].filter((s) => s.querySelector('.badge')"
        " && !s.classList.contains('bottom')).map((s) => s.getAttribute('aria-label').split(':')[0])"
    )
    seat = next(seat for seat in SEATS if SEAT_NAMES[seat] == marked[0])
    await others.pop(seat).close()
    who = page.locator(f".felt .seat[aria-label^='{SEAT_NAMES[seat]}:'] .who")
    await who.locator(".badge.away").wait_for()
    text = await who.evaluate("el => el.textContent")
    assert "declarer away" in text or "dealer away" in text, text
    for conn in others.values():
        await conn.close()


async def test_a_watchers_chat_lines_say_so(server: BarbuServer, open_page: OpenPage) -> None:
    """A watcher's chat lines are marked "(watching)"; a seated player's are not."""
    page = await open_page()
    room, _ = await _host_table(page, server, "ann", "chatty")
    wes = await Connection.connect(server.url)
    await wes.login("wes")
    await wes.watch(room)
    await wes.chat(room, "just looking")
    await page.locator(".chat-log li", has_text="just looking").locator(".watching").wait_for()
    line = await page.locator(".chat-log li", has_text="just looking").inner_text()
    assert re.fullmatch(r"\d\d:\d\d wes \(watching\) just looking", line), line  # said live: its time first
    await page.fill("[data-focus=chat]", "welcome")
    await page.press("[data-focus=chat]", "Enter")
    mine = page.locator(".chat-log li", has_text="welcome")
    await mine.wait_for()
    assert await mine.locator(".watching").count() == 0
    # wes sits: what he said while watching stays said watching (it lost its mark at the next draw)
    players = (await wes.snapshot(room)).players
    free = next(seat for seat in SEATS if not players.get(seat))
    await wes.sit(room, free)
    await page.locator(f".felt .seat[aria-label^='{SEAT_NAMES[free]}:']", has_text="wes").wait_for()
    await wes.chat(room, "now seated")
    seated = page.locator(".chat-log li", has_text="now seated")
    await seated.wait_for()
    assert await seated.locator(".watching").count() == 0
    line = await page.locator(".chat-log li", has_text="just looking").inner_text()
    assert re.fullmatch(r"(\d\d:\d\d )?wes \(watching\) just looking", line), line
    await wes.close()


async def test_a_comeback_names_the_turn_timer_that_played(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """ann's page closes at a table with a turn timer; bob, connected elsewhere, keeps the match going (his
    seat left to a stand-in); the timer plays a card of ann's before her seat's grace is out. Back, the page
    says the turn timer played it, not "a bot"."""
    server = await start_server(bot_delay=0.2)
    page, room, bob = await timed_with_a_friend(server, open_page, "bob")
    table = server_table(server, room)
    await until(lambda: table.state == "playing", "the start")
    await bob.leave(room)  # a stand-in plays East at once; bob stays connected: the match is not paused
    await page.wait_for_selector(".hand [data-card]")
    context = page.context
    await page.close()
    await until_dropped(server, "ann")
    match = table.match
    assert match is not None
    hand, held = match.hand_number, len(texts(match.hand.hands[0]))
    await until(
        lambda: match.hand_number > hand or len(texts(match.hand.hands[0])) < held, "the timer to play", 40
    )
    page = await context.new_page()
    await page.goto(server.share_url)
    told = page.locator(".prompt .away-plays")
    await told.wait_for()
    text = await told.inner_text()
    # ann may be the hand's declarer: the contract the timer chose for her is said first
    assert re.match(
        r"While you were away the turn timer ((chose|doubled|redoubled|passed)[^.]* for you\. The turn timer )*played",
        text,
    ), text
    await bob.close()
