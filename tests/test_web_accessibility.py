"""The browser client for everyone, in Debian's Chromium against a real server: axe-core (from the PyPI
package axe-playwright-python, injected from its local file) finds no serious or critical violation on the
main screens, on a desktop and a phone; the felt's words meet WCAG AA contrast. Skipped, naming the package,
when Chromium is not installed."""

from __future__ import annotations

from typing import Any

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.web_pages import (
    PHONE_390,
    OpenPage,
    axe_violations,
    bot_table,
    browser,
    login,
    mid_hand,
    open_page,
    solitaire_deal,
)

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]

SCREENS = {"desktop": {"viewport": {"width": 1280, "height": 800}}, "phone": PHONE_390}


@pytest.mark.parametrize("screen", SCREENS)
@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_no_serious_violation_on_the_main_screens(
    server: BarbuServer, open_page: OpenPage, screen: str, scheme: str
) -> None:
    """Login, lobby, a table mid-hand (a card of the trick on the felt, the seat to play) and a solitaire:
    axe-core finds no serious or critical violation (colour contrast, names, focusable scroll regions)."""
    context: dict[str, Any] = {**SCREENS[screen], "color_scheme": scheme, "bypass_csp": True}
    found: dict[str, list[dict[str, Any]]] = {}
    page = await open_page(**context)
    await page.goto(server.share_url)
    await page.wait_for_selector("#login-name")
    found["login"] = await axe_violations(page)
    await login(page, server.share_url, f"axe-{screen}-{scheme}")
    await page.wait_for_selector("#table-name")
    found["lobby"] = await axe_violations(page)
    table = await open_page(**context)
    await bot_table(table, server.share_url, f"t-{screen}-{scheme}", "axe", shown=".hand .card")
    await mid_hand(table)
    found["table"] = await axe_violations(table)
    solitaire = await open_page(**context)
    await solitaire_deal(
        solitaire, server.share_url, f"s-{screen}-{scheme}", "forty-thieves", shown=".layout .column"
    )
    found["solitaire"] = await axe_violations(solitaire)
    assert {name: v for name, v in found.items() if v} == {}


async def test_a_right_to_left_name_is_isolated_where_it_is_shown(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A player named in Arabic script: their name in the page's bar, their seat on the felt, the score
    sheet's column head and the lobby's seat list each sit in a <bdi>, so the letters and numbers beside it
    keep their order."""
    name = "نور"
    page = await open_page()
    room = await bot_table(page, server.share_url, name, "bidi", shown=".hand .card")
    isolated = "(selector) => [...document.querySelectorAll(selector)].map((el) => el.textContent)"
    assert name in await page.evaluate(isolated, "#who bdi")
    assert name in await page.evaluate(isolated, ".seat .who bdi")
    await page.click("text=Score sheet")
    await page.wait_for_selector("dialog.sheet")
    await page.click("[data-focus=close-sheet]")
    await page.click("text=Lobby")
    await page.locator(f"[data-room='{room}']").wait_for()
    assert name in await page.evaluate(isolated, f"[data-room='{room}'] .seats-list bdi")


async def test_a_question_is_the_pages_own_dialog_answered_from_the_keyboard(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """ "Resign" asks in the page's own modal dialog, not the browser's confirm(): the focus starts on
    "Cancel", Escape answers no (the game goes on, the focus back on Resign), Tab and Enter on "Resign"
    answer yes; axe-core finds nothing serious in the open dialog."""
    page = await open_page(bypass_csp=True)
    native: list[str] = []
    page.on("dialog", lambda dialog: native.append(dialog.message))
    await solitaire_deal(page, server.share_url, "quitter", "forty-thieves", shown="[data-focus=Resign]")
    await page.focus("[data-focus=Resign]")
    await page.keyboard.press("Enter")
    box = page.locator("dialog.ask[open]")
    await box.wait_for()
    assert await box.locator("p").inner_text() == "Give up this game?"
    assert await page.evaluate("() => document.activeElement.dataset.focus") == "ask-no"
    assert await axe_violations(page) == []
    await page.keyboard.press("Escape")
    await box.wait_for(state="detached")
    assert await page.evaluate("() => document.activeElement.dataset.focus") == "Resign"
    assert await page.locator(".result").count() == 0
    await page.keyboard.press("Enter")
    await box.wait_for()
    await page.keyboard.press("Tab")
    assert await page.evaluate("() => document.activeElement.dataset.focus") == "ask-yes"
    await page.keyboard.press("Enter")
    await page.wait_for_selector(".result.resigned")
    assert native == []
