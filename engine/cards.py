"""Cards, suits, ranks and seats, in the notation of ``docs/formats.md`` ("Cards and seats").

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, where ``rank`` 0 is the 2 and 12 the Ace, and
``suit`` 0..3 is S, H, D, C. A set of cards (a hand, a trick's cards, what has been played) is an ``int``
bitmask with bit ``card`` set for each card in it, so set operations are single integer operations. Text is
rank + suit (``"QS"``, ``"TH"``); readers also accept ``10`` for ``T`` and lower case, writers always write the
canonical form. Seats are 0..3 for N, E, S, W, clockwise.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator

from engine.jsontext import show

RANKS = "23456789TJQKA"
SUITS = "SHDC"
SEATS = "NESW"
DECK_SIZE = 52
FULL_DECK = (1 << DECK_SIZE) - 1
SUIT_MASKS = tuple(((1 << 13) - 1) << (13 * s) for s in range(4))
RED_SUITS = frozenset({1, 2})

Card = int
CardSet = int
Seat = int


class NotationError(ValueError):
    """Text that is not a card, suit, rank or seat; the message says which and why."""


def card(rank: int, suit: int) -> Card:
    """The card of ``rank`` (0 = 2 .. 12 = Ace) and ``suit`` (0..3 = S H D C)."""
    return suit * 13 + rank


def rank_of(c: Card) -> int:
    """The rank index of card ``c``: 0 for a 2 up to 12 for an Ace."""
    return c % 13


def suit_of(c: Card) -> int:
    """The suit index of card ``c``: 0..3 for S, H, D, C."""
    return c // 13


def parse_rank(text: str) -> int:
    """Parse a rank (``"Q"``, ``"t"``, ``"10"``) to its index 0..12.

    Raises:
        NotationError: the text is not a rank.
    """
    t = text.upper()
    if t == "10":
        t = "T"
    if len(t) != 1 or t not in RANKS:
        raise NotationError(f"not a rank: {show(text)} (ranks are {RANKS}, or 10)")
    return RANKS.index(t)


def parse_suit(text: str) -> int:
    """Parse a suit letter (``"S"``, ``"h"``) to its index 0..3.

    Raises:
        NotationError: the text is not a suit.
    """
    t = text.upper()
    if len(t) != 1 or t not in SUITS:
        raise NotationError(f"not a suit: {show(text)} (suits are {SUITS})")
    return SUITS.index(t)


def parse_card(text: str) -> Card:
    """Parse card text (``"QS"``, ``"th"``, ``"10H"``) to a card number 0..51.

    Raises:
        NotationError: the text is not a card.
    """
    if not isinstance(text, str) or len(text) < 2:
        raise NotationError(f"not a card: {show(text)} (a card is rank + suit, e.g. QS, TH)")
    try:
        return card(parse_rank(text[:-1]), parse_suit(text[-1]))
    except NotationError:
        raise NotationError(f"not a card: {show(text)} (a card is rank + suit, e.g. QS, TH)") from None


def card_text(c: Card) -> str:
    """The canonical text of card ``c``, e.g. ``"QS"``."""
    return RANKS[c % 13] + SUITS[c // 13]


def parse_seat(text: str) -> Seat:
    """Parse a seat letter (``"N"``; upper case only, as ``docs/formats.md`` writes seats) to 0..3.

    Raises:
        NotationError: the text is not a seat.
    """
    t = text if isinstance(text, str) else ""
    if len(t) != 1 or t not in SEATS:
        raise NotationError(f"not a seat: {show(text)} (seats are N E S W)")
    return SEATS.index(t)


def seat_text(seat: Seat) -> str:
    """The letter of ``seat`` (0..3): N, E, S or W."""
    return SEATS[seat]


# Bitmask helpers ---------------------------------------------------------------------------------


def mask_of(cards: Iterable[Card]) -> CardSet:
    """The bitmask holding ``cards``."""
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def cards_of(mask: CardSet) -> Iterator[Card]:
    """The cards in ``mask``, lowest number first (spades 2..A, then hearts, diamonds, clubs)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def card_list(mask: CardSet) -> list[Card]:
    """The cards in ``mask`` as a list, lowest number first."""
    return list(cards_of(mask))


def texts(mask: CardSet) -> list[str]:
    """The canonical texts of the cards in ``mask``, sorted by suit (S H D C) then rank (2..A)."""
    return [card_text(c) for c in cards_of(mask)]


def count(mask: CardSet) -> int:
    """How many cards ``mask`` holds."""
    return mask.bit_count()


def highest(mask: CardSet) -> Card:
    """The highest-numbered card of a non-empty ``mask`` (within one suit: the highest rank)."""
    return mask.bit_length() - 1


def lowest(mask: CardSet) -> Card:
    """The lowest-numbered card of a non-empty ``mask`` (within one suit: the lowest rank)."""
    return (mask & -mask).bit_length() - 1


def shuffled_deck(seed: int) -> list[Card]:
    """The 52 cards in a shuffled order fixed by ``seed``.

    Uses ``random.Random(seed)`` (Mersenne Twister, ``shuffle``), whose output for a given seed is the same on
    every machine and Python version the project supports.
    """
    deck = list(range(DECK_SIZE))
    random.Random(seed).shuffle(deck)
    return deck


def deal_hands(deck: list[Card], first: Seat = 0) -> list[CardSet]:
    """Deal the 52 cards of ``deck`` one at a time clockwise starting with seat ``first``.

    Returns four hands (bitmasks of 13 cards), indexed by seat.
    """
    hands = [0, 0, 0, 0]
    for i in range(4):
        m = 0
        for c in deck[i::4]:
            m |= 1 << c
        hands[(first + i) % 4] = m
    return hands
