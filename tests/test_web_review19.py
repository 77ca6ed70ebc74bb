"""Findings of the nineteenth review of the browser client, in Debian's Chromium against a real server: a
link to a match or a solitaire game that does not exist, and a seat someone took just before the click,
are said in the page's words, not the server's. Skipped, naming the package, when Chromium is not
installed."""

from __future__ import annotations

import time

import pytest

from client import Connection
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import server_table, until
from tests.test_web_browser import OpenPage, _answer, _bot_table, _login, _open_table, browser, open_page
from tests.test_web_review16 import Relay

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def test_links_to_a_match_or_a_game_that_is_not_there_say_so_plainly(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page()
    await _login(page, f"{server.share_url}#replay=999", "pat")
    alert = page.locator("[role=alert]")
    await alert.wait_for()
    assert await alert.inner_text() == (
        "No finished match 999 is kept here: the match may still be in play (its table's link shows it), "
        "or the link is mistyped."
    )
    await page.goto(f"{server.share_url}#solitaire=999")
    await page.wait_for_selector("[role=alert]:has-text('solitaire')")
    assert (await page.locator("[role=alert]").inner_text()).startswith("No solitaire game 999 is open here:")


async def test_a_seat_taken_just_before_the_click_is_said_in_words(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The friend's "Sit here" reaches the server after someone else sat there (the network path stalled
    meanwhile): the seat's refusal says someone sat first, not "seat W (bob) is taken"."""
    ann = await open_page()
    await _login(ann, server.share_url, "ann")
    await ann.wait_for_selector("#table-name")
    room = await _open_table(ann, "crowded")
    relay = Relay(server.port)
    url = await relay.start()
    try:
        ali = await open_page()
        await _login(ali, f"{url}#table={room}", "ali")
        await ali.wait_for_selector("[data-focus=sit-W]")
        relay.hold()
        await ali.click("[data-focus=sit-W]")
        bob = await Connection.connect(server.url)
        await bob.login("bob")
        await bob.sit(room, "W")
        relay.release()
        notice = ali.locator(".notice")
        await notice.wait_for()
        assert await notice.inner_text() == "Someone sat at West just before you: pick another free seat."
        await ali.wait_for_selector(".seat:has-text('bob')")
        assert server_table(server, room).seats[3].owner == "bob"
        await ali.click("[data-focus=sit-E]")  # another free seat: taken
        await until(lambda: server_table(server, room).seats[1].owner == "ali", "ali seated East")
        await bob.close()
    finally:
        await relay.close()


async def test_a_half_ticked_doubling_choice_survives_a_reload(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A player ticks a box of the doubling dialog and reloads before sending: the box is still ticked (the
    table is at the same action); once the doubles are sent, the next dialog starts afresh."""
    page = await open_page()
    await _bot_table(page, server.share_url, "tia", "ticks")
    free = page.locator("input[data-seat]:not([disabled]):not(:checked)")
    deadline = time.monotonic() + 60
    while not await free.count():
        assert time.monotonic() < deadline, "no doubling dialog with a box to tick"
        await _answer(page)
        await page.wait_for_timeout(100)
    seat = await free.first.get_attribute("data-seat")
    await free.first.check()
    await page.reload()
    await page.wait_for_selector("#double-title")
    assert await page.is_checked(f"input[data-seat={seat}]")
    await page.click("[data-focus=submit-double]")
    await page.wait_for_selector("#double-title", state="detached")


#: missedPlaysText for South's missed updates: hand 1 stopped early (scored, South's cards unplayed), then a
#: stand-in played 5♠ in hand 2; the turn timer played 2♣; the player's own cards (another tab) only.
ENDED_TEXTS = """async () => {
  const { missedPlaysText } = await import('/js/missed_plays.js');
  const scored = { event: 'hand-scored', hand_number: 1 };
  const card = (card, by) => ({ event: 'card-played', seat: 'S', card, by });
  const updates = (...events) => events.map((event, i) => ({ type: 'update', room: '1', seq: 40 + i, events: [event] }));
  return {
    ended: missedPlaysText(updates(scored), 'S'),
    endedThenPlayed: missedPlaysText(updates(scored, card('5S', 'stand-in')), 'S'),
    timer: missedPlaysText(updates(card('2C', 'timer'), card('3C', 'timer')), 'S'),
    own: missedPlaysText(updates(card('2C', 'player'), scored, card('5S', 'player')), 'S'),
    plain: missedPlaysText(undefined, 'S'),
  };
}"""


async def test_a_hand_seen_to_stop_early_is_not_told_as_played_by_a_bot(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A hand that stopped early (cards still in hand) while the player was away: no "a bot played the rest
    of hand 1 for you"; only what the server says a stand-in or the timer played for the player is said."""
    page = await open_page()
    await page.goto(server.share_url)
    said = await page.evaluate(ENDED_TEXTS)
    assert said["ended"] is None
    assert said["endedThenPlayed"] == "While you were away a stand-in bot played 5♠ for you."
    assert said["timer"] == "While you were away the turn timer played 2 cards for you: 2♣, 3♣."
    assert said["own"] is None
    assert said["plain"] is None  # a plain snapshot (too many missed): nothing is told


async def test_a_table_name_with_a_direction_character_is_refused_in_words(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page()
    await _login(page, server.share_url, "rtl")
    await page.wait_for_selector("#table-name")
    await page.fill("#table-name", "evil\u202etable")
    await page.click("text=Create and sit down")
    error = page.locator("form .error")
    await error.wait_for()
    await page.wait_for_function("() => document.querySelector('form .error').textContent !== ''")
    assert (await error.inner_text()).startswith("A table's name is made of letters you can see:")


async def test_a_token_that_no_longer_works_is_said_at_the_login(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The browser's kept token is refused (the server's password changed, or it went unused too long): the
    login screen says the session ended and how to come back, not "You are invited to..."."""
    page = await open_page()
    await _login(page, server.share_url, "uma")
    await page.wait_for_selector("#table-name")
    await page.evaluate("() => localStorage.setItem('barbu.token', 'no-longer-good')")
    await page.goto(f"{server.share_url}?at=x#table=1")  # an invite link, opened with that token kept
    said = page.locator(".login .ended")
    await said.wait_for()
    assert (await said.inner_text()).startswith("Your session here has ended (the server's password changed")
    assert "log in again as uma" in await said.inner_text()
    assert await page.locator(".login:has-text('You are invited')").count() == 0


#: The contract question for South with No tricks and Barbu declared already (the view's `legal` offers the
#: other five), and with none declared yet.
CONTRACT_PROMPT = """async () => {
  const { prompt } = await import('/js/table_prompt.js');
  const { Kept } = await import('/js/dom.js');
  const ask = (names) => {
    const view = { phase: 'contract', to_move: 'S', declarer: 'S', hand_number: 3,
      legal: names.map((contract) => ({ action: 'contract', contract })) };
    const state = { snapshot: { seat: 'S', players: {}, view }, kept: new Kept(), clock: null };
    return prompt(state, { act() {}, redraw() {} }).textContent;
  };
  return {
    later: ask(['no-queens', 'no-last-two', 'no-hearts', 'trumps', 'dominoes']),
    first: ask(['no-tricks', 'no-queens', 'no-last-two', 'no-hearts', 'barbu', 'trumps', 'dominoes']),
  };
}"""


async def test_the_contract_question_says_which_contracts_were_declared_already(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page()
    await page.goto(server.share_url)
    said = await page.evaluate(CONTRACT_PROMPT)
    assert "Declared already: No tricks and Barbu." in said["later"], said
    assert "Declared already" not in said["first"], said
