"""Trick play (``rules/barbu.md``, "Trick play", the contracts' special rules and the "Named variants"):
follow suit, the lead restrictions of No Hearts and Barbu, the trump duty, early ends, and every switch."""

from __future__ import annotations

import pytest

from engine.barbu import IllegalAction, Play, Variants
from engine.barbu.hand import Hand
from engine.cards import parse_card
from tests.barbu_helpers import (
    MIXED,
    E,
    N,
    S,
    W,
    by_seat,
    follow_tricks,
    hands_of,
    legal_texts,
    mask,
    play,
    scripted,
    start_hand,
)

# N holds every heart, E every spade, S every diamond, W every club.
HEARTS_TO_N = hands_of(
    "2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH AH",
    "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS",
    "2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)

# In MIXED, N leads AS KS QS and everybody follows: then E, S and W have no spade left.
THREE_SPADE_TRICKS = "AS TS 7S 4S KS 9S 6S 3S QS 8S 5S 2S"


def refused(hand: Hand, seat: int, text: str) -> str:
    """Play ``text`` for ``seat``, expecting a refusal that leaves the hand unchanged; returns the code."""
    before = (list(hand.hands), list(hand.trick), hand.to_move, list(hand.play), hand.phase)
    with pytest.raises(IllegalAction) as err:
        hand.apply(seat, Play(parse_card(text)))
    assert (list(hand.hands), list(hand.trick), hand.to_move, list(hand.play), hand.phase) == before
    return err.value.code


# ---------------------------------------------------------------------- follow suit


@pytest.mark.parametrize("contract", ["no-tricks", "no-queens", "no-last-two", "no-hearts", "barbu"])
def test_must_follow_suit_led_if_able(contract: str) -> None:
    hand = start_hand(MIXED, contract=contract)
    play(hand, "AS")
    assert refused(hand, E, "5D") == "must-follow-suit"
    assert legal_texts(hand) == ["8S", "9S", "TS"]
    with pytest.raises(IllegalAction, match="must follow suit S"):
        hand.apply(E, Play(parse_card("2H")))


def test_void_player_may_play_any_card_without_trumps() -> None:
    hand = start_hand(MIXED, contract="no-tricks")
    play(hand, THREE_SPADE_TRICKS + " JS")
    assert legal_texts(hand) == ["2H", "6H", "9H", "5D", "6D", "7D", "4C", "5C", "6C", "7C"]
    play(hand, "7C 8C AD")  # off-suit cards never win, however high
    assert hand.tricks[-1][2] == N


def test_highest_card_of_suit_led_wins_and_winner_leads() -> None:
    hand = start_hand(MIXED, contract="no-tricks")
    play(hand, "AS TS 7S 4S")
    assert hand.tricks[-1][2] == N and hand.to_move == N
    play(hand, "2C 7C 8C QC")  # W's QC wins
    assert hand.tricks[-1][2] == W and hand.to_move == W
    play(hand, "AD 2D 5D 8D")  # W leads: W N E S
    assert hand.tricks[-1][2] == W
    play(hand, "KD 3D 6D 9D")
    play(hand, "2S KS 9S 6S")
    assert hand.tricks[-1][2] == N and hand.to_move == N


def test_card_not_in_hand_is_refused() -> None:
    hand = start_hand(MIXED, contract="no-tricks")
    assert refused(hand, N, "TS") == "not-in-hand"


def test_playing_out_of_turn_is_refused() -> None:
    hand = start_hand(MIXED, contract="no-tricks")
    assert refused(hand, E, "TS") == "not-your-turn"


# ---------------------------------------------------------------------- lead restrictions


def test_no_hearts_hearts_may_not_be_led_while_leader_has_other_cards() -> None:
    hand = start_hand(MIXED, contract="no-hearts")
    assert refused(hand, N, "3H") == "hearts-lead"
    assert not any(c.endswith("H") for c in legal_texts(hand))
    # still refused after hearts have been discarded: the default is strict
    play(hand, THREE_SPADE_TRICKS + " JS 2H 7H JH")
    assert hand.to_move == N
    assert refused(hand, N, "3H") == "hearts-lead"


def test_no_hearts_leader_holding_only_hearts_may_lead_them() -> None:
    hand = start_hand(HEARTS_TO_N, contract="no-hearts")
    assert legal_texts(hand) == [f"{r}H" for r in "23456789TJQKA"]
    play(hand, "2H 2S 2D 2C")
    assert hand.contract_scores == by_seat(-2, 0, 0, 0)


def test_barbu_king_of_hearts_may_not_be_led_unless_only_card_other_hearts_may() -> None:
    hand = start_hand(MIXED, contract="barbu")
    assert refused(hand, N, "KH") == "king-of-hearts-lead"
    assert "3H" in legal_texts(hand)
    play(hand, "3H 2H 7H JH")  # a heart led: allowed in Barbu
    assert hand.tricks[-1][2] == W


def test_barbu_king_of_hearts_led_when_it_is_leaders_only_card() -> None:
    hand = start_hand(HEARTS_TO_N, contract="barbu")
    assert "KH" not in legal_texts(hand)
    for r in "23456789TJQA":
        assert hand.to_move == N
        assert refused(hand, N, "KH") == "king-of-hearts-lead"
        play(hand, f"{r}H {r}S {r}D {r}C")
    assert legal_texts(hand) == ["KH"]
    play(hand, "KH KS KD KC")
    assert hand.over and hand.contract_scores == by_seat(-20, 0, 0, 0)


@pytest.mark.parametrize("contract", ["no-hearts", "barbu"])
def test_heart_lead_strict_never_until_only_hearts(contract: str) -> None:
    hand = start_hand(MIXED, contract=contract, variants=Variants(heart_lead="strict"))
    assert refused(hand, N, "3H") == "hearts-lead"
    play(hand, THREE_SPADE_TRICKS + " JS 2H 7H JH")  # hearts discarded
    assert refused(hand, N, "3H") == "hearts-lead"
    assert refused(hand, N, "KH") == "hearts-lead"
    # a leader holding only hearts may lead any of them, K♥ included
    only_hearts = start_hand(HEARTS_TO_N, contract=contract, variants=Variants(heart_lead="strict"))
    assert len(legal_texts(only_hearts)) == 13


@pytest.mark.parametrize("contract", ["no-hearts", "barbu"])
def test_heart_lead_broken_allows_hearts_after_a_heart_is_discarded(contract: str) -> None:
    hand = start_hand(MIXED, contract=contract, variants=Variants(heart_lead="broken"))
    assert refused(hand, N, "3H") == "hearts-lead"
    assert refused(hand, N, "KH") == "hearts-lead"
    play(hand, THREE_SPADE_TRICKS)
    assert refused(hand, N, "3H") == "hearts-lead"
    play(hand, "JS 2H 7H JH")  # E, void in spades, discards a heart
    assert hand.to_move == N
    assert {"3H", "4H", "5H", "KH"} <= set(legal_texts(hand))
    play(hand, "KH")
    assert hand.trick == [parse_card("KH")]


def test_heart_lead_broken_a_heart_following_a_heart_lead_does_not_break() -> None:
    # N holds only hearts and leads them; the others, without hearts, discard: hearts stay unbroken
    hand = start_hand(HEARTS_TO_N, contract="no-hearts", variants=Variants(heart_lead="broken"))
    play(hand, "2H 2S 2D 2C")
    assert not hand.hearts_broken


@pytest.mark.parametrize("contract", ["no-hearts", "barbu"])
def test_heart_lead_free_allows_any_lead(contract: str) -> None:
    hand = start_hand(MIXED, contract=contract, variants=Variants(heart_lead="free"))
    assert set(legal_texts(hand)) == {
        "AS",
        "KS",
        "QS",
        "JS",
        "3H",
        "4H",
        "5H",
        "KH",
        "2D",
        "3D",
        "4D",
        "2C",
        "3C",
    }
    play(hand, "KH 2H 7H AH")
    assert hand.tricks[-1][2] == W


@pytest.mark.parametrize("contract", ["no-tricks", "no-queens", "no-last-two", "trumps"])
def test_hearts_lead_unrestricted_in_other_contracts(contract: str) -> None:
    hand = start_hand(MIXED, contract=contract, trump="D" if contract == "trumps" else None)
    assert "KH" in legal_texts(hand) and "3H" in legal_texts(hand)
    # and the heart-lead switch does not reach them
    strict = start_hand(
        MIXED,
        contract=contract,
        trump="D" if contract == "trumps" else None,
        variants=Variants(heart_lead="strict"),
    )
    assert "3H" in legal_texts(strict)


# ---------------------------------------------------------------------- the trump duty


def test_trumps_must_ruff_when_void_in_suit_led_and_holding_a_trump() -> None:
    hand = start_hand(MIXED, contract="trumps", trump="H")
    play(hand, THREE_SPADE_TRICKS + " JS")
    assert refused(hand, E, "4C") == "must-ruff"
    with pytest.raises(IllegalAction, match=r"must play a trump \(H\)"):
        hand.apply(E, Play(parse_card("5D")))
    assert legal_texts(hand) == ["2H", "6H", "9H"]
    play(hand, "2H")
    # S may under-ruff by default (ruff: any trump)
    assert legal_texts(hand) == ["7H", "8H", "TH"]
    play(hand, "7H AH")
    assert hand.tricks[-1][2] == W


def test_trumps_void_without_trumps_may_play_any_card() -> None:
    # diamonds trump: N leads a heart; E (only spades, no trump) plays any card; S (only diamonds) ruffs
    hand = start_hand(HEARTS_TO_N, contract="trumps", trump="D")
    play(hand, "2H")
    assert len(legal_texts(hand)) == 13
    play(hand, "AS 2D 2C")
    assert hand.tricks[-1][2] == S


def test_trump_duty_follow_only_allows_discard_when_void() -> None:
    hand = start_hand(MIXED, contract="trumps", trump="H", variants=Variants(trump_duty="follow-only"))
    play(hand, THREE_SPADE_TRICKS + " JS")
    assert "4C" in legal_texts(hand)
    play(hand, "4C")  # E discards though holding trumps
    play(hand, "8C AD")
    assert hand.tricks[-1][2] == N


def test_trump_duty_follow_only_still_must_follow_suit() -> None:
    hand = start_hand(MIXED, contract="trumps", trump="H", variants=Variants(trump_duty="follow-only"))
    play(hand, "AS")
    assert refused(hand, E, "2H") == "must-follow-suit"


def test_trump_duty_overtrump_must_beat_trumps_already_played() -> None:
    hand = start_hand(MIXED, contract="trumps", trump="H", variants=Variants(trump_duty="overtrump"))
    play(hand, THREE_SPADE_TRICKS + " JS 9H")  # E ruffs with 9H
    assert refused(hand, S, "7H") == "must-overtrump"
    assert refused(hand, S, "8C") == "must-ruff"
    assert legal_texts(hand) == ["TH"]
    play(hand, "TH")
    assert legal_texts(hand) == ["JH", "QH", "AH"]


def test_trump_duty_overtrump_must_still_ruff_when_unable_to_beat() -> None:
    # MIXED with E's 9H and S's TH swapped: E ruffs with TH, and S holds only lower trumps
    swapped = list(MIXED)
    swapped[E] ^= mask("9H TH")
    swapped[S] ^= mask("9H TH")
    hand = start_hand(swapped, contract="trumps", trump="H", variants=Variants(trump_duty="overtrump"))
    play(hand, THREE_SPADE_TRICKS + " JS")
    assert legal_texts(hand) == ["2H", "6H", "TH"]  # no trump played yet: any trump
    assert refused(hand, E, "4C") == "must-ruff"
    play(hand, "TH")
    assert legal_texts(hand) == ["7H", "8H", "9H"]
    assert refused(hand, S, "8C") == "must-ruff"


def test_trump_duty_overtrump_on_a_trump_lead_must_play_higher_if_able() -> None:
    hand = start_hand(MIXED, contract="trumps", trump="H", variants=Variants(trump_duty="overtrump"))
    play(hand, "3H")
    assert refused(hand, E, "2H") == "must-overtrump"
    assert legal_texts(hand) == ["6H", "9H"]
    play(hand, "9H")
    # S holds 7H 8H TH: only TH beats 9H
    assert legal_texts(hand) == ["TH"]
    play(hand, "TH")
    assert legal_texts(hand) == ["JH", "QH", "AH"]


def test_trump_duty_overtrump_on_a_trump_lead_unable_to_beat_plays_any_trump() -> None:
    hand = start_hand(MIXED, contract="trumps", trump="H", variants=Variants(trump_duty="overtrump"))
    play(hand, "KH")
    assert legal_texts(hand) == ["2H", "6H", "9H"]


def test_trump_duty_ruff_default_on_a_trump_lead_any_trump_follows() -> None:
    hand = start_hand(MIXED, contract="trumps", trump="H")
    play(hand, "3H")
    assert legal_texts(hand) == ["2H", "6H", "9H"]


def test_must_ruff_is_not_asked_of_a_player_who_can_follow() -> None:
    hand = start_hand(MIXED, contract="trumps", trump="H")
    play(hand, "AS")
    assert refused(hand, E, "2H") == "must-follow-suit"
    assert legal_texts(hand) == ["8S", "9S", "TS"]


# ---------------------------------------------------------------------- early ends


NO_HEARTS_EARLY = [
    "AS 2H 3H 4H",  # N leads spades; E, S and W hold no spade and throw hearts
    "KS 5H 6H 7H",
    "QS 8H 9H TH",
    "JS JH QH KH",
    "TS AH 2D 2C",  # the 13th heart: all hearts are taken after 5 tricks
]
NO_HEARTS_EARLY_REST = {
    "N": "9S 8S 7S 6S 5S 4S 3S 2S",
    "E": "3D 4D 5D 6D 7D 8D 9D TD",
    "S": "JD QD KD AD 3C 4C 5C 6C",
    "W": "7C 8C 9C TC JC QC KC AC",
}


def no_hearts_early_deal() -> tuple[list[int], list[str]]:
    hands, cards, winners = scripted("N", NO_HEARTS_EARLY, rest=NO_HEARTS_EARLY_REST)
    assert winners == ["N"] * 5
    return hands, cards


def test_no_hearts_ends_when_all_hearts_are_taken() -> None:
    hands, cards = no_hearts_early_deal()
    hand = start_hand(hands, contract="no-hearts")
    play(hand, cards)
    assert hand.over and len(hand.tricks) == 5
    assert hand.contract_scores == by_seat(-30, 0, 0, 0)
    assert hand.to_move is None
    with pytest.raises(IllegalAction) as err:
        hand.apply(N, Play(parse_card("9S")))
    assert err.value.code == "hand-over"


def test_no_hearts_early_end_off_plays_13_tricks_same_scores() -> None:
    hands, cards = no_hearts_early_deal()
    hand = start_hand(hands, contract="no-hearts", variants=Variants(early_end=False))
    play(hand, cards)
    assert not hand.over
    while not hand.over:
        assert hand.to_move is not None
        play(hand, legal_texts(hand)[:1])
    assert len(hand.tricks) == 13
    assert hand.contract_scores == by_seat(-30, 0, 0, 0)


def test_no_hearts_does_not_end_before_the_13th_heart() -> None:
    hands, cards = no_hearts_early_deal()
    hand = start_hand(hands, contract="no-hearts")
    play(hand, cards[:16])
    assert not hand.over and hand.to_move == N


def test_no_queens_does_not_end_at_the_third_queen() -> None:
    hands, cards, _ = scripted("N", follow_tricks("N", "EEEEEESSSWWWW"))
    hand = start_hand(hands, contract="no-queens")
    play(hand, cards[:36])  # 9 tricks, 3 queens
    assert not hand.over


@pytest.mark.parametrize("contract", ["no-tricks", "no-last-two", "trumps"])
def test_contracts_without_early_end_play_13_tricks(contract: str) -> None:
    # every queen, every heart and KH fall early in this deal; these contracts play on regardless
    hands, cards, _ = scripted("N", follow_tricks("N", "EEEEEESSSWWWW"))
    hand = start_hand(hands, contract=contract, trump="C" if contract == "trumps" else None)
    play(hand, cards[:48])
    assert not hand.over
    play(hand, cards[48:])
    assert hand.over and len(hand.tricks) == 13
