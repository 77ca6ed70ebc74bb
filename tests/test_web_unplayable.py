"""The browser client after the review of issue 9: a card that cannot be played says why when it is
clicked (it did nothing), in Debian's Chromium against a real server. Skipped, naming the package, when
Chromium is not installed."""

from __future__ import annotations

import pytest

from engine.cards import SEATS
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import four_seated
from tests.test_web_browser import OpenPage, browser, open_page, seat_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

#: ``unplayableText`` of the page's module for a made-up seat S, holding ``hand``, in ``view``'s position.
WHY = """async ([view, card]) => {
  const { unplayableText } = await import('/js/table_prompt.js');
  const snapshot = { seat: 'S', players: { N: 'ann', E: 'bob', S: 'cy', W: 'dan' }, view };
  return unplayableText({ snapshot, standin: false }, card);
}"""


async def test_a_card_clicked_out_of_turn_says_whose_turn_it_is(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """At the start of a hand, a seat that is not the declarer clicks a card: the page says it is not their
    turn, under the prompt that says whom the table waits for and what for ("Waiting for North (rn) to
    choose the contract."), not that again (review 21)."""
    conns, _room, table = await four_seated(server, "r", "why")
    assert table.match is not None
    declarer = SEATS[table.match.hand.declarer]
    mine = SEATS[(table.match.hand.declarer + 2) % 4]
    page = await seat_page(server, open_page, conns, mine)
    try:
        await page.locator(".hand .card").first.click(force=True)  # aria-disabled: not enabled to Playwright
        line = page.locator(".refusal", has_text="Not your turn yet.")
        await line.wait_for(timeout=5_000)
        assert await line.inner_text() == "Not your turn yet."
        name = {"N": "North", "E": "East", "S": "South", "W": "West"}[declarer]
        waiting = f"Waiting for {name} (r{declarer.lower()}) to choose the contract."
        assert waiting in await page.inner_text(".prompt")
    finally:
        for conn in conns.values():
            await conn.close()


async def test_the_reasons_a_card_cannot_be_played(server: BarbuServer, open_page: OpenPage) -> None:
    """The words for each reason, from the page's own module: the suit led to follow and a Dominoes row (the
    rule the view's ``unplayable`` names), a question to answer first, another seat's turn."""
    page = await open_page()
    await page.goto(server.share_url)
    play = {"to_move": "S", "phase": "play", "contract": "no-tricks", "hand": ["QS", "2H"]}
    led = {**play, "trick": {"leader": "W", "cards": ["KH"]}, "unplayable": {"QS": "must-follow-suit"}}
    assert await page.evaluate(WHY, [led, "QS"]) == "You must follow suit: play one of your hearts ♥."
    doubling = {**play, "phase": "double", "trick": {"leader": "W", "cards": []}}
    assert (await page.evaluate(WHY, [doubling, "QS"])).startswith("Answer the question above first")
    dominoes = {
        **play,
        "contract": "dominoes",
        "trick": {"leader": "W", "cards": []},
        "unplayable": {"QS": "not-playable"},
    }
    assert (await page.evaluate(WHY, [dominoes, "QS"])).startswith("That card does not fit a row")
    other = {**play, "to_move": "E", "trick": {"leader": "E", "cards": []}}
    assert await page.evaluate(WHY, [other, "QS"]) == "Not your turn yet."
