"""The Barbu table screen after the sixteenth and seventeenth reviews (issue 9), in Debian's Chromium against a
real server: a turn never leaves the window's top cutting through the header (a desktop needs no scroll for
a question at all, the last hand's results beside it in the side column), nor does a new screen open where
the last was scrolled; the header says when the player declares; a refused chat line stays in its field, in
plain words; a stalled connection is said; the forms say what "no limit" still does, how long a name may
be, and what a blank table name lacks. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import asyncio
import contextlib
import re
import time

import pytest
from playwright.async_api import Page

from engine.cards import SEATS
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, server_table
from tests.test_web_browser import MY_TURN, OpenPage, _bot_table, _login, browser, open_page
from tests.test_web_kept import AskedSeat
from tests.web_pages import answer_ask

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

DESKTOP = {"width": 1280, "height": 800}


async def at_the_form(page: Page, url: str, name: str) -> None:
    """``name`` logs in at ``url`` on ``page``, which then shows the lobby's new-table form."""
    await _login(page, url, name)
    await page.wait_for_selector("#table-name")


async def descriptions(page: Page, selector: str) -> list[str]:
    """What describes each field ``selector`` finds to a screen reader (its ``aria-describedby``)."""
    said: list[str] = await page.evaluate(
        "(selector) => [...document.querySelectorAll(selector)].map((el) =>"
        " document.getElementById(el.getAttribute('aria-describedby')).textContent)",
        selector,
    )
    return said


#: Where the page is scrolled, and whether the window's top cuts through the page's bar or the table's
#: header: clean is the page at its top, the header wholly in view with the bar wholly out, or both out.
HEADER = """() => {
  const bar = document.querySelector('header.bar').getBoundingClientRect();
  const head = document.querySelector('.table-head').getBoundingClientRect();
  const hand = document.querySelector('.hand');
  const floor = innerHeight - (hand ? hand.offsetHeight : 0);
  const asked = [...document.querySelectorAll('.prompt .choice button, .prompt .choice input')];
  return {
    y: scrollY, bar: bar.bottom, head: [head.top, head.bottom], handGap: hand ? innerHeight - hand.getBoundingClientRect().bottom : null,
    clean: scrollY === 0 || (head.top >= 0 && bar.bottom <= 0) || head.bottom <= 0,
    asked: asked.map((el) => el.getBoundingClientRect().bottom <= floor + 0.5),
  };
}"""


