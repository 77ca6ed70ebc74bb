"""The browser client in a real browser: Debian's Chromium driven by Playwright, against a real server on a
loopback port. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
from collections.abc import Callable
from typing import Any

import pytest
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Page, WebSocketRoute
from playwright.async_api import TimeoutError as PlaywrightTimeout

from client import Connection, ServerError
from engine.cards import SEATS, texts
from server import BarbuServer
from server.barbu_table import BarbuTable
from server.solitaire_room import SolitaireRoom
from tests.browser import MISSING, PHONE, chromium_found, token_given_once
from tests.conftest import StartServer, finished_table, four_seated, server_table, until
from tests.web_pages import SEAT_NAMES, OpenPage, answer_ask, browser, open_page
from tests.web_pages import answer as _answer
from tests.web_pages import bot_table as _bot_table
from tests.web_pages import host_table as _host_table
from tests.web_pages import login as _login
from tests.web_pages import open_table as _open_table
from tests.web_pages import solitaire_deal as _solitaire_deal

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
# The fixtures and first steps (tests/web_pages.py), under the names the other browser tests import here.
__all__ = [
    "SEAT_NAMES",
    "OpenPage",
    "_answer",
    "_bot_table",
    "_host_table",
    "_login",
    "_open_table",
    "_solitaire_deal",
    "browser",
    "open_page",
]


def _unplayed(table: BarbuTable) -> tuple[int, set[str]]:
    """The hand number and every card still in a seat's hand (none of them public)."""
    match = table.match
    if match is None or match.over:
        return 0, set()
    return match.hand_number, {card for seat in range(4) for card in texts(match.hand.hands[seat])}


async def _shown_cards(page: Page, within: str = "body") -> list[str]:
    cards: list[str] = await page.eval_on_selector_all(
        f"{within} [data-card]", "els => els.map(e => e.dataset.card)"
    )
    return cards


async def _no_hidden_card(page: Page, table: BarbuTable, seat: int | None) -> None:
    """Every card face on ``page`` is public or dealt to its own ``seat`` (None: a spectator). The server's
    unplayed cards are read before and after the page, and the page's hand number in between: a card played
    meanwhile, or a page still showing the hand before, is not mistaken for a leak; nor is a card of the last
    hand's last trick, shown on into the next hand (inside ``data-hand``, the hand it was played in)."""
    hand_before, before = _unplayed(table)
    shown_list, where = await page.evaluate(
        "() => [[...document.querySelectorAll('[data-card]')].filter(e => !e.closest('[data-hand]'))"
        ".map(e => e.dataset.card),"
        " (document.querySelector('.where') || {}).textContent || '']"
    )
    shown = set(shown_list)
    hand_after, after = _unplayed(table)
    if hand_before != hand_after or f"Hand {hand_before} of" not in where:
        return
    match = table.match
    assert match is not None
    own = set() if seat is None else set(texts(match.hand.dealt[seat]))
    assert not (shown & before & after) - own, f"hidden cards shown: {(shown & before & after) - own}"


async def _own_column_shown(page: Page, within: str) -> bool:
    """Whether the player's own column (``th.own``) lies wholly inside ``within`` as it is drawn, unscrolled,
    and inside the screen."""
    return bool(
        await page.evaluate(
            """(within) => {
              const box = document.querySelector(within).getBoundingClientRect();
              const own = document.querySelector(within + ' th.own').getBoundingClientRect();
              return own.left >= box.left && own.right <= Math.min(box.right, innerWidth);
            }""",
            within,
        )
    )


#: What the table page shows and asks, read in one step. A folded summary (the seat asked its next question)
#: is opened to be read.
PAGE_STATE = """() => {
  const one = (selector) => document.querySelector(selector);
  const text = (selector) => { const el = one(selector); return el ? el.innerText : null; };
  const box = one('.summary');
  let summary = null;
  // A summary with no column of the page's own seat was seen once, right after a reload (probably drawn from
  // a watcher's snapshot before the page has its seat back): the next look reads the seat's.
  if (box && box.querySelector('th.own')) {
    const folded = box.tagName === 'DETAILS' && !box.open;
    const height = box.getBoundingClientRect().height;
    if (folded) box.open = true;
    const own = box.querySelector('th.own').getBoundingClientRect();
    const edge = box.getBoundingClientRect();
    summary = {
      folded, height, title: box.querySelector('summary, h2').innerText, // a folded one's line names the hand
      early: Boolean(box.querySelector('.early-line')),
      settlements: box.querySelector('.settlements').innerText,
      own_shown: own.left >= edge.left && own.right <= Math.min(edge.right, innerWidth),
    };
  }
  return {
    summary,
    asked: Boolean(one('.prompt .choice')),
    contract: Boolean(one('.contract')),
    turn: text('.seat.bottom .turn'),
    doubling: text('#double-title'),
    boxes: [...document.querySelectorAll('input[data-seat]')].map((b) => ({ seat: b.dataset.seat, checked: b.checked })),
    no_double: Boolean(one('[data-focus=no-double]')),
    must: document.querySelectorAll('.must').length,
    playable: [...document.querySelectorAll('.hand .playable')].map((card) => card.dataset.card),
    your_turn: text('.your-turn'),
    pass: Boolean(one('[data-focus=pass]')),
  };
}"""


