"""The standings in the browser's lobby, in Debian's Chromium against a real server: empty at first, then,
once a match finishes while the lobby is shown, the players with their matches, firsts, average place and
rating as the server counts them (bots not listed), on a desktop and on a phone without widening the page.
Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import pytest
from playwright.async_api import Page, ViewportSize, async_playwright

from server import BarbuServer
from tests.browser import DESKTOP, MISSING, PHONE, chromium_found, launch
from tests.conftest import Connect, StartServer
from tests.standings_support import finish_match

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)

#: The standings table's rows as the page shows them, each a list of its cells' text.
ROWS = """() => [...document.querySelectorAll('.standings tbody tr')]
  .map((tr) => [...tr.children].map((cell) => cell.textContent))"""
#: How far the page is wider than its window (0: no sideways scrolling).
OVERFLOW = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def minus(text: str) -> str:
    """A number as the page writes it (a true minus sign)."""
    return text.replace("-", "−")


async def logged_in(page: Page, server: BarbuServer, name: str) -> None:
    await page.goto(server.share_url)
    await page.fill("#login-name", name)
    await page.click("text=Log in")
    await page.wait_for_selector("#standings-title")


async def test_the_lobby_shows_the_standings_once_a_match_finishes(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    async with async_playwright() as pw:
        browser = await launch(pw)
        errors: list[str] = []
        try:
            viewport: ViewportSize
            pages = []
            for viewport in (DESKTOP, PHONE):
                page = await (await browser.new_context(viewport=viewport)).new_page()
                page.on("pageerror", lambda error: errors.append(str(error)))
                pages.append(page)
            await logged_in(pages[0], server, "cat")
            await pages[0].wait_for_selector(".standings >> text=No match has finished on this server yet")

            ann, bob = await connect(server, "ann"), await connect(server, "bob")
            await finish_match(server, {"N": ann, "E": bob}, "evening")
            rows = await ann.standings()
            expected = [
                [
                    r["name"],
                    str(r["matches"]),
                    str(r["firsts"]),
                    f"{r['average_place']:.2f}",
                    minus(f"{r['rating']:.1f}"),
                ]
                for r in rows
            ]
            assert sorted(r[0] for r in expected) == ["ann", "bob"]
            # The lobby shown all along asks again when it sees the match over (its next list-rooms poll).
            await pages[0].wait_for_function(f"() => ({ROWS})().length === {len(rows)}", timeout=20_000)
            assert await pages[0].evaluate(ROWS) == expected

            await logged_in(pages[1], server, "dee")
            await pages[1].wait_for_selector(".standings tbody tr")
            assert await pages[1].evaluate(ROWS) == expected
            assert await pages[1].evaluate(OVERFLOW) <= 0
        finally:
            await browser.close()
    assert errors == []
