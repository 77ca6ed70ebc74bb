"""Debian's Chromium driven by Playwright (from PyPI; its own browser download is never used), for the
browser tests and ``benchmarks/web_screens.py``.

Chromium runs headless with the flags this machine needs: ``--no-sandbox`` (tests run as root) and no
background networking (the machine has no network but the package registries).
"""

from __future__ import annotations

import os
import shutil

from playwright.async_api import Browser, Playwright, ViewportSize

#: Where Debian's ``chromium`` package puts the browser (``BARBU_CHROMIUM`` overrides it).
CHROMIUM = os.environ.get("BARBU_CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: Viewports: a desktop and a 360-pixel-wide phone.
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 360, "height": 740}
MISSING = "Chromium is not installed: apt-get install chromium (Debian's package, /usr/bin/chromium)"


def chromium_found() -> bool:
    """Whether the Chromium binary is there to drive."""
    return os.access(CHROMIUM, os.X_OK) or shutil.which(CHROMIUM) is not None


async def launch(playwright: Playwright, *flags: str) -> Browser:
    """Start headless Chromium (Debian's) under Playwright, with ``flags`` besides ``FLAGS``."""
    return await playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=[*FLAGS, *flags])


def token_given_once(token: str | None) -> str:
    """An init script that gives a page's browser the resume token ``token`` once, as a player's browser
    holds it: later loads (a reload, another tab of the same context) find the token the page keeps by then.
    Set again at every load, the first token would come back after the page had used its fresh one, and a
    token replaced and used no longer works (docs/protocol.md, "Resume tokens")."""
    assert token is not None, "the connection had no resume token to give"
    return (
        "if (!localStorage.getItem('barbu.token-given')) {"
        f" localStorage.setItem('barbu.token', {token!r}); localStorage.setItem('barbu.token-given', '1'); }}"
    )


#: Run in a page (``page.evaluate(OPEN_AND_LOG_IN, url)``): open a WebSocket to the URL given, and once open
#: say hello and log in as "mallory" (JSON, as the browser client does); what came of it: "logged-in", or
#: the close code. For the tests of what a page of another origin or name can do with the server.
OPEN_AND_LOG_IN = """(url) => new Promise((resolve) => {
  const ws = new WebSocket(url);
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: "hello", id: 1, version: 1, client: "elsewhere" }));
    ws.send(JSON.stringify({ type: "login", id: 2, name: "mallory" }));
  };
  ws.onmessage = (event) => { const reply = JSON.parse(event.data); if (reply.id === 2) resolve(reply.type); };
  ws.onclose = (event) => resolve(`closed ${event.code}`);
})"""
