"""The browser client after the review of issue 9 (two tabs, a hand's results), in Debian's Chromium
against a real server: a tab another tab took over shows its table greyed, its controls out of use, and a
click on them says to press "Play here". Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import until
from tests.test_web_browser import OpenPage, _bot_table, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

PRESS_PLAY_HERE = "Press “Play here” to play in this tab."

#: The first control of the seat's question (a contract, a double, a card to play): where it is, and
#: whether it is out of use (disabled, or inside an inert part of the page).
PROMPT_CONTROL = """() => {
  const control = document.querySelector('.prompt button, .prompt input, .hand button.playable, .hand [data-card]');
  if (!control) return null;
  const box = control.getBoundingClientRect();
  return { x: box.x + box.width / 2, y: box.y + box.height / 2,
           unusable: control.disabled || Boolean(control.closest('[inert]')) };
}"""


async def test_a_tab_taken_over_shows_its_controls_out_of_use_and_a_click_there_says_play_here(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The first tab is asked a question at its table (a contract, a double or a card); the same browser
    opens the table in a second tab. The first tab's controls are out of use (not a click that silently
    does nothing): a click on one says, in the banner, to press "Play here", which keeps the focus."""
    first = await open_page()
    await _bot_table(first, server.share_url, "twotabs", "two tabs")
    await first.wait_for_selector(".prompt .choice, .prompt .your-turn")
    assert server.lobby is not None
    at_first = server.lobby.online["twotabs"]
    second = await first.context.new_page()  # same browser: same localStorage, so the same token
    await second.goto(first.url)
    await second.wait_for_selector(".seat.bottom")
    await until(
        lambda: server.lobby is not None and server.lobby.online.get("twotabs") is not at_first, "resumed"
    )
    await first.wait_for_selector("#taken")

    control = await first.evaluate(PROMPT_CONTROL)
    assert control is not None and control["unusable"], control
    await first.mouse.click(control["x"], control["y"])
    await first.locator("#taken", has_text=PRESS_PLAY_HERE).wait_for(timeout=5_000)
    assert await first.evaluate("document.activeElement.id") == "play-here"
