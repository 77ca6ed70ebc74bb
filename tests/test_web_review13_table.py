"""The Barbu table screen after the table review (issue 9f), in Debian's Chromium against a real server: the
doubling dialog stays clear of the hand with its "Why?" open; red trump suits are red; a Dominoes hand's
summary says who went out first, and every seat is reminded of its rule; a stand-in's "no double" is told
to the player back at the seat. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from engine.barbu.actions import Action
from engine.barbu.bots import HeuristicPolicy
from engine.cards import SEATS
from server import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, four_seated, until
from tests.test_web_browser import SEAT_NAMES, OpenPage, _drive, browser, open_page, play_own_turn, seat_page
from tests.test_web_kept import AskedSeat

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests

DESKTOP = {"width": 1280, "height": 800}

#: Where the doubling dialog's buttons are, against the hand at the bottom and the window.
BUTTONS_CLEAR = """() => {
  const hand = document.querySelector('.hand').getBoundingClientRect();
  return [...document.querySelectorAll('.prompt .choice .buttons button')].map((el) => {
    const box = el.getBoundingClientRect();
    return { top: box.top, bottom: box.bottom, hand: hand.top, height: innerHeight };
  });
}"""


async def test_the_doubling_buttons_stay_clear_of_the_hand_with_why_open(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """On a 1280x800 desktop, "Why?" opened in the doubling dialog: the rule's words pushed the dialog's
    buttons under the hand at the bottom of the screen; they stay above it, in the window, and a click on
    "No double" doubles nobody."""

    async def desktop(**context: Any) -> Any:
        return await open_page(viewport=DESKTOP, **context)

    asked = await AskedSeat.open(server, desktop, "double")
    page = asked.page
    await page.locator(".why-link").click()
    await page.wait_for_timeout(300)  # a scroll, if any
    for box in await page.evaluate(BUTTONS_CLEAR):
        assert box["top"] >= 0 and box["bottom"] <= box["hand"] <= box["height"], box
    match = asked.table.match
    assert match is not None
    mine = SEATS.index(asked.seat)
    await page.locator("[data-focus=no-double]").click(timeout=3000)
    await until(lambda: match.to_move != mine, "the seat's answer")
    await asked.close()


#: Each trump suit button's text colour and background, as [r, g, b] lists.
TRUMP_COLOURS = """() => Object.fromEntries([...document.querySelectorAll('[data-focus^=trump-]')].map((el) => {
  const rgb = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const style = getComputedStyle(el);
  return [el.dataset.focus.slice(6), { fg: rgb(getComputedStyle(el.querySelector('[aria-hidden]')).color), text: rgb(style.color), bg: rgb(style.backgroundColor) }];
}))"""


def _contrast(a: list[float], b: list[float]) -> float:
    """The WCAG contrast ratio of two sRGB colours."""

    def lum(rgb: list[float]) -> float:
        lin = [(c / 255 / 12.92) if c / 255 <= 0.03928 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    high, low = sorted((lum(a), lum(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


async def test_red_trump_suits_are_red_in_light_and_dark(server: BarbuServer, open_page: OpenPage) -> None:
    """The declarer's trump suit buttons: ♥ and ♦ red as on the cards (they were black), ♠ and ♣ not,
    readable on the button (4.5:1) in the light theme and the dark one."""
    asked = await AskedSeat.open(server, open_page, "contract")
    page = asked.page
    await page.locator("[data-contract=trumps]").click()
    await page.locator("[data-focus=trump-H]").wait_for()
    for scheme in ("light", "dark"):
        await page.emulate_media(color_scheme=scheme)
        colours = await page.evaluate(TRUMP_COLOURS)
        for suit, seen in colours.items():
            r, g, b = seen["fg"]
            assert (r > g + 80 and r > b + 80) == (suit in "HD"), (scheme, suit, seen)
            for part in ("fg", "text"):
                assert _contrast(seen[part], seen["bg"]) >= 4.5, (scheme, suit, seen)
    await asked.close()


async def test_every_seat_is_reminded_of_dominoes_and_told_who_went_out_first(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A player who does not declare, through a No tricks hand into Dominoes: during the Dominoes hand the
    table says its rule in one line (only the declarer read it, choosing the rank); its summary says who went
    out first and the order after, each with their score."""
    conns, room, table = await four_seated(server, "o", "dominoes")
    assert table.match is not None
    mine = SEATS[(table.match.hand.declarer + 1) % 4]
    page = await seat_page(server, open_page, conns, mine)
    await page.wait_for_selector(".seat.bottom .who")
    driver = asyncio.create_task(_drive(conns, room, table))
    reminded = ""
    try:
        deadline = time.monotonic() + 90
        while True:
            assert time.monotonic() < deadline, await page.inner_text("body")
            where = await page.inner_text(".where")
            if "Dominoes" in where and await page.locator(".rows").count() and not reminded:
                await page.wait_for_selector(".rule-reminder", timeout=2000)
                reminded = await page.inner_text(".rule-reminder")
            summary = page.locator(".summary:has-text('Hand 2:')")
            if await summary.count():
                said = await summary.text_content() or ""  # folded or not
                break
            if len(table.match.history) >= 2:
                # Hand 2 is scored: the page no longer acts, so its seat holds the next hand before its first
                # card, while the summary shows (played on, the summary could go before the loop looked).
                await asyncio.sleep(0.1)
                continue
            await play_own_turn(page)
            await asyncio.sleep(0.1)
    finally:
        driver.cancel()
        for conn in conns.values():
            await conn.close()
    hand = table.match.history[1]
    assert hand.start_rank is not None
    rank = "10" if hand.start_rank == 8 else "23456789TJQKA"[hand.start_rank]
    way = {"2": "up", "A": "down"}.get(rank, "up and down")
    assert reminded == (
        f"The {rank} of a suit opens its row; then the row grows one rank at a time, {way}; pass only"
        " when none of your cards plays."
    )
    a, b, c, d = (
        (
            "you" if s == mine else f"{SEAT_NAMES[s]} (o{s.lower()})",
            signed(hand.contract_scores[SEATS.index(s)]),
        )
        for s in (SEATS[s] for s in hand.finish_order)
    )
    first = a[0][0].upper() + a[0][1:]
    told = f"{first} went out first for {a[1]}, then {b[0]} for {b[1]}, then {c[0]} for {c[1]}; {d[0]}, left with cards, came last for {d[1]}."
    assert told in said, said


