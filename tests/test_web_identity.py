"""The page's personal password, in Debian's Chromium against a real server: a name is claimed with it,
the browser keeps it beside the name, and from another browser only it takes the name's seat back (the
host has no "Let them log in again" any more). Skipped, naming the package, when Chromium is not
installed."""

from __future__ import annotations

import json

import pytest
from playwright.async_api import Page

from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer
from tests.web_pages import PHONE_390, OpenPage, browser, login, open_page, open_table

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

HINT = "Only you know it; it takes your seat back from any browser (left empty, this browser keeps one of its own)."


async def _log_in_as(page: Page, name: str, secret: str) -> None:
    """Fill the login form shown on ``page`` with ``name`` and the personal password ``secret``; submit."""
    await page.fill("#login-name", name)
    await page.fill("#login-secret", secret)
    await page.click("button:has-text('Log in')")


async def _refusal(page: Page, before: str) -> str:
    """The login's refusal once it says something other than ``before``."""
    await page.wait_for_function(
        "(before) => { const e = document.querySelector('.login .error'); return e && e.textContent && e.textContent !== before; }",
        arg=before,
    )
    return await page.inner_text(".login .error")


async def test_a_player_who_lost_their_browser_takes_the_seat_back_with_their_personal_password(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """bob claims his name with a personal password and sits; his phone is lost mid-match. From another,
    his name alone (the new browser makes a password of its own) and a wrong password are refused in words
    saying what to do; his own takes his seat back, hand and all, and that browser keeps it."""
    server = await start_server(grace=0.5)
    ann = await open_page()
    await login(ann, server.share_url, "ann")  # no password typed: this browser keeps one it made
    await ann.wait_for_selector("#table-name")
    room = await open_table(ann, "lost phone")
    bob = await open_page(**PHONE_390)
    await bob.goto(f"{server.share_url}#table={room}")
    assert await bob.inner_text("#login-secret-hint") == HINT
    await _log_in_as(bob, "bob", "bob's own")
    await bob.click("[data-focus=sit-E]")
    for seat in "SW":
        await ann.click(f"[data-focus=bot-{seat}]")
    await bob.wait_for_selector(".hand .card")
    await bob.context.close()  # the phone is lost, its token with it
    assert await ann.locator("[data-focus^=let-in]").count() == 0  # no host hands the seat to anyone
    again = await open_page(**PHONE_390)
    await again.goto(f"{server.share_url}#table={room}")
    await _log_in_as(again, "bob", "")
    said = await _refusal(again, "")
    assert said == "“bob” is someone's name here, with a personal password: type it, or pick another name."
    await _log_in_as(again, "bob", "bobs own")
    said = await _refusal(again, said)
    assert (
        said
        == "That is not the personal password of “bob”: type the one chosen for it, or pick another name."
    )
    await _log_in_as(again, "bob", "bob's own")
    await again.wait_for_selector(".hand .card")
    assert "East" in (await again.get_attribute(".seat.bottom", "aria-label") or "")
    kept = json.loads(await again.evaluate("() => localStorage.getItem('barbu.secrets')"))
    assert kept == {"bob": "bob's own"}
    made = json.loads(await ann.evaluate("() => localStorage.getItem('barbu.secrets')"))
    assert len(made["ann"]) >= 24  # the one ann's browser made for her
    assert server.store is not None and server.store.player_secret("ann") is not None
