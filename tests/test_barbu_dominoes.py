"""Dominoes (``rules/barbu.md``, "Dominoes"): rows opened at the starting rank and grown one rank at a time,
Ace high, passing only without a playable card, finishing order, players who are out skipped."""

from __future__ import annotations

import pytest

from engine.barbu import PASS, IllegalAction, Play
from engine.barbu.hand import Hand
from engine.cards import parse_card
from tests.barbu_helpers import (
    DOMINOES_PASSES,
    DOMINOES_PASSES_PLAY,
    E,
    N,
    S,
    W,
    by_seat,
    legal_texts,
    play,
    start_hand,
    suit_hands,
)


def refused(hand: Hand, seat: int, text: str) -> str:
    before = (list(hand.hands), list(hand.play), hand.to_move, hand.rows(), list(hand.finish_order))
    with pytest.raises(IllegalAction) as err:
        hand.apply(seat, PASS if text == "pass" else Play(parse_card(text)))
    assert (list(hand.hands), list(hand.play), hand.to_move, hand.rows(), list(hand.finish_order)) == before
    return err.value.code


def passes_hand() -> Hand:
    return start_hand(DOMINOES_PASSES, contract="dominoes", start_rank="7")


def test_declarer_plays_first_and_a_row_opens_only_with_the_starting_rank() -> None:
    hand = passes_hand()
    assert hand.to_move == N
    assert legal_texts(hand) == ["7S", "7H", "7D"]
    assert refused(hand, N, "8S") == "not-playable"
    with pytest.raises(IllegalAction, match="does not fit a row"):
        hand.apply(N, Play(parse_card("AS")))


def test_row_grows_one_rank_at_a_time_up_and_down() -> None:
    hand = passes_hand()
    play(hand, "7S pass pass 7C")
    assert hand.rows()["S"] == ["7S"]
    assert legal_texts(hand) == ["6S", "8S", "7H", "7D"]
    assert refused(hand, N, "9S") == "not-playable"
    play(hand, "8S")
    assert hand.rows()["S"] == ["7S", "8S"]


def test_pass_allowed_only_without_a_playable_card() -> None:
    hand = passes_hand()
    assert refused(hand, N, "pass") == "must-play"
    play(hand, "7S")
    # E holds no 7 and 2S does not touch the spade row: E must pass, and may not play 2S
    assert hand.legal_actions(E) == [PASS]
    assert refused(hand, E, "2S") == "not-playable"
    play(hand, "pass")
    assert hand.play[-1] is None
    play(hand, "pass 7C 7H 8H")
    # S now can play nothing but passes; after 7D is out S must play
    play(hand, "pass 8C 7D 9H")
    assert hand.to_move == S
    assert refused(hand, S, "pass") == "must-play"
    assert legal_texts(hand) == ["6D", "8D"]


def test_pass_is_refused_in_trick_contracts() -> None:
    hand = start_hand(suit_hands(), contract="no-tricks")
    with pytest.raises(IllegalAction) as err:
        hand.apply(N, PASS)
    assert err.value.code == "wrong-phase"


def test_finishing_order_scores_and_players_out_are_skipped() -> None:
    hand = passes_hand()
    for rnd in DOMINOES_PASSES_PLAY[:12]:
        play(hand, rnd)
    assert hand.finish_order == []
    play(hand, "4S")
    assert hand.finish_order == [N]
    play(hand, "2H 3D 2C")
    assert hand.finish_order == [N, W]
    # N and W are out: E is next, then S, then E again
    assert hand.to_move == E
    play(hand, "pass")
    assert hand.to_move == S
    play(hand, "3S")
    assert hand.to_move == E
    assert not hand.over
    play(hand, "2S")
    assert hand.over and hand.to_move is None
    assert hand.finish_order == [N, W, E, S]
    assert hand.contract_scores == by_seat(45, 5, -5, 20)
    assert hand.hand_texts(S) == ["2D"]
    assert refused(hand, S, "2D") == "hand-over"


def test_hand_ends_when_the_third_player_goes_out() -> None:
    hand = start_hand(suit_hands(), contract="dominoes", start_rank="7")
    order = "789TJQKA65432"
    play(hand, [r + s for r in order[:12] for s in "SHDC"])
    play(hand, "2S 2H")
    assert not hand.over
    play(hand, "2D")
    assert hand.over
    assert hand.finish_order == [N, E, S, W]
    assert hand.hand_texts(W) == ["2C"]
    assert refused(hand, W, "2C") == "hand-over"


def test_ace_is_high_row_from_king_grows_to_ace_and_stops() -> None:
    hand = start_hand(suit_hands(), contract="dominoes", start_rank="K")
    play(hand, "KS")
    assert legal_texts(hand) == ["KH"]
    play(hand, "KH KD KC")
    assert legal_texts(hand) == ["QS", "AS"]
    play(hand, "AS AH AD AC")
    # the row ends at the Ace: 2S does not follow AS
    assert legal_texts(hand) == ["QS"]
    assert refused(hand, N, "2S") == "not-playable"


def test_row_from_ace_grows_down_only() -> None:
    hand = start_hand(suit_hands(), contract="dominoes", start_rank="A")
    play(hand, "AS AH AD AC")
    assert legal_texts(hand) == ["KS"]
    assert refused(hand, N, "2S") == "not-playable"


def test_row_from_two_grows_up_only_the_2_ends_the_lower_end() -> None:
    hand = start_hand(suit_hands(), contract="dominoes", start_rank="2")
    play(hand, "2S 2H 2D 2C")
    assert legal_texts(hand) == ["3S"]
    assert refused(hand, N, "AS") == "not-playable"
    play(hand, "3S 3H 3D 3C")
    assert legal_texts(hand) == ["4S"]


def test_row_reaching_both_ends_closes() -> None:
    hand = start_hand(suit_hands(), contract="dominoes", start_rank="7")
    order = "789TJQKA65432"
    play(hand, [r + s for r in order[:12] for s in "SHDC"])
    assert legal_texts(hand) == ["2S"]
    play(hand, "2S")
    assert hand.rows()["S"] == [r + "S" for r in "23456789TJQKA"]
    assert hand.finish_order == [N]


def test_dominoes_play_legal_actions_list_is_pass_only_when_nothing_fits() -> None:
    hand = passes_hand()
    play(hand, "7S")
    assert hand.legal_actions(E) == [PASS]
    assert hand.legal_actions(S) == []  # not S's turn
    play(hand, "pass")
    assert hand.legal_actions(S) == [PASS]
    assert W == 3
