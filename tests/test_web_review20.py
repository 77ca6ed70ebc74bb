"""Findings of the twentieth review of the browser client, in Debian's Chromium against a real server: a
page open through a restart with a new server password says the session ended, and a watcher's chat lines
stay marked "(watching)" after they sit and after a restart. Skipped, naming the package, when Chromium is
not installed."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from playwright.async_api import Page

from client import Connection
from server.app import BarbuServer
from tests.browser import MISSING, chromium_found
from tests.conftest import StartServer, finished_table, server_table
from tests.test_web_browser import (
    OWN_TURN,
    PHONE_SCREEN,
    SEAT_NAMES,
    OpenPage,
    _bot_table,
    _login,
    _open_table,
    _solitaire_deal,
    browser,
    open_page,
    play_own_turn,
)
from tests.test_web_review10 import _declaring
from tests.web_pages import answer_ask

pytestmark = pytest.mark.skipif(not chromium_found(), reason=MISSING)
__all__ = ["browser", "open_page"]  # the fixtures, shared with the other browser tests


async def _evaluated(start_server: StartServer, open_page: OpenPage, script: str) -> Any:
    """What ``script`` (a JS function importing the page's modules) returns in a page of a fresh server."""
    server = await start_server()
    page = await open_page()
    await page.goto(server.share_url)
    return await page.evaluate(script)


async def test_a_page_open_through_a_password_change_says_the_session_ended(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """The server restarts with a password: the page reconnects, its token is refused, and the login it
    reloads to says the session ended (not "You are invited to table 1"); logging in with the new password
    takes the seat back."""
    server = await start_server()
    port = server.port
    page = await open_page()
    room = await _bot_table(page, server.share_url, "uma", "locked", shown=".hand .card")
    lobby = await page.context.new_page()  # a second tab of the same browser, on the lobby (review 21 #9)
    await lobby.goto(server.share_url + "#lobby")
    await lobby.wait_for_selector("#table-name")
    await server.stop()
    again = await start_server(port=port, password="x")
    for tab in (page, lobby):  # whichever tab's token was refused first, the other finds it gone
        said = tab.locator(".login .ended")
        await said.wait_for(timeout=20000)
        assert (await said.inner_text()).startswith(
            "Your session here has ended (the server's password changed"
        )
        assert await tab.locator(".login:has-text('You are invited')").count() == 0
    await lobby.close()
    await page.fill("#login-password", "x")
    await page.click("button:has-text('Log in')")  # the name is kept from before
    await page.wait_for_selector(".hand .card")
    assert page.url.endswith(f"#table={room}")
    watcher = await Connection.connect(again.url)
    await watcher.login("wes", password="x")
    assert "uma" in (await watcher.watch(room)).players.values()
    await watcher.close()
    await page.reload()  # logged in again: the reload is a plain resume, no word of an ended session
    await page.wait_for_selector(".hand .card")
    assert await page.locator(".login").count() == 0


async def test_a_watchers_chat_lines_stay_marked_after_they_sit_and_a_restart(
    start_server: StartServer, open_page: OpenPage
) -> None:
    server = await start_server()
    port = server.port
    page = await open_page()
    await _login(page, server.share_url, "ann")
    await page.wait_for_selector("#table-name")
    room = await _open_table(page, "talk")
    wes = await Connection.connect(server.url)
    await wes.login("wes")
    await wes.watch(room)
    await wes.chat(room, "just looking")
    free = next(seat for seat, name in (await wes.snapshot(room)).players.items() if not name)
    await wes.sit(room, free)
    await page.locator(f".felt .seat[aria-label^='{SEAT_NAMES[free]}:']", has_text="wes").wait_for()
    await wes.close()
    await server.stop()
    await start_server(port=port)
    await page.reload()
    line = page.locator(".chat-log li", has_text="just looking")
    await line.wait_for(timeout=20000)
    assert await line.inner_text() == "wes (watching) just looking"


#: What the page says on coming back to South's seat, declarer of hand 2, after a stand-in chose Trumps
#: (hearts) meanwhile: with nothing else done, with a card played too, after an earlier hand scored, and with
#: the contract chosen by the player (from another page).
CHOSEN_TEXTS = """async () => {
  const { missedPlaysText } = await import('/js/missed_plays.js');
  const chose = (by) => ({ event: 'contract-chosen', declarer: 'S', contract: 'trumps', trump: 'H', start_rank: null, by });
  const updates = (...events) => events.map((event, i) => ({ type: 'update', room: '1', seq: 40 + i, events: [event] }));
  return {
    chose: missedPlaysText(updates(chose('stand-in')), 'S'),
    choseAndPlayed: missedPlaysText(updates(chose('stand-in'), { event: 'card-played', seat: 'S', card: 'AS', by: 'stand-in' }), 'S'),
    earlier: missedPlaysText(updates({ event: 'hand-scored', hand_number: 1 }, chose('stand-in')), 'S'),
    seen: missedPlaysText(updates(chose('player')), 'S'),
  };
}"""


async def test_a_contract_a_stand_in_chose_is_said_on_coming_back(
    start_server: StartServer, open_page: OpenPage
) -> None:
    said = await _evaluated(start_server, open_page, CHOSEN_TEXTS)
    assert said["chose"] == "While you were away a stand-in bot chose Trumps (hearts) for you."
    assert said["choseAndPlayed"] == (
        "While you were away a stand-in bot chose Trumps (hearts) for you. A stand-in bot played A♠ for you."
    )
    assert said["earlier"] == "While you were away a stand-in bot chose Trumps (hearts) for you."
    assert said["seen"] is None


#: The doubling question for South, East declaring No hearts with 1 contract left after this one, South
#: owing 2 doubles (so it must double East), and owing none.
DOUBLE_PROMPT = """async () => {
  const { prompt } = await import('/js/table_prompt.js');
  const { Kept } = await import('/js/dom.js');
  const ask = (owed, must) => {
    const view = { phase: 'double', to_move: 'S', declarer: 'E', hand_number: 20, contract: 'no-hearts', trump: null,
      start_rank: null, doubles: [], redoubles: [], doubles_owed: { N: 0, S: owed, W: 1 }, must_double: must,
      contracts_left: { N: [], E: ['barbu'], S: [], W: [] }, double_targets: ['E'],
      legal: must ? [{ action: 'double', targets: ['E'] }] : [{ action: 'double', targets: [] }, { action: 'double', targets: ['E'] }] };
    const state = { snapshot: { seat: 'S', players: { E: 'eve' }, view }, kept: new Kept(), clock: null, targetsPick: null };
    return prompt(state, { act() {}, redraw() {} }).textContent;
  };
  return { must: ask(2, true), done: ask(0, false) };
}"""


async def test_the_doubling_question_says_the_doubles_left_in_plain_numbers(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Not "You still owe East 2 doubles": how many more times, and why this hand must be one."""
    said = await _evaluated(start_server, open_page, DOUBLE_PROMPT)
    assert "You must double East twice more this match." in said["must"], said
    assert (
        "You must double East (eve) this hand: you must double them twice more this match, and this is one of "
        "the last 2 hands they declare." in said["must"]
    ), said
    assert "owe" not in said["must"].split("Why?")[0], said
    assert "You have doubled East twice already, as the match asks." in said["done"], said


async def test_a_replayed_hand_that_stopped_early_says_why_at_the_top(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A hand of the replay that ended before its 13th trick (the king of hearts fell, in Barbu) says so under
    the header from its first step, not only in the step count."""
    server = await start_server()
    host = await Connection.connect(server.url)
    await host.login("host")
    room = await finished_table(server, host, "short")
    page = await open_page()
    await _login(page, f"{server.share_url}#replay={room}", "pat")
    await page.wait_for_selector(".narration", timeout=20_000)
    for _ in range(28):
        if await page.locator(".table-head .early-end").count():
            break
        await page.click("[aria-label='next hand']")
    else:
        pytest.skip("no hand of the match stopped early")
    said = await page.inner_text(".table-head .early-end")
    assert re.fullmatch(
        r"The (king of hearts|last queen|last heart) fell in trick \d+: the hand stopped there, with nothing left to score\.",
        said,
    ), said
    assert "step 0 of" in await page.inner_text(".table-head .where")
    await host.close()


async def test_a_login_waiting_for_its_answer_says_so_on_its_button(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """A wrong password is answered after the server's pause: meanwhile the button reads "Logging in…" and
    takes no second press; then the refusal is said and the button is back."""
    server = await start_server(password="right", bad_password_delay=1.0)
    page = await open_page()
    await page.goto(server.share_url)
    await page.fill("#login-name", "ann")
    await page.fill("#login-password", "wrong")
    await page.click("button:has-text('Log in')")
    busy = page.locator("button.primary:has-text('Logging in…')")
    await busy.wait_for()
    assert await busy.is_disabled()
    await page.locator(".login .error", has_text="Wrong server password").wait_for()
    assert await page.locator("button.primary").inner_text() == "Log in"
    assert await page.locator("button.primary").is_enabled()


async def test_when_a_match_finished_is_said_with_the_month_in_words(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Not "12/5/2026" (5 December or 12 May?): the month is a word."""
    said = await _evaluated(
        start_server, open_page, "async () => (await import('/js/words.js')).whenText(1796508000)"
    )
    assert re.search(r"\b(Dec|Jan)\b", said) and "/" not in said, said


#: Where the contract question's last button and the table's header are, against a phone's fixed hand.
CONTRACT_SHOWN = """() => {
  const buttons = [...document.querySelectorAll('[data-contract]')];
  const last = buttons[buttons.length - 1].getBoundingClientRect();
  const hand = document.querySelector('.hand').getBoundingClientRect();
  return { lastBottom: last.bottom, handTop: hand.top, head: document.querySelector('.table-head').getBoundingClientRect().top };
}"""


async def test_a_phone_reloaded_at_the_contract_question_shows_more_of_it_and_keeps_the_header(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Reloaded on a phone while it is to choose the contract: the page scrolls the question up as far as
    keeps the table's header at the window's top (its last contract was half under the hand)."""
    server = await start_server()
    page = await open_page(**PHONE_SCREEN)
    await _declaring(server, page, "phone")
    await page.reload()
    await page.wait_for_selector("[data-contract]")
    await page.wait_for_timeout(300)
    shown = await page.evaluate(CONTRACT_SHOWN)
    assert shown["head"] >= -1, shown  # the table's name and buttons in view
    assert shown["lastBottom"] <= shown["handTop"] or shown["head"] <= 5, shown  # or as far as that allows


async def test_a_chat_line_cut_at_its_limit_says_so(start_server: StartServer, open_page: OpenPage) -> None:
    """A paste longer than the 500 characters a line holds: the field says the rest was not kept; sent, the
    words go."""
    server = await start_server()
    page = await open_page()
    await _login(page, server.share_url, "ann")
    await page.wait_for_selector("#table-name")
    await _open_table(page, "long")
    await page.fill("[data-focus=chat]", "x" * 5000)
    said = page.locator("#chat-full")
    await said.wait_for()
    assert await said.inner_text() == "A chat line holds up to 500 characters: the rest was not kept."
    await page.press("[data-focus=chat]", "Enter")
    await page.locator(".chat-log li", has_text="x" * 500).wait_for()
    assert await said.inner_text() == ""


#: A phone's table: the hand under way, whether its play has begun (cards on the felt, a Dominoes row
#: opened), and the last hand's folded results line under the felt.
FIRST_TRICK = """() => ({
  where: document.querySelector('.table-head .where')?.textContent || '',
  begun: document.querySelectorAll('.felt .trick .played, .rows .row:not(.unopened)').length > 0,
  results: document.querySelector('.prompt details.summary.folded summary')?.textContent || null,
})"""

#: The choices a phone player makes when asked: a contract (and its trump or starting rank), then cards.
ANY_TURN = (
    ("[data-focus^=trump-]", "[data-focus^=trump-] >> nth=0"),
    ("[data-focus^=rank-]", "[data-focus^=rank-] >> nth=0"),
    (".prompt .contract", ".prompt .contract >> nth=0"),
    *OWN_TURN,
)


async def test_a_phones_last_results_stay_under_the_next_hands_first_trick(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Hand 1 over, a bot leads hand 2 at once: the phone's folded "Hand 1: you …" line stays, under the
    felt that holds the trick, until that trick is won (Dominoes: four plays made); it went with the first
    card, before anyone could read it."""
    server = await start_server(bot_delay=0.3)
    page = await open_page(**PHONE_SCREEN)
    room = await _bot_table(page, server.share_url, "pia", "results", shown=".seat.bottom")
    table = server_table(server, room)
    deadline = time.monotonic() + 150
    while True:
        seen = await page.evaluate(FIRST_TRICK)
        match = table.match
        assert match is not None
        hand = match.hand
        # The server, asked after the page, is as far on as the page or further: its first trick not yet
        # won then, not won on the page either.
        early = len(hand.play) < 4 if hand.contract == "dominoes" else not hand.tricks
        if "Hand 2 of" in seen["where"] and seen["begun"] and match.hand_number == 2 and early:
            break
        assert time.monotonic() < deadline and match.hand_number <= 2, seen
        await play_own_turn(page, ANY_TURN)
        await page.wait_for_timeout(50)
    assert seen["results"] is not None and seen["results"].startswith("Hand 1: you "), seen


async def test_a_match_that_ends_while_the_lobby_is_open_is_listed_finished_without_a_reload(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Review 21: the lobby's refresh took the ended match off "Tables" but "Finished matches" still said
    none had finished, until a reload."""
    server = await start_server()
    page = await open_page()
    await _login(page, server.share_url, "lou")
    await page.wait_for_selector("#table-name")
    host, room = await _host_at_south(server, "host", "robots", "NEW")
    await page.locator(f"[data-room='{room}']", has_text="playing hand 1 of 28").wait_for()
    await host.leave(room)  # a stand-in plays South: the match runs to its end
    await page.locator("text=Replay “robots”").wait_for(timeout=120_000)
    await host.close()


async def test_every_solitaire_option_has_a_short_name_and_no_programs_name(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Review 21 #10: the lobby's solitaire options were labelled by their whole description, ending in
    "(PySolFC)" or "(Aisleriot)"; now each has a short name, its description said under it."""
    server = await start_server()
    page = await open_page()
    await _login(page, server.share_url, "sol")
    await _games_listed(page)
    games = await page.locator("#game option").evaluate_all("els => els.map((e) => e.value)")
    assert len(games) == 11, games
    for game in games:
        await page.select_option("#game", game)
        labels = await page.locator(".picker label.field > span").all_inner_texts()
        for label in labels[1:]:  # the first is "Game"
            assert len(label) <= 30 and "(" not in label, (game, label)
        hints = await page.locator(".picker .choice-hint").all_inner_texts()
        assert not any("PySolFC" in hint or "Aisleriot" in hint for hint in hints), (game, hints)
        # Review 23: the choices are words, not the engine's values ("any-suit", "bottom").
        choices = await page.locator(".picker select[name] option").all_inner_texts()
        assert not any("-" in choice or choice in ("bottom", "stay") for choice in choices), (game, choices)


async def test_a_solitaire_options_rule_follows_the_choice_made(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Review 23: the sentence under a solitaire option said what the other choice does ("any-suit: build down
    regardless of suit" under "other-suit"); it says the rule of the choice made, and changes with it."""
    server = await start_server()
    page = await open_page()
    await _login(page, server.share_url, "sol")
    await _games_listed(page)
    await page.select_option("#game", "bakers-dozen")
    build = page.locator("label.field", has=page.locator("select[name=build]"))
    assert (await build.locator(".choice-hint").inner_text()).startswith(
        "build down on a card of a different suit"
    )
    await page.select_option("select[name=build]", label="on any suit")
    build = page.locator("label.field", has=page.locator("select[name=build]"))
    await build.locator(".choice-hint", has_text="build down regardless of suit").wait_for()
    await page.select_option("#game", "pyramid")
    draw = page.locator("label.field", has=page.locator("select[name=draw]"))
    assert (
        await draw.locator(".choice-hint").inner_text()
    ) == "the stock turns one card at a time onto the waste"


async def test_bakers_dozen_shows_no_stock_and_a_winnable_deals_new_deal_is_winnable(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Review 23: Baker's Dozen, which deals no stock, showed an empty stock ("∅ 0") and a waste; and "New
    deal" after a winnable deal dealt a plain random one."""
    server = await start_server()
    page = await open_page()
    await _solitaire_deal(page, server.share_url, "win", "bakers-dozen", "winnable")
    await page.wait_for_selector(".where:has-text('winnable')")
    assert await page.locator("[data-pile=s], [data-pile=w], .stock-waste").count() == 0
    first = page.url
    await page.click("button:has-text('New deal')")
    await answer_ask(page, yes=True)
    await page.wait_for_function(f"() => location.href !== {first!r}")
    await page.wait_for_selector(".where:has-text('winnable')")


async def test_the_days_deal_asked_again_goes_back_to_it_or_says_it_was_played(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Review 23: asking for the day's deal played already answered with the server's "give a seed for
    another deal", which the page has no field for; open, it is the game to go back to."""
    server = await start_server()
    page = await open_page()
    await _login(page, server.share_url, "day")
    await _games_listed(page)
    await page.click("text=Play the day's deal")
    await page.wait_for_selector(".layout")
    daily = page.url
    await page.click("button:has-text('Lobby')")
    await _games_listed(page)
    await page.click("text=Play the day's deal")
    await page.wait_for_function(f"() => location.href === {daily!r}")
    await page.wait_for_selector(".layout")
    await page.click("button:has-text('Resign')")
    await answer_ask(page, yes=True)
    await page.wait_for_selector("text=Resigned.")
    await page.click("button:has-text('Lobby')")
    await _games_listed(page)
    await page.click("text=Play the day's deal")
    said = page.locator(".picker .error")
    await said.filter(has_text="You have played today's deal of Forty Thieves").wait_for()
    assert "seed" not in await said.inner_text()


async def test_hand_back_in_a_replay_goes_to_the_start_of_the_hand_first(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Review 23: "« Hand" was disabled anywhere in hand 1, so its start was 75 steps back; within a hand it
    now goes to the hand's start, and from there to the hand before."""
    server = await start_server()
    host = await Connection.connect(server.url)
    await host.login("host")
    await finished_table(server, host, "rewind")
    page = await open_page()
    await _login(page, server.share_url, "viewer")
    await page.click("text=Replay “rewind”")
    await page.wait_for_selector(".narration")
    assert await page.locator("[aria-label='previous hand']").is_disabled()
    await page.click("[aria-label='one step forward']")
    await page.click("[aria-label='one step forward']")
    assert "step 2 of" in await page.inner_text(".where")
    await page.click("[aria-label='start of this hand']")
    assert "Hand 1 of 28" in await page.inner_text(".where")
    assert "step 0 of" in await page.inner_text(".where")
    await host.close()


async def test_every_seat_taken_but_a_player_away_before_the_start_says_whom_the_match_waits_for(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Review 24: bob took the last free seat while the host's browser was closed; his page said "the match
    starts when the four seats are filled" and "Fill the empty seats", with no seat empty."""
    server = await start_server()
    ann, room = await _host_at_south(server, "ann", "waits", "NE")
    await ann.close()  # her seat is kept for her a while
    bob = await open_page(**PHONE_SCREEN)
    await _login(bob, f"{server.share_url}#table={room}", "bob")
    await bob.click("[data-focus=sit-W]")
    await bob.locator(".where", has_text="Waiting for ann to come back").wait_for()
    said = "Waiting for ann to come back: the match starts once all four are at the table."
    await bob.locator(".prompt", has_text=said).wait_for()
    assert "Fill the empty seats" not in await bob.inner_text("body")


async def _host_at_south(server: BarbuServer, name: str, table: str, bots: str) -> tuple[Connection, str]:
    """A client ``name`` who opens ``table``, sits South and adds random bots at ``bots`` (seat letters);
    returns it and the room id."""
    host = await Connection.connect(server.url)
    await host.login(name)
    room = await host.create_table(table)
    await host.sit(room, "S")
    for seat in bots:
        await host.add_bot(room, seat, "random")
    return host, room


async def test_a_new_tables_name_already_open_is_refused_in_words_that_say_what_to_do(
    start_server: StartServer, open_page: OpenPage
) -> None:
    """Review 25: "Create and sit down" with the name of an open table answered `an open table is named
    "ann's table", too like this`; it says to pick another name, the field ready."""
    server = await start_server()
    host, _ = await _host_at_south(server, "ann", "Friday", "")
    page = await open_page()
    await _login(page, server.share_url, "cid")
    await page.fill("#table-name", "friday")
    await page.click("text=Create and sit down")
    said = "An open table is named “Friday”, too like “friday” to tell apart: pick another name for yours."
    await page.locator("form .error", has_text=said).wait_for()
    assert await page.evaluate("() => document.activeElement.id") == "table-name"
    await host.close()


async def _games_listed(page: Page) -> None:
    """Until the lobby's solitaire picker lists its games (list-games answered): an ``<option>`` is never
    "visible", so it is waited for as there."""
    await page.wait_for_function("() => document.querySelectorAll('#game option').length > 0")
