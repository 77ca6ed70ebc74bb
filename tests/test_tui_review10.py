"""Issue 10, the fresh reviewer's match in ``./run.sh``: the terminal client's turn cursor, typed moves,
notices and words."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from client.columns import wrap
from client.connection import ConnectionLost
from client.tui.barbu_screen import BarbuScreen
from client.tui.model import TableModel
from client.tui.session import failure_text
from client.tui.solitaire_screen import MOVE_LENGTH
from engine.barbu import Match, action_from_wire
from engine.cards import RANKS, SEATS
from engine.solitaire import GAMES
from server import BarbuServer
from tests.conftest import until
from tests.test_tui import DOWN, ENTER, on_screen, running_tui, screen_lines
from tests.test_tui_newcomer import UP
from tests.test_tui_seat_back import seat_given_to_a_bot


def _before_a_follow(seed: int) -> tuple[Match, int, dict[str, Any]]:
    """A No Tricks match at the moment before the seat after the leader must follow suit and holds cards of
    other suits (some of them lower than its lowest playable card): the match, that seat and the card the
    seat before it plays."""
    match = Match.new(seed)
    match.apply(match.to_move or 0, action_from_wire({"action": "contract", "contract": "no-tricks"}))
    while match.phase != "play":
        seat = match.to_move
        assert seat is not None
        match.apply(seat, action_from_wire(match.view(seat)["legal"][0]))
    leader = match.to_move
    assert leader is not None
    card = match.view(leader)["legal"][0]
    return match, (leader + 1) % 4, card


def _follow_case() -> tuple[Match, int, dict[str, Any]]:
    for seed in range(200):
        match, seat, card = _before_a_follow(seed)
        hand = match.view(seat)["hand"]
        suit = str(card["card"])[-1]
        follows = [c for c in hand if c[-1] == suit]
        others = [c for c in hand if c[-1] != suit]
        if (
            follows
            and others
            and min(RANKS.index(c[0]) for c in others) < min(RANKS.index(c[0]) for c in follows)
        ):
            return match, seat, card
    raise AssertionError("no deal where the lowest card cannot follow")


def _pushes(table: TableModel, screen: BarbuScreen, match: Match, seat: int, card: dict[str, Any]) -> None:
    """The seat before ``seat`` plays ``card``: its ``card-played`` and ``turn`` events (the screen drawn
    between them) and ``seat``'s own ``turn`` push with its view, all of action 5."""
    before = match.to_move
    assert before is not None
    match.apply(before, action_from_wire(card))
    table.take_event({"event": "card-played", "seat": SEATS[before], "card": card["card"]}, 5)
    screen.sync(table)
    table.take_event({"event": "turn", "seat": SEATS[seat], "phase": "play"}, 5)
    screen.sync(table)


@pytest.mark.parametrize("event_first", [True, False])
def test_each_turn_starts_on_the_lowest_playable_card_whichever_comes_first_event_or_turn(
    event_first: bool,
) -> None:
    match, seat, card = _follow_case()
    table = TableModel(room="1", name="t", seat=SEATS[seat], state="playing", me="ann")
    table.players = {s: f"p{s}" for s in SEATS}
    table.set_view(match.view(seat), 4)
    screen = BarbuScreen()
    screen.sync(table)  # the screen drawn while the seat before plays
    hand = screen.hand(table)
    screen.card = hand.index(min(hand, key=lambda c: RANKS.index(c[0])))  # a card that cannot follow
    if event_first:
        _pushes(table, screen, match, seat, card)
        table.set_view(match.view(seat), 5)
    else:
        after = copy.deepcopy(match)  # the seat's turn push overtakes the events of the same action
        after.apply(after.to_move or 0, action_from_wire(card))
        table.set_view(after.view(seat), 5)
        screen.sync(table)
        _pushes(table, screen, match, seat, card)
    screen.sync(table)
    legal = {str(a["card"]) for a in match.view(seat)["legal"]}
    hand = screen.hand(table)
    lowest = min(legal, key=lambda c: (RANKS.index(c[0]), hand.index(c)))
    assert hand[screen.card] == lowest, (hand[screen.card], legal)
    assert screen.confirm(table) == ({"action": "play", "card": lowest}, "")


