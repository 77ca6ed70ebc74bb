"""DNS rebinding in Debian's Chromium against a real server: Chromium resolves ``evil.test`` to 127.0.0.1
(``--host-resolver-rules``), as a rebinding site's name does once it re-resolves to the barbu server, so a
page at ``http://evil.test:PORT/`` is the server under a foreign name. The server refuses the page (421),
and a script running in that origin cannot open the WebSocket (403: closed 1006) and logs nobody in, while
the same server's page under its address works. Skipped, naming the package, when Chromium is not
installed."""

from __future__ import annotations

import pytest
from playwright.async_api import async_playwright

from server import BarbuServer
from tests.browser import MISSING, OPEN_AND_LOG_IN, chromium_found, launch

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)


async def test_a_page_under_a_rebound_name_is_refused_and_cannot_open_the_websocket(
    server: BarbuServer,
) -> None:
    async with async_playwright() as pw:
        browser = await launch(pw, "--host-resolver-rules=MAP evil.test 127.0.0.1")
        try:
            page = await (await browser.new_context()).new_page()
            response = await page.goto(f"http://evil.test:{server.port}/")
            assert response is not None and response.status == 421
            assert "does not answer browsers under the name" in await page.content()
            assert await page.evaluate("location.origin") == f"http://evil.test:{server.port}"
            assert await page.evaluate(OPEN_AND_LOG_IN, f"ws://evil.test:{server.port}") == "closed 1006"
            assert server.lobby is not None and "mallory" not in server.lobby.online
            # The same browser, the server's address: the page loads and its origin's WebSocket logs in.
            response = await page.goto(server.share_url)
            assert response is not None and response.status == 200
            assert await page.evaluate(OPEN_AND_LOG_IN, server.url) == "logged-in"
            assert "mallory" in server.lobby.online
        finally:
            await browser.close()
