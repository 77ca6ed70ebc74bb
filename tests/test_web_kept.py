"""Every control a player presses survives a redraw between its press and its release, in Debian's Chromium
against a real server: the contract buttons, the doubling dialog, a playable card of the hand and a lobby
table's button and the solitaire's Undo are kept nodes (web/js/dom.js ``Kept``), so a push (a chat line, a lobby refresh) that
redraws the screen while the mouse is down does not put a new button under it and lose the click.
Skipped, naming the package, when Chromium is not installed."""

from __future__ import annotations

import time

import pytest
from playwright.async_api import Page

from client import Connection
from engine.cards import SEATS, texts
from server import BarbuServer
from server.barbu_table import BarbuTable
from server.solitaire_room import SolitaireRoom
from tests.browser import MISSING, chromium_found
from tests.conftest import server_table, until
from tests.test_web_browser import (
    OpenPage,
    _first_choice,
    _login,
    _solitaire_deal,
    browser,
    open_page,
    seat_page,
)
from tests.test_web_review3 import _click_across_a_redraw, _watcher

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


class AskedSeat:
    """A table of four players over real connections, played on (the drivers' choice) until a seat is
    asked ``phase`` ("contract", "double", "play"); that seat's player then comes back in the browser by
    their resume token. ``page`` shows the seat; ``others`` are the three other seats' connections."""

    page: Page
    others: dict[str, Connection]
    room: str
    table: BarbuTable
    seat: str

    @classmethod
    async def open(cls, server: BarbuServer, open_page: OpenPage, phase: str) -> AskedSeat:
        """Seat the four players, play until ``phase`` is asked, and open the asked seat's page."""
        asked = cls()
        conns = {seat: await Connection.connect(server.url) for seat in SEATS}
        for seat, conn in conns.items():
            await conn.login(f"p{seat.lower()}")
        asked.room = await conns["N"].create_table("kept")
        for seat, conn in conns.items():
            await conn.sit(asked.room, seat)
        asked.table = server_table(server, asked.room)
        await until(lambda: asked.table.match is not None, "the start")
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline
            match = asked.table.match
            assert match is not None and match.to_move is not None
            seat = SEATS[match.to_move]
            if match.phase == phase:
                break
            view = (await conns[seat].snapshot(asked.room)).view
            assert view is not None
            await conns[seat].act(asked.room, seat, _first_choice(view))  # applied before the reply
        asked.seat = seat
        asked.page = await seat_page(server, open_page, conns, seat)
        asked.others = conns
        return asked

    async def chat(self) -> None:
        """Another seat says something: every page at the table gets a ``chat`` push and redraws."""
        await next(iter(self.others.values())).chat(self.room, "good luck")

    async def close(self) -> None:
        """Close the other seats' connections."""
        for conn in self.others.values():
            await conn.close()