@pytest.mark.parametrize("phone", [False, True], ids=["desktop-player", "phone-player"])
async def test_a_hand_by_clicks_reload_and_a_watcher_from_the_invite_link(
    start_server: StartServer, open_page: OpenPage, phone: bool
) -> None:
    """A player plays a hand by clicks (on a desktop, or taps on a phone) while a watcher who came by the
    invite link follows on the other kind of screen; neither page ever shows a card of another's hand."""
    server = await start_server(bot_delay=0.02)
    url = server.share_url
    player_screen: dict[str, Any] = {"viewport": PHONE, "is_mobile": True, "has_touch": True} if phone else {}
    watcher_screen: dict[str, Any] = (
        {} if phone else {"viewport": PHONE, "is_mobile": True, "has_touch": True}
    )
    errors: list[str] = []  # every script error either page logs: there must be none
    ann = await open_page(**player_screen)
    ann.on("pageerror", lambda error: errors.append(f"ann: {error}"))
    # Each hand another declarer: every seat declares within 4 hands; heuristic bots are quick.
    room = await _bot_table(ann, url, "ann", "friday", rotation="each-hand", bot_policy="heuristic")
    table = server_table(server, room)
    assert [s.owner for s in table.seats].count("ann") == 1 and sum(s.is_bot for s in table.seats) == 3
    seat = next(i for i, s in enumerate(table.seats) if s.owner == "ann")

    bob = await open_page(**watcher_screen)
    bob.on("pageerror", lambda error: errors.append(f"bob: {error}"))
    link = await ann.input_value(".invite")  # what "Copy invite link" copies
    assert link.endswith(f"#table={room}"), link
    await bob.goto(link)
    assert f"You are invited to “friday” (table {room})" in await bob.inner_text(".login")
    await bob.fill("#login-name", "bob")  # the invite link opens the table after the login
    await bob.click("text=Log in")
    await bob.wait_for_selector(".felt")
    assert "you are watching" in await bob.inner_text(".where")
    for page, small in ((ann, phone), (bob, not phone)):
        if small:  # nothing wider than the phone's screen
            assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    chose = doubled = reloaded = settled = False
    hands_done = 0
    doubled_in = 0  # the hand the page doubled in: its summary is the one that settles it
    deadline = time.monotonic() + 120
    while not (chose and doubled and reloaded and settled and hands_done >= 1):
        assert time.monotonic() < deadline, (chose, doubled, reloaded, settled, hands_done)
        match = table.match
        assert match is not None
        own = set(texts(match.hand.hands[seat]))
        await _no_hidden_card(ann, table, seat)
        await _no_hidden_card(bob, table, None)
        hand_number = match.hand_number
        # What the page shows and asks, read in one step: the page redraws as the bots play, so a count
        # followed by a read may see two different screens.
        seen = await ann.evaluate(PAGE_STATE)
        summary = seen["summary"]
        if summary is not None:
            assert "Hand " in summary["title"]  # the end-of-hand summary
            if phone:  # the player's own column first: on screen without a sideways scroll
                assert summary["own_shown"]
            if summary["folded"]:  # asked the next question, the summary is one line above it
                assert seen["asked"] and summary["height"] < (112 if summary["early"] else 64), summary
            words = summary["settlements"]
            # each settlement, as the terminal says it, in the summary of the hand the page doubled in
            doubled_here = re.match(rf"Hand {doubled_in}\b", summary["title"])
            if doubled_here and not settled and "doubled" in words:
                mine = SEAT_NAMES[SEATS[seat]]
                ours = [
                    line
                    for line in words.splitlines()
                    if re.match(rf"{mine} (doubled|and)|\w+ (and|doubled) {mine}\b", line)
                ]
                # who doubled whom (a redouble too), x2 when redoubled, the points each way
                assert ours, words
                assert all(
                    re.search(
                        r"(doubled \w+|each other \(stakes ×2\))(, \w+ redoubled \(stakes ×2\))?: (\w+ \+\d+, \w+ −\d+|even)$",
                        line,
                    )
                    for line in ours
                ), words
                settled = True
            hands_done += 1
            closed = await ann.evaluate(
                """() => {
                  const close = document.querySelector('[data-focus=close-summary]');
                  if (!close) return null;
                  const folded = close.closest('details');
                  if (folded) folded.open = true;  // opened (a tap on its line), then closed
                  close.focus();  // as a click or a tap does, in one step with the click
                  close.click();
                  const next = document.querySelector(".prompt button, .prompt input, .hand [tabindex='0']");
                  return document.activeElement.closest('.prompt, .hand') !== null || next === null;
                }"""
            )
            assert closed is not False, "the summary closed: the focus goes on to the prompt or the hand"
        elif seen["contract"]:
            assert seen["turn"] == "to choose the contract"  # the seat's badge
            await _click_soon(ann, ".contract >> nth=0")  # a contract; Trumps and Dominoes ask more
            await ann.wait_for_timeout(100)
            if await ann.locator(".choice .buttons button").count():
                await _click_soon(ann, ".choice .buttons button >> nth=0")  # the trump suit / starting rank
            chose = True
        elif seen["doubling"]:
            assert seen["turn"] and seen["turn"].startswith("to "), "to double / to redouble"
            boxes = seen["boxes"]
            if boxes and not doubled and "Doubling" in seen["doubling"]:
                if not boxes[0]["checked"]:  # nothing ticked: told by the button, in view (a phone too)
                    await ann.click("[data-focus=submit-double]")
                    refusal = ann.locator(".prompt .refusal")
                    assert "Tick the players you double" in await refusal.inner_text()
                    assert await refusal.evaluate(
                        "el => el.getBoundingClientRect().bottom <= innerHeight + 1"
                    )
                await ann.locator(f"input[data-seat={boxes[0]['seat']}]").check()
                await ann.click("[data-focus=submit-double]")
                doubled, doubled_in = True, hand_number
            elif seen["no_double"]:
                await _click_soon(ann, "[data-focus=no-double]")
            else:  # the must-double rule: the declarer must be doubled
                assert seen["must"] == 1, seen
                await ann.check(f"input[data-seat={SEATS[match.hand.declarer]}]")
                await ann.click("[data-focus=submit-double]")
        elif seen["playable"]:
            if chose and doubled and not reloaded and len(match.hand.trick) == 0 and len(own) < 13:
                before = sorted(await _shown_cards(ann, ".hand"))
                await ann.reload()
                await ann.wait_for_selector(".hand .card")
                assert sorted(await _shown_cards(ann, ".hand")) == before  # the same seat, the same hand
                assert f"Hand {hand_number} of 28" in await ann.inner_text(".where")
                reloaded = True
                continue
            words = seen["your_turn"] or ""
            assert ("(tap it)" in words) == phone, words  # a touch screen is tapped, a desktop clicked
            await _click_soon(ann, f".hand [data-card='{seen['playable'][0]}']")
        elif seen["pass"]:
            await _click_soon(ann, "[data-focus=pass]")
        await ann.wait_for_timeout(60)
    assert await ann.locator(".scores").count() == 1
    await ann.click("text=Score sheet")
    assert await ann.locator("dialog.sheet tbody tr").count() >= 1
    if phone:
        assert await _own_column_shown(ann, "dialog.sheet .scroll")
    await ann.click("[data-focus=close-sheet]")
    await ann.fill("[data-focus=chat]", "well played")
    await ann.press("[data-focus=chat]", "Enter")
    await bob.wait_for_selector(".chat-log li:has-text('well played')")
    phone_page = ann if phone else bob
    assert await phone_page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    await phone_page.click("text=Score sheet")  # a player's or a watcher's sheet fits the phone's width
    await phone_page.wait_for_selector("dialog.sheet tbody tr")
    fits = await phone_page.evaluate(SHEET_FITS)
    assert fits["inside"] and fits["nothing_cut"] and fits["columns_shown"], fits
    await phone_page.click("[data-focus=close-sheet]")
    assert errors == []


#: The folded line of a hand's summary (table_score.js) for a seat's player: South settled doubles with East
#: (−4), North settled none.
FOLDED_LINE = """async (seat) => {
  const { handSummary } = await import('/js/table_score.js');
  const snap = { seat, players: { N: 'nan', E: 'eve', S: 'sam', W: 'wes' }, view: null };
  const scored = {
    hand_number: 3, declarer: 'N', contract: 'no-tricks',
    contract_scores: { N: -4, E: -2, S: -6, W: -14 }, settlements: { N: 0, E: 4, S: -4, W: 0 },
    scores: { N: -4, E: 2, S: -10, W: -14 }, totals: { N: -4, E: 2, S: -10, W: -14 },
  };
  return handSummary(snap, scored, () => {}, { summaryOpen: false }).querySelector('summary').textContent;
}"""


async def test_a_folded_hand_summary_tells_the_players_net_from_doubles(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """Folded to one line above the next question (all a phone shows of it), a hand's results still tell a
    settlement of the player's: their net from doubles; a player who settled none reads no doubles part."""
    page = await open_page()
    await page.goto(server.share_url)
    assert await page.evaluate(FOLDED_LINE, "S") == "Hand 3 results: you −10 (doubles −4), total −10"
    assert await page.evaluate(FOLDED_LINE, "E") == "Hand 3 results: you +2 (doubles +4), total 2"
    assert await page.evaluate(FOLDED_LINE, "N") == "Hand 3 results: you −4, total −4"


#: Whether the open score sheet fits the screen's width: the dialog inside the screen, its table needing no
#: sideways scroll and no cell's words cut off, every column's head (the hand, the four seats) inside it.
SHEET_FITS = """() => {
  const dialog = document.querySelector('dialog.sheet').getBoundingClientRect();
  const scroll = document.querySelector('dialog.sheet .scroll');
  const heads = [...document.querySelectorAll('dialog.sheet thead th')].map((th) => th.getBoundingClientRect());
  return {
    inside: dialog.left >= 0 && dialog.right <= innerWidth,
    nothing_cut: scroll.scrollWidth <= scroll.clientWidth + 1
      && ![...scroll.querySelectorAll('tbody *')].some((el) => el.scrollWidth > el.clientWidth + 1),
    columns_shown: heads.length === 5 && heads.every((r) => r.left >= dialog.left && r.right <= dialog.right),
    widths: [dialog.left, dialog.right, scroll.scrollWidth, scroll.clientWidth, innerWidth],
  };
}"""


async def test_a_winnable_deal_says_so(server: BarbuServer, open_page: OpenPage) -> None:
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "win", "bakers-dozen", "winnable")
    await page.wait_for_selector(".where:has-text('winnable')")
    assert server.lobby is not None
    room = next(r for r in server.lobby.rooms.values() if isinstance(r, SolitaireRoom))
    assert room.winnable and room.daily is None


async def test_the_days_deal_being_played_offers_no_watch(server: BarbuServer, open_page: OpenPage) -> None:
    pat = await Connection.connect(server.url)
    await pat.login("pat")
    daily = await pat.open_solitaire("streets")
    assert daily.view is not None and daily.view["daily"]
    page = await open_page()
    await _login(page, server.share_url, "viv")
    watch = f"[data-focus=game-{daily.room}]"
    await page.wait_for_selector(f"{watch}[disabled]:has-text('Watch once finished')")
    await page.click(watch, force=True)  # disabled: nothing happens
    await page.wait_for_timeout(300)
    assert await page.locator(".layout").count() == 0
    await pat.resign(daily.room)
    other = await pat.open_solitaire("streets", seed=3)  # any other deal may be watched
    await page.click(f"[data-focus=game-{other.room}]:not([disabled]):has-text('Watch')", timeout=20_000)
    await page.wait_for_selector("text=You are watching pat play.")
    await pat.close()


