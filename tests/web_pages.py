"""Support for the browser tests (not a test module): Debian's Chromium under Playwright (``browser``), pages
in contexts of their own (``open_page``), and the steps most tests start with: logging in, opening a table
from the lobby (with bots), dealing a solitaire. Test modules import the fixtures from here."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib.resources import files
from typing import Any

import pytest
from playwright.async_api import Browser, Page, async_playwright

from server import BarbuServer
from server.barbu_table import BarbuTable
from tests.browser import launch
from tests.conftest import server_table

SEAT_NAMES = {"N": "North", "E": "East", "S": "South", "W": "West"}


OpenPage = Callable[..., Awaitable[Page]]


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    async with async_playwright() as pw:
        chromium = await launch(pw)
        yield chromium
        await chromium.close()


@pytest.fixture
async def open_page(browser: Browser) -> AsyncIterator[OpenPage]:
    """A factory of pages, each in a browser context of its own (``context`` options: a viewport, touch);
    every script error a page logs fails the test at its end."""
    errors: list[str] = []

    async def open_one(**context: Any) -> Page:
        page = await (await browser.new_context(**context)).new_page()
        page.on("pageerror", lambda error: errors.append(f"{page.url}: {error}"))
        return page

    yield open_one
    assert errors == [], errors


async def login(page: Page, url: str, name: str) -> None:
    await page.goto(url)
    await page.fill("#login-name", name)
    await page.click("text=Log in")


async def open_table(page: Page, name: str) -> str:
    """The logged-in ``page`` creates table ``name`` from the lobby and sits there: its room id, once the page
    shows the host's "Add bot" buttons."""
    await page.fill("#table-name", name)
    await page.click("text=Create and sit down")
    await page.wait_for_selector("[data-focus^=bot-]")
    return page.url.rpartition("=")[2]


async def host_table(page: Page, server: BarbuServer, player: str, name: str) -> tuple[str, BarbuTable]:
    """``player`` logs in on ``page``, creates table ``name`` from the lobby's form and sits there: its room
    id and the server's table, once the page shows the host's "Add bot" buttons."""
    await login(page, server.share_url, player)
    await page.wait_for_selector("#table-name")
    room = await open_table(page, name)
    return room, server_table(server, room)


async def bot_table(
    page: Page, url: str, player: str, name: str, shown: str = ".seat.bottom", **choices: str
) -> str:
    """``player`` logs in at ``url`` on ``page`` and creates table ``name`` from the lobby's form with
    ``choices`` (a ``select``'s name: the option's value) and every other seat filled with bots; returns its
    room id once the page shows ``shown``."""
    await login(page, url, player)
    await page.wait_for_selector("#table-name")
    await page.fill("#table-name", name)
    for select, value in choices.items():
        await page.select_option(f"select[name={select}]", value)
    await page.select_option("select[name=bots]", "3")
    await page.click("text=Create and sit down")
    await page.wait_for_selector(shown)
    return page.url.rpartition("=")[2]


async def solitaire_deal(
    page: Page, url: str, player: str, game: str, deal: str = "random", shown: str = ".layout"
) -> None:
    """``player`` logs in at ``url`` on ``page``, picks ``game`` in the lobby and clicks "Play a ``deal``
    deal" (random, winnable), until the page shows ``shown``."""
    await login(page, url, player)
    await page.wait_for_selector("#game")
    await page.select_option("#game", game)
    await page.click(f"text=Play a {deal} deal")
    await page.wait_for_selector(shown)


async def answer(page: Page) -> None:
    """Whatever the page asks of its seat, answered by clicks: a contract (and its suit or rank), no double
    (or the double the rules require), the first playable card, or a pass."""
    if await page.locator(".contract").count():
        await page.locator(".contract").first.click()
        if await page.locator(".choice .buttons button").count():
            await page.locator(".choice .buttons button").first.click()
    elif await page.locator("[data-focus=no-double]").count():
        await page.click("[data-focus=no-double]")
    elif await page.locator("[data-focus=submit-double]").count():
        await page.locator("input[data-seat]").first.check()
        await page.click("[data-focus=submit-double]")
    elif await page.locator(".hand .playable").count():
        await page.locator(".hand .playable").first.click()
    elif await page.locator("[data-focus=pass]").count():
        await page.click("[data-focus=pass]")


#: The package shipping axe-core's script (``axe.min.js``): ``axe-playwright-python``, a test requirement.
#: The script is injected from its local file, so the page fetches nothing from elsewhere.
AXE_PACKAGE = "axe_playwright_python"


async def axe_violations(
    page: Page, impacts: tuple[str, ...] = ("serious", "critical")
) -> list[dict[str, Any]]:
    """axe-core's violations on ``page`` as it is now, of the given ``impacts``: each rule's ``id``, ``impact``
    and the ``targets`` (CSS selectors) and ``summary`` of the elements breaking it. axe's default rules run
    (WCAG 2.x A and AA, best practices) and the experimental label-content-name-mismatch. The script is an
    inline one to the page: its context must be opened with ``bypass_csp=True`` (the page's CSP refuses
    inline scripts)."""
    if not await page.evaluate("() => typeof window.axe === 'object'"):
        await page.add_script_tag(path=str(files(AXE_PACKAGE) / "axe.min.js"))
    found: list[dict[str, Any]] = await page.evaluate(
        """async (impacts) => {
          // label-content-name-mismatch is one of axe's experimental rules, off unless asked for.
          const rules = { 'label-content-name-mismatch': { enabled: true } };
          const result = await axe.run(document, { resultTypes: ['violations'], rules });
          return result.violations.filter((v) => impacts.includes(v.impact)).map((v) => ({
            id: v.id, impact: v.impact,
            targets: v.nodes.map((n) => n.target.join(' ')),
            summary: v.nodes.map((n) => n.failureSummary).slice(0, 3),
          }));
        }""",
        list(impacts),
    )
    return found


#: A phone's screen as the issues measure it (an iPhone 12 to 15): 390x844, touch.
PHONE_390: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


async def mid_hand(page: Page, deadline: float = 60.0) -> None:
    """Answer the page's questions by clicks (``answer``) until it is the seat's turn to play a card with a
    card of the trick already on the felt (bots play the other seats): a table mid-hand."""
    end = time.monotonic() + deadline
    while not (await page.locator(".hand .playable").count() and await page.locator(".trick .card").count()):
        assert time.monotonic() < end, "no card turn with a trick begun"
        if not await page.locator(".hand .playable").count():
            await answer(page)
        elif await page.locator(".trick .card").count() == 0:
            await answer(page)  # to lead: lead, and wait for the next trick
        await page.wait_for_timeout(100)


async def answer_ask(page: Page, yes: bool) -> str:
    """Answer the page's own question (``ask.js``, a modal ``dialog.ask``, in place of ``confirm()``) once it
    shows, by its "yes" or "no" button: its words."""
    box = page.locator("dialog.ask[open]")
    await box.wait_for()
    words = await box.locator("p").inner_text()
    await box.locator("[data-focus=ask-yes]" if yes else "[data-focus=ask-no]").click()
    await box.wait_for(state="detached")
    return words
