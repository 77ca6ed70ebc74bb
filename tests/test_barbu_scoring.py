"""Hand-computed scores of every contract and the settlement of doubles (``rules/barbu.md``, "The seven
contracts" and "Settling doubles"). Each deal is written out trick by trick, so who takes what is known."""

from __future__ import annotations

import pytest

from engine.barbu import IllegalAction, Play, Variants
from engine.barbu.scoring import settle
from engine.cards import parse_card
from tests.barbu_helpers import (
    DOMINOES_PASSES,
    DOMINOES_PASSES_PLAY,
    NO_HEARTS_TRICKS,
    E,
    N,
    S,
    W,
    by_seat,
    follow_tricks,
    play,
    scripted,
    start_hand,
    suit_hands,
    suit_row_play,
)

# N takes 4 tricks, E 3, W 1, S 5: the contract scores of the rules' settlement example in No Tricks.
EXAMPLE_WINNERS = "NNNNEEEWSSSSS"


def test_no_tricks_scores_minus_2_per_trick() -> None:
    hands, cards, winners = scripted("N", follow_tricks("N", EXAMPLE_WINNERS))
    assert "".join(winners) == EXAMPLE_WINNERS
    hand = start_hand(hands, contract="no-tricks")
    play(hand, cards)
    assert hand.over
    assert hand.tricks_won == by_seat(4, 3, 5, 1)
    assert hand.contract_scores == by_seat(-8, -6, -10, -2)
    assert ["NESW"[w] for _, _, w in hand.tricks] == winners


def test_settlement_example_of_the_rules_via_settle() -> None:
    # E doubled N, N redoubled E; W doubled S.
    settlements = settle(by_seat(-8, -6, -10, -2), [(E, N), (W, S)], [(N, E)])
    assert settlements == by_seat(-4, 4, -8, 8)
    scores = [c + s for c, s in zip(by_seat(-8, -6, -10, -2), settlements, strict=True)]
    assert scores == by_seat(-12, -2, -18, 6)
    assert sum(scores) == -26


def test_settlement_example_of_the_rules_played_out() -> None:
    hands, cards, _ = scripted("N", follow_tricks("N", EXAMPLE_WINNERS))
    hand = start_hand(hands, contract="no-tricks", doubles=[("E", "N"), ("W", "S")], redoubles=[("N", "E")])
    play(hand, cards)
    assert hand.contract_scores == by_seat(-8, -6, -10, -2)
    assert hand.settlements() == by_seat(-4, 4, -8, 8)


def test_mutual_doubles_count_as_redoubled() -> None:
    assert settle(by_seat(-8, -6, -10, -2), [(E, N), (N, E)], []) == by_seat(-4, 4, 0, 0)
    # the same pair once: single difference
    assert settle(by_seat(-8, -6, -10, -2), [(E, N)], []) == by_seat(-2, 2, 0, 0)


def test_redouble_doubles_only_its_own_pair_and_pairs_without_double_settle_nothing() -> None:
    assert settle(by_seat(-20, 0, 0, 0), [], []) == [0, 0, 0, 0]
    assert settle(by_seat(-20, 0, 0, 0), [(E, N), (S, N)], [(N, E)]) == by_seat(-60, 40, 20, 0)


def test_settlement_of_equal_scores_is_zero() -> None:
    assert settle(by_seat(-6, -6, 0, -12), [(E, N), (W, S)], [(N, E)]) == by_seat(0, 0, 12, -12)


def test_no_queens_scores_minus_6_per_queen_and_ends_at_the_4th_queen() -> None:
    # queens fall in tricks 1, 4, 7 and 10 (the first trick of each suit) to E, E, S and W
    winners = "EEEEEESSSWWWW"
    hands, cards, _ = scripted("N", follow_tricks("N", winners))
    hand = start_hand(hands, contract="no-queens")
    play(hand, cards[:40])
    assert hand.over
    assert len(hand.tricks) == 10
    assert hand.contract_scores == by_seat(0, -12, -6, -6)
    assert sum(hand.contract_scores) == -24
    with pytest.raises(IllegalAction) as err:
        hand.apply(W, play_action(cards[40]))
    assert err.value.code == "hand-over"


def test_no_queens_with_early_end_off_plays_13_tricks_same_scores() -> None:
    winners = "EEEEEESSSWWWW"
    hands, cards, _ = scripted("N", follow_tricks("N", winners))
    hand = start_hand(hands, contract="no-queens", variants=Variants(early_end=False))
    play(hand, cards[:40])
    assert not hand.over
    play(hand, cards[40:])
    assert hand.over and len(hand.tricks) == 13
    assert hand.contract_scores == by_seat(0, -12, -6, -6)


def no_last_two_tricks() -> list[str]:
    # 11 tricks in which everybody follows (N wins the 11th), then with the last eight cards: N leads 3C and
    # E's 5C wins the 12th (S follows low, W has no club); E leads 2C and S's 6C wins the 13th.
    tricks = follow_tricks("N", "NSWENSWENSNNN")[:11]
    return [*tricks, "3C 5C 4C 2H", "2C 6C 2D 2S"]


