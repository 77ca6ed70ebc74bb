"""The Barbu table screen after the table review (issue 9f), in Debian's Chromium against a real server: the
doubling dialog stays clear of the hand with its "Why?" open; red trump suits are red; a Dominoes hand's
summary says who went out first, and every seat is reminded of its rule; a stand-in's "no double" is told
to the player back at the seat. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

from typing import Any

import pytest

from engine.cards import SEATS
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import until
from tests.test_web_browser import OpenPage, browser, open_page
from tests.test_web_kept import AskedSeat

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

DESKTOP = {"width": 1280, "height": 800}

#: Where the doubling dialog's buttons are, against the hand at the bottom and the window.
BUTTONS_CLEAR = """() => {
  const hand = document.querySelector('.hand').getBoundingClientRect();
  return [...document.querySelectorAll('.prompt .choice .buttons button')].map((el) => {
    const box = el.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, hand: hand.top, height: innerHeight };
  });
}"""


async def test_the_doubling_buttons_stay_clear_of_the_hand_with_why_open(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """On a 1280x800 desktop, "Why?" opened in the doubling dialog: the rule's words pushed the dialog's
    buttons under the hand at the bottom of the screen; they stay above it, in the window, and a click on
    "No double" doubles nobody."""

    async def desktop(**context: Any) -> Any:
        return await open_page(viewport=DESKTOP, **context)

    asked = await AskedSeat.open(server, desktop, "double")
    page = asked.page
    await page.locator(".why-link").click()
    await page.wait_for_timeout(300)  # a scroll, if any
    for box in await page.evaluate(BUTTONS_CLEAR):
        assert 0 <= box["top"] and box["bottom"] <= box["hand"] <= box["height"], box
    match = asked.table.match
    assert match is not None
    mine = SEATS.index(asked.seat)
    await page.locator("[data-focus=no-double]").click(timeout=3000)
    await until(lambda: match.to_move != mine, "the seat's answer")
    await asked.close()


#: Each trump suit button's text colour and background, as [r, g, b] lists.
TRUMP_COLOURS = """() => Object.fromEntries([...document.querySelectorAll('[data-focus^=trump-]')].map((el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const style = getComputedStyle(el);
  return [el.dataset.focus.slice(6), { fg: rgb(getComputedStyle(el.querySelector('[aria-hidden]')).color), text: rgb(style.color), bg: rgb(style.backgroundColor) }];
}))"""


def _contrast(a: list[float], b: list[float]) -> float:
    """The WCAG contrast ratio of two sRGB colours."""

    def lum(rgb: list[float]) -> float:
        lin = [(c / 255 / 12.92) if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def test_red_trump_suits_are_red_in_light_and_dark(server: BarbuServer, open_page: OpenPage) -> None:
    """The declarer's trump suit buttons: ♥ and ♦ red as on the cards (they were black), ♠ and ♣ not,
    readable on the button (4.5:1) in the light theme and the dark one."""
    asked = await AskedSeat.open(server, open_page, "contract")
    page = asked.page
    await page.locator("[data-contract=trumps]").click()
    await page.locator("[data-focus=trump-H]").wait_for()
    for scheme in ("light", "dark"):
        await page.emulate_media(color_scheme=scheme)
        colours = await page.evaluate(TRUMP_COLOURS)
        for suit, seen in colours.items():
            r, g, b = seen["fg"]
            assert (r > g + 80 and r > b + 80) == (suit in "HD"), (scheme, suit, seen)
            for part in ("fg", "text"):
                assert _contrast(seen[part], seen["bg"]) >= 4.5, (scheme, suit, seen)
    await asked.close()