async def test_a_declarer_arriving_on_a_desktop_finds_the_question_under_the_header(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A 1280x800 desktop opens the table where its seat is asked the contract: the felt, with no trick to
    make room for, takes only its seats' height, so the header, the seats and every contract button fit the
    screen above the hand, which is at the bottom of the window; the page scrolled 51-85 pixels, the header
    cut."""
    asked = await AskedSeat.open(server, lambda **c: open_page(viewport=DESKTOP, **c), "contract")
    page = asked.page
    await page.locator(".prompt .contract").first.wait_for()
    await page.wait_for_timeout(300)  # a scroll, if any
    seen = await page.evaluate(HEADER)
    assert seen["y"] == 0 and seen["asked"] and all(seen["asked"]), seen
    # The hand at the bottom of the window, where it stays as the phases change (the page, shorter than
    # the window, had it just under the question: it moved under the mouse when the question went).
    assert 0 <= seen["handGap"] <= 12, seen
    await asked.close()


#: Whatever the page asks of its seat, answered as `_answer` does but by the element's own click: Playwright's
#: click first scrolls its target into view (to the nearest edge), which would be the test's scroll, not the
#: page's.
ANSWER = """() => {
  const first = (s) => document.querySelector(s);
  const click = (s) => { const el = first(s); if (el) el.click(); return Boolean(el); };
  if (first('.contract')) { click('.contract'); click('.choice .buttons button'); return; }
  if (click('[data-focus=no-double]')) return;
  if (first('[data-focus=submit-double]')) { click('input[data-seat]:not([disabled]):not(:checked)'); click('[data-focus=submit-double]'); return; }
  if (click('.hand .playable')) return;
  click('[data-focus=pass]');
}"""


async def test_a_phones_turns_never_leave_the_header_cut(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A 360x740 phone plays its turns by taps: whenever a turn brings the question or the felt into view,
    the window's top is at the page's top, at the table's header or past it, never through it (it stopped
    88 pixels down, half of the header's buttons showing)."""
    server = await start_server(bot_delay=0.1)
    page = await open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    await _bot_table(page, server.share_url, "pip", "taps", bot_policy="random")
    turns = 0
    deadline = time.monotonic() + 90
    while turns < 16 and time.monotonic() < deadline:
        await page.wait_for_selector(MY_TURN, timeout=20_000)
        await page.wait_for_timeout(150)  # the scroll to it
        seen = await page.evaluate(HEADER)
        assert seen["clean"], seen
        await page.evaluate(ANSWER)
        turns += 1
        await page.wait_for_timeout(150)
    assert turns >= 8, turns


async def test_a_table_made_from_the_foot_of_the_lobby_opens_at_its_top(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """On a phone, the lobby scrolled down to its form, "Create and sit down": the table opens at the top of
    the page (it kept the lobby's scroll, 329 pixels, its header above the window), or, the seat asked at
    once, at a clean edge."""
    server = await start_server(bot_delay=1.0)
    page = await open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    await at_the_form(page, server.share_url, "lou")
    await page.select_option("select[name=bots]", "3")
    await page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    assert await page.evaluate("scrollY") > 100
    create = page.locator("text=Create and sit down")
    await create.evaluate("(el) => el.click()")  # not scrolled into view first, as Playwright would
    await page.wait_for_selector(".seat.bottom .who")
    await page.wait_for_timeout(200)
    seen = await page.evaluate(HEADER)
    asked = await page.locator(MY_TURN).count()
    assert seen["clean"] and (asked or seen["y"] == 0), seen


async def test_a_refused_chat_line_stays_in_its_field_said_in_plain_words(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Eleven lines sent at once (the server takes 10 in 10 s): the eleventh is refused with words saying to
    wait, its text back in the field to send again (it was wiped), and the refusal goes after those 10 s
    (it stayed until the next line)."""
    server = await start_server(bot_delay=0.5)
    page = await open_page()
    await _bot_table(page, server.share_url, "gab", "chatty")
    field = page.locator("[data-focus=chat]")
    for n in range(11):
        await field.fill(f"line {n}")
        await field.press("Enter")
        await page.wait_for_timeout(60)  # each reply back before the next
    notice = page.locator(".chat .notice")
    await notice.wait_for()
    said = await notice.inner_text()
    assert said == "Too many chat messages: at most 10 in 10 seconds; wait a moment, then send again", said
    assert await field.input_value() == "line 10"
    await notice.wait_for(state="detached", timeout=15_000)  # gone once the server's 10 s have passed
    # A direction character: refused in the page's words, not the server's ("text must be printable text").
    await field.fill("hi \u202eereht")
    await field.press("Enter")
    await notice.wait_for()
    assert await notice.inner_text() == (
        "A chat line is made of letters you can see: invisible and direction characters (like U+202E) are not"
        " allowed."
    )


async def test_the_new_table_form_says_what_no_limit_does_and_how_long_a_name_may_be(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """ "No limit" chosen, the form says the server's idle hand-over (here 2 minutes: the welcome's
    ``idle_turn``) rather than what a running-out timer does; the name field says its 40 characters."""
    server = await start_server(idle_turn=120.0)
    page = await open_page()
    await at_the_form(page, server.share_url, "hal")
    assert await descriptions(page, "#table-name, select[name=turn_time]") == [
        "Up to 40 characters.",
        "No clock; but a turn left unplayed 2 minutes hands the seat to a bot, until its player takes it back.",
    ]


async def test_names_say_their_length_and_a_blank_table_name_is_told_plainly(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The login's name field says it holds 24 characters (it stopped there without saying); a table name of
    spaces is told "Type a name for the table." (it was the server's "name is shorter than 1")."""
    page = await open_page()
    await page.goto(server.share_url)
    await page.wait_for_selector("#login-name")
    assert await page.inner_text("#login-name-hint") == "Up to 24 characters."
    await at_the_form(page, server.share_url, "ivy")
    await page.fill("#table-name", "   ")
    await page.click("text=Create and sit down")
    assert await page.inner_text(".new-table .error") == "Type a name for the table."


async def test_the_header_says_when_the_player_declares(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A player seated where another seat declares first reads in the header which hands they declare, by the
    engine's rotation (a newcomer waited 14 hands for their first contract without knowing it)."""
    server = await start_server(bot_delay=1.0)
    page = await open_page()
    room = await _bot_table(page, server.share_url, "kim", "rotation")
    table = server_table(server, room)
    match = table.match
    assert match is not None
    mine = next(i for i, seat in enumerate(table.seats) if seat.owner == "kim")
    own = [n for n in range(1, 29) if match.declarer_of(n - 1) == mine]
    where = await page.inner_text(".where")
    if own[0] == 1:
        assert "you declare" not in where, where
    else:
        assert where.endswith(f" · you declare hands {own[0]}–{own[-1]}"), (where, SEATS[mine], own)


async def test_the_forms_and_the_days_deal_say_what_their_numbers_and_greyed_buttons_mean(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """The new-table form says what Dominoes' four numbers are; the day's deal says beside its greyed Hint
    that it has none (only a tooltip said so, which a phone never shows); logging out of a seat in play says
    the match waits only if nobody else is left (it read as if nobody were connected now)."""
    server = await start_server(bot_delay=1.0)
    page = await open_page()
    await at_the_form(page, server.share_url, "joy")
    assert await descriptions(page, "select[name=dominoes-scores]") == [
        "first out +45, second +20, third +5, last −5"
    ]
    await page.click("text=Play the day's deal")
    await page.wait_for_selector(".layout")
    assert await page.locator("[data-focus=hint]").is_disabled()
    said = page.locator("#no-daily-hints")
    assert (
        await said.is_visible()
        and await said.inner_text() == "No hints on the day's deal: everyone plays it alone."
    )
    seated = await open_page()
    await _bot_table(seated, server.share_url, "jem", "leaving")
    await seated.click("text=Log out")
    asked = await answer_ask(seated, yes=False)
    assert "(and if no other player is left at the table, the match waits for one)" in asked, asked


async def test_a_timed_question_shows_its_clock(start_server: StartServer, open_page: OpenPage) -> None:
    """At a table with a 15-second turn timer, the question the seat is asked (the contract or a double)
    shows the time left in its title, as the seat's box does (a first-timer read the contracts and missed
    the seat's clock until the timer chose for them)."""
    server = await start_server(bot_delay=0.5)
    page = await open_page()
    await _bot_table(page, server.share_url, "tim", "hurry", turn_time="15")
    clock = page.locator(".prompt h2 .clock")
    await clock.wait_for(timeout=20_000)
    assert re.fullmatch(r" ?1?\d s", await clock.inner_text()), await clock.inner_text()


async def test_the_lobby_says_the_table_waits_for_the_player_whose_turn_it_is(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Gone to the lobby on their turn ("Lobby", not "Leave"), the player reads on their table's card that
    it waits for them (nothing said so, while friends at the table waited); left with "Leave", whose stand-in
    plays at once, it does not say so."""
    server = await start_server(bot_delay=0.5)
    page = await open_page()
    await _bot_table(page, server.share_url, "una", "waits")
    await page.wait_for_selector(MY_TURN, timeout=20_000)
    await page.click(".table-head >> text=Lobby")
    note = page.locator("article.room .your-turn-note")
    await note.wait_for(timeout=15_000)
    assert await note.inner_text() == "Your turn: the table is waiting for you."
    # Left with "Leave": a stand-in plays the seat at once, and nothing waits for the player.
    await page.click("text=Back to my seat")
    await page.click("text=Leave table")
    await answer_ask(page, yes=True)
    await page.wait_for_selector("#table-name")
    await page.wait_for_timeout(4000)  # a refresh of the lobby or two
    assert await note.count() == 0


#: The folded line of a phone's summary (table_score.js) for South of a Barbu hand stopped in trick 3.
FOLDED_LINE = """async () => {
  const { handSummary } = await import('/js/table_score.js');
  const snap = { seat: 'S', players: { N: 'bot:random', E: 'bot:random', S: 'sam', W: 'bot:random' }, view: null };
  const zero = { N: 0, E: 0, S: 0, W: 0 };
  const scored = { hand_number: 2, declarer: 'N', contract: 'barbu', tricks: 3,
    contract_scores: zero, settlements: zero, scores: zero, totals: zero };
  const box = handSummary(snap, scored, () => {}, { summaryOpen: null }, true);
  document.body.append(box);
  const line = box.querySelector('summary').innerText;
  box.remove();
  return line;
}"""


async def test_a_phones_folded_results_say_why_the_hand_stopped_early(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A phone's results folded to one line (asked the next question): a hand that stopped early says why on
    the line itself (it was behind "Show all": the hand just vanished after three tricks)."""
    page = await open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    await page.goto(server.share_url)
    line = await page.evaluate(FOLDED_LINE)
    assert line.startswith("Hand 2: you 0, total 0 · Show all"), line
    assert "The king of hearts fell in trick 3: the hand stopped there" in line, line


class Relay:
    """A TCP relay from a loopback port to the server's: the page is loaded through it; ``hold`` stalls the
    network path (bytes wait in the relay, the sockets stay open) until ``release``; ``cut`` closes every
    connection and refuses new ones (the network gone) until ``mend``."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.refusing = False
        self.tasks: set[asyncio.Task[None]] = set()
        self.writers: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None

    async def start(self) -> str:
        """Listen; returns the page's address through the relay."""
        self.server = await asyncio.start_server(self._join, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/"

    async def _join(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            writer.close()
            return
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        self.writers |= {writer, up_writer}
        for source, sink in ((reader, up_writer), (up_reader, writer)):
            task = asyncio.create_task(self._pump(source, sink))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def _pump(self, source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await source.read(65536):
                await self.flowing.wait()
                sink.write(data)
                await sink.drain()
        sink.close()

    def hold(self) -> None:
        self.flowing.clear()

    def release(self) -> None:
        self.flowing.set()

    def cut(self) -> None:
        self.refusing = True
        for writer in self.writers:
            writer.close()
        self.writers.clear()

    def mend(self) -> None:
        self.refusing = False

    async def close(self) -> None:
        self.release()
        if self.server is not None:
            self.server.close()
        for task in list(self.tasks):
            task.cancel()


#: What the status line says and whether it is on screen.
STATUS = """() => { const el = document.getElementById('status'); const box = el.getBoundingClientRect();
  return { text: el.textContent, shown: box.height > 0 && box.top >= 0 && box.bottom <= innerHeight }; }"""


async def test_a_tap_into_a_stalled_connection_says_it_waits_for_the_server(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The network path stalls (the relay holds the bytes, the socket open) and the player creates a table:
    after a moment the status line, fixed at the top of the window, says "Waiting for the server…" (the tap
    was met with nothing, however long it lasted); the path back, the words go and the table opens. The
    network then gone, the page says so and dims the table until it is back."""
    relay = Relay(server.port)
    url = await relay.start()
    try:
        page = await open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
        await _login(page, url, "sam")
        await page.wait_for_selector("#table-name")
        await page.select_option("select[name=bots]", "3")
        relay.hold()
        await page.click("text=Create and sit down")
        await page.wait_for_function(
            "() => document.getElementById('status').textContent !== ''", timeout=5000
        )
        assert await page.evaluate(STATUS) == {"text": "Waiting for the server…", "shown": True}
        relay.release()
        await page.wait_for_selector(".seat.bottom")
        await page.wait_for_function(
            "() => document.getElementById('status').textContent === ''", timeout=5000
        )
        # The network gone: said, and the table dimmed (its clock and cards looked live); back, it is not.
        relay.cut()
        await page.wait_for_function("() => document.body.classList.contains('offline')", timeout=5000)
        assert (await page.evaluate(STATUS))["text"].startswith("Connection lost: trying again")
        relay.mend()
        await page.wait_for_function("() => !document.body.classList.contains('offline')", timeout=15_000)
        await page.wait_for_selector(".seat.bottom")
    finally:
        await relay.close()