def test_enter_plays_only_a_card_it_showed_when_the_turn_arrives_before_the_screen_is_drawn() -> None:
    match, seat, card = _follow_case()
    table = TableModel(room="1", name="t", seat=SEATS[seat], state="playing", me="ann")
    table.players = {s: f"p{s}" for s in SEATS}
    table.set_view(match.view(seat), 4)
    screen = BarbuScreen()
    screen.sync(table)
    hand = screen.hand(table)
    shown = screen.card = hand.index(min(hand, key=lambda c: RANKS.index(c[0])))
    before = match.to_move
    assert before is not None
    match.apply(before, action_from_wire(card))
    table.set_view(match.view(seat), 5)  # the turn comes, and Enter is read before the next render
    action, notice = screen.confirm(table)
    assert action is None and "lowest playable" in notice and screen.card != shown
    assert screen.confirm(table) == ({"action": "play", "card": screen.hand(table)[screen.card]}, "")


async def test_an_over_long_typed_move_is_refused_in_one_line_before_it_is_sent(server: BarbuServer) -> None:
    async with running_tui(server.url, "sol") as (tui, pipe):
        pipe.send_text("or")  # a random deal of Forty Thieves
        await until(lambda: tui.screen == "solitaire" and tui.solitaire is not None, "the random deal")
        await until(lambda: tui.solitaire is not None and tui.solitaire.room.state() != {}, "its state")
        assert tui.solitaire is not None
        for move in ("t1>t2" * 1000, "t1>t" + "2" * 2000):
            seq, tui.solitaire.message = tui.solitaire.room.seq, ""
            pipe.send_text(":" + move + ENTER)
            await until(lambda: tui.solitaire is not None and "long" in tui.solitaire.message, "the refusal")
            message = tui.solitaire.message
            assert (
                message == f"That move is too long: a move has at most {MOVE_LENGTH} characters (t3>t5)."
            ), message
            assert "\n" not in message and "Trying" not in message and "Request failed" not in message
            assert "Request failed" not in tui.model.notice and "longer than" not in tui.model.notice
            assert tui.solitaire.room.seq == seq


def test_a_failed_request_always_says_why() -> None:
    assert failure_text(TimeoutError()) == "Request failed: no reply from the server in time"
    assert failure_text(ConnectionLost()) == "Request failed: ConnectionLost"
    assert failure_text(OSError("network is unreachable")) == "Request failed: network is unreachable"


async def test_an_old_notice_goes_once_the_player_moves_on_and_never_covers_the_rules_card(
    server: BarbuServer,
) -> None:
    async with running_tui(server.url, "gus") as (tui, pipe):
        room = await seat_given_to_a_bot(tui, pipe, "away")
        said = tui.model.notice
        assert on_screen(tui, said)
        for key in ("r", DOWN, UP, "o"):
            tui.model.say_handed_over(said, room)  # as ``x`` left it
            assert on_screen(tui, said)
            pipe.send_text(key)
            await until(lambda: tui.model.shown_notice() == "", f"the notice gone after {key!r}")
            assert not on_screen(tui, said) and said in tui.model.log  # the log keeps it
        assert tui.lobby.picking
        pipe.send_text(DOWN * list(GAMES).index("bakers-dozen"))
        await until(lambda: tui.lobby.game_name() == "bakers-dozen", "Baker's Dozen")
        tui.model.say_handed_over(said, room)  # a notice of two lines said in the games list
        rules = wrap(" ".join(GAMES["bakers-dozen"].rules.split()), 78)
        shown = screen_lines(tui)
        assert rules[-1].strip() in [line.strip() for line in shown]
        assert any(line.startswith(said[:40]) for line in shown)  # and the notice in the line left free
