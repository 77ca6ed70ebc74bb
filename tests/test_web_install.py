"""The browser client as an installable app, in Debian's Chromium against a real server: the web app
manifest (names, theme colour, icons of 192 and 512 pixels and a maskable one, each served as a PNG of its
size), and the service worker that keeps the page's own files, so that a page opened while the server is
down says it is offline, and carries on once the server is back. Skipped, naming the package, when
Chromium is not installed."""

from __future__ import annotations

import struct
from typing import Any

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer
from tests.web_pages import OpenPage, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]

#: The manifest the page links to, its content type, and each icon's content type and bytes (as numbers).
MANIFEST = """async () => {
  const link = document.querySelector('link[rel=manifest]').href;
  const response = await fetch(link);
  const manifest = await response.json();
  const icons = [];
  for (const icon of manifest.icons) {
    const got = await fetch(icon.src);
    icons.push({ ...icon, type_served: got.headers.get('Content-Type'), head: [...new Uint8Array(await got.arrayBuffer()).slice(0, 24)] });
  }
  return { type: response.headers.get('Content-Type'), manifest, icons,
    theme: document.querySelector('meta[name=theme-color]').content };
}"""


def _png_size(head: list[int]) -> tuple[int, int]:
    """The width and height a PNG's first 24 bytes (its signature and IHDR chunk) say."""
    data = bytes(head)
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", data
    width, height = struct.unpack(">II", data[16:24])
    return width, height


async def test_the_manifest_names_the_app_its_colour_and_its_icons(
    server: BarbuServer, open_page: OpenPage
) -> None:
    page = await open_page()
    await page.goto(server.share_url)
    found: dict[str, Any] = await page.evaluate(MANIFEST)
    assert found["type"] == "application/manifest+json"
    manifest = found["manifest"]
    assert (
        manifest["name"] == "Barbu" and manifest["start_url"] == "/" and manifest["display"] == "standalone"
    )
    assert manifest["theme_color"] == found["theme"] == "#185a38"
    sizes = {(icon["sizes"], icon["purpose"]) for icon in found["icons"]}
    assert sizes == {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")}
    for icon in found["icons"]:
        assert icon["type_served"] == "image/png"
        side = int(icon["sizes"].partition("x")[0])
        assert _png_size(icon["head"]) == (side, side)


#: Whether the service worker runs this page, and which of the page's own loaded files its cache holds.
CACHED = """async () => {
  const ready = await navigator.serviceWorker.ready;
  const cache = await caches.open('barbu-v1');
  const own = performance.getEntriesByType('resource').map((e) => new URL(e.name))
    .filter((u) => u.origin === location.origin).map((u) => u.pathname + u.search);
  const missing = [];
  for (const path of ['/', ...own]) if (!(await cache.match(path))) missing.push(path);
  return { active: Boolean(ready.active), controlled: Boolean(navigator.serviceWorker.controller), files: own.length, missing };
}"""


async def test_opened_while_the_server_is_down_the_app_says_offline_then_carries_on(
    start_server: StartServer, open_page: OpenPage
) -> None:
    server = await start_server()
    port = server.port
    page = await open_page()
    await page.goto(server.share_url)
    await page.wait_for_selector("#login-name")
    await page.wait_for_function(f"async () => ({CACHED})().then((c) => c.active && c.missing.length === 0)")
    seen = await page.evaluate(CACHED)
    assert seen["files"] >= 10, seen  # the style sheets and the modules
    await server.stop()
    await page.reload()  # the page and its files from the cache; the WebSocket finds no server
    said = page.locator(".offline-note")
    await said.wait_for()
    assert (await said.inner_text()).startswith("Offline: the server cannot be reached just now.")
    assert (await page.evaluate(CACHED))["controlled"]
    await start_server(port=port)
    await page.wait_for_selector("#login-name", timeout=30_000)  # back by itself, at the login
    assert await page.locator(".offline-note").count() == 0