async def test_a_contract_pressed_as_a_chat_line_redraws_the_table_is_chosen(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The declarer presses "No tricks"; a chat line redraws the table; the release chooses the contract.
    The contract buttons were built anew at every draw, so the click was lost."""
    asked = await AskedSeat.open(server, open_page, "contract")
    target = asked.page.locator("[data-contract=no-tricks]")
    await _click_across_a_redraw(asked.page, target, asked.chat)
    match = asked.table.match
    assert match is not None
    await until(lambda: match.hand.contract == "no-tricks", "the contract chosen by the click")
    await asked.close()


async def test_a_double_pressed_as_a_chat_line_redraws_the_table_doubles(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A seat ticks the declarer, presses "Double the ticked players"; a chat line redraws the table
    (the tick stays); the release doubles the declarer."""
    asked = await AskedSeat.open(server, open_page, "double")
    match = asked.table.match
    assert match is not None
    declarer = SEATS[match.hand.declarer]
    box = asked.page.locator(f"input[data-seat={declarer}]")
    if not await box.is_checked():
        await box.click()
    target = asked.page.locator("[data-focus=submit-double]")
    await _click_across_a_redraw(asked.page, target, asked.chat)
    doubled = (SEATS.index(asked.seat), match.hand.declarer)
    await until(lambda: doubled in match.hand.doubles, "the declarer doubled by the click")
    await asked.close()


async def test_a_card_pressed_as_a_chat_line_redraws_the_table_is_played(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The seat to play presses a playable card; a chat line redraws the table; the release plays it."""
    asked = await AskedSeat.open(server, open_page, "play")
    target = asked.page.locator(".hand .card.playable").first
    await target.wait_for()
    card = await target.get_attribute("data-card")
    assert card is not None
    match = asked.table.match
    assert match is not None
    held = match.hand.hands[SEATS.index(asked.seat)]
    assert card in texts(held)
    await _click_across_a_redraw(asked.page, target, asked.chat)
    await until(
        lambda: card not in texts(match.hand.hands[SEATS.index(asked.seat)]), f"{card} played by the click"
    )
    await asked.close()


async def test_a_lobby_table_opened_across_a_refresh_opens(server: BarbuServer, open_page: OpenPage) -> None:
    """In the lobby (refreshed every 3 s), a player presses a table's "Open (sit or watch)"; a refresh
    redraws the tables (someone starts watching that table); the release opens the table. The tables'
    cards were built anew at every refresh, so the click was lost."""
    bea = await Connection.connect(server.url)
    await bea.login("bea")
    room = await bea.create_table("bea's table")
    await bea.sit(room, "N")
    page = await open_page()
    await _login(page, server.share_url, "ann")
    card = f".room[data-room='{room}']"
    watchers: list[Connection] = []

    async def cai_watches() -> None:
        watchers.append(await _watcher(server, "cai", room))

    await _click_across_a_redraw(
        page, page.locator(f"[data-focus=table-{room}]"), cai_watches, fresh=f"{card} .seats-list"
    )
    await page.wait_for_url(f"**#table={room}")
    await page.wait_for_selector(".felt")
    await watchers[0].close()
    await bea.close()


async def test_a_solitaire_undo_pressed_as_a_hint_redraws_the_board_undoes(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """After a move, the player presses Undo; a hint asked meanwhile (by the keyboard) redraws the screen
    while the mouse is down; the release undoes the move. The control buttons were built anew at every
    draw, so the click was lost."""
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "sol", "forty-thieves")
    assert server.lobby is not None
    room = next(r for r in server.lobby.rooms.values() if isinstance(r, SolitaireRoom))
    await page.click("[data-pile=s]")  # the stock turns: a move
    await until(lambda: room.game.moves == 1, "the stock turned")
    await page.wait_for_selector("[data-focus=undo]:not([disabled])")

    async def ask_a_hint() -> None:
        await page.evaluate("document.querySelector('[data-focus=hint]').click()")

    await _click_across_a_redraw(page, page.locator("[data-focus=undo]"), ask_a_hint)
    await until(lambda: room.game.moves == 0, "the move undone by the click")


#: Marks every node `selectors` finds (a property, which a node made anew does not have), for `_still_marked`.
MARK = """(selectors) => selectors.map((s) => { const el = document.querySelector(s); if (el) el.__kept = s; return Boolean(el); })"""

#: For each selector, whether the node it finds now is the one marked before, in the page.
STILL_MARKED = """(selectors) => Object.fromEntries(selectors.map((s) => {
  const el = document.querySelector(s);
  return [s, Boolean(el && el.__kept === s && el.isConnected)];
}))"""


async def test_the_tables_header_buttons_and_chat_form_stay_the_same_nodes_through_a_push(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """A chat line redraws the table: the header's buttons (copy the invite link, the score sheet, leave,
    lobby), the invite link's field and the chat's field and Send are the same nodes after it, so a press
    straddling the push lands; before, they were built anew at every draw."""
    asked = await AskedSeat.open(server, open_page, "play")
    page = asked.page
    await page.wait_for_selector("[data-focus=sheet]")
    kept = [
        "[data-focus=copy]",
        ".table-head .invite",
        "[data-focus=sheet]",
        "[data-focus='Leave table']",
        "[data-focus=Lobby]",
        ".table-head",
        ".chat form.say",
        ".chat input[data-focus=chat]",
        ".chat button[type=submit]",
    ]
    assert all(await page.evaluate(MARK, kept))
    await page.fill(".chat input[data-focus=chat]", "half typed")
    draws = await page.evaluate("() => document.querySelector('[data-draws]').dataset.draws")
    await asked.chat()
    await page.wait_for_function(
        "(d) => document.querySelector('[data-draws]').dataset.draws !== d", arg=draws
    )
    assert await page.evaluate(STILL_MARKED, kept) == {selector: True for selector in kept}
    assert await page.input_value(".chat input[data-focus=chat]") == "half typed"
    await asked.close()


async def test_a_solitaire_card_pressed_as_a_hint_redraws_the_board_is_picked(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The player presses a card of a column; a hint's answer redraws the board while the mouse is down;
    the release picks the card (the line says where it now goes). The board's cards were built anew at
    every draw, so the click was lost."""
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "sol", "forty-thieves")
    target = page.locator(".column .card[data-pile=t1]").last

    async def ask_a_hint() -> None:
        await page.evaluate("document.querySelector('[data-focus=hint]').click()")

    await _click_across_a_redraw(page, target, ask_a_hint)
    await page.locator(".message-line", has_text="Moving from column 1").wait_for()


