"""A hint the server is too busy for is said in words where people read it, soon, instead of "Thinking…" for
as long as every worker is taken: the browser (Debian's Chromium) and the terminal client against a real
server whose only worker another player's job holds. Skipped, naming the package, when Chromium is not
installed (the browser's test)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from server import BarbuServer
from tests import worker_jobs
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, until
from tests.tui_support import on_screen, opened_solitaire, running_tui, screen_lines
from tests.web_pages import OpenPage, browser, open_page, solitaire_deal

__all__ = ["browser", "open_page"]  # the browser fixtures
BUSY = "The server is busy: try the hint again in a moment."
#: Seconds a hint may search: it waits three times that for a worker, then is answered ``busy``.
HINT_BUDGET = 0.2


@pytest.fixture
async def taken(start_server: StartServer) -> AsyncIterator[BarbuServer]:
    """A server with one worker, held by another player's job for far longer than a hint may wait."""
    server = await start_server(workers=1, hint_budget=HINT_BUDGET)
    pool = server.workers
    assert pool is not None
    hog = asyncio.get_running_loop().create_task(pool.run("player:hog", worker_jobs.nap, 120.0, budget=240.0))
    await until(lambda: pool.running == 1, "the other player's job to take the worker")
    yield server
    hog.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await hog


@pytest.mark.skipif(not chromium_found(), reason=MISSING)
async def test_the_page_says_the_server_is_busy_instead_of_thinking_on(
    taken: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page()
    await solitaire_deal(page, taken.share_url, "bea", "forty-thieves")
    await page.click("text=Hint")
    said = await page.wait_for_selector(f"text={BUSY}", timeout=60_000)  # the worker stays taken 120 s
    assert said is not None and await said.get_attribute("class") == "error"
    assert await page.locator(".thinking").count() == 0
    assert await page.locator("button:has-text('Hint')").is_enabled(), "the player may ask again"
    assert taken.workers is not None and taken.workers.running == 1, "said while the worker was still taken"


async def test_the_terminal_client_says_the_server_is_busy(taken: BarbuServer) -> None:
    async with running_tui(taken.url, "tess") as (tui, pipe):
        sol = await opened_solitaire(tui, "forty-thieves", {}, 1, what="Forty Thieves 1")
        pipe.send_text("h")
        await until(lambda: BUSY in sol.message, "the busy hint said", 60)
        assert on_screen(tui, BUSY), "\n".join(screen_lines(tui))
        assert taken.workers is not None and taken.workers.running == 1, (
            "said while the worker was still taken"
        )