async def test_solitaire_move_undo_and_hint(server: BarbuServer, open_page: OpenPage) -> None:
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "sol", "forty-thieves")
    assert server.lobby is not None
    room = next(r for r in server.lobby.rooms.values() if isinstance(r, SolitaireRoom))
    move = next((m for m in room.game.legal_moves() if m.startswith("t") and ">t" in m), "s")
    if move == "s":
        await page.click("[data-pile=s]")
    else:
        source, target = move.split(">")
        await page.locator(f"[data-pile={source}]").last.click()
        await page.locator(f"[data-pile={target}]").last.click()
    await until(lambda: room.game.moves == 1, "the move made by clicks")
    await page.wait_for_selector("text=1 move ·")
    await page.click("text=Undo")
    await until(lambda: room.game.moves == 0, "the undo")
    await page.wait_for_selector("text=0 moves ·")  # drawn: a click before it lands on the card moved back

    # A refused move is told with cards and piles as people name them, not "7D", "t3".
    columns = room.game.state()["columns"]
    bad = next(
        (a, b)
        for a in range(1, len(columns) + 1)
        for b in range(1, len(columns) + 1)
        if a != b and columns[a - 1] and columns[b - 1] and f"t{a}>t{b}" not in room.game.legal_moves()
    )
    await page.locator(f"[data-pile=t{bad[0]}]").last.click()
    await page.locator(f"[data-pile=t{bad[1]}]").last.click()
    refusal = await page.locator(".error").inner_text()
    assert refusal.startswith("Not allowed: ") and re.search("[♠♥♦♣]", refusal), refusal
    assert not re.search(r"\b[2-9TJQKA][SHDC]\b|\bt\d", refusal), refusal

    # A hint says it is thinking until the answer comes, then marks the move's source and target.
    await page.evaluate(
        """() => { window.sawThinking = false; new MutationObserver(() => {
             if (document.querySelector('.thinking')) window.sawThinking = true;
           }).observe(document.body, { childList: true, subtree: true }); }"""
    )
    await page.click("text=Hint")
    hint = await page.wait_for_selector(".hint")
    assert hint is not None and await page.evaluate("() => window.sawThinking")
    assert await page.locator(".thinking").count() == 0
    words = await hint.inner_text()
    assert words.startswith("Hint: "), words
    if (
        "Undo to go back" not in words
    ):  # a move was given, its cards named; source and target marked on the board
        assert "turn the stock" in words or re.search("[♠♥♦♣]", words), words
        assert await page.locator(".hint-from").count() >= 1
        if " move " in words or ": move " in words:
            assert await page.locator(".hint-to").count() >= 1, words
        labels = await page.eval_on_selector_all(".hint-from", "els => els.map(e => e.ariaLabel)")
        assert all("hint: move this" in label for label in labels), labels


#: The lobby's first finished match: each player's seat letter, whether each player (letter, name, total)
#: stands on one line, and the page's width.
MATCH_ENTRY = """() => {
  const players = [...document.querySelector('.seat-totals').children];
  const line = parseFloat(getComputedStyle(players[0]).lineHeight);
  return {
    letters: players.map((li) => li.querySelector('b').textContent),
    one_line: players.every((li) => li.getBoundingClientRect().height < line * 1.5),
    texts: players.map((li) => li.innerText),
    width: document.documentElement.scrollWidth,
  };
}"""


async def test_a_finished_match_replayed(server: BarbuServer, open_page: OpenPage) -> None:
    host = await Connection.connect(server.url)
    await host.login("host")
    # The host's seat left to a stand-in, not watched while bots play at once: a watcher's connection could
    # fall behind the pushes and be dropped; it watches once the match is over (for its rematch below).
    room = await finished_table(server, host, "to replay")
    phone = await open_page(**PHONE_SCREEN)  # the lobby's entry on a phone: each player whole on a line
    await _login(phone, server.share_url, "pat")
    await phone.wait_for_selector(".seat-totals li")
    entry = await phone.evaluate(MATCH_ENTRY)
    assert entry["letters"] == list(SEATS) and entry["one_line"], entry
    assert entry["width"] <= PHONE["width"], entry
    page = await open_page()
    await _login(page, server.share_url, "viewer")
    await page.wait_for_selector("text=Replay “to replay”")
    await page.click("text=Replay “to replay”")
    await page.wait_for_selector(".narration")
    assert len(await _shown_cards(page, ".open-hand")) == 52  # all four hands face up
    assert "The cards are dealt." in await page.inner_text(".narration")
    assert await page.eval_on_selector_all(".badge.dealer", "els => els.map(e => e.innerText)") == ["dealer"]
    # The keys step at once, the focus still on the main area that holds the replay (no Tab first).
    await page.evaluate(
        "() => { window.prevented = []; addEventListener('keydown', (e) => prevented.push(e.defaultPrevented)); }"
    )
    for key, where in (
        ("ArrowRight", "step 1 of"),
        ("ArrowRight", "step 2 of"),
        ("ArrowLeft", "step 1 of"),
        ("PageDown", "Hand 2 of 28"),
        ("PageUp", "Hand 1 of 28"),
    ):
        await page.keyboard.press(key)
        assert where in await page.inner_text(".where"), (key, where)
    assert "step 0 of" in await page.inner_text(".where")
    assert await _contrast(page, ".felt .muted") >= 4.5  # "No card played yet." on the felt
    for _ in range(8):
        await page.click("[aria-label='one step forward']")
    assert len(await _shown_cards(page, ".open-hand")) < 52
    assert "step 8 of" in await page.inner_text(".where")
    await page.click("[aria-label='next hand']")
    await page.wait_for_selector("text=Hand 2 of 28")
    await page.click("text=End of hand")
    await page.wait_for_selector("text=Hand 2 result")

    # A Dominoes hand's end: three players out of cards, the fourth last with the cards still in their hand.
    while "Dominoes" not in await page.inner_text(".where"):
        await page.click("[aria-label='next hand']")
        await page.click("text=End of hand")
    narration = await page.inner_text(".narration")
    last = re.search(r"The hand ends: (\w+) comes last \(4th\), left with ([^.]+)\.", narration)
    assert last is not None, narration
    held = await page.locator(f'[aria-label="{last[1]}\'s hand"] [data-card]').count()
    assert held == len(last[2].split()) > 0
    order = await page.inner_text(".finish-order")
    assert re.fullmatch(rf"Out: \w+ 1st, \w+ 2nd, \w+ 3rd; {last[1]} last \(cards left\)", order), order
    await page.click("[aria-label='next hand']")
    await page.click("[aria-label='previous hand']")
    await page.click("[aria-label='one step forward']")  # the contract chosen: no row opened yet
    # The rows go in the hand's suit order, ♠ ♥ ♣ ♦.
    empty = await page.eval_on_selector_all(".row .muted", "els => els.map(e => e.textContent)")
    assert empty == [f"{suit}: not opened" for suit in ("spades", "hearts", "clubs", "diamonds")], empty
    assert await _contrast(page, ".row .muted") >= 4.5

    # Another match with the same players: the finished table's lobby entry and its old link point to it.
    new = await host.rematch(room)
    await page.click("text=Lobby")
    await page.wait_for_selector(".seat-totals")
    await page.keyboard.press("PageDown")  # the replay's keys went with it: the lobby's page scrolls
    assert await page.evaluate("() => prevented") == [True] * 5 + [False]
    await page.click(f"[data-focus=rematch-{room}]")
    await page.wait_for_url(f"**#table={new}")
    await page.goto(f"{server.share_url}#table={room}")
    await page.wait_for_selector(".rematch-note")
    await page.click("text=Watch the next match")
    await page.wait_for_url(f"**#table={new}")
    await host.close()


async def test_the_host_adds_and_removes_a_bot_and_a_guest_may_not(
    server: BarbuServer, open_page: OpenPage
) -> None:
    host = await open_page()
    room, table = await _host_table(host, server, "hostess", "bots")
    await host.click("[data-focus=bot-E]")
    await until(lambda: table.seats[1].is_bot, "the bot to sit at E")
    await host.click("[data-focus=unbot-E]")
    await until(lambda: table.seats[1].owner is None, "the bot to leave E")
    guest = await open_page()
    await _login(guest, f"{server.share_url}#table={room}", "guest")
    await guest.wait_for_selector("[data-focus=sit-E]")
    assert await guest.locator("[data-focus=bot-E]").count() == 0  # only the host adds bots
    await guest.click("[data-focus=sit-E]")
    await until(lambda: table.seats[1].owner == "guest", "the guest to sit at E")


async def test_a_dropped_connection_resumes_by_itself(server: BarbuServer, open_page: OpenPage) -> None:
    page = await open_page()
    await _login(page, server.share_url, "flaky")
    await page.wait_for_selector("#game")
    await page.click("text=Play a random deal")
    await page.wait_for_selector(".layout")
    assert server.lobby is not None
    lobby = server.lobby
    first = lobby.online["flaky"]
    await first.ws.close(1011, "going away for a test")
    await until(lambda: "flaky" in lobby.online and lobby.online["flaky"] is not first, "the page to resume")
    await page.wait_for_function("document.getElementById('status').textContent === ''")
    room = next(r for r in lobby.rooms.values() if isinstance(r, SolitaireRoom))
    await page.click("[data-pile=s]")  # the same game plays on over the new connection
    await until(lambda: room.game.moves == 1, "a move after the resume")


