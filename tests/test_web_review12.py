"""The browser client after the whole-hands review (issue 9b), in Debian's Chromium against a real server: a
hand that stops early says why; a finished match offers no seat back; the
next question leaves the last hand's headline in view; the hand is one Tab stop; a phone's trick says who
played each card. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from client import Connection
from engine.cards import SEATS
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, four_seated, playing_with_bots, server_table, until
from tests.test_web_browser import (
    OWN_TURN,
    PHONE_SCREEN,
    SEAT_NAMES,
    OpenPage,
    _bot_table,
    _drive,
    _first_choice,
    _login,
    browser,
    open_page,
    play_own_turn,
    seat_page,
)

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


#: The words of a hand's open summary (table_score.js) for South: `contract`, its last trick `tricks`.
SUMMARY_TEXT = """async ([contract, tricks]) => {
  const { handSummary } = await import('/js/table_score.js');
  const snap = { seat: 'S', players: { N: 'bot:random', E: 'bot:random', S: 'sam', W: 'bot:random' }, view: null };
  const zero = { N: 0, E: 0, S: 0, W: 0 };
  const scored = {
    hand_number: 2, declarer: 'N', contract, tricks,
    contract_scores: zero, settlements: zero, scores: zero, totals: zero,
  };
  return handSummary(snap, scored, () => {}).textContent;
}"""


async def test_a_hand_that_stops_early_says_why(server: BarbuServer, open_page: OpenPage) -> None:
    """No queens, No hearts and Barbu stop once nothing is left to score: the hand's summary says what fell
    and in which trick; a hand of 13 tricks, or a contract that never stops early, says nothing of it."""
    page = await open_page()
    await page.goto(server.share_url)
    stopped = "the hand stopped there, with nothing left to score."
    text = await page.evaluate(SUMMARY_TEXT, ["no-queens", 8])
    assert f"The last queen fell in trick 8: {stopped}" in text, text
    assert f"The last heart fell in trick 11: {stopped}" in await page.evaluate(
        SUMMARY_TEXT, ["no-hearts", 11]
    )
    assert f"The king of hearts fell in trick 3: {stopped}" in await page.evaluate(SUMMARY_TEXT, ["barbu", 3])
    for contract, tricks in (("no-queens", 13), ("no-tricks", 13), ("no-queens", None)):
        assert "stopped" not in await page.evaluate(SUMMARY_TEXT, [contract, tricks])


async def test_a_match_that_ends_after_a_stand_in_took_the_seat_offers_no_seat_back(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A stand-in takes the seat of a turn left idle and plays the match to its end while its player is on the
    page: once the match is over there is no seat to take back, and the header says the match is over rather
    than calling the player a watcher of their own match."""
    server = await start_server(idle_turn=1.0)
    page = await open_page()
    room = await _bot_table(
        page, server.share_url, "dozy", "siesta", shown=".seat.bottom .who", bot_policy="random"
    )
    table = server_table(server, room)
    await page.locator(".offer button:has-text('Take my seat back')").wait_for(timeout=60_000)
    # 120 s: a whole match of 28 hands, on a CI machine shared with other runs.
    await until(lambda: table.state == "over", "the end", 120)
    await page.locator(".where:has-text('the match is over')").wait_for()
    assert "you are watching" not in await page.inner_text(".where")
    assert await page.locator(".offer").count() == 0
    # Seen from the seat the stand-in played, not from South as a watcher: the player's own box at the bottom,
    # their column first, and a sentence saying a bot finished the match for them.
    seat = next(s for s in SEATS if table.seats[SEATS.index(s)].owner == "dozy")
    assert "dozy" in await page.inner_text(".seat.bottom .who")
    assert (await page.inner_text(".scores thead th:nth-child(2)")).startswith(seat)
    said = await page.inner_text(".prompt")
    assert f"A stand-in bot played your seat ({SEAT_NAMES[seat]}) to the end." in said, said
    assert await page.locator("[data-focus=copy]").count() == 0  # nothing more to invite anyone to
    # A desktop: the ranking on the felt at once, the last hand's results beside it as during the match (they
    # took the felt first), its last trick named by its hand.
    await page.locator(".center .ranking").wait_for()
    await page.locator(".side .summary h2:has-text('Hand 28:')").wait_for()
    if await page.locator(".last-trick").count():
        assert (await page.inner_text(".last-trick h3")).startswith("Last trick of hand 28: won by ")


