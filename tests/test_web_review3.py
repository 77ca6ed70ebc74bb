"""The browser client after a third review of whole hands played as a desktop host and a phone friend, in
Debian's Chromium against a real server: a click whose press and release straddle a redraw (a push came
between) still lands, on a seat's "Sit here" and an offer's "Sit again"; coming back says what happened to
every seat held; a stand-in's plays are told; plain words for bots, results and login errors; bots for some
seats only; and small things (the address after a log out, a resigned solitaire, the score box). Skipped,
naming the package, when Chromium is not installed."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest
from playwright.async_api import Locator, Page

from client import Connection
from client.tui.cards import card_label
from engine.cards import texts
from server import BarbuServer
from server.barbu_table import BarbuTable
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, server_table, until, until_dropped
from tests.test_web_browser import (
    PHONE_SCREEN,
    OpenPage,
    _host_table,
    _login,
    _solitaire_deal,
    browser,
    open_page,
)
from tests.web_pages import answer_ask

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def _click_across_a_redraw(
    page: Page, target: Locator, push: Callable[[], Awaitable[None]], fresh: str | None = None
) -> None:
    """A real click on ``target`` whose press and release straddle a redraw of the screen: the mouse goes
    down on it, ``push()`` makes the server push something that redraws the page, then the mouse goes up.
    The redraw is seen by the screen's draw count (``data-draws``, counted by the table and solitaire
    screens, whose nodes stay the same) going up, or, with ``fresh``, by the element it selects, built anew
    at every draw, being marked before and found unmarked after."""
    await target.wait_for()
    box = await target.bounding_box()
    assert box is not None
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    await page.mouse.down()
    if fresh is None:
        draws = await page.evaluate("() => document.querySelector('[data-draws]').dataset.draws")
        await push()
        await page.wait_for_function(
            "(draws) => document.querySelector('[data-draws]').dataset.draws !== draws", arg=draws
        )
    else:
        await page.evaluate("(fresh) => { document.querySelector(fresh).dataset.old = '1'; }", fresh)
        await push()
        await page.wait_for_function(
            "(fresh) => { const el = document.querySelector(fresh); return el && !el.dataset.old; }",
            arg=fresh,
        )
    await page.mouse.up()


async def _watcher(server: BarbuServer, name: str, room: str) -> Connection:
    """``name`` logged in over a real connection, watching ``room`` (every page there gets a ``players``
    push, and redraws)."""
    conn = await Connection.connect(server.url)
    await conn.login(name)
    await conn.watch(room)
    return conn


async def test_sit_here_lands_though_a_push_redraws_the_table_mid_click(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A friend opening the invite link clicks "Sit here" while a push redraws the table (under load, the
    page's own `players` push as it starts watching comes just then): the press and the release meet the
    same button, and the friend sits. The seat's buttons were built anew at every draw, so such a click was
    lost and the host never saw the friend seated."""
    server = await start_server()
    ann = await open_page()
    room, table = await _host_table(ann, server, "ann", "kept")
    ali = await open_page()
    await _login(ali, f"{server.share_url}#table={room}", "ali")
    bob: list[Connection] = []

    async def bob_watches() -> None:
        bob.append(await _watcher(server, "bob", room))

    await _click_across_a_redraw(ali, ali.locator("[data-focus=sit-E]"), bob_watches)
    await until(lambda: table.seats[1].owner == "ali", "ali seated by the click")
    await ann.wait_for_selector(".seat:has-text('ali')")
    await bob[0].close()


