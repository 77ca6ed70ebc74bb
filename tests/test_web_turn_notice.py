"""The seat's turn noticed away from the table, in Debian's Chromium against a real server: the tab's title,
a sound made by the Web Audio API (off until the player turns it on, remembered), a system notification
while the tab is hidden (allowed from a button, never a surprise prompt) and a vibration. What the page asks
of the browser's APIs is recorded by a script run before the page's own. Skipped, naming the package, when
Chromium is not installed."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.async_api import Page

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.web_pages import PHONE_390, OpenPage, answer, bot_table, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]

TURN_TITLE = "● Your turn — Barbu"

#: Run before the page's scripts: counts the tones made, the vibrations and the notifications asked for,
#: every title the tab took, and lets the test hide the tab (``__hide(true)``: as when another tab is in front).
RECORD = """
window.__turn = { tones: 0, vibrations: [], notes: [], titles: [] };
const oscillator = AudioContext.prototype.createOscillator;
AudioContext.prototype.createOscillator = function () { window.__turn.tones += 1; return oscillator.call(this); };
navigator.vibrate = (pattern) => { window.__turn.vibrations.push(pattern); return true; };
let hidden = false;
Object.defineProperty(document, 'visibilityState', { get: () => (hidden ? 'hidden' : 'visible') });
window.__hide = (to) => { hidden = to; };
const Real = window.Notification;
window.Notification = class extends Real {
  constructor(title, options) { super(title, options); window.__turn.notes.push([title, options.body]); }
};
new MutationObserver(() => window.__turn.titles.push(document.title))
  .observe(document, { subtree: true, childList: true, characterData: true });
"""


async def _recorded(page: Page) -> dict[str, Any]:
    seen: dict[str, Any] = await page.evaluate("() => window.__turn")
    return seen


async def _next_turn(page: Page) -> None:
    """Act on the seat's turn (``answer``), then wait until it is the seat's turn again."""
    before = len((await _recorded(page))["vibrations"])
    await answer(page)
    deadline = time.monotonic() + 30
    while len((await _recorded(page))["vibrations"]) == before:
        assert time.monotonic() < deadline, "the seat's next turn"
        await page.wait_for_timeout(100)
        if await page.title() == TURN_TITLE:
            await answer(page)  # the turn began while acting: answered, and the next one is waited for
    await page.wait_for_function(f"() => document.title === {TURN_TITLE!r}")


@pytest.mark.parametrize("screen", ["desktop", "phone"])
async def test_the_players_turn_is_noticed_in_the_title_sound_notification_and_vibration(
    server: BarbuServer, open_page: OpenPage, screen: str
) -> None:
    context: dict[str, Any] = PHONE_390 if screen == "phone" else {"viewport": {"width": 1280, "height": 800}}
    page = await open_page(**context, permissions=["notifications"])
    await page.add_init_script(RECORD)
    await bot_table(page, server.share_url, f"tess-{screen}", "alerts", shown=".hand .card")
    await page.wait_for_function(f"() => document.title === {TURN_TITLE!r}")  # the seat's turn: its title
    await _next_turn(page)
    seen = await _recorded(page)
    assert (
        "Barbu — table" in seen["titles"] and seen["titles"][-1] == TURN_TITLE
    )  # not during the others' turns
    assert seen["tones"] == 0, "no sound unless the player asks for one"
    assert seen["vibrations"][-1] == [120, 60, 120]
    assert seen["notes"] == [], "no notification while the tab is in front"
    # Notifications allowed (the context grants them): said so instead of the button asking.
    said = await page.inner_text(".turn-alerts")
    assert "A notification tells you of your turn while this tab is hidden." in said
    await page.check("[data-focus=turn-sound]")  # heard at once, then at each turn
    seen = await _recorded(page)
    assert seen["tones"] == 2
    turns_before = len(seen["vibrations"])
    await page.evaluate("() => window.__hide(true)")
    await _next_turn(page)
    seen = await _recorded(page)
    assert seen["tones"] == 2 + 2 * (len(seen["vibrations"]) - turns_before)  # two tones a turn
    assert seen["notes"] and seen["notes"][-1][0] == "Your turn — Barbu"
    assert seen["notes"][-1][1].startswith("“alerts”: your turn to ")
    await page.reload()  # the setting is this browser's
    await page.wait_for_selector("[data-focus=turn-sound]")
    assert await page.is_checked("[data-focus=turn-sound]")


async def test_notifications_are_asked_for_from_a_button(server: BarbuServer, open_page: OpenPage) -> None:
    """Not yet allowed or refused: a button asks the browser (no prompt comes by itself); the browser's
    answer (here a refusal: nothing grants it) is said in its place."""
    page = await open_page()
    await bot_table(page, server.share_url, "nia", "ask", shown=".hand .card")
    assert await page.evaluate("() => Notification.permission") == "default"
    button = page.locator("[data-focus=turn-notify]")
    assert await button.inner_text() == "Notify me at my turn when this tab is hidden"
    await button.click()
    await button.wait_for(state="detached")
    assert await page.evaluate("() => Notification.permission") != "default"
    assert "Notifications are blocked for this page" in await page.inner_text(".turn-alerts")
