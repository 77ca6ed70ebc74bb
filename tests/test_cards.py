"""Card notation (``docs/formats.md``, "Cards and seats") and the card-set helpers of ``engine.cards``."""

from __future__ import annotations

import pytest

from engine.cards import (
    FULL_DECK,
    RANKS,
    SEATS,
    SUITS,
    NotationError,
    card,
    card_list,
    card_text,
    count,
    deal_hands,
    highest,
    lowest,
    mask_of,
    parse_card,
    parse_rank,
    parse_seat,
    parse_suit,
    rank_of,
    seat_text,
    shuffled_deck,
    suit_of,
    texts,
)


def test_every_card_text_round_trips_in_canonical_form() -> None:
    seen = set()
    for c in range(52):
        text = card_text(c)
        assert len(text) == 2 and text[0] in RANKS and text[1] in SUITS
        assert parse_card(text) == c
        seen.add(text)
    assert len(seen) == 52


def test_rank_and_suit_order_ace_high_suits_s_h_d_c() -> None:
    assert RANKS == "23456789TJQKA"
    assert SUITS == "SHDC"
    assert parse_rank("A") > parse_rank("K") > parse_rank("2")
    assert parse_card("AS") == card(12, 0)
    assert parse_card("2C") == card(0, 3)
    assert rank_of(parse_card("QH")) == 10
    assert suit_of(parse_card("QH")) == 1


@pytest.mark.parametrize(("text", "canonical"), [("10H", "TH"), ("th", "TH"), ("qs", "QS"), ("10c", "TC")])
def test_readers_accept_10_for_t_and_lower_case_writers_write_canonical(text: str, canonical: str) -> None:
    assert card_text(parse_card(text)) == canonical


@pytest.mark.parametrize("text", ["", "A", "1S", "AX", "ZZ", "11H", "AS ", "KHS", "0S"])
def test_bad_card_text_is_refused(text: str) -> None:
    with pytest.raises(NotationError, match="not a card"):
        parse_card(text)


def test_non_text_card_is_refused() -> None:
    with pytest.raises(NotationError):
        parse_card(5)  # type: ignore[arg-type]


def test_seats_are_n_e_s_w_clockwise() -> None:
    assert SEATS == "NESW"
    assert [parse_seat(s) for s in "NESW"] == [0, 1, 2, 3]
    assert seat_text(3) == "W"
    assert seat_text(1) == "E"
    for bad in ("X", "", "NE", "w", " N"):  # seats are written upper case only (formats.md)
        with pytest.raises(NotationError, match="not a seat"):
            parse_seat(bad)


def test_bad_suit_and_rank_are_refused() -> None:
    with pytest.raises(NotationError, match="not a suit"):
        parse_suit("X")
    with pytest.raises(NotationError, match="not a rank"):
        parse_rank("1")


def test_card_sets_are_bitmasks_sorted_by_suit_then_rank() -> None:
    m = mask_of([parse_card(t) for t in ("AS", "2S", "KH", "3C")])
    assert count(m) == 4
    assert texts(m) == ["2S", "AS", "KH", "3C"]
    assert card_list(m) == [parse_card(t) for t in ("2S", "AS", "KH", "3C")]
    assert card_text(highest(m)) == "3C"
    assert card_text(lowest(m)) == "2S"


def test_shuffled_deck_is_a_permutation_fixed_by_the_seed() -> None:
    a = shuffled_deck(7)
    assert sorted(a) == list(range(52))
    assert shuffled_deck(7) == a
    assert shuffled_deck(8) != a


def test_deal_hands_gives_13_cards_each_one_at_a_time_from_first() -> None:
    deck = list(range(52))
    hands = deal_hands(deck, first=1)
    assert [count(h) for h in hands] == [13] * 4
    assert hands[0] | hands[1] | hands[2] | hands[3] == FULL_DECK
    assert (hands[1] >> 0) & 1 and (hands[2] >> 1) & 1 and (hands[0] >> 3) & 1