def _doubling(view: dict[str, Any]) -> dict[str, Any]:
    """The drivers double everyone they may (settlements make the hand's results box tall), else play as
    ``_first_choice``."""
    if view["phase"] == "double":
        return max(view["legal"], key=lambda a: len(a.get("targets", [])))
    return _first_choice(view)


#: Where the hand's results and the question asked next are on the screen (the hand's bar at the bottom
#: covers what is under its top), and how far the page is scrolled.
IN_VIEW = """() => {
  const headline = document.querySelector('.summary > summary, .summary > h2').getBoundingClientRect();
  // The question itself: on a desktop the prompt's box stretches down to the hand.
  const question = (document.querySelector('.prompt .choice') || document.querySelector('.prompt')).getBoundingClientRect();
  const hand = document.querySelector('.hand');
  const floor = innerHeight - (hand ? hand.offsetHeight : 0);
  return { headline: headline.top, question: question.top, bottom: question.bottom, floor, y: scrollY };
}"""


async def test_the_next_question_keeps_the_last_hands_headline_in_view(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """On a 1280x800 desktop, a player who declares the next hand finds the contract question with the last
    hand's results ("Hand 1: ...", three settlements) on screen beside it, in the side column, and the page
    not scrolled: the results above the question did not fit the screen with it."""
    conns, room, table = await four_seated(server, "d", "desk")
    assert table.match is not None
    mine = SEATS[table.match.hand.declarer]  # who declares hands 1 and 2
    page = await seat_page(server, open_page, conns, mine, viewport={"width": 1280, "height": 800})
    await page.wait_for_selector(".seat.bottom .who")
    driver = asyncio.create_task(_drive(conns, room, table, _doubling))
    try:
        deadline = time.monotonic() + 60
        while (
            not await page.locator(".prompt .contract").count() or not await page.locator(".summary").count()
        ):
            if time.monotonic() > deadline:
                await page.screenshot(path="/tmp/9c_fail.png")
                raise AssertionError(await page.inner_text("body"))
            # Hand 1: No tricks, asking nothing more.
            await play_own_turn(page, ((".prompt .contract", ".contract:has-text('No tricks')"), *OWN_TURN))
            await asyncio.sleep(0.1)
        await asyncio.sleep(0.5)  # the scroll to the question
        seen = await page.evaluate(IN_VIEW)
        # beside the question (the side column, under the hand's last trick), both on screen
        assert 0 <= seen["headline"] < seen["floor"] and 0 <= seen["question"] < seen["floor"], seen
        # The results in the side column beside it: the whole question and the header on one screen, no
        # scroll (it went 194 pixels down, the header out of view).
        assert seen["bottom"] <= seen["floor"] and seen["y"] == 0, seen
    finally:
        driver.cancel()
        for conn in conns.values():
            await conn.close()


#: The hand's Tab stops, and whether the focus is on one of them, in the question or elsewhere.
FOCUS = """() => {
  const active = document.activeElement;
  return {
    stops: [...document.querySelectorAll('.hand [tabindex="0"]')].map((el) => el.dataset.focus),
    on: active && active.dataset ? active.dataset.focus || active.tagName : null,
    in: active.closest('.prompt') ? 'prompt' : active.closest('.hand') ? 'hand' : 'elsewhere',
  };
}"""


async def test_the_hand_is_one_tab_stop_and_a_question_takes_the_focus_from_it(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The arrows move the hand's one Tab stop with the focus (it stayed on the first card, a second stop);
    a question asked while the focus is in the hand takes the focus to its first control."""
    conns, room, table = await four_seated(server, "f", "keys")
    assert table.match is not None
    declarer = SEATS[table.match.hand.declarer]
    mine = SEATS[(table.match.hand.declarer + 1) % 4]  # the first asked to double
    page = await seat_page(server, open_page, conns, mine)
    await page.wait_for_selector(".hand button")
    await page.focus(".hand button >> nth=0")
    await page.keyboard.press("ArrowRight")
    await page.keyboard.press("ArrowRight")
    seen = await page.evaluate(FOCUS)
    assert seen["stops"] == [seen["on"]] and seen["in"] == "hand", seen
    view = (await conns[declarer].snapshot(room)).view
    assert view is not None
    await conns[declarer].act(room, declarer, _first_choice(view))  # No tricks: the double question comes
    await page.wait_for_selector("[data-focus=no-double]")
    await page.wait_for_function("document.activeElement.closest('.prompt')", timeout=5000)
    for conn in conns.values():
        await conn.close()


#: The seat letter on each card of the current trick, when shown (a phone), and the seat each card is said
#: to be played by.
TRICK_SEATS = """() => [...document.querySelectorAll('.trick .played')].map((el) => {
  const mark = el.querySelector('.played-by');
  const shown = mark && getComputedStyle(mark).display !== 'none' && mark.getBoundingClientRect().width > 0;
  return [shown ? mark.textContent : null, el.querySelector('[aria-label]').getAttribute('aria-label')];
})"""


async def test_a_phone_marks_each_card_of_the_trick_with_its_seat(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """On a 360x740 phone, each card of the current trick carries the letter of the seat that played it, as
    the last trick's cards do (the seats are far from the trick there)."""
    server = await start_server(idle_turn=0.5, bot_delay=0.3)
    host = await Connection.connect(server.url)
    await host.login("ann")
    room, _ = await playing_with_bots(server, host, "letters")  # ann's idle seat goes to a stand-in
    page = await open_page(**PHONE_SCREEN)
    await _login(page, f"{server.share_url}#table={room}", "dan")
    await page.wait_for_selector(".trick .played", timeout=60_000)
    marks = await page.evaluate(TRICK_SEATS)
    assert marks and all(
        seat and label == f"{label.split(', ')[0]}, played by {SEAT_NAMES[seat]}" for seat, label in marks
    ), marks
    await host.close()


def _no_queens(view: dict[str, Any]) -> dict[str, Any]:
    """The drivers declare No queens, else play as ``_first_choice``."""
    if view["phase"] == "contract":
        return next(a for a in view["legal"] if a["contract"] == "no-queens")
    return _first_choice(view)


async def test_a_watcher_reads_why_a_no_queens_hand_stopped(server: BarbuServer, open_page: OpenPage) -> None:
    """Watching a No queens hand to its end, the page's summary says the hand stopped when the last queen fell
    in its last trick, as the server played it (and says nothing of it after 13 tricks)."""
    conns = {seat: await Connection.connect(server.url) for seat in SEATS}
    for seat, conn in conns.items():
        await conn.login(f"q{seat.lower()}")
    room = await conns["N"].create_table("queens")
    for seat, conn in conns.items():
        await conn.sit(room, seat)
    table = server_table(server, room)
    page = await open_page()
    await _login(page, f"{server.share_url}#table={room}", "dan")
    await page.wait_for_selector(".felt")
    driver = asyncio.create_task(_drive(conns, room, table, _no_queens))
    try:
        await page.locator(".summary h2:has-text('Hand 1: No queens')").wait_for(timeout=60_000)
        assert table.match is not None
        tricks = len(table.match.history[0].tricks)
        text = await page.inner_text(".summary")
        if tricks < 13:
            assert f"The last queen fell in trick {tricks}: the hand stopped there" in text, text
        else:
            assert "stopped" not in text, text
    finally:
        driver.cancel()
        for conn in conns.values():
            await conn.close()
