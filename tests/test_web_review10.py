"""The browser client after a tenth review (two tabs, Pyramid's words, the keyboard), in Debian's Chromium
against a real server: a tab another tab of the same browser took over says so in view wherever it is
scrolled, with "Play here", and a request sent from it says so too. Skipped, naming the package, when
Chromium is not installed."""

from __future__ import annotations

import pytest

from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import until
from tests.test_web_browser import OpenPage, _bot_table, browser, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

TAKEN = "This game is open in another tab or window."
TAKEN_REQUEST = "This game is open in another tab or window: press “Play here” to play in this tab."

#: Whether the taken-over banner lies wholly inside the window, and whether its "Play here" has the focus.
BANNER_IN_VIEW = """() => {
  const banner = document.getElementById('taken');
  if (!banner) return null;
  const box = banner.getBoundingClientRect();
  return { shown: box.top >= 0 && box.bottom <= innerHeight && box.height > 0,
           focused: document.activeElement === document.getElementById('play-here') };
}"""


async def test_a_tab_taken_over_at_its_table_says_so_in_view_and_a_request_from_it_too(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The first tab plays at a table, scrolled down to its prompt and hand (the header, with its status
    line, out of view); the same browser opens the table in a second tab, which resumes the session. The
    first tab says so in a banner in view, its "Play here" focused; a chat line sent from it is told the
    game is open elsewhere (not "Connection lost: trying again…", for it does not try again)."""
    first = await open_page()
    await _bot_table(first, server.share_url, "twotabs", "two tabs")
    await first.evaluate("() => window.scrollTo(0, document.body.scrollHeight)")
    assert server.lobby is not None
    lobby = server.lobby
    at_first = lobby.online["twotabs"]

    second = await first.context.new_page()  # same browser: same localStorage, so the same token
    await second.goto(first.url)
    await second.wait_for_selector(".seat.bottom")
    await until(lambda: lobby.online.get("twotabs") not in (None, at_first), "the second tab resumed")

    await first.wait_for_selector("#taken")
    assert await first.evaluate(BANNER_IN_VIEW) == {"shown": True, "focused": True}
    assert await first.locator("#taken p").text_content() == TAKEN
    await first.fill("[aria-label='chat message']", "still here?")
    await first.click("text=Send")
    await first.locator(".notice", has_text=TAKEN_REQUEST).wait_for()

    await first.click("#play-here")  # taken back: the banner and the notice go
    await until(lambda: lobby.online.get("twotabs") not in (None, at_first), "the first tab took it back")
    await first.wait_for_selector("#taken", state="detached")
    await first.locator(".notice", has_text=TAKEN_REQUEST).wait_for(state="detached")
    await second.wait_for_selector("#taken")
