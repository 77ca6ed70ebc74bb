"""Shared builders for the Barbu tests: hands from card texts, scripted deals whose tricks are written out in
play order, hands and matches driven to a known state, and snapshots of every seat's view."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from engine.barbu import (
    PASS,
    Action,
    ChooseContract,
    Double,
    Hand,
    Match,
    Play,
    Redouble,
    Variants,
    make_policy,
)
from engine.barbu.events import Event
from engine.barbu.hand import DOUBLE, PLAY, REDOUBLE
from engine.cards import (
    FULL_DECK,
    RANKS,
    SEATS,
    SUITS,
    card_text,
    mask_of,
    parse_card,
    parse_rank,
    parse_seat,
    parse_suit,
    texts,
)

N, E, S, W = 0, 1, 2, 3


def seat(text: str) -> int:
    """Seat number of ``"N"`` .. ``"W"``."""
    return parse_seat(text)


def card_texts(text: str | Iterable[str]) -> list[str]:
    """``"AS KS 2H"`` (or a list of texts) as a list of card texts."""
    return text.split() if isinstance(text, str) else list(text)


def mask(text: str | Iterable[str]) -> int:
    """The bitmask of the cards written in ``text`` (``"AS KS 2H"``)."""
    return mask_of(parse_card(t) for t in card_texts(text))


def hands_of(n: str, e: str, s: str, w: str) -> list[int]:
    """Four hands from card texts, checked to be a full deal of 13 distinct cards each."""
    hands = [mask(x) for x in (n, e, s, w)]
    check_deal(hands)
    return hands


def check_deal(hands: Sequence[int]) -> None:
    """Assert ``hands`` are four disjoint 13-card hands covering the deck."""
    assert [h.bit_count() for h in hands] == [13] * 4, [texts(h) for h in hands]
    union = 0
    for h in hands:
        assert not union & h, "a card is dealt twice"
        union |= h
    assert union == FULL_DECK


def suit_hands() -> list[int]:
    """The deal where N holds every spade, E every heart, S every diamond and W every club."""
    return [mask(r + SUITS[s] for r in RANKS) for s in range(4)]


def hand_texts_by_seat(hands: Sequence[int]) -> dict[str, list[str]]:
    """``{"N": [...], ...}`` as in a ``barbu-deal/1`` record."""
    return {SEATS[s]: texts(hands[s]) for s in range(4)}


def trick_winner(cards: Sequence[int], trump: int | None) -> int:
    """Index (0..3, in play order) of the card that wins a trick: highest of the suit led, or highest trump."""
    best = 0
    for i in range(1, 4):
        c, b = cards[i], cards[best]
        same_suit_higher = c // 13 == b // 13 and c > b
        first_trump = trump is not None and c // 13 == trump and b // 13 != trump
        if same_suit_higher or first_trump:
            best = i
    return best


def scripted(
    declarer: str,
    tricks: Sequence[str],
    trump: str | None = None,
    rest: dict[str, str] | None = None,
) -> tuple[list[int], list[str], list[str]]:
    """A deal built from its tricks, each written in play order from its leader (``"AS 2S 3S 4S"``).

    The first leader is ``declarer``; each trick's winner (worked out independently of the engine, by
    :func:`trick_winner`) leads the next. ``rest`` gives cards a seat holds but never plays (a hand that ends
    early). Returns the four hands, the record's ``play`` list and the winner of each trick.
    """
    hands = [0, 0, 0, 0]
    play: list[str] = []
    winners: list[str] = []
    leader = seat(declarer)
    t = None if trump is None else parse_suit(trump)
    for trick in tricks:
        cards = [parse_card(x) for x in trick.split()]
        assert len(cards) == 4, trick
        for i, c in enumerate(cards):
            hands[(leader + i) % 4] |= 1 << c
        play.extend(card_text(c) for c in cards)
        leader = (leader + trick_winner(cards, t)) % 4
        winners.append(SEATS[leader])
    for name, text in (rest or {}).items():
        hands[seat(name)] |= mask(text)
    check_deal(hands)
    return hands, play, winners


def follow_tricks(declarer: str, winners: str, suit_order: str = "SHDC") -> list[str]:
    """Thirteen tricks in which everybody follows suit for 12 tricks, and who wins each is ``winners``.

    ``winners`` is 13 seat letters (``"NNNNEEEWSSSSS"``), the 12th and 13th equal. Trick ``k`` (0..11) is in
    suit ``suit_order[k // 3]`` with ranks A-J, T-7 or 6-3 of it; its winner plays the highest of the four and
    the leader (when not the winner) the lowest, so K♥ is never led. So in the first trick of each suit
    the queen falls to that trick's winner, and with hearts second, K♥ to the 4th trick's winner. The 13th
    trick is the four 2s: the 12th trick's winner leads a 2 and the others have no card of its suit.
    """
    assert len(winners) == 13 and winners[11] == winners[12]
    tricks: list[str] = []
    leader = seat(declarer)
    twos = ["2" + s for s in suit_order]
    for k in range(12):
        suit = suit_order[k // 3]
        top = 12 - 4 * (k % 3)
        ranks = [top, top - 1, top - 2, top - 3]  # high to low
        winner = seat(winners[k])
        by_seat: dict[int, int] = {winner: ranks[0]}
        others = [(leader + i) % 4 for i in range(4) if (leader + i) % 4 != winner]
        # the leader (if not the winner) gets the lowest; the rest in turn the next highest
        followers = [s for s in others if s != leader]
        for s_, r in zip(followers, ranks[1:], strict=False):
            by_seat[s_] = r
        if leader != winner:
            by_seat[leader] = ranks[3]
        tricks.append(" ".join(RANKS[by_seat[(leader + i) % 4]] + suit for i in range(4)))
        leader = winner
    tricks.append(" ".join(twos))
    return tricks


def start_hand(
    hands: Sequence[int],
    declarer: str = "N",
    contract: str = "no-tricks",
    trump: str | None = None,
    start_rank: str | None = None,
    variants: Variants | None = None,
    doubles: Sequence[tuple[str, str]] = (),
    redoubles: Sequence[tuple[str, str]] = (),
) -> Hand:
    """A :class:`Hand` with the contract chosen and the doubling and redoubling rounds done, ready to play."""
    hand = Hand(seat(declarer), list(hands), variants or Variants())
    hand.apply(
        hand.declarer,
        ChooseContract(
            contract,
            None if trump is None else parse_suit(trump),
            None if start_rank is None else parse_rank(start_rank),
        ),
    )
    while hand.phase == DOUBLE:
        s = hand.to_move
        assert s is not None
        hand.apply(s, Double(frozenset(seat(b) for a, b in doubles if seat(a) == s)))
    while hand.phase == REDOUBLE:
        s = hand.to_move
        assert s is not None
        hand.apply(s, Redouble(frozenset(seat(b) for a, b in redoubles if seat(a) == s)))
    assert hand.phase == PLAY
    return hand


def play(hand: Hand, actions: str | Iterable[str]) -> None:
    """Apply each action (a card text or ``pass``) for the seat to move."""
    for text in card_texts(actions):
        s = hand.to_move
        assert s is not None, f"the hand is over before {text}"
        hand.apply(s, PASS if text == "pass" else Play(parse_card(text)))


def legal_texts(hand: Hand) -> list[str]:
    """The cards the seat to move may play now."""
    assert hand.to_move is not None
    return texts(hand.legal_mask(hand.to_move))


def deal_record(
    hands: Sequence[int],
    play_list: Sequence[str],
    declarer: str = "N",
    contract: str = "no-tricks",
    trump: str | None = None,
    start_rank: str | None = None,
    doubles: Sequence[tuple[str, str]] = (),
    redoubles: Sequence[tuple[str, str]] = (),
    variants: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A ``barbu-deal/1`` record written out by hand (not by the engine's writer)."""
    record: dict[str, Any] = {"format": "barbu-deal/1"}
    if variants is not None:
        record["variants"] = variants
    record.update(
        {
            "declarer": declarer,
            "hands": hand_texts_by_seat(hands),
            "contract": contract,
        }
    )
    if trump is not None:
        record["trump"] = trump
    if start_rank is not None:
        record["start_rank"] = start_rank
    record["doubles"] = [list(p) for p in doubles]
    record["redoubles"] = [list(p) for p in redoubles]
    record["play"] = list(play_list)
    return record


def by_seat(n: int, e: int, s: int, w: int) -> list[int]:
    """Four numbers by seat, for readability of expected scores."""
    return [n, e, s, w]


def seat_dict(values: Sequence[int]) -> dict[str, int]:
    """``{"N": .., "E": .., "S": .., "W": ..}``."""
    return {SEATS[s]: values[s] for s in range(4)}


def views_json(match: Match) -> list[str]:
    """Every seat's view and the spectator's, as JSON text (for before/after comparisons)."""
    return [json.dumps(match.view(s), sort_keys=True) for s in (0, 1, 2, 3, None)]


def fixed_match(
    hands: Sequence[int] | None = None,
    first_declarer: str = "N",
    variants: Variants | None = None,
    hands_total: int = 28,
) -> Match:
    """A match whose every hand is dealt ``hands`` (default: :func:`suit_hands`)."""
    deal = list(hands) if hands is not None else suit_hands()
    return Match(variants or Variants(), seat(first_declarer), lambda i, d: list(deal), hands_total)


def first_card_play(match: Match) -> list[Event]:
    """Play the current hand's cards out, each seat taking its first legal action, until the hand ends: the
    events of those plays."""
    number = len(match.history)
    events: list[Event] = []
    while not match.over and len(match.history) == number:
        s = match.to_move
        assert s is not None
        assert match.phase == PLAY
        events.extend(match.apply(s, match.legal_actions(s)[0]))
    return events


def declare_and_double(
    match: Match,
    contract: str,
    doubles: dict[int, frozenset[int]] | None = None,
    trump: int | None = None,
    start_rank: int | None = None,
) -> None:
    """Choose ``contract`` for the declarer, then each seat doubles ``doubles.get(seat, nobody)`` (plus the
    declarer when the must-double rule forces it) and nobody redoubles."""
    declarer = match.hand.declarer
    if contract == "trumps" and trump is None:
        trump = 0
    if contract == "dominoes" and start_rank is None:
        start_rank = 5
    match.apply(declarer, ChooseContract(contract, trump, start_rank))
    while match.phase == DOUBLE:
        s = match.to_move
        assert s is not None
        forced = frozenset({declarer}) if s in match.hand.must_double else frozenset()
        match.apply(s, Double((doubles or {}).get(s, frozenset()) | forced))
    while match.phase == REDOUBLE:
        s = match.to_move
        assert s is not None
        match.apply(s, Redouble(frozenset()))


def play_match(seed: int, policies: Sequence[str], variants: Variants | None = None) -> Match:
    """A whole match with ``seed`` between the named bot policies (by seat)."""
    match = Match.new(seed, variants)
    bots = [make_policy(name, seed * 4 + s) for s, name in enumerate(policies)]
    while not match.over:
        s = match.to_move
        assert s is not None
        match.apply(s, bots[s].choose(match.view(s), match.legal_actions(s)))
    return match


def action_for(text: str) -> Action:
    """A card text or ``pass`` as a play-phase action."""
    return PASS if text == "pass" else Play(parse_card(text))


# ---------------------------------------------------------------------- deals used by several test files

#: A deal with every suit split: spades N AKQJ / E T98 / S 765 / W 432, so after three spade tricks led by
#: N the others are void in spades; hearts N 3 4 5 K / E 2 6 9 / S 7 8 T / W J Q A.
MIXED = hands_of(
    "AS KS QS JS 3H 4H 5H KH 2D 3D 4D 2C 3C",
    "TS 9S 8S 2H 6H 9H 5D 6D 7D 4C 5C 6C 7C",
    "7S 6S 5S 7H 8H TH 8D 9D TD 8C 9C TC JC",
    "4S 3S 2S JH QH AH JD QD KD AD QC KC AC",
)

#: No Hearts, N declarer: E holds all 13 hearts and discards 2H, 3H, ... AH in trick order. N wins tricks
#: 1-5 with top spades, S tricks 6-10 with top diamonds, W tricks 11-13 with top clubs (from the 7th card).
NO_HEARTS_TRICKS = [
    "AS 2H 2C 2S",  # N leads, E discards, S discards, W follows
    "KS 3H 3C 3S",
    "QS 4H 4C 4S",
    "JS 5H 5C 5S",
    "TS 6H 6C 6S",
    "2D 7H AD 7S",  # N leads a low diamond, S wins
    "KD 8S 3D 8H",  # S leads: S W N E
    "QD 9S 4D 9H",
    "JD TC 5D TH",
    "TD JC 6D JH",
    "7C QC 7D QH",  # S leads a low club, W wins
    "KC 8D KH 8C",  # W leads: W N E S
    "AC 9D AH 9C",
]

#: Dominoes from 7 with passes and skipped players (see test_barbu_dominoes): N 7S..4S (not 3S 2S) 7H 7D,
#: E the hearts but 7H and 2S, S the diamonds but 7D and 3S, W every club.
DOMINOES_PASSES = hands_of(
    "7S 8S 9S TS JS QS KS AS 6S 5S 4S 7H 7D",
    "2H 3H 4H 5H 6H 8H 9H TH JH QH KH AH 2S",
    "2D 3D 4D 5D 6D 8D 9D TD JD QD KD AD 3S",
    "2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC",
)
#: The play of DOMINOES_PASSES round by round (N E S W), players who are out skipped.
DOMINOES_PASSES_PLAY = [
    "7S pass pass 7C",
    "7H 8H pass 8C",
    "7D 9H 8D 9C",
    "8S TH 9D TC",
    "9S JH TD JC",
    "TS QH JD QC",
    "JS KH QD KC",
    "QS AH KD AC",
    "KS 6H AD 6C",
    "AS 5H 6D 5C",
    "6S 4H 5D 4C",
    "5S 3H 4D 3C",
    "4S 2H 3D 2C",  # N out 1st, W out 2nd
    "pass 3S",  # N and W skipped: E has only 2S and 3S is not out yet
    "2S",  # E out 3rd: the hand ends, S last holding 2D
]


def suit_row_play() -> list[str]:
    """Dominoes from 7 on :func:`suit_hands`: each seat plays its own suit 7 8 .. A 6 .. 2, round by round;
    N, E and S go out in the 13th round and W never plays its 2C."""
    order = "789TJQKA65432"
    actions = [r + s for r in order for s in SUITS]
    return actions[:-1]
