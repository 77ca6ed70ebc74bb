"""The match's standings chart, in Debian's Chromium against a real server: a finished match's table, its
score sheet and its replay's last hand draw each seat's running total over the 28 hands as an SVG line whose
last point is the seat's final total in the stored record, named by seat and player, with a title and a
description for a screen reader, within a phone's (390x844) and a desktop's width. Skipped, naming the
package, when Chromium is not installed."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.async_api import Locator, Page, ViewportSize, async_playwright

from server import BarbuServer
from tests.browser import DESKTOP, MISSING, chromium_found, launch
from tests.conftest import Connect, StartServer, finished_table, server_table

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)

PHONE_390: ViewportSize = {"width": 390, "height": 844}
#: Each line's seat and the total its last point stands for: (zero - y) / unit (standings_chart.js).
LAST_TOTALS = """(svg) => Object.fromEntries([...svg.querySelectorAll('polyline')].map((line) => {
  const points = line.getAttribute('points').trim().split(' ');
  const y = Number(points[points.length - 1].split(',')[1]);
  return [line.dataset.seat, [points.length, (Number(svg.dataset.zero) - y) / Number(svg.dataset.unit)]];
}))"""


async def _checked(chart: Locator, totals: dict[str, int], players: dict[str, str], width: int) -> None:
    svg = chart.locator("svg.standings-chart")
    lines = await svg.evaluate(LAST_TOTALS)
    assert set(lines) == set("NESW")
    for seat, (points, total) in lines.items():
        assert points == 29, seat  # 0 before hand 1, then after each of the 28 hands
        assert abs(total - totals[seat]) < 0.05, (seat, total, totals[seat])
    title = await svg.locator("title").text_content()
    desc = await svg.locator("desc").text_content() or ""
    assert title == "Running totals over 28 hands"
    for seat in "NESW":
        assert str(abs(totals[seat])) in desc
    labelled = await svg.get_attribute("aria-labelledby") or ""
    assert len(labelled.split()) == 2 and await svg.get_attribute("role") == "img"
    caption = await chart.locator("figcaption").text_content() or ""
    for seat, player in players.items():
        name = "bot" if player.startswith("bot:") else player
        assert f"{seat} {name}" in caption
    box = await svg.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    assert box["height"] > 150  # tall enough to read on a phone too


async def _logged_in(page: Page, server: BarbuServer, name: str, where: str) -> None:
    await page.goto(server.share_url + where)
    await page.fill("#login-name", name)
    await page.click("text=Log in")


async def test_a_finished_match_shows_its_standings_chart(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    host = await connect(server, "ann")
    room = await finished_table(server, host, "evening")
    table = server_table(server, room)
    record: dict[str, Any] | None = table.store.room(table.store_id).record
    assert record is not None
    totals, players = record["totals"], record["players"]
    async with async_playwright() as pw:
        browser = await launch(pw)
        errors: list[str] = []
        try:
            for viewport, name in ((DESKTOP, "cat"), (PHONE_390, "dee")):
                page = await (await browser.new_context(viewport=viewport)).new_page()
                page.on("pageerror", lambda error: errors.append(str(error)))
                # A refused inline style or script (the CSP) is a console error too.
                page.on(
                    "console",
                    lambda message: errors.append(message.text) if message.type == "error" else None,
                )
                # The finished table: its ranking, with the chart under it.
                await _logged_in(page, server, name, f"#table={room}")
                ranking = page.locator(".ranking figure.standings-figure")
                await ranking.wait_for()
                await _checked(ranking, totals, players, viewport["width"])
                # The replay of the match, at the end of its last hand.
                await page.goto(f"{server.share_url}#replay={room}")
                await page.wait_for_selector(".replay-screen .controls")
                for _ in range(27):
                    await page.get_by_role("button", name="next hand").click()
                await page.get_by_role("button", name="End of hand").click()
                replayed = page.locator(".replay-screen figure.standings-figure")
                await replayed.wait_for()
                await _checked(replayed, totals, players, viewport["width"])
                # Its score sheet ends with the chart too.
                await page.get_by_role("button", name="Score sheet").click()
                sheet = page.locator("dialog.sheet figure.standings-figure")
                await sheet.wait_for()
                await _checked(sheet, totals, players, viewport["width"])
        finally:
            await browser.close()
    assert errors == []