async def test_log_out_mid_match_keeps_the_seat_for_this_browser(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Log out while seated in a match asks first; logging in again under the name on this browser takes the
    seat back, while another browser is told in plain words that the name is someone's."""
    server = await start_server(bot_delay=0.5)
    page = await open_page()
    room = await _bot_table(page, server.share_url, "cleo", "keep", bot_policy="heuristic")
    await page.click("text=Log out")
    asked = await answer_ask(page, yes=True)
    await page.wait_for_selector("#login-name")
    assert "A bot plays it until you come back" in asked
    other = await open_page()
    await _login(other, server.share_url, "cleo")
    # The name is this browser's (its personal password, kept here): another is told so.
    await other.wait_for_selector("text=“cleo” is someone's name here, with a personal password: type it")
    await page.fill("#login-name", "cleo")
    await page.click("text=Log in")
    await page.wait_for_selector(".seat.bottom")  # straight back to the seat
    assert page.url.endswith(f"#table={room}")


async def test_a_dead_invite_link_says_so(server: BarbuServer, open_page: OpenPage) -> None:
    page = await open_page()
    await _login(page, f"{server.share_url}#table=9999", "late")
    await page.wait_for_selector("text=No table 9999 is open here:")


async def _clock(page: Page) -> int:
    """The seconds the turn clock on ``page`` shows (it shows on the seat to move)."""
    await page.wait_for_selector(".clock")
    return int((await page.inner_text(".clock")).strip().removesuffix("s"))


async def test_the_turn_clock_agrees_across_pages_a_reload_and_a_server_restart(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """The clock counts down from the time left the server tells: a player's and a watcher's page agree, a
    reload does not give a fresh minute, and after a restart it counts down the whole turn the server
    re-armed. The create-table form preselects the server's own default bot policy."""
    server = await start_server(bot_delay=0.02, bot_policy="random")
    port = server.port
    ann = await open_page()
    await _login(ann, server.share_url, "ann")
    await ann.wait_for_selector("#table-name")
    assert await ann.input_value("select[name=bot_policy]") == "random"  # the server's default
    await ann.fill("#table-name", "clock")
    await ann.select_option("select[name=turn_time]", "60")
    await ann.select_option("select[name=bots]", "3")
    await ann.click("text=Create and sit down")
    first = await _clock(ann)  # the clock shows once it is ann's turn (bots keep their own pace)
    room = ann.url.rpartition("=")[2]
    assert 55 <= first <= 60
    bob = await open_page()
    await _login(bob, f"{server.share_url}#table={room}", "bob")
    assert abs(await _clock(bob) - await _clock(ann)) <= 1

    await ann.wait_for_timeout(2500)
    await ann.reload()
    await ann.wait_for_selector(".hand .card")
    after = await _clock(ann)
    assert after <= first - 2, "a reload must not give a fresh turn"
    assert abs(await _clock(bob) - after) <= 1

    await server.stop()
    await start_server(port=port, bot_delay=0.02, bot_policy="random")
    # Both pages reconnect by themselves; the server gave the seat to move a whole turn again.
    whole = "() => parseInt((document.querySelector('.clock') || {}).textContent) >= 57"
    await ann.wait_for_function(whole, timeout=20000)
    await bob.wait_for_function(whole, timeout=20000)
    running = await _clock(ann)
    await ann.wait_for_timeout(2100)
    later = await _clock(ann)
    if later > running:
        # A snapshot from the pages' reconnection came after the first whole turn was read (seen on a loaded
        # machine): count from that one.
        running = later
        await ann.wait_for_timeout(2100)
        later = await _clock(ann)
    assert later <= running - 1  # a real countdown, not a clock stuck at 0
    assert abs(await _clock(bob) - await _clock(ann)) <= 1


CARD_WORDS = re.compile(
    r"^(two|three|four|five|six|seven|eight|nine|ten|jack|queen|king|ace) of (spades|hearts|diamonds|clubs)"
)
#: The focused element's id, whether the browser counts its focus as visible, and its outline's style.
MAIN_RING = "() => { const e = document.activeElement; return [e.id, e.matches(':focus-visible'), getComputedStyle(e).outlineStyle]; }"
RING = "() => { const e = document.activeElement; return [e.dataset.focus || '', e.matches(':focus-visible'), getComputedStyle(e).outlineStyle, getComputedStyle(e).outlineColor]; }"


async def test_focus_rings_for_the_keyboard_only_and_plain_words_for_screen_readers(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A click leaves no focus ring (the table redraws and puts the focus back without one); Tab shows one, in
    a colour of its own (not the orange that marks playable cards), that stays through the redraws; every
    card, control and mark reads in words ("queen of spades, playable", "dealer"), none as a bare letter."""
    server = await start_server(bot_delay=0.15)
    page = await open_page()
    await _login(page, server.share_url, "kim")
    await page.wait_for_selector("#table-name")
    await page.select_option("select[name=bots]", "3")
    await page.click("text=Create and sit down")
    await page.wait_for_selector(".hand .card")
    # Reloaded (no key pressed, no click since), the page focuses its main area itself: no ring round it.
    await page.reload()
    await page.wait_for_selector(".hand .card")
    assert await page.evaluate(MAIN_RING) == ["app", True, "none"]
    await page.click("[data-focus=copy]")
    await page.wait_for_timeout(700)  # bots play meanwhile: the page redraws
    assert await page.evaluate("() => document.querySelectorAll(':focus-visible').length") == 0

    for _ in range(20):
        await page.keyboard.press("Tab")
        if (await page.evaluate(RING))[0] == "sheet":
            break
    await page.wait_for_timeout(700)
    focus, visible, style, colour = await page.evaluate(RING)
    assert focus == "sheet" and visible and style == "solid", (focus, visible, style)
    assert colour != "rgb(245, 166, 35)", "the focus ring must not look like the playable cards' mark"

    hand = await page.locator(".hand .card").count()
    named = page.get_by_role("button", name=CARD_WORDS)
    labels = [await card.get_attribute("aria-label") or "" for card in await named.all()]
    assert len(labels) >= hand and all(
        re.search(r", (playable|not playable|in your hand)$", label) for label in labels[:hand]
    ), labels
    tree = await page.locator("body").aria_snapshot()
    controls = re.findall(r'- (button|link|checkbox|combobox|textbox|img|region|group)(?: "([^"]*)")?', tree)
    bare = [(role, name) for role, name in controls if len(name or "") < 3]
    assert not bare, (bare, tree)
    assert "dealer" in tree and not re.search(r"- text: [NESWD]$", tree, re.M), tree


MY_TURN = ".hand .playable, .prompt .choice, [data-focus=pass]"
SCROLL_DOWN_UNLESS_MY_TURN = f"""() => {{
  if (document.querySelector({MY_TURN!r})) return null;
  window.scrollTo(0, document.documentElement.scrollHeight);
  return document.querySelector('.felt').getBoundingClientRect().top < 0;
}}"""
#: Asked a question, the whole question and the hand are on screen (the question above the hand, kept at the
#: bottom); to play, the seats, the trick and the hand.
ASKED_IN_VIEW = """() => {
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.top >= -0.5 && r.bottom <= innerHeight + 0.5; };
  const choice = document.querySelector('.prompt .choice');
  const hand = document.querySelector('.hand');
  const asked = choice ? [choice] : [...document.querySelectorAll('.seat .who, .trick .card')];
  return [...hand.querySelectorAll('.card')].every(shown) && asked.every(shown)
    && (!choice || choice.getBoundingClientRect().bottom <= hand.getBoundingClientRect().top + 0.5);
}"""


async def test_on_a_phone_the_question_or_hand_comes_into_view_on_the_seats_turn(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Scrolled down to the chat while others play, a phone player finds the question (contract, doubles)
    and the hand on screen when it becomes their turn; to play, the seats, the trick and the hand."""
    server = await start_server(bot_delay=0.5)
    page = await open_page(viewport={"width": 360, "height": 560}, is_mobile=True, has_touch=True)
    await _login(page, server.share_url, "pia")
    await page.wait_for_selector("#table-name")
    await page.select_option("select[name=bots]", "3")
    await page.click("text=Create and sit down")
    await page.wait_for_selector(".hand .card")
    seen = 0
    deadline = time.monotonic() + 60
    while seen < 3:
        assert time.monotonic() < deadline, seen
        away = await page.evaluate(SCROLL_DOWN_UNLESS_MY_TURN)
        if away is None:  # already this seat's turn: answer, and scroll down while the others play
            await _answer(page)
            await page.wait_for_timeout(100)
            continue
        # Not counted when the page is too short to scroll the felt away (a felt with no card led is one
        # line): the turn is still checked in view, but it tests nothing of bringing it back.
        await page.wait_for_selector(MY_TURN, timeout=20000)
        assert await page.evaluate(ASKED_IN_VIEW), "the seat's turn came, off screen"
        seen += bool(away)
        await _answer(page)
        await page.wait_for_timeout(100)


async def test_the_host_who_left_sees_the_finished_tables_ranking_from_its_link(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """The host leaves mid-match (a stand-in plays on) and, once the match is over, opens the table's link:
    the final ranking with the totals, from the table while it is listed (also from the lobby's entry),
    then from the finished match once the table is gone, with its replay, stepped through."""
    server = await start_server(bot_policy="random")
    url = server.share_url
    cleo = await open_page()
    room = await _bot_table(cleo, url, "cleo", "left early")
    # A watcher keeps the finished table listed: a client, not a page, which a match of instant bots can
    # outrun on a loaded machine until the server drops it (its unsent pushes pile up).
    dan = await Connection.connect(server.url)
    await dan.login("dan")
    await dan.watch(room)
    await cleo.click("text=Leave table")
    await answer_ask(cleo, yes=True)
    await cleo.wait_for_selector("#table-name")
    table = server_table(server, room)
    await until(lambda: table.state == "over", "the stand-in and the bots to finish the match", timeout=90)
    assert table.match is not None
    totals = {seat: table.match.totals[i] for i, seat in enumerate(SEATS)}

    async def ranking_shown(page: Page) -> str:
        text = await page.locator(".ranking").inner_text()
        assert "is over" in text and "cleo (" in text, text
        for seat, total in totals.items():
            assert f"({SEAT_NAMES[seat]}) {total}".replace("-", "−") in text, text  # one minus sign
        return text

    await cleo.goto(f"{url}#table={room}")
    await ranking_shown(cleo)
    await cleo.click("text=Lobby")
    await cleo.click(f"[data-room='{room}'] >> text=See the final ranking")
    await ranking_shown(cleo)

    await dan.close()
    lobby = server.lobby
    assert lobby is not None
    await cleo.click("text=Lobby")  # its listing sweeps the table nobody is at any more
    await until(lambda: room not in lobby.rooms, "the finished table to leave the lobby")
    await cleo.goto(f"{url}#table={room}")
    await ranking_shown(cleo)

    async def sheet_shown(page: Page) -> None:
        """The match's score sheet, opened from the page's "Score sheet": 28 hands, her column "you", and
        the running totals of the last row the match's totals; closed again."""
        await page.click("[data-focus=sheet]")
        rows = page.locator("dialog.sheet[open] tbody tr")
        await rows.first.wait_for()
        assert await rows.count() == 28
        heads = await page.locator("dialog.sheet thead th").all_inner_texts()
        assert any(head.endswith("you") for head in heads), heads
        last = await rows.nth(27).locator("td small").all_inner_texts()
        shown = {seat: total.replace("−", "-") for seat, total in zip(heads[1:], last, strict=True)}
        assert sorted(int(total) for total in shown.values()) == sorted(totals.values()), (shown, totals)
        await page.click("dialog.sheet [data-focus=close-sheet]")
        await page.locator("dialog.sheet").wait_for(state="detached")

    await sheet_shown(cleo)  # no table to open it from: the finished match's page has its own
    await cleo.click("text=Replay “left early”")
    await cleo.wait_for_selector(".narration")
    await sheet_shown(cleo)
    await cleo.keyboard.press("ArrowRight")  # the replay's keys, back once the sheet is closed
    assert "step 1 of" in await cleo.inner_text(".where")
    await cleo.click("text=End of hand")
    await cleo.wait_for_selector(".settlements")  # each settlement of the hand, in words
    # Her seat at the bottom, as at the table (the replay drew North at the top for everyone).
    own = next(seat for i, seat in enumerate(SEATS) if table.seats[i].owner == "cleo")
    assert (await cleo.get_attribute(".felt.open .seat.bottom", "aria-label")) == f"{SEAT_NAMES[own]}'s hand"

    # The host opens the next match from the old link, though nobody is at the finished table: she sits
    # at once in her kept seat, and with the bots kept too the match starts.
    await cleo.goto(f"{url}#table={room}")
    await cleo.click("text=Another match, same players")
    await cleo.wait_for_function(
        f"() => location.hash.startsWith('#table=') && location.hash !== '#table={room}'"
    )
    new = cleo.url.rpartition("=")[2]
    again = server_table(server, new)
    assert again.name == "left early (2)"
    await until(lambda: again.seats[SEATS.index(own)].peer is not None, "the host seated in her kept seat")
    await until(lambda: again.state == "playing", "the next match to start")
    await cleo.wait_for_selector(".seat.bottom:has-text('you')")


#: The WCAG contrast ratio of an element's text against the first opaque background behind it (its own or an
#: ancestor's), from the computed colours.
CONTRAST_JS = """el => {
  const rgb = (text) => text.match(/[\\d.]+/g).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  let back = el;
  while (back && (getComputedStyle(back).backgroundColor === "rgba(0, 0, 0, 0)" || getComputedStyle(back).backgroundColor === "transparent")) back = back.parentElement;
  const fg = lum(rgb(getComputedStyle(el).color));
  const bg = lum(rgb(back ? getComputedStyle(back).backgroundColor : "rgb(255, 255, 255)"));
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}"""


async def _contrast(page: Page, selector: str) -> float:
    ratio: float = await page.locator(selector).first.evaluate(CONTRAST_JS)
    return ratio


@pytest.mark.parametrize("scheme", ["light", "dark"])
async def test_solitaire_on_a_phone_shows_every_index_and_the_board_stays_put(
    server: BarbuServer, open_page: OpenPage, scheme: str
) -> None:
    """Forty Thieves' ten columns fit a 360-pixel phone with the rank and suit of every covered face-up card in
    view; the board does not move between the two taps of a move; quiet text on the felt is readable (WCAG
    AA); a new deal over a game in progress asks first, and a link to the game it ended says it is finished."""
    page = await open_page(viewport=PHONE, is_mobile=True, has_touch=True, color_scheme=scheme)
    await _solitaire_deal(page, server.share_url, f"phone-{scheme}", "forty-thieves", shown=".layout .column")
    assert await page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert await page.eval_on_selector(".layout", "el => el.scrollWidth <= el.clientWidth")
    hidden = await page.evaluate(
        """() => [...document.querySelectorAll('.column')].flatMap((column) => {
             const cards = [...column.querySelectorAll('.card')];
             return cards.slice(0, -1).filter((card, i) => {
               const corner = card.querySelector('.corner').getBoundingClientRect();
               const box = card.getBoundingClientRect();
               const next = cards[i + 1].getBoundingClientRect();
               return corner.bottom > next.top + 0.5 || corner.right > box.right || corner.width < 8;
             }).map((card) => card.dataset.card);
           })"""
    )
    assert hidden == [], f"covered cards whose rank and suit are cut: {hidden}"
    assert await _contrast(page, ".slot .muted") >= 4.5  # "waste", "A" on the felt

    # The line kept above the board says what to do, rather than leaving a blank below the buttons.
    how = "Tap a card, then where it goes; a double tap sends a card to its foundation."
    assert await page.inner_text(".message-line") == how
    fits = "el => el.getBoundingClientRect().height <= parseFloat(getComputedStyle(el).minHeight) + 1"
    assert await page.eval_on_selector(".message-line", fits), "the words fit the line's kept room"
    top = await page.eval_on_selector(".layout", "el => el.getBoundingClientRect().top")
    await page.locator("[data-pile=t2]").last.click()
    assert "now tap where it goes" in await page.inner_text(".message-line")
    assert await page.eval_on_selector(".layout", "el => el.getBoundingClientRect().top") == top
    await page.locator("[data-pile=t2]").last.click()  # the same pile again: the move is dropped
    assert await page.inner_text(".message-line") == how
    assert await page.eval_on_selector(".layout", "el => el.getBoundingClientRect().top") == top

    assert server.lobby is not None
    room = next(r for r in server.lobby.rooms.values() if isinstance(r, SolitaireRoom))
    await page.click("[data-pile=s]")  # one move
    await until(lambda: room.game.moves == 1, "the stock turned")
    await page.wait_for_selector("text=1 move ·")
    await page.click("[data-focus=new-deal]")  # asked, and declined: the game goes on
    asked = await answer_ask(page, yes=False)
    assert asked == "This ends your game in progress (Forty Thieves, 1 move). Start a new one?"
    await page.wait_for_timeout(200)
    assert room.result is None and page.url.endswith(f"#solitaire={room.room_id}")
    await page.click("text=Lobby")
    await page.wait_for_selector("#game")
    await page.click("text=Play a random deal")  # from the lobby too
    asked = await answer_ask(page, yes=False)
    await page.wait_for_timeout(200)
    assert "This ends your game in progress" in asked and room.result is None
    await page.click("text=Play a random deal")
    await answer_ask(page, yes=True)
    await until(lambda: room.result is not None, "the old game ended by the new deal")
    await page.wait_for_selector(".layout")
    await page.goto(f"{server.share_url}#solitaire={room.room_id}")
    notice = await page.wait_for_selector("text=is finished")
    assert notice is not None
    words = await notice.inner_text()
    assert "Forty Thieves" in words and "1 move" in words and "no open room" not in words, words


#: The new-table form's choices wider than their select (their text would be cut off).
FORM_CUT = """() => [...document.querySelectorAll('.new-table select')].flatMap((s) => {
  const c = document.createElement('canvas').getContext('2d');
  c.font = getComputedStyle(s).font;
  return [...s.options].filter((o) => c.measureText(o.text).width > s.clientWidth - 40).map((o) => o.text);
})"""


async def _focused(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = await page.evaluate(
        """() => { const el = document.activeElement;
             return { focus: el.dataset ? el.dataset.focus || '' : '', inHand: Boolean(el.closest('.hand')),
                      playable: el.classList.contains('playable') }; }"""
    )
    return found


async def _click_soon(page: Page, selector: str) -> None:
    """Click ``selector`` if it is still there within 3 s (the page may have moved on since it was seen)."""
    with contextlib.suppress(PlaywrightTimeout):
        await page.click(selector, timeout=3000)


async def test_the_keyboard_keeps_its_place(start_server: StartServer, open_page: OpenPage) -> None:
    """The lobby's refresh leaves the focus where it was; the focused card stands out from the other playable
    ones; after a play the focus stays in the hand and is on a playable card when the turn comes back; the
    score sheet closed with Escape gives the focus back to its button."""
    server = await start_server(bot_delay=0.02)
    page = await open_page()
    await _login(page, server.share_url, "keys")
    await page.wait_for_selector("[data-focus=daily-results]")
    await page.focus("[data-focus=daily-results]")
    await page.wait_for_timeout(3400)  # the lobby refreshes every 3 s
    assert (await _focused(page))["focus"] == "daily-results"
    cut = await page.evaluate(FORM_CUT)  # every choice of the new-table form fits its select on a desktop
    assert cut == [], cut
    await page.fill("#table-name", "keys")
    await page.select_option("select[name=bots]", "3")
    await page.click("text=Create and sit down")
    await page.wait_for_selector(".seat.bottom")
    played = 0
    clicked = False  # a click on a contract, double or pass moves the focus out of the hand
    deadline = time.monotonic() + 60
    while played < 2:
        assert time.monotonic() < deadline, played
        if await page.locator(".contract").count():
            clicked = True
            await page.locator(".contract").first.click()
            await page.wait_for_timeout(100)
            if await page.locator(".choice .buttons button").count():
                await page.locator(".choice .buttons button").first.click()
        elif await page.locator("[data-focus=no-double]").count():
            clicked = True
            await _click_soon(page, "[data-focus=no-double]")
        elif await page.locator("#double-title").count():  # must double: the declarer's box is ticked
            clicked = True
            await _click_soon(page, "[data-focus=submit-double]")
        elif await page.locator(".hand .playable").count():
            if played == 0 or clicked:
                await page.locator(".hand .playable").first.focus()
                await page.keyboard.press("ArrowRight")  # a key: the focus ring shows (:focus-visible)
                await page.keyboard.press("ArrowLeft")
            else:
                assert (await _focused(page))["playable"], (
                    "the turn came back: the focus is on a playable card"
                )
            styles = await page.evaluate(
                """() => [...document.querySelectorAll('.hand .card')].map((el) => {
                     const style = getComputedStyle(el);
                     return [el === document.activeElement, el.classList.contains('playable'), style.outlineWidth,
                             style.outlineStyle, el.getBoundingClientRect().top]; })"""
            )
            focused = next(s for s in styles if s[0])
            others = [s for s in styles if s[1] and not s[0]]
            assert focused[3] == "solid" and float(focused[2].removesuffix("px")) >= 3, focused
            assert all(s[3] == "none" and s[4] > focused[4] for s in others), (focused, others)
            await page.keyboard.press("Enter")
            played += 1
            clicked = False
            await page.wait_for_timeout(300)
            assert (await _focused(page))["inHand"], "the focus stays in the hand after a play"
            stops = await page.eval_on_selector_all(
                ".hand .card", "els => els.filter(e => e.tabIndex === 0).length"
            )
            assert stops == 1, "the hand is one Tab stop (the arrows move within)"
            continue
        elif await page.locator("[data-focus=pass]").count():
            clicked = True
            await _click_soon(page, "[data-focus=pass]")
        await page.wait_for_timeout(60)
    await page.focus("[data-focus=sheet]")
    await page.keyboard.press("Enter")
    await page.wait_for_selector("dialog.sheet[open]")
    await page.keyboard.press("Escape")
    await page.wait_for_selector("dialog.sheet", state="detached")
    assert (await _focused(page))["focus"] == "sheet"


async def test_a_dropped_player_shows_the_stand_in_countdown(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """When a player's connection drops mid-match, the others see how long until a bot stands in for them,
    counting down (``players.standin_in``)."""
    server = await start_server(bot_delay=0.5)
    ann = await open_page()
    await _login(ann, server.share_url, "ann")
    await ann.wait_for_selector("#table-name")
    await ann.fill("#table-name", "drop")
    await ann.click("text=Create and sit down")
    await ann.wait_for_selector("[data-focus=bot-E]")
    room = ann.url.rpartition("=")[2]
    ali = await open_page()
    await _login(ali, f"{server.share_url}#table={room}", "ali")
    await ali.locator("[data-focus^=sit-]").first.click()
    table = server_table(server, room)
    await until(lambda: any(s.owner == "ali" for s in table.seats), "ali seated")
    await ann.wait_for_selector(".seat:has-text('ali')")  # the host's page knows the seat is taken
    await ann.locator("[data-focus^=bot-]").first.click()
    await until(lambda: sum(s.owner is not None for s in table.seats) == 3, "a bot seated")
    await ann.wait_for_function("() => document.querySelectorAll('[data-focus^=bot-]').length === 1")
    await ann.locator("[data-focus^=bot-]").first.click()
    await ann.wait_for_selector(".where:has-text('Hand 1 of')")
    await ali.context.close()
    await _away_counts_down(ann, "away — a bot stands in in")


async def test_a_dropped_player_at_a_waiting_table_shows_the_seat_kept(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Before the start, a dropped player's seat is kept for the grace: the others see it counting down to
    the seat being freed (``players.freed_in``), not to a stand-in."""
    server = await start_server()
    ann = await open_page()
    room, _ = await _host_table(ann, server, "ann", "kept")
    ali = await open_page()
    await _login(ali, f"{server.share_url}#table={room}", "ali")
    await ali.locator("[data-focus^=sit-]").first.click()
    await ann.wait_for_selector(".seat:has-text('ali')")
    await ali.context.close()
    await _away_counts_down(ann, "away — seat kept for")


async def _away_counts_down(page: Page, words: str) -> None:
    """A seat's away badge on ``page`` reads ``words`` and its seconds (the grace, 60 s, at most), then
    fewer: waited for, not slept (a loaded machine's page ticks late)."""
    badge = page.locator(".seat .badge.away")
    await badge.wait_for()
    pattern = re.escape(words) + r" (\d+) s"
    first = re.search(pattern, await badge.inner_text())
    assert first is not None and int(first[1]) <= 60, await badge.inner_text()
    await page.wait_for_function(
        """([prefix, first]) => {
          const badge = document.querySelector('.seat .badge.away');
          const text = badge ? badge.textContent : '';
          return text.startsWith(prefix) && Number(text.slice(prefix.length).split(' ')[0]) < first;
        }""",
        arg=[words + " ", int(first[1])],
        timeout=20_000,
    )


async def test_the_must_double_rule_ticks_and_locks_the_declarers_box(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """Four players (driven over real connections) play five of the declarer's hands doubling nobody; in the
    sixth, a seat owing as many doubles as the declarer has hands left must double them: its browser (the
    same player, by their resume token) shows the declarer's box ticked and locked, and doubles them."""
    conns, room, table = await four_seated(server, "p", "owed")
    deadline = time.monotonic() + 60
    while True:
        assert time.monotonic() < deadline
        match = table.match
        assert match is not None and match.to_move is not None
        seat = SEATS[match.to_move]
        if match.phase == "double" and match.to_move in match.hand.must_double:
            break
        view = (await conns[seat].snapshot(room)).view
        assert view is not None and view["legal"]
        action = min(view["legal"], key=lambda a: len(a.get("targets", [])))  # no double when allowed
        await conns[seat].act(room, seat, action)  # applied before the reply
    owed = conns[seat]
    token = owed.token
    await owed.close()
    page = await open_page()
    await page.add_init_script(token_given_once(token))
    await page.goto(server.share_url)
    declarer = SEATS[match.hand.declarer]
    box = page.locator(f"input[data-seat={declarer}]")
    await box.wait_for()
    assert await box.is_checked() and await box.is_disabled()
    assert "must be doubled" in await page.inner_text(".targets")
    await page.click("[data-focus=submit-double]")
    doubled = match.hand.declarer
    await until(lambda: (SEATS.index(seat), doubled) in match.hand.doubles, "the declarer doubled")
    for conn in conns.values():
        await conn.close()


#: Makes the page's random deal seed 1 (``randomSeed`` in ``solitaire_picker.js``): Pyramid 1 is lost from
#: the deal, Forty Thieves 1 has no win a tiny hint budget finds.
SEED_ONE = (
    "crypto.getRandomValues = (words) => { words.fill(0); words[words.length - 1] = 1; return words; };"
)


#: Whether an element's text is in the page's own colour (the body's).
SAME_COLOUR_AS_THE_PAGE = "el => getComputedStyle(el).color === getComputedStyle(document.body).color"


def _solitaire_seeds(server: BarbuServer) -> set[tuple[str, int | None]]:
    assert server.lobby is not None
    return {(r.game.name, r.game.seed) for r in server.lobby.rooms.values() if isinstance(r, SolitaireRoom)}


async def test_a_hint_says_a_lost_deal_and_a_guess_as_a_guess(
    start_server: StartServer, open_page: OpenPage
) -> None:
    server = await start_server(hint_budget=0.02)
    page = await open_page()
    await page.add_init_script(SEED_ONE)
    await _solitaire_deal(page, server.share_url, "hil", "pyramid")
    assert _solitaire_seeds(server) == {("pyramid", 1)}
    await page.click("text=Hint")  # before any move: the deal itself is lost
    fresh = await page.wait_for_selector(".message-line .verdict:has-text('cannot be won')")
    said = "This deal cannot be won, from the start (the solver proved it): no move of yours lost it. You may still play it out, or deal again."
    assert fresh is not None and await fresh.inner_text() == said
    # A verdict, not a move: in the page's own colour, not the green of a hint's move.
    assert await fresh.evaluate(SAME_COLOUR_AS_THE_PAGE), "the lost verdict is coloured"
    await page.click("[data-pile=s]")  # a move made: the deal was lost all the same, undo would not help
    await page.wait_for_selector("text=1 move ·")
    await page.click("text=Hint")
    lost = await page.wait_for_selector(".message-line .verdict:has-text('cannot be won')")
    assert lost is not None and await lost.inner_text() == said
    await page.click("text=Lobby")
    await page.wait_for_selector("#game")
    await page.select_option("#game", "forty-thieves")
    await page.click("text=Play a random deal")
    await answer_ask(page, yes=True)  # yes, end the lost game in progress
    await page.wait_for_selector(".layout >> nth=0")
    await until(lambda: ("forty-thieves", 1) in _solitaire_seeds(server), "Forty Thieves 1 dealt")
    await page.wait_for_selector("[data-pile=t10]")
    await page.click("text=Hint")
    guess = await page.wait_for_selector(".hint:has-text('no sure win found')")
    assert guess is not None
    assert (await guess.inner_text()).startswith("Hint: no sure win found; a reasonable move: ")


PHONE_SCREEN: dict[str, Any] = {"viewport": PHONE, "is_mobile": True, "has_touch": True}

#: What a phone player sees at once, read in one step: whether each thing is wholly on screen (its box inside
#: the screen; a question also above the hand kept at the bottom), and the words shown.
ON_SCREEN = """() => {
  const all = (selector) => [...document.querySelectorAll(selector)];
  const shown = (el) => { const r = el.getBoundingClientRect();
    return r.top >= -0.5 && r.left >= -0.5 && r.bottom <= innerHeight + 0.5 && r.right <= innerWidth + 0.5; };
  const hand = document.querySelector('.hand');
  const handTop = hand ? hand.getBoundingClientRect().top : innerHeight;
  const choice = document.querySelector('.prompt .choice');
  const summary = document.querySelector('.summary');
  const last = document.querySelector('.last-trick');
  return {
    doubling: Boolean(document.querySelector('#double-title')),
    no_double: Boolean(document.querySelector('[data-focus=no-double]')),
    playable: all('.hand .playable').map((card) => card.dataset.card),
    pass: Boolean(document.querySelector('[data-focus=pass]')),
    hand_cards: all('.hand .card').length,
    hand_shown: all('.hand .card').every(shown),
    choice_shown: choice ? shown(choice) && choice.getBoundingClientRect().bottom <= handTop + 0.5 : null,
    seats_shown: all('.seat .who').length === 4 && all('.seat .who').every(shown),
    trick_cards: all('.trick .card').length,
    trick_shown: all('.trick .card').every(shown),
    rows_shown: all('.rows .row').length === 4 && all('.rows .row').every(shown),
    last_trick: last ? shown(last) : null,
    why: (document.querySelector('details.why') || {}).textContent || '',
    summary: summary ? { folded: summary.matches('details.folded:not([open])'), height: summary.getBoundingClientRect().height,
      early: Boolean(summary.querySelector('.early-line')) } : null,
    stats: all('.seat .stats').map((el) => el.textContent),
    held: all('.seat').filter((seat) => seat.querySelector('.backs'))
      .map((seat) => [seat.querySelector('.stats').innerText, seat.querySelectorAll('.backs .card').length]),
    score_rows: all('.scores tbody th').map((el) => el.textContent),
    dealer: all('.badge.dealer').map((el) => el.innerText),
    unopened: all('.row.unopened').map((el) => el.getBoundingClientRect().height),
    where: (document.querySelector('.where') || {}).textContent || '',
    text: document.body.innerText,
    width: document.documentElement.scrollWidth,
  };
}"""


def _first_choice(view: dict[str, Any]) -> dict[str, Any]:
    """The drivers' choice: No tricks in hand 1 (every contract score negative or nil), Dominoes in hand 2;
    no double, no redouble (unless the rules require one); the first card or pass offered."""
    legal: list[dict[str, Any]] = view["legal"]
    if view["phase"] == "contract":
        wanted = "no-tricks" if view["hand_number"] == 1 else "dominoes"
        return next((a for a in legal if a["contract"] == wanted), legal[0])
    if view["phase"] in ("double", "redouble"):
        return min(legal, key=lambda a: len(a.get("targets", [])))
    return legal[0]


async def seat_page(
    server: BarbuServer, open_page: OpenPage, conns: dict[str, Connection], seat: str, **context: Any
) -> Page:
    """``seat``'s player comes to the table in the browser (``context``: the page's, a viewport): their
    connection in ``conns`` closed and dropped from it, a page resumes their session by its token."""
    token = conns[seat].token
    await conns.pop(seat).close()
    page = await open_page(**context)
    await page.add_init_script(token_given_once(token))
    await page.goto(server.share_url)
    return page


#: What a page clicks on its seat's turn, in this order of preference: a playable card, Dominoes' Pass, No double.
OWN_TURN = (
    (".hand .playable", ".hand .playable >> nth=0"),
    ("[data-focus=pass]", "[data-focus=pass]"),
    ("[data-focus=no-double]", "[data-focus=no-double]"),
)


async def play_own_turn(page: Page, choices: tuple[tuple[str, str], ...] = OWN_TURN) -> None:
    """Click the first of ``choices`` (each: what shows it is there, what to click) the page shows, if any; a
    control gone with a redraw meanwhile is let be (the next call clicks what came instead)."""
    with contextlib.suppress(PlaywrightError):
        for shown, target in choices:
            if await page.locator(shown).count():
                await page.click(target, timeout=1000)
                return


async def _drive(
    conns: dict[str, Connection],
    room: str,
    table: BarbuTable,
    choose: Callable[[dict[str, Any]], dict[str, Any]] = _first_choice,
    done: Callable[[], bool] = lambda: False,
) -> None:
    """Act for the seats of ``conns`` whenever one of them is to move (``choose``), until cancelled or
    ``done()``."""
    while not done():
        match = table.match
        seat = SEATS[match.to_move] if match is not None and match.to_move is not None else None
        if seat in conns:
            view = (await conns[seat].snapshot(room)).view
            if view is not None and view["legal"] and view["to_move"] == seat:
                with contextlib.suppress(ServerError):  # the table moved on meanwhile
                    await conns[seat].act(room, seat, choose(view))
        await asyncio.sleep(0.02)


async def stop_driving(driver: asyncio.Task[None], conns: dict[str, Connection]) -> None:
    """Stop ``driver`` (a ``_drive`` task) and close the connections it acted for."""
    driver.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await driver
    for conn in conns.values():
        await conn.close()


async def test_a_phone_player_sees_the_hand_the_trick_and_the_seats_at_once(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """On a 360x740 phone, through a No tricks hand and into a Dominoes hand: deciding a double, the whole
    question and the whole hand are on screen, and the must-double rule is explained (a "Why?"); at each
    play, the four seats, the trick, the last trick and the hand, all at once; the last hand's results fold
    to one line above the next question; Dominoes says cards left, not tricks, its unopened rows one short
    line each; the dealer's mark is a word; every number's minus is "−"; a card the finger is on stays the
    same element through a chat line and the clock's ticks (a tap in flight lands)."""
    conns = {seat: await Connection.connect(server.url) for seat in SEATS}
    for seat, conn in conns.items():
        await conn.login(f"p{seat.lower()}")
    room = await conns["N"].create_table("phone", turn_time=300)
    for seat, conn in conns.items():
        await conn.sit(room, seat)
    table = server_table(server, room)
    await until(lambda: table.match is not None, "the start")
    assert table.match is not None
    mine = SEATS[(table.match.hand.declarer + 1) % 4]  # the first to double, in every hand of this declarer
    page = await seat_page(server, open_page, conns, mine, **PHONE_SCREEN)
    await page.wait_for_selector(".seat.bottom .who")
    driver = asyncio.create_task(_drive(conns, room, table))
    seen: set[str] = set()
    try:
        deadline = time.monotonic() + 120
        while "dominoes" not in seen:
            assert time.monotonic() < deadline, seen
            on = await page.evaluate(ON_SCREEN)
            assert on["width"] <= PHONE["width"]
            assert not re.search(r"(?<![\w-])-\d", on["text"]), "a minus shown as a hyphen"
            assert all(mark == "dealer" for mark in on["dealer"]), on["dealer"]
            if on["where"].startswith("Hand 2"):  # after No tricks, negative totals: with the one minus sign
                assert re.search(r"total −\d", on["text"]), on["text"]
            if on["doubling"]:
                assert on["hand_cards"] == 13 and on["hand_shown"], "the hand, on screen while deciding"
                assert on["choice_shown"], "the whole doubling question, on screen above the hand"
                assert "Why?" in on["why"] and "at least twice" in on["why"], on["why"]
                if on["summary"] is not None:  # hand 2: the last hand's results folded to a line
                    # one line, and the hand's early end under it when it stopped early
                    assert on["summary"]["folded"] and on["summary"]["height"] < (
                        112 if on["summary"]["early"] else 64
                    ), on["summary"]
                    seen.add("folded")
                seen.add("double")
                if on["no_double"]:
                    await _click_soon(page, "[data-focus=no-double]")
                else:
                    await _click_soon(page, "[data-focus=submit-double]")
            elif on["playable"] or on["pass"]:
                assert on["hand_shown"] and on["seats_shown"], on
                if "Dominoes" in on["where"]:
                    assert on["rows_shown"], "the four rows on screen"
                    assert not [s for s in on["stats"] if "trick" in s], on["stats"]
                    assert all(re.search(r"\d+ cards? left|out \d|last", s) for s in on["stats"]), on["stats"]
                    assert "Tricks" not in on["score_rows"] and "Cards left" in on["score_rows"]
                    assert all(height <= 30 for height in on["unopened"]), on["unopened"]
                    if on["unopened"]:
                        seen.add("dominoes")
                else:
                    assert on["trick_shown"], "the trick on screen"
                    # No backs on a phone: the cards each other seat holds, in words.
                    assert len(on["held"]) == 3 and all(
                        words.endswith(f"· {count} card{'' if count == 1 else 's'}")
                        for words, count in on["held"]
                    ), on["held"]
                    if on["trick_cards"] >= 2:
                        seen.add("trick")
                    if on["last_trick"] is not None:
                        assert on["last_trick"], "the last trick on screen"
                        seen.add("last-trick")
                    if "kept" not in seen:
                        await _a_card_survives_redraws(page, conns, room)
                        seen.add("kept")
                if on["pass"]:
                    await _click_soon(page, "[data-focus=pass]")
                else:
                    await _click_soon(page, f".hand [data-card='{on['playable'][0]}']")
            await page.wait_for_timeout(40)
    finally:
        driver.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await driver
        for conn in conns.values():
            await conn.close()
    assert seen >= {"double", "folded", "trick", "last-trick", "kept", "dominoes"}, seen


async def _a_card_survives_redraws(page: Page, conns: dict[str, Connection], room: str) -> None:
    """A card of the hand stays the same element, in the page, while a chat line arrives (the table redraws)
    and the turn clock ticks."""
    clock = await page.evaluate(
        "() => { window.kept = document.querySelector('.hand .card');"
        " return document.querySelector('.clock').textContent; }"
    )
    await next(iter(conns.values())).chat(room, "nice hand")
    await page.wait_for_selector(".chat-log li:has-text('nice hand')")
    await page.wait_for_function(f"() => document.querySelector('.clock').textContent !== {clock!r}")
    same = await page.evaluate(
        """() => window.kept.isConnected
             && window.kept === document.querySelector(`.hand [data-card="${window.kept.dataset.card}"]`)"""
    )
    assert same, "the card under the finger was replaced by a redraw"


class SlowNews:
    """Holds back what would tell a page that its table changed while ``on``, as a slow network would, so the
    page acts on a table it has not yet heard change: the pushes (messages with no ``id``) and the replies to
    the page's own reads (``snapshot``, ``list-rooms``: a push that came just before ``on`` makes the page read
    the table again, and that read would tell it). Replies to its other requests pass at once."""

    READS = frozenset({"snapshot", "list-rooms"})

    def __init__(self) -> None:
        self.on = False
        self.held: list[tuple[WebSocketRoute, str | bytes]] = []

    def route(self, page_side: WebSocketRoute) -> None:
        server_side = page_side.connect_to_server()
        reads: set[object] = set()

        def from_page(message: str | bytes) -> None:
            if isinstance(message, str):
                request = json.loads(message)
                if request.get("type") in self.READS:
                    reads.add(request.get("id"))
            server_side.send(message)

        def from_server(message: str | bytes) -> None:
            news = False
            if isinstance(message, str):
                reply_to = json.loads(message).get("id")
                news = reply_to is None or reply_to in reads
            if self.on and news:
                self.held.append((page_side, message))
            else:
                page_side.send(message)

        server_side.on_message(from_server)
        page_side.on_message(from_page)

    def release(self) -> None:
        self.on = False
        for page_side, message in self.held:
            page_side.send(message)
        self.held.clear()


async def _told_at_seat(page: Page, seat: str) -> str:
    """The refusal shown in ``seat``'s box, once it is on screen (and none at the top of the table)."""
    notice = page.locator(f".seat[aria-label^='{SEAT_NAMES[seat]}:'] .notice")
    await notice.wait_for()
    where = await notice.evaluate(
        "el => { const r = el.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; }"
    )
    assert where, "the refusal is on screen"
    assert await page.locator(".table-screen > .notice").count() == 0
    words: str = await notice.inner_text()
    return words


async def test_a_refused_bot_or_seat_is_told_at_that_seat_on_a_phone(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The host on a phone adds a bot to a seat someone took a moment ago (the page had not heard yet), and a
    guest sits there: each refusal is told in that seat's box, on screen, with the seat in words."""
    news = SlowNews()
    host = await open_page(**PHONE_SCREEN)
    await host.route_web_socket(lambda url: True, news.route)
    room, table = await _host_table(host, server, "hana", "late news")
    free = [SEATS[i] for i, s in enumerate(table.seats) if s.owner is None]
    guest_news = SlowNews()
    guest = await open_page(**PHONE_SCREEN)
    await guest.route_web_socket(lambda url: True, guest_news.route)
    await _login(guest, f"{server.share_url}#table={room}", "gus")
    await guest.wait_for_selector(f"[data-focus=sit-{free[0]}]")

    news.on = guest_news.on = True
    zed = await Connection.connect(server.url)
    await zed.login("zed")
    await zed.sit(room, free[0])
    await host.click(f"[data-focus=bot-{free[0]}]")
    words = await _told_at_seat(host, free[0])
    assert f"seat {SEAT_NAMES[free[0]]} is not empty" in words, words
    await guest.click(f"[data-focus=sit-{free[0]}]")
    words = await _told_at_seat(guest, free[0])
    assert SEAT_NAMES[free[0]] in words and f" {free[0]} " not in words, words
    news.release()
    guest_news.release()
    await host.wait_for_selector(f".seat[aria-label^='{SEAT_NAMES[free[0]]}:'] .who:has-text('zed')")
    await zed.close()


async def test_the_lobby_offers_to_watch_only_games_being_played(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The lobby's "Games being played" lists the solitaire games still in play, not a finished one."""
    pat = await Connection.connect(server.url)
    await pat.login("pat")
    playing = await pat.open_solitaire("forty-thieves", seed=3)
    quin = await Connection.connect(server.url)
    await quin.login("quin")
    over = await quin.open_solitaire("forty-thieves", seed=4)
    await quin.resign(over.room)
    listed = {room["room"]: room for room in (await pat.lobby()).rooms}
    assert listed[over.room]["result"], "a finished game still listed (else this test checks nothing)"
    page = await open_page()
    await _login(page, server.share_url, "viv")
    await page.wait_for_selector(f"[data-focus=game-{playing.room}]")
    section = page.locator("section:has(#sol-title)")
    assert "Games being played" in await section.inner_text()
    assert await page.locator(f"[data-focus=game-{over.room}]").count() == 0
    await pat.resign(playing.room)  # nothing in play: the heading goes too
    await page.wait_for_selector(f"[data-focus=game-{playing.room}]", state="detached", timeout=10_000)
    assert "Games being played" not in await section.inner_text()
    await pat.close()
    await quin.close()