def test_no_last_two_scores_minus_10_for_12th_and_minus_20_for_13th() -> None:
    hands, cards, winners = scripted("N", no_last_two_tricks())
    assert winners[10:] == ["N", "E", "S"]
    hand = start_hand(hands, contract="no-last-two")
    play(hand, cards)
    assert hand.over and len(hand.tricks) == 13
    assert hand.contract_scores == by_seat(0, -10, -20, 0)


def test_no_hearts_scores_minus_2_per_heart_and_minus_6_for_ace() -> None:
    hands, cards, winners = scripted("N", NO_HEARTS_TRICKS)
    assert "".join(winners) == "NNNNNSSSSSWWW"
    hand = start_hand(hands, contract="no-hearts")
    play(hand, cards)
    assert hand.over
    # N took 2H-6H, S 7H-JH, W QH KH AH (-2 -2 -6)
    assert hand.contract_scores == by_seat(-10, 0, -10, -10)
    assert sum(hand.contract_scores) == -30


def test_no_hearts_ace_alone_costs_6() -> None:
    # the same deal but E throws AH first, to N, and 2H last, to W
    tricks = list(NO_HEARTS_TRICKS)
    tricks[0] = tricks[0].replace("2H", "AH")
    tricks[12] = tricks[12].replace("AH", "2H")
    hands, cards, _ = scripted("N", tricks)
    hand = start_hand(hands, contract="no-hearts")
    play(hand, cards)
    assert hand.contract_scores == by_seat(-14, 0, -10, -6)


def test_barbu_scores_minus_20_for_the_king_of_hearts_and_ends_when_taken() -> None:
    # hearts are the 2nd suit: the 4th trick is AH KH QH JH, won by E's AH
    hands, cards, winners = scripted("N", follow_tricks("N", "NNNEWWWWSSSSS"))
    assert winners[3] == "E"
    hand = start_hand(hands, contract="barbu")
    play(hand, cards[:16])
    assert hand.over and len(hand.tricks) == 4
    assert "KH" in cards[12:16]
    assert hand.contract_scores == by_seat(0, -20, 0, 0)
    with pytest.raises(IllegalAction) as err:
        hand.apply(E, play_action(cards[16]))
    assert err.value.code == "hand-over"


def test_barbu_with_early_end_off_plays_13_tricks_same_scores() -> None:
    hands, cards, _ = scripted("N", follow_tricks("N", "NNNEWWWWSSSSS"))
    hand = start_hand(hands, contract="barbu", variants=Variants(early_end=False))
    play(hand, cards)
    assert hand.over and len(hand.tricks) == 13
    assert hand.contract_scores == by_seat(0, -20, 0, 0)


def test_trumps_scores_plus_5_per_trick() -> None:
    # as in No Tricks, except that the 13th trick (2S led, 2H 2D 2C discarded) goes to W's 2H: a trump
    hands, cards, winners = scripted("N", follow_tricks("N", EXAMPLE_WINNERS), trump="H")
    assert winners[-1] == "W"
    hand = start_hand(hands, contract="trumps", trump="H")
    play(hand, cards)
    assert hand.over
    assert hand.contract_scores == by_seat(20, 15, 20, 10)
    assert sum(hand.contract_scores) == 65


def test_trumps_highest_trump_wins_over_higher_card_of_suit_led() -> None:
    # N leads AS twice more after three rounds of spades; E ruffs the 4th with a low trump
    tricks = ["AS TS 7S 4S", "KS 9S 6S 3S", "QS 8S 5S 2S", "JS 2H 7H JH"]
    rest = {
        "N": "3H 4H 5H KH 2D 3D 4D 2C 3C",
        "E": "6H 9H 5D 6D 7D 4C 5C 6C 7C",
        "S": "8H TH 8D 9D TD 8C 9C TC JC",
        "W": "QH AH JD QD KD AD QC KC AC",
    }
    hands, cards, winners = scripted("N", tricks, trump="H", rest=rest)
    assert winners == ["N", "N", "N", "W"]
    hand = start_hand(hands, contract="trumps", trump="H")
    play(hand, cards)
    assert hand.tricks[-1][2] == W
    assert hand.tricks_won == by_seat(3, 0, 0, 1)


def test_dominoes_scores_45_20_5_minus_5_by_finishing_order() -> None:
    hand = start_hand(suit_hands(), contract="dominoes", start_rank="7")
    play(hand, suit_row_play())
    assert hand.over
    assert hand.finish_order == [N, E, S, W]
    assert hand.contract_scores == by_seat(45, 20, 5, -5)


@pytest.mark.parametrize(
    ("switch", "points"),
    [
        ("45/20/5/-5", (45, 20, 5, -5)),
        ("40/25/10/-10", (40, 25, 10, -10)),
        ("45/20/10/-10", (45, 20, 10, -10)),
    ],
)
def test_dominoes_scores_variant_tables(switch: str, points: tuple[int, int, int, int]) -> None:
    hand = start_hand(
        DOMINOES_PASSES,
        contract="dominoes",
        start_rank="7",
        variants=Variants(dominoes_scores=switch),
    )
    play(hand, " ".join(DOMINOES_PASSES_PLAY))
    assert hand.finish_order == [N, W, E, S]
    first, second, third, last = points
    assert hand.contract_scores == by_seat(first, third, last, second)
    assert sum(hand.contract_scores) == 65


def play_action(text: str) -> Play:
    return Play(parse_card(text))