#: The summary's and the ranking's buttons drawn twice with one Kept (table_score.js): whether each is the
#: same node the second time.
SUMMARY_TWICE = """async () => {
  const { Kept } = await import('/js/dom.js');
  const { handSummary, ranking } = await import('/js/table_score.js');
  const kept = new Kept();
  const snap = { seat: 'S', room: '9', players: { N: 'nan', E: 'eve', S: 'sam', W: 'wes' }, view: null };
  const scored = {
    hand_number: 3, declarer: 'N', contract: 'no-tricks',
    contract_scores: { N: -4, E: -2, S: -6, W: -14 }, settlements: { N: 0, E: 0, S: 0, W: 0 },
    scores: { N: -4, E: -2, S: -6, W: -14 }, totals: { N: -4, E: -2, S: -6, W: -14 },
  };
  const folded = { summaryOpen: null };
  const pick = (box) => [box.querySelector('[data-focus=close-summary]'), box.querySelector('.show-all'), box.querySelector('summary')];
  const first = pick(handSummary(snap, scored, () => {}, folded, true, kept));
  kept.sweep();
  const second = pick(handSummary(snap, scored, () => {}, folded, true, kept));
  kept.sweep();
  const over = { ...snap, view: { phase: 'over', totals: scored.totals, ranking: [['E'], ['N'], ['S'], ['W']] } };
  const state = { snapshot: over, me: 'sam', summary: { host: 'sam' }, rematch: null, kept };
  const actions = { rematch() {}, joinRematch() {} };
  const again = () => ranking(state, actions).querySelector('[data-focus=rematch]');
  const rematch = [again(), (kept.sweep(), again())];
  kept.sweep();
  state.rematch = '10';
  const join = () => ranking(state, actions).querySelector('[data-focus=join-rematch]');
  const joined = [join(), (kept.sweep(), join())];
  return {
    summary: first.map((el, i) => Boolean(el) && el === second[i]),
    rematch: Boolean(rematch[0]) && rematch[0] === rematch[1],
    join: Boolean(joined[0]) && joined[0] === joined[1],
  };
}"""


async def test_the_summarys_and_the_rankings_buttons_are_kept(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """The hand summary's Close and its folded line with "Show all", and the ranking's rematch buttons, are
    the same nodes from one draw to the next (table_score.js, given the table's Kept)."""
    page = await open_page()
    await page.goto(server.share_url)
    seen = await page.evaluate(SUMMARY_TWICE)
    assert seen == {"summary": [True, True, True], "rematch": True, "join": True}, seen


#: A Kept asked for keys "a" and "b", swept, then asked for "b" alone and swept again: what it holds.
SWEPT = """async () => {
  const { Kept } = await import('/js/dom.js');
  const kept = new Kept();
  const b = kept.button('b', 'B', () => {});
  kept.el('a', 'div');
  kept.sweep();
  const held = [...kept.nodes.keys()].sort();
  const same = kept.button('b', 'B', () => {}) === b;
  kept.sweep();
  return { held, after: [...kept.nodes.keys()], same };
}"""


async def test_kept_lets_go_of_what_a_draw_no_longer_asks_for(
    server: BarbuServer, open_page: OpenPage
) -> None:
    """Kept forgets a key no draw asked for since the last sweep (a table gone from the lobby, an answered
    prompt), so it does not grow over a long session, and keeps the others' nodes."""
    page = await open_page()
    await page.goto(server.share_url)
    assert await page.evaluate(SWEPT) == {"held": ["a", "b"], "after": ["b"], "same": True}
