"""The browser client speaks protocol version 2 at a Barbu table, in Debian's Chromium against a real server:
it follows the play from the server's `update` pushes and never asks for a `snapshot` during a hand; back at
the table (a reload, another tab closed, a stand-in's turn) it asks with `since` and tells "while you were
away" from the missed updates' events: a card the player played in another tab is not told as a stand-in's,
a stand-in's contract is. Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.async_api import Page, WebSocket

from engine.cards import SEATS
from server import BarbuServer
from tests.browser import MISSING, chromium_found, token_given_once
from tests.conftest import StartServer, four_seated, server_table, until
from tests.web_pages import OpenPage, answer, bot_table, browser, mid_hand, open_page

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures


class Frames:
    """The JSON frames a page sends and receives over its WebSockets, decoded, from when it is watched."""

    def __init__(self, page: Page) -> None:
        self.sent: list[dict[str, Any]] = []
        self.received: list[dict[str, Any]] = []
        page.on("websocket", self._opened)

    def _opened(self, ws: WebSocket) -> None:
        ws.on("framesent", lambda payload: self.sent.append(json.loads(payload)))
        ws.on("framereceived", lambda payload: self.received.append(json.loads(payload)))

    def sent_of(self, kind: str) -> list[dict[str, Any]]:
        """The requests of type ``kind`` sent so far."""
        return [frame for frame in self.sent if frame.get("type") == kind]


async def _hand(page: Page) -> list[str]:
    """The cards of the page's own hand, as it shows them."""
    return [
        str(card)
        for card in await page.locator(".hand .card").evaluate_all(
            "(cards) => cards.map((c) => c.dataset.card)"
        )
    ]


async def test_a_whole_hand_is_played_without_asking_for_a_snapshot(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """ann plays hand 1 by clicks against three bots: the page says `hello` with version 2, and sends no
    `snapshot` request from the start of the hand to its end (the v1 page asked one after every event)."""
    page = await open_page()
    frames = Frames(page)
    room = await bot_table(page, server.share_url, "ann", "updates", shown=".hand .card")
    assert frames.sent_of("hello")[0]["version"] == 2
    table = server_table(server, room)
    match = table.match
    assert match is not None
    deadline = time.monotonic() + 120
    while match.hand_number == 1:
        assert time.monotonic() < deadline, "hand 1 not over"
        await answer(page)
        await page.wait_for_timeout(100)
    await page.locator(".hand .card").first.wait_for()  # hand 2 shown, from an update
    assert frames.sent_of("snapshot") == []
    updates = [frame for frame in frames.received if frame.get("type") == "update"]
    assert len(updates) >= 52  # a card played is one action: one update each
    assert not [frame for frame in frames.received if frame.get("type") in ("event", "turn")]


async def test_a_card_played_in_another_tab_is_not_told_as_a_stand_ins(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """ann's table is open in a tab; a second tab of the same browser takes the session and plays a card;
    closed, the first tab takes the session back: it shows the card gone, and does not say a stand-in played
    it (the v1 page did, from the hand it had kept)."""
    first = await open_page()
    room = await bot_table(first, server.share_url, "ann", "tabs", shown=".hand .card")
    await mid_hand(first)  # ann's turn to play a card
    second = await first.context.new_page()
    await second.goto(server.share_url)
    playable = second.locator(".hand .playable").first
    await playable.wait_for()
    card = await playable.get_attribute("data-card")
    assert card
    await playable.click()
    table = server_table(server, room)
    seat = next(i for i, s in enumerate(table.seats) if s.owner == "ann")
    match = table.match
    assert match is not None
    await until(lambda: card not in match.view(seat)["hand"], "the card played")
    await second.close()  # the first tab takes the session back by itself
    await first.locator(f".hand .card[data-card='{card}']").wait_for(state="detached", timeout=15_000)
    await first.wait_for_timeout(500)
    assert "were away" not in await first.inner_text("body")


async def test_a_stand_ins_contract_is_told_on_coming_back(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """The declarer's page closes at the contract; after the grace a stand-in chooses one for the seat; a
    new page of the same browser comes back with `since` and says the stand-in chose it."""
    server = await start_server(grace=0.5)
    conns, room, table = await four_seated(server, "u", "standin")
    match = table.match
    assert match is not None
    mine = SEATS[match.hand.declarer]
    page = await open_page()
    # The page resumes the player's session, which closes their connection: the seat never lacks one (with
    # a grace this short a stand-in would take it first).
    await page.add_init_script(token_given_once(conns[mine].token))
    await page.goto(server.share_url)
    await page.locator(".contract").first.wait_for()
    await conns.pop(mine).close()
    await page.wait_for_function(f"(localStorage.getItem('barbu.seen') || '').includes('\"{room}\"')")
    context = page.context  # kept: its localStorage holds the token and the last action the page took
    await page.close()
    await until(lambda: match.hand.contract is not None, "the stand-in's contract")
    back = await context.new_page()
    frames = Frames(back)
    await back.goto(server.share_url)
    said = back.locator(".away-plays")
    await said.wait_for(timeout=10_000)
    assert (await said.inner_text()).startswith("While you were away a stand-in bot chose ")
    assert frames.sent_of("resume")[0]["since"] == {room: 0}
    for conn in conns.values():
        await conn.close()


async def test_a_reload_mid_hand_comes_back_to_the_same_cards_since_the_last_update(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """Reloaded mid-hand, the page asks with `since` the last action it took (the table waited: nobody else
    is connected), is told it missed nothing, and shows the same hand; no `snapshot` request is sent."""
    page = await open_page()
    room = await bot_table(page, server.share_url, "ann", "reload", shown=".hand .card")
    await mid_hand(page)
    cards = await _hand(page)
    seq = json.loads(await page.evaluate("() => localStorage.getItem('barbu.seen')"))["ann"][room]
    assert seq == server_table(server, room).seq
    frames = Frames(page)
    await page.reload()
    await page.locator(".hand .playable").first.wait_for()
    assert await _hand(page) == cards
    assert frames.sent_of("resume")[0]["since"] == {room: seq}
    assert [frame["since"] for frame in frames.sent_of("sit")] == [seq]
    replies = [
        frame for frame in frames.received if frame.get("type") == "snapshot" and frame.get("room") == room
    ]
    assert replies and all(frame["updates"] == [] for frame in replies)
    assert frames.sent_of("snapshot") == []
