"""What another site's page and a damaged link can do to the browser client (issue 27, items 3 and 8), in
Debian's Chromium against a real server: a page served from another loopback port cannot open the server's
WebSocket (the handshake is refused, nothing logs in) while the server's own page connects and logs in under
its ``connect-src 'self'`` policy; and ``/#table=%`` (a fragment ``decodeURIComponent`` throws on) is no link
at all: the login says the link is damaged, the lobby follows, and the page goes on, logged in or not.
Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import threading
from collections.abc import AsyncIterator, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from playwright.async_api import Browser, Page, async_playwright

from server import BarbuServer
from tests.browser import MISSING, OPEN_AND_LOG_IN, chromium_found, launch
from tests.conftest import until

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)


class ElsewherePage(BaseHTTPRequestHandler):
    """Another site: a blank page on its own port, for a script to run in its origin."""

    def do_GET(self) -> None:
        body = b"<!doctype html><title>elsewhere</title><p>another site"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        """Quiet: the test's output is not a web server's log."""


@pytest.fixture
def elsewhere() -> Iterator[str]:
    """The address of a page served from another loopback port (another origin than the server's)."""
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), ElsewherePage)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()
    thread.join(5)


@pytest.fixture
async def page() -> AsyncIterator[Page]:
    """A page in a browser context of its own; a script error it logs fails the test."""
    errors: list[str] = []
    async with async_playwright() as pw:
        browser: Browser = await launch(pw)
        opened = await (await browser.new_context()).new_page()
        opened.on("pageerror", lambda error: errors.append(f"{opened.url}: {error}"))
        yield opened
        await browser.close()
    assert errors == [], errors


async def test_another_sites_page_cannot_open_the_websocket_the_servers_own_page_can(
    server: BarbuServer, page: Page, elsewhere: str
) -> None:
    await page.goto(elsewhere)
    assert await page.evaluate(OPEN_AND_LOG_IN, server.url) == "closed 1006"  # the handshake refused
    assert server.lobby is not None and "mallory" not in server.lobby.online
    await until(lambda: server.connections.total == 0, "the refused connection to be gone")
    # The server's own page: its WebSocket opens (connect-src 'self'), and so does one its script opens.
    await page.goto(server.share_url)
    await page.fill("#login-name", "ann")
    await page.click("text=Log in")
    await page.wait_for_selector("#table-name")
    assert "ann" in server.lobby.online
    assert await page.evaluate(OPEN_AND_LOG_IN, server.url) == "logged-in"
    assert "mallory" in server.lobby.online


async def test_a_damaged_table_link_is_no_link_and_the_page_goes_on(server: BarbuServer, page: Page) -> None:
    await page.goto(server.share_url + "#table=%")
    await page.wait_for_selector("#login-name")
    said = await page.text_content(".login .invited")
    assert said is not None and "link you opened is damaged" in said, said
    await page.fill("#login-name", "ann")
    await page.click("text=Log in")
    await page.wait_for_selector("#table-name")
    assert await page.evaluate("location.hash") == "#lobby"
    # Logged in, a damaged link followed (a hash change) or reloaded shows the lobby too.
    for damaged in ("#table=%E0%A4%A", "#replay=%"):
        await page.evaluate("(hash) => { location.hash = hash; }", damaged)
        await page.wait_for_function("location.hash === '#lobby'")
    await page.goto(server.share_url + "#solitaire=%zz")
    await page.wait_for_function("location.hash === '#lobby'")
    await page.wait_for_selector("#table-name")
