"""Screenshots of every screen of the browser client, on a desktop and on a 360-pixel phone, light and dark,
for a person to look at (nothing is asserted). Starts a real server on a free loopback port.

    .venv/bin/python benchmarks/web_screens.py [--out DIR] [--scheme light|dark] [--size desktop|phone]
    # default: web-screens/ (PNG files), both schemes and both sizes
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

from playwright.async_api import Page, async_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script: find tests.browser
from client import Connection
from server import BarbuServer, ServerConfig
from tests.browser import DESKTOP, MISSING, PHONE, chromium_found, launch


async def bots_match(server: BarbuServer, page: Page, base: str, tag: str) -> str:
    """A whole match of four server bots watched by ``page`` from its start to its ranking; returns the
    room id (for the replay)."""
    host = await Connection.connect(server.url)
    await host.login(f"host-{tag}")
    room = await host.create_table(f"Bots {tag}")
    for seat in ("N", "E", "S"):
        await host.add_bot(room, seat, "heuristic")
    await page.goto(f"{base}#table={room}")
    await page.wait_for_selector(".seat")
    await host.add_bot(room, "W", "random")
    await host.close()
    return room


async def shoot(page: Page, out: Path, name: str, screen: bool = False) -> None:
    """The whole page as ``NAME.png``; with ``screen``, also what the screen shows as ``NAME-screen.png``
    (the page as scrolled by itself, the hand kept at the bottom: what a phone player sees at once)."""
    await page.wait_for_timeout(250)
    if screen:
        await page.screenshot(path=str(out / f"{name}-screen.png"))
        print(out / f"{name}-screen.png")
    await page.screenshot(path=str(out / f"{name}.png"), full_page=True)
    print(out / f"{name}.png")


async def screens(server: BarbuServer, out: Path, scheme: str, size: str) -> None:
    async with async_playwright() as pw:
        browser = await launch(pw)
        viewport = DESKTOP if size == "desktop" else PHONE
        context = await browser.new_context(viewport=viewport, color_scheme=scheme)  # type: ignore[arg-type]
        page = await context.new_page()
        page.on("dialog", lambda dialog: asyncio.ensure_future(dialog.accept()))  # "This ends your game..."
        tag = f"{size}-{scheme}"
        base = server.share_url.replace("localhost", "127.0.0.1")
        await page.goto(base)
        await page.wait_for_selector("#login-name")
        await shoot(page, out, f"login-{tag}")
        await page.fill("#login-name", f"ann-{tag}")
        await page.click("text=Log in")
        await page.wait_for_selector("#table-name")
        await page.fill("#table-name", f"Screens {tag}")
        await page.select_option("select[name=bot_policy]", "heuristic")
        await page.select_option("select[name=rotation]", "each-hand")
        await page.select_option("select[name=bots]", "3")
        await page.select_option("select[name=turn_time]", "60")
        await shoot(page, out, f"lobby-{tag}")
        await page.click("text=Create and sit down")
        await page.wait_for_selector(".seat")
        invited = await (await browser.new_context(viewport=viewport, color_scheme=scheme)).new_page()  # type: ignore[arg-type]
        await invited.goto(
            await page.input_value(".invite")
        )  # the invite link: the login page names the table
        await invited.wait_for_selector("#login-name")
        await shoot(invited, out, f"invite-login-{tag}")
        await invited.context.close()
        taken: set[str] = set()
        phone = size == "phone"
        wanted = {"contract", "doubling", "table-play", "dominoes-play", "hand-summary"}
        if phone:  # a desktop shows the last hand's results open beside the next question, never folded
            wanted.add("folded-summary")
        for _ in range(3000):  # play on (each-hand rotation: you declare within 4 hands) until each is seen
            if taken >= wanted:
                break
            # The last hand's results folded above the next question.
            if "folded-summary" not in taken and await page.locator("details.summary.folded").count():
                await shoot(page, out, f"folded-summary-{tag}", screen=phone)
                taken.add("folded-summary")
                if "hand-summary" not in taken:  # a phone asked at once keeps them folded: open them
                    await page.click("[data-focus=open-summary]")
            if await page.locator("[data-focus=close-summary]:visible").count():
                if "hand-summary" not in taken:
                    await shoot(page, out, f"hand-summary-{tag}")
                    taken.add("hand-summary")
                await page.click("[data-focus=close-summary]")
            elif await page.locator(".contract").count():
                if "contract" not in taken:
                    await shoot(page, out, f"contract-{tag}", screen=phone)
                    taken.add("contract")
                # Dominoes first (its rows seen), then the first contract left.
                dominoes = page.locator("[data-contract=dominoes]")
                await (dominoes if await dominoes.count() else page.locator(".contract").first).click()
                await page.wait_for_timeout(100)
                if await page.locator("[data-focus^=rank-]").count():
                    await page.click("[data-focus^=rank-] >> nth=0")
            elif await page.locator("#double-title").count():
                if "doubling" not in taken:
                    await shoot(page, out, f"doubling-{tag}", screen=phone)
                    taken.add("doubling")
                if await page.locator("[data-focus=no-double]").count():
                    await page.click("[data-focus=no-double]")
                else:
                    await page.locator("input[data-seat]").first.check()
                    await page.click("[data-focus=submit-double]")
            elif await page.locator(".hand .playable").count():
                trick = await page.locator(".trick .card").count()
                if "table-play" not in taken and trick >= 2 and await page.locator(".last-trick").count():
                    await shoot(page, out, f"table-play-{tag}", screen=phone)
                    taken.add("table-play")
                if "dominoes-play" not in taken and await page.locator(".rows .card").count() >= 2:
                    await shoot(page, out, f"dominoes-play-{tag}", screen=phone)
                    taken.add("dominoes-play")
                await page.locator(".hand .playable").first.click()
            elif await page.locator("[data-focus=pass]").count():
                await page.click("[data-focus=pass]")
            await page.wait_for_timeout(80)
        await page.click("text=Score sheet")
        await shoot(page, out, f"score-sheet-{tag}")
        await page.click("[data-focus=close-sheet]")
        room = await bots_match(server, page, base, tag)
        await page.wait_for_selector(".prompt:has-text('The match is over.')", timeout=120_000)
        # The last trick stays on the felt a moment; then a phone shows the last hand's summary before the
        # ranking, a desktop both at once.
        await page.wait_for_selector("[data-focus=close-summary], .ranking", timeout=30_000)
        if await page.locator("[data-focus=close-summary]").count():
            await shoot(page, out, f"last-hand-summary-{tag}")
            await page.click("[data-focus=close-summary]")
        await page.wait_for_selector(".ranking", timeout=120_000)
        await shoot(page, out, f"match-over-{tag}")
        await page.goto(f"{base}#replay={room}")
        await page.wait_for_selector(".narration")
        for _ in range(14):
            await page.click("[aria-label='one step forward']")
        await shoot(page, out, f"replay-{tag}")
        await page.goto(f"{base}#lobby")
        for game in ("forty-thieves", "pyramid", "bakers-dozen"):
            await page.wait_for_selector("#game")
            await page.select_option("#game", game)
            await page.click("text=Play a random deal")
            await page.wait_for_selector(".layout")
            await shoot(page, out, f"solitaire-{game}-{tag}")
            if game == "forty-thieves":  # a hint marked on the board, then a refused move in words
                await page.click("[data-focus=hint]")
                await page.wait_for_selector(".hint, .error", timeout=60_000)
                await shoot(page, out, f"solitaire-hint-{tag}")
                await page.locator("[data-pile=t1]").last.click()
                await shoot(page, out, f"solitaire-pick-{tag}")  # the move half made: the board stays put
                await page.locator("[data-pile=t2]").last.click()
                await page.wait_for_timeout(300)
                await shoot(page, out, f"solitaire-refused-{tag}")
            await page.goto(f"{base}#lobby")
        await page.goto(f"{base}#table={room}")  # a finished match's link: its ranking
        await page.wait_for_selector(".ranking")
        await shoot(page, out, f"finished-link-{tag}")
        await browser.close()


async def main(out: Path, schemes: list[str], sizes: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        config = ServerConfig(host="127.0.0.1", port=0, db=f"{tmp}/screens.sqlite3", bot_delay=0.0)
        async with BarbuServer(config) as server:
            started = time.monotonic()
            for scheme in schemes:
                for size in sizes:
                    await screens(server, out, scheme, size)
            print(f"screens saved in {out} ({time.monotonic() - started:.0f} s)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("web-screens"), help="folder for the PNG files")
    parser.add_argument("--scheme", choices=["light", "dark"], action="append", help="only this (repeatable)")
    parser.add_argument(
        "--size", choices=["desktop", "phone"], action="append", help="only this (repeatable)"
    )
    args = parser.parse_args()
    if not chromium_found():
        sys.exit(f"web_screens: {MISSING}")
    asyncio.run(main(args.out, args.scheme or ["light", "dark"], args.size or ["desktop", "phone"]))
