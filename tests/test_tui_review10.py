"""Issue 10, the fresh reviewer's match in ``./run.sh``: the terminal client's turn cursor, typed moves,
notices and words."""

from __future__ import annotations

import copy
import re
from typing import Any

import pytest

from client.columns import width, wrap
from client.connection import ConnectionLost
from client.tui.app import KEY_HINTS
from client.tui.barbu_screen import BarbuScreen, hand_line, side_lines
from client.tui.lobby_screen import FORM_ROWS, TableForm, field_help, form_lines
from client.tui.model import Model, SolitaireModel, TableModel
from client.tui.session import failure_text
from client.tui.solitaire_screen import (
    MOVE_LENGTH,
    SolitaireRoom,
    SolitaireScreen,
    pile_rows,
    solitaire_lines,
)
from client.tui.solitaire_words import refusal_words
from engine.barbu import Match, action_from_wire
from engine.cards import RANKS, SEATS
from engine.solitaire import GAMES, new_game
from server import BarbuServer
from tests.conftest import until
from tests.test_tui import DOWN, ENTER, on_screen, running_tui, screen_lines, text
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
    assert failure_text(TimeoutError()) == "Request failed: no reply from the server in time."
    assert failure_text(ConnectionLost()) == "Request failed: ConnectionLost."
    assert failure_text(OSError("network is unreachable")) == "Request failed: network is unreachable."


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


def test_the_form_says_each_value_whole_and_what_enter_does_while_the_name_is_typed() -> None:
    form = TableForm(suggested="ann's table")
    for row in range(1, FORM_ROWS - 2):
        form.row = row
        for typed in (None, ""):
            drawn = text(form_lines(form, typed))
            assert max(width(line) for line in drawn.splitlines()) <= 80
            assert " ".join(field_help(form).split()) in " ".join(drawn.split())  # not cut at 80 columns
    assert "Enter takes it, then Enter opens the table" in text(form_lines(form, ""))
    assert width(KEY_HINTS["form-name"]) <= 80


async def test_the_key_line_says_what_enter_does_in_the_name_field(server: BarbuServer) -> None:
    async with running_tui(server.url, "ann") as (tui, pipe):
        pipe.send_text("n")
        await until(lambda: tui.input_mode == "table", "the table-name prompt")
        assert screen_lines(tui)[-1].strip() == KEY_HINTS["form-name"]  # Enter there takes the name only
        pipe.send_text(ENTER)
        await until(lambda: tui.input_mode is None and tui.lobby.form is not None, "the name taken")
        assert tui.lobby.form is not None and tui.lobby.form.name == "ann's table"
        assert screen_lines(tui)[-1].strip() == KEY_HINTS["form"]  # now Enter opens the table


def over_table(view: dict[str, Any], seat: str | None) -> TableModel:
    """A table at its match's end (``view``) seen from ``seat`` (None: a watcher)."""
    table = TableModel(room="1", name="t", seat=seat, state="over", me="ann")
    table.players = {s: ("ann" if s == "S" else f"bot:{s}") for s in SEATS}
    base = {"hand_number": 28, "hands_total": 28, "to_move": None, "legal": None, "ranking": [["N"]]}
    table.set_view({**base, **view}, 90)
    return table


def test_after_the_match_the_panel_says_it_is_over() -> None:
    rows = {"rows": {"S": ["6S", "7S"], "H": [], "D": [], "C": []}, "start_rank": "6"}
    watcher = over_table({"phase": "over", "contract": "dominoes", **rows}, None)
    panel = text(side_lines(watcher, BarbuScreen()))
    assert "The match is over." in panel and "play next to a row" not in panel
    player = over_table({"phase": "over", "contract": "barbu", "hand": []}, "S")
    player.summary = {"event": "hand-scored", "hand_number": 28, "scores": {}, "totals": {}}
    assert player.showing_summary()  # the last hand's summary, then the ranking
    for table in (player, over_table({"phase": "over", "contract": "barbu", "hand": []}, "S")):
        panel = text(side_lines(table, BarbuScreen()))
        assert "The match is over." in panel and "The hand is over." not in panel
        assert text(hand_line(table, BarbuScreen())) == "The match is over."


def solitaire(game: str, **state: Any) -> SolitaireScreen:
    """The solitaire screen of a fresh deal of ``game`` (its state changed by ``state``), nothing sent."""
    deal = new_game(game, seed=3)
    view: dict[str, Any] = {
        "title": GAMES[game].title,
        "layout": {**deal.state(), **state},
        "legal": [],
        "result": None,
    }
    model = Model("ws://test")
    model.solitaire = SolitaireModel(room="1", seat="player", seq=0, view=view)
    return SolitaireScreen(SolitaireRoom(model, lambda kind, move: None))


def test_a_hint_after_a_won_game_says_it_is_won_and_refusals_start_a_sentence() -> None:
    won = solitaire("forty-thieves", won=True, over=True)
    won.show_hint()
    assert won.message == "The game is won: n for a new deal."
    stuck = solitaire("forty-thieves", over=True)
    stuck.show_hint()
    assert stuck.message == "No move left."
    refused = refusal_words("no hints on the day's deal: everyone plays it unaided (no-hint)")
    assert refused == "No hints on the day's deal: everyone plays it unaided."


def test_a_game_without_a_stock_shows_no_stock_nor_waste() -> None:
    bakers = text(solitaire_lines(solitaire("bakers-dozen"), 20))
    assert "Stock" not in bakers and "Waste" not in bakers and "Found." in bakers
    assert "s" not in pile_rows(solitaire("bakers-dozen").room.state())[0]
    thieves = text(solitaire_lines(solitaire("forty-thieves"), 20))
    assert "Stock" in thieves and "Waste" in thieves


async def test_sitting_again_the_log_says_what_the_bot_played_meanwhile(server: BarbuServer) -> None:
    async with running_tui(server.url, "gus") as (tui, pipe):
        room = await seat_given_to_a_bot(tui, pipe, "meanwhile")
        await tui.sit(room)  # Enter on its row in the lobby
        await until(lambda: tui.screen == "table" and tui.model.table is not None, "at the table again")
        said = [
            line for line in tui.model.earlier() if line.startswith("While you were away, the bot played")
        ]
        played = r"While you were away, the bot played (no card|1 card|\d+ cards) for you\."
        # The bots may finish the hand, or more, before the player sits again (a loaded machine): then the hand has
        # its own line, and the hand now played is a new one.
        missed = (
            r"(Hand 1 was|Hands 1–\d+ were) played while you were away"
            r" \(a bot played E for you: you scored [-+]\d+\)\."
        )
        if not said:
            assert any(re.fullmatch(missed, line) for line in tui.model.earlier()), tui.model.earlier()
        else:
            assert len(said) == 1 and re.fullmatch(played, said[0]), tui.model.earlier()