def signed(n: int) -> str:
    """A score as the page writes it: "+45", "−5"."""
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def _no_double(self: HeuristicPolicy, view: dict[str, Any], hand: int, legal: list[Action]) -> Action:
    """A stand-in that doubles nobody it need not (the heuristic's choice depends on the deal)."""
    return min(legal, key=lambda a: len(getattr(a, "targets", ())))


async def test_a_stand_ins_no_double_is_told_on_coming_back(
    start_server: StartServer, open_page: OpenPage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first seat to double closes its page before the contract is chosen; a stand-in takes the seat
    after the grace and doubles nobody for it; back at the seat, the page says so (it said nothing)."""
    monkeypatch.setattr(HeuristicPolicy, "_double", _no_double)
    server = await start_server(grace=0.5)
    conns, room, table = await four_seated(server, "a", "away")
    match = table.match
    assert match is not None
    mine = (match.hand.declarer + 1) % 4
    page = await seat_page(server, open_page, conns, SEATS[mine])
    await page.wait_for_selector(".hand .card")
    await page.wait_for_function(f"(localStorage.getItem('barbu.seen') || '').includes('\"{room}\"')")
    context = page.context  # kept: its localStorage holds the last action the page took (since)
    await page.close()  # the connection drops: after the grace a stand-in takes the seat
    await until(lambda: table.seats[mine].standin, "the stand-in")
    declarer = SEATS[match.hand.declarer]
    await conns[declarer].act(room, declarer, {"action": "contract", "contract": "no-tricks"})
    await until(lambda: match.to_move != mine, "the stand-in's no double")
    assert not [pair for pair in match.hand.doubles if pair[0] == mine]
    back = await context.new_page()
    await back.goto(server.share_url)
    await back.locator(".hand .card").first.wait_for()
    said = back.locator(".away-plays")
    await said.wait_for(timeout=5000)
    assert await said.inner_text() == "While you were away a stand-in bot doubled nobody for you."
    for conn in conns.values():
        await conn.close()
