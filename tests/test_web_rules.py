"""The full rules in the page, from their one source, docs/rules/*.md: the server's pages are what the markdown
says (a changed document changes its page; raw HTML and links to unserved files do not get through), and in
Debian's Chromium against a real server the header's "Rules" opens them from the lobby, and at a table at
the contract in play. Browser tests are skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.async_api import Page, ViewportSize, async_playwright

from server import BarbuServer
from server.rules_pages import rules_page, rules_pages
from server.static import CSP
from tests.browser import DESKTOP, MISSING, PHONE, chromium_found, launch
from tests.conftest import Connect, StartServer, four_seated
from tests.raw_http import http_request

ROOT = Path(__file__).resolve().parent.parent
BARBU = (ROOT / "docs" / "rules" / "barbu.md").read_text(encoding="utf-8")
#: A sentence of docs/rules/barbu.md, as the page shows it (one line there).
SENTENCE = "A double is a side bet between two players on who scores better in this hand."
PHONE_390: ViewportSize = {"width": 390, "height": 844}
browser_only = pytest.mark.skipif(not chromium_found(), reason=MISSING)


def test_the_sentence_is_in_the_rules_document() -> None:
    assert "## Doubling" in BARBU and SENTENCE in BARBU


def test_a_changed_document_changes_its_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    package = tmp_path / "rules_site"
    (package / "rules").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in ("barbu", "solitaire"):
        (package / "rules" / f"{name}.md").write_text(f"# {name} rules\n\n## Early end\nThe hand stops.\n")
    before = rules_pages("rules_site")["/rules/barbu.html"].decode()
    assert '<h2 id="early-end">Early end</h2>' in before and "<p>The hand stops.</p>" in before
    (package / "rules" / "barbu.md").write_text("# barbu rules\n\n## Late end\nThe hand goes on.\n")
    after = rules_pages("rules_site")["/rules/barbu.html"].decode()
    assert "Early end" not in after and '<h2 id="late-end">Late end</h2>' in after
    assert "<title>barbu rules</title>" in after


def test_the_page_lets_no_markup_or_unserved_link_through() -> None:
    page = rules_page(
        "# T\n\n<script>alert(1)</script>\n\n[seed](seeds/x.txt) [js](javascript:alert(1)) "
        "[site](https://pagat.com/) [up](#t)\n\n| a | b |\n|---|---|\n| `no-queens` | 2 |\n"
    )
    assert "<script>" not in page and "&lt;script&gt;" in page
    assert "seeds/x.txt" not in page and "<p>seed " in page  # the link's words, not its target
    assert 'href="javascript' not in page  # markdown-it-py makes no link of it: words only
    assert '<a href="https://pagat.com/" rel="noreferrer">site</a>' in page and '<a href="#t">up</a>' in page
    assert "<td><code>no-queens</code></td>" in page and "style=" not in page


async def test_the_server_serves_the_rules_as_the_documents_say(server: BarbuServer) -> None:
    for name in ("barbu", "solitaire"):
        status, head, body = await http_request(server.port, f"/rules/{name}.html")
        assert status == 200 and head["content-type"] == "text/html; charset=utf-8"
        assert head["content-security-policy"] == CSP
        source = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
        assert body.decode() == rules_page(source)
    assert (await http_request(server.port, "/rules/nope.html"))[0] == 404


async def _logged_in(page: Page, server: BarbuServer, name: str, where: str = "") -> None:
    await page.goto(server.share_url + where)
    await page.fill("#login-name", name)
    await page.click("text=Log in")


@browser_only
async def test_the_rules_open_from_the_lobby_on_a_desktop_and_a_phone(start_server: StartServer) -> None:
    server = await start_server()
    async with async_playwright() as pw:
        browser = await launch(pw)
        errors: list[str] = []
        try:
            for viewport, name in ((DESKTOP, "ann"), (PHONE_390, "bob"), (PHONE, "cy")):
                page = await (await browser.new_context(viewport=viewport)).new_page()
                page.on("pageerror", lambda error: errors.append(str(error)))
                # A refused inline style or script (the CSP) is a console error too.
                page.on(
                    "console",
                    lambda message: errors.append(message.text) if message.type == "error" else None,
                )
                await _logged_in(page, server, name)
                await page.wait_for_selector("#standings-title")
                await page.click("#rules-button")
                rules = page.locator("dialog#rules")
                await rules.locator("h2#doubling").wait_for()
                assert await rules.locator("h2#doubling").text_content() == "Doubling"
                assert SENTENCE in (await rules.locator(".rules-body").text_content() or "")
                # The whole dialog within the window: nothing to scroll sideways to read it.
                box = await rules.bounding_box()
                assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"]
                await rules.get_by_role("button", name="Solitaire").click()
                await rules.locator("h2#baker-s-dozen").wait_for()
                await rules.get_by_role("button", name="Close").click()
                assert await page.locator("dialog#rules").count() == 0
        finally:
            await browser.close()
    assert errors == []


@browser_only
async def test_at_a_table_the_rules_open_at_the_contract_in_play(start_server: StartServer) -> None:
    server = await start_server()
    conns, room, _ = await four_seated(server, "p", "evening")
    view = (await conns["N"].snapshot(room)).view
    assert view is not None
    declarer = view["declarer"]
    await conns[declarer].act(room, declarer, {"action": "contract", "contract": "no-queens"})
    async with async_playwright() as pw:
        browser = await launch(pw)
        try:
            page = await (await browser.new_context(viewport=DESKTOP)).new_page()
            await _logged_in(page, server, "watcher", f"#table={room}")
            await page.wait_for_selector(".table-head")
            await page.click("#rules-button")
            here = page.locator("dialog#rules .rules-here")
            await here.wait_for()
            # The contracts' table row of No Queens, marked and scrolled into the panel's view.
            assert await here.evaluate("(el) => el.tagName") == "TR"
            assert "No Queens" in (await here.text_content() or "")
            assert "the hand ends when the trick holding the 4th queen is complete" in (
                await here.text_content() or ""
            )
            assert await here.evaluate("""(el) => {
              const body = el.closest('.rules-body').getBoundingClientRect(), row = el.getBoundingClientRect();
              return row.top >= body.top - 1 && row.top < body.bottom; }""")
        finally:
            await browser.close()
        for conn in conns.values():
            await conn.close()


@browser_only
async def test_in_a_solitaire_room_the_rules_open_at_its_game(
    start_server: StartServer, connect: Connect
) -> None:
    server = await start_server()
    player = await connect(server, "sol")
    indian = (await player.open_solitaire("indian", seed=7)).room
    async with async_playwright() as pw:
        browser = await launch(pw)
        try:
            page = await (await browser.new_context(viewport=PHONE_390)).new_page()
            await _logged_in(page, server, "watcher", f"#solitaire={indian}")
            await page.wait_for_selector("h1:has-text('Indian')")
            await page.click("#rules-button")
            here = page.locator("dialog#rules .rules-here")
            await here.wait_for()
            # Indian is a row of the Forty Thieves family's table, in the solitaire rules.
            assert await here.evaluate("(el) => [el.tagName, el.cells[0].textContent]") == ["TR", "Indian"]
            assert await page.locator("dialog#rules [aria-pressed=true]").text_content() == "Solitaire"
            await page.get_by_role("button", name="Close").click()
            # Pyramid has a section of its own: its heading.
            await player.open_solitaire("pyramid", seed=7)
            pyramid = next(r["room"] for r in await player.list_rooms() if r.get("game") == "pyramid")
            await page.goto(f"{server.share_url}#solitaire={pyramid}")
            await page.wait_for_selector("h1:has-text('Pyramid')")
            await page.click("#rules-button")
            await page.locator("dialog#rules h2#pyramid-solitaire-13.rules-here").wait_for()
        finally:
            await browser.close()
