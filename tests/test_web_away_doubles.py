"""Back at the seat, the browser says whom a stand-in doubled or redoubled for the player while they were
away (it said only which cards were played), and never tells the player's own double as a bot's: in
Debian's Chromium against a real server. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import pytest

from engine.cards import SEATS
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import until
from tests.test_web_browser import OpenPage, browser, open_page
from tests.test_web_kept import AskedSeat

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

#: missedPlaysText on made-up missed updates for South: a stand-in doubled East and West, then redoubled
#: North; played 8♦ then doubled East; the player's own double (from another page); three seats doubled.
AWAY_TEXTS = """async () => {
  const { missedPlaysText } = await import('/js/missed_plays.js');
  const doubled = (targets, by = 'stand-in') => ({ event: 'doubled', seat: 'S', targets, by });
  const updates = (...events) => events.map((event, i) => ({ type: 'update', room: '1', seq: 40 + i, events: [event] }));
  return {
    doubled: missedPlaysText(updates(doubled(['E', 'W']), { event: 'redoubled', seat: 'S', targets: ['N'], by: 'stand-in' }), 'S'),
    both: missedPlaysText(updates({ event: 'card-played', seat: 'S', card: '8D', by: 'stand-in' }, doubled(['E'])), 'S'),
    own: missedPlaysText(updates(doubled(['E'], 'player')), 'S'),
    nobody: missedPlaysText(updates(doubled([])), 'S'),
    three: missedPlaysText(updates(doubled(['N', 'E', 'W'])), 'S'),
  };
}"""


async def test_a_stand_ins_doubles_are_said_on_coming_back(server: BarbuServer, open_page: OpenPage) -> None:
    page = await open_page()
    await page.goto(server.share_url)
    said = await page.evaluate(AWAY_TEXTS)
    assert said["doubled"] == (
        "While you were away a stand-in bot doubled East and West for you. A stand-in bot redoubled North for you."
    )
    assert said["both"] == (
        "While you were away a stand-in bot played 8♦ for you. A stand-in bot doubled East for you."
    )
    # three as a sentence lists them ("North and East and West" read badly)
    assert said["three"] == "While you were away a stand-in bot doubled North, East and West for you."
    assert said["nobody"] == "While you were away a stand-in bot doubled nobody for you."
    assert said["own"] is None  # the player's own double, from another tab: not a bot's


@pytest.mark.parametrize("answer", ["double", "no double"])
async def test_the_players_own_double_is_not_told_as_a_bots_after_a_reload(
    server: BarbuServer, open_page: OpenPage, answer: str
) -> None:
    """The page doubles the declarer (or answers "No double"), then reloads before its next turn: nothing was
    done for it meanwhile."""
    asked = await AskedSeat.open(server, open_page, "double")
    match = asked.table.match
    assert match is not None
    page = asked.page
    mine = SEATS.index(asked.seat)
    if answer == "double":
        box = page.locator(f"input[data-seat={SEATS[match.hand.declarer]}]")
        if not await box.is_checked():
            await box.click()
        await page.locator("[data-focus=submit-double]").click()
    else:
        await page.locator("[data-focus=no-double]").click()
    await until(lambda: match.to_move != mine, "the page's answer")
    await page.reload()
    await page.locator(".hand .card").first.wait_for()
    await page.wait_for_timeout(500)
    assert "were away" not in await page.inner_text("body")
    await asked.close()
