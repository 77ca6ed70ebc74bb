"""The browser client after the review of issue 9 (its part e) on a 360-pixel phone, in Debian's Chromium
against a real server: a trick nobody has led yet is one short line ("North to lead"), so the felt and the
hand are in view together; a trick just won is drawn once, on the felt, not also under "Last trick". Skipped,
naming the package, when Chromium is not installed."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from engine.cards import SEATS
from server import BarbuServer
from tests.browser import MISSING, chromium_found, token_given_once
from tests.conftest import four_seated
from tests.test_web_browser import (
    PHONE_SCREEN,
    SEAT_NAMES,
    OpenPage,
    _drive,
    browser,
    open_page,
    stop_driving,
)
from tests.test_web_phone import answer_once
from tests.test_web_review13_last_trick import WATCH, hand_number

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def test_on_a_phone_a_trick_not_led_is_one_line_and_a_won_one_is_drawn_once(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A player on a 360x740 phone declares hand 1 and plays it with three others: before a trick's first
    card the felt's trick is a line under 40 pixels saying who leads, the felt ends above the hand at the bottom (no scroll
    needed to see both); while a won trick stays on the felt, "Last trick" shows the one before it."""
    conns, room, table = await four_seated(server, "p", "phone")
    assert table.match is not None
    mine = SEATS[table.match.hand.declarer]  # who leads the first trick
    token = conns[mine].token
    await conns.pop(mine).close()
    page = await open_page(**PHONE_SCREEN)
    await page.add_init_script(token_given_once(token))
    await page.goto(server.share_url)
    await page.wait_for_selector(".seat.bottom .who")
    await page.evaluate(WATCH)
    driver = asyncio.create_task(_drive(conns, room, table, done=lambda: hand_number(table) >= 2))
    try:
        async with asyncio.timeout(90):
            while hand_number(table) < 2:
                if (
                    await page.locator(".hand .playable").count()
                    and not await page.locator(".trick .played").count()
                ):
                    await page.wait_for_timeout(
                        300
                    )  # to lead: the felt, as the player sees it before their card
                await answer_once(page)
                await page.wait_for_timeout(50)
        seen: list[dict[str, Any]] = await page.evaluate("window.seen")
    finally:
        await stop_driving(driver, conns)
    leads = [s for s in seen if s["empty"] is not None and s["caption"].endswith(" to lead")]
    assert leads, seen[:10]
    assert {s["caption"].removesuffix(" to lead") for s in leads} <= set(SEAT_NAMES.values()), leads
    assert all(s["empty"] < 40 and s["feltBottom"] <= s["handTop"] for s in leads), leads
    won = [s for s in seen if len(s["trick"]) == 4 and s["caption"].startswith("won by")]
    assert won, seen[-10:]
    assert all(s["lastCards"] != s["trick"] for s in won), won