async def test_sit_again_lands_though_a_push_redraws_the_table_mid_click(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """The host's seat at a waiting table was freed while away: a real click on the offer's "Sit again"
    (press, then a friend sits down and the table redraws, then release) sits them again, and the offer goes."""
    server = await start_server(grace=0.5)
    lobby = server.lobby
    assert lobby is not None
    page = await open_page()
    room, table = await _host_table(page, server, "ann", "saturday")
    await lobby.online["ann"].ws.close(1011, "the phone switched app")
    await until(lambda: table.seats[0].owner is None, "the seat freed after the grace")
    bob = await Connection.connect(server.url)
    await bob.login("bob")

    async def bob_sits() -> None:
        await bob.sit(room, "E")

    await _click_across_a_redraw(page, page.locator(".offer button:has-text('Sit again')"), bob_sits)
    await until(lambda: table.seats[0].owner == "ann", "seated again by the click")
    await page.locator(".offer").wait_for(state="detached")
    await bob.close()


async def test_back_at_a_seat_in_play_names_every_waiting_seat_freed_elsewhere(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """ann holds a seat in play at "friday" and seats at two waiting tables, "saturday" and "sunday"; away
    past the grace, she opens the bare address: she lands at friday, told above it that both waiting seats
    were freed, each with "Go to … and sit again"; that button leads to the table, whose "Sit again" sits her."""
    server = await start_server(grace=0.5, bot_delay=0.05)
    page = await open_page()
    friday, playing = await _host_table(page, server, "ann", "friday")
    for seat in "ESW":
        await page.click(f"[data-focus=bot-{seat}]")
    await until(lambda: playing.state == "playing", "friday's match to start")
    waiting: dict[str, tuple[str, BarbuTable]] = {}
    for name in ("saturday", "sunday"):
        await page.click("text=Lobby")
        await page.wait_for_selector("#table-name")
        await page.fill("#table-name", name)
        await page.click("text=Create and sit down")
        await page.wait_for_selector("[data-focus^=bot-]")
        room = page.url.rpartition("=")[2]
        waiting[name] = (room, server_table(server, room))
    context = page.context
    await page.close()
    await until_dropped(server, "ann")

    def freed() -> bool:
        return all(seat.owner != "ann" for _, table in waiting.values() for seat in table.seats)

    await until(freed, "the waiting seats freed")
    page = await context.new_page()
    await page.goto(server.share_url)
    for name, (room, _) in waiting.items():
        news = page.locator(f"#news [data-freed='{room}']")
        await news.wait_for()
        assert f"Your seat at table “{name}” (North) was freed after 1 s away." in await news.inner_text()
        assert await news.locator(f"button:has-text('Go to “{name}” and sit again')").count() == 1
    assert page.url.endswith(f"#table={friday}")
    room, table = waiting["saturday"]
    await page.click(f"#news [data-freed='{room}'] button:has-text('sit again')")
    await page.locator(".table-screen .offer [data-focus=offer]:has-text('Sit again')").click()
    await until(lambda: table.seats[0].owner == "ann", "seated again at saturday")
    assert await page.locator(f"#news [data-freed='{room}']").count() == 0


async def test_back_at_the_seat_a_player_is_told_what_the_stand_in_played(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """ann drops during the match past the grace; a stand-in plays a card of her hand; on coming back the
    prompt says which, from the hand this browser last showed, and who played it (no turn timer at this
    table: a stand-in): "While you were away a stand-in bot played 8♦ for you." (or the cards, when
    several)."""
    server = await start_server(grace=0.3, bot_delay=0.4)
    page = await open_page()
    room, table = await _host_table(page, server, "ann", "friday")
    bob = await Connection.connect(server.url)  # connected elsewhere: the match is not paused without ann
    await bob.login("bob")
    await bob.sit(room, "E")
    for seat in "SW":
        await page.click(f"[data-focus=bot-{seat}]")
    await until(lambda: table.state == "playing", "the start")
    await bob.leave(room)  # a bot stands in for bob at once; bob stays connected
    await page.wait_for_function("() => document.querySelectorAll('.hand [data-card]').length === 13")
    shown = set(await page.eval_on_selector_all(".hand [data-card]", "els => els.map(e => e.dataset.card)"))
    context = page.context
    await page.close()
    await until_dropped(server, "ann")
    match = table.match
    assert match is not None
    await until(lambda: len(texts(match.hand.hands[0])) <= 12, "the stand-in to play for ann", 60)
    page = await context.new_page()
    await page.goto(server.share_url)
    told = page.locator(".prompt .away-plays")
    await told.wait_for()
    text = await told.inner_text()
    left = set(await page.eval_on_selector_all(".hand [data-card]", "els => els.map(e => e.dataset.card)"))
    named = {card for card in shown if card_label(card) in text}
    # ann may be the hand's declarer: her contract, chosen meanwhile, is said first
    chose = r"While you were away a stand-in bot ((chose|doubled|redoubled|passed)[^.]* for you\. A stand-in bot )*played"
    assert re.match(chose, text), text
    assert named and named <= shown - left, (text, shown - left)
    assert (
        text.endswith(" for you.") if len(named) == 1 else f"played {len(named)} cards for you: " in text
    ), text
    await bob.close()


async def test_a_bot_seat_reads_bot_and_its_policy_without_brackets_in_brackets(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A bot's seat reads "bot, heuristic", and so inside the brackets naming a seat's player ("East (bot,
    heuristic)"): "bot (heuristic)" made "East (bot (heuristic))"."""
    page = await open_page()
    await _host_table(page, server, "ann", "friday")
    await page.click("[data-focus=bot-E]")
    seat = page.locator(".seat:has-text('East')")
    await seat.locator(".who:has-text('bot, heuristic')").wait_for()
    assert "bot (" not in await page.inner_text(".felt")


#: A hand's results once the seat is asked its next question (table_score.js), on a desktop or a `phone`:
#: whether they are open, the line's words, and the same after a click on the line.
RESULTS_BESIDE = """async (phone) => {
  const { handSummary } = await import('/js/table_score.js');
  const snap = { seat: 'S', players: { N: 'nan', E: 'eve', S: 'sam', W: 'wes' }, view: null };
  const scored = {
    hand_number: 3, declarer: 'N', contract: 'no-tricks',
    contract_scores: { N: -4, E: -2, S: -6, W: -14 }, settlements: { N: 0, E: 0, S: 0, W: 0 },
    scores: { N: -4, E: -2, S: -6, W: -14 }, totals: { N: -4, E: -2, S: -6, W: -14 },
  };
  const state = { summaryOpen: null };
  const box = handSummary(snap, scored, () => {}, state, phone);
  // On a stage of its own: the app redraws #app when its connection opens, which would take the box out of
  // the page (and a box out of the page ignores the style sheet's rules).
  const stage = document.createElement('div');
  document.body.append(stage);
  stage.replaceChildren(box);
  const line = box.querySelector('summary');
  const before = { open: box.open, line: line.innerText };
  line.click();
  await new Promise((done) => setTimeout(done, 0));  // the toggle event
  return { before, after: { open: box.open, line: line.innerText, kept: state.summaryOpen } };
}"""


async def test_a_hands_results_stand_beside_the_question_on_a_desktop_and_show_all_on_a_phone(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """Asked the next question, a desktop shows the last hand's results open beside it (there is room); a
    phone folds them to one line that says "Show all", and a tap opens them (kept open through redraws)."""
    desktop = await open_page()
    await desktop.goto(server.share_url)
    seen = await desktop.evaluate(RESULTS_BESIDE, False)
    assert seen["before"]["open"] and "Show all" not in seen["before"]["line"], seen
    phone = await open_page(**PHONE_SCREEN)
    await phone.goto(server.share_url)
    seen = await phone.evaluate(RESULTS_BESIDE, True)
    assert not seen["before"]["open"], seen
    assert seen["before"]["line"] == "Hand 3: you −6, total −6 · Show all", seen
    assert seen["after"] == {"open": True, "line": "Hand 3: you −6, total −6", "kept": True}, seen


async def test_login_name_errors_say_what_to_do(server: BarbuServer, open_page: OpenPage) -> None:
    """An empty name is told "Type a name." in the page's words (not the browser's bubble); a name in use,
    or one too like it, is told to pick another; nothing is logged in meanwhile."""
    ann = await Connection.connect(server.url)
    await ann.login("ann")
    page = await open_page()
    await page.goto(server.share_url)
    await page.fill("#login-name", "   ")
    await page.click("text=Log in")
    error = page.locator(".login .error")
    await error.filter(has_text="Type a name.").wait_for()
    for typed, words in (
        ("ann", "“ann” is in use by someone connected now: pick another name."),
        ("Ann", "“Ann” is too like “ann”, who is playing here: pick another name."),
    ):
        await page.fill("#login-name", typed)
        await page.click("text=Log in")
        await error.filter(has_text=words).wait_for()
    assert await page.locator("#login-name").count() == 1  # still at the login form
    assert server.lobby is not None and set(server.lobby.online) == {"ann"}
    await ann.close()


async def test_a_new_table_takes_one_two_or_three_bots(server: BarbuServer, open_page: OpenPage) -> None:
    """The new-table form asks "Bots at the table": none, 1, 2 or 3; with 1 the host sits with one bot on
    the next seat, the two others left for friends."""
    page = await open_page()
    await _login(page, server.share_url, "ann")
    await page.wait_for_selector("#table-name")
    choices = await page.eval_on_selector_all("select[name=bots] option", "els => els.map(e => e.value)")
    assert choices == ["0", "1", "2", "3"]
    assert "Bots at the table" in await page.inner_text(".new-table")
    assert await page.locator("#fill-bots").count() == 0
    await page.fill("#table-name", "friday")
    await page.select_option("select[name=bots]", "1")
    await page.click("text=Create and sit down")
    await page.wait_for_selector(".seat:has-text('bot, heuristic')")
    table = server_table(server, page.url.rpartition("=")[2])
    assert [seat.owner for seat in table.seats] == ["ann", "bot:heuristic", None, None]
    assert table.state == "waiting"


async def test_log_out_leaves_the_bare_address(server: BarbuServer, open_page: OpenPage) -> None:
    """Log out from the lobby: the page comes back at the bare address, no "#" or screen left in it."""
    page = await open_page()
    await _login(page, server.share_url, "ann")
    await page.wait_for_selector("#table-name")
    assert page.url.endswith("#lobby")
    await page.click("text=Log out")
    await page.wait_for_selector("#login-name")
    assert page.url == server.share_url, page.url


async def test_a_resigned_solitaire_shows_no_move_buttons(server: BarbuServer, open_page: OpenPage) -> None:
    """Once a game is resigned it takes no move: Undo, Redo, Hint and Auto go; New deal and Lobby stay."""
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "pat", "forty-thieves", shown="[data-focus=undo]")
    await page.click("text=Resign")
    await answer_ask(page, yes=True)  # yes, give up this game
    await page.wait_for_selector(".result.resigned")
    buttons = await page.eval_on_selector_all(".controls button", "els => els.map(e => e.innerText)")
    assert buttons == ["New deal", "Lobby"], buttons


#: The lines the text of the score box's "This hand" row head takes, drawn in a box squeezed to 200 pixels
#: (long names and scores leave it that little room on a 360-pixel phone).
THIS_HAND_LINES = """() => {
  document.querySelector('.scores').style.width = '200px';
  const th = [...document.querySelectorAll('.scores th[scope=row]')].find((el) => el.textContent === 'This hand');
  const range = document.createRange();
  range.selectNodeContents(th);
  return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size;
}"""


async def test_this_hand_stays_on_one_line_in_the_score_box_on_a_phone(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page(**PHONE_SCREEN)
    await _login(page, server.share_url, "ann")
    await page.wait_for_selector("#table-name")
    await page.select_option("select[name=bots]", "3")
    await page.click("text=Create and sit down")
    await page.wait_for_selector(".scores th:has-text('This hand')")
    assert await page.evaluate(THIS_HAND_LINES) == 1
