"""The heuristic's card play in Trumps (``docs/rules/barbu.md``, Trumps: +5 a trick, must ruff when void).

Everything is read from the seat's own view: its hand, the tricks and the trick so far. From them it knows
which cards the others still hold between them (``out``) and which suit each other seat has shown void in
(a seat that did not follow is void in the suit led; under the default ``ruff`` duty, one that neither
followed nor trumped is void in trumps too). The rules are a card player's:

- lead: cash the top trump while the others still hold trumps (drawing them keeps the seat's winners from
  being ruffed), cash side winners no one is known to ruff (and trumps once the others have none), and
  otherwise lead low from the longest side suit (or a singleton, to ruff later, when holding trumps to
  spare); a low trump is not led to draw trumps (measured: it gives away more tricks than it saves);
- follow: win with the cheapest card sure to win; else second hand low, third hand high, and last hand
  the cheapest winner; never throw a winner under a trick already ruffed;
- void: ruff with the cheapest trump that wins, overruffing only when it can; discard the card least
  likely to win a trick later.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.barbu.tricks import beats, winning_card
from engine.cards import FULL_DECK, SUIT_MASKS, SUITS, mask_of, parse_card, parse_seat


@dataclass(frozen=True, slots=True)
class TrumpsView:
    """What a seat knows in the play of Trumps: its ``seat`` (0..3), the ``trump`` suit (0..3), its
    ``hand`` and the cards ``out`` in the others' hands (bitmasks), the ``trick`` so far (cards in play
    order) and its ``leader``, and ``void[seat]``: the suits that seat is known to hold none of."""

    seat: int
    trump: int
    hand: int
    out: int
    trick: tuple[int, ...]
    leader: int
    void: tuple[frozenset[int], ...]

    @classmethod
    def read(cls, view: dict[str, Any]) -> TrumpsView:
        """The knowledge in ``view`` (``Match.view`` of the seat to play, in the play of Trumps)."""
        seat = parse_seat(view["seat"])
        trump = SUITS.index(view["trump"])
        hand = mask_of(parse_card(c) for c in view["hand"])
        ruff_duty = view["variants"].get("trump-duty", "ruff") != "follow-only"
        played = 0
        void: list[set[int]] = [set(), set(), set(), set()]
        tricks = [*view["tricks"], view["trick"]]
        for trick in tricks:
            cards = [parse_card(c) for c in trick["cards"]]
            leader = parse_seat(trick["leader"])
            for i, c in enumerate(cards):
                played |= 1 << c
                led = cards[0] // 13
                if c // 13 != led:
                    who = (leader + i) % 4
                    void[who].add(led)
                    if ruff_duty and c // 13 != trump:
                        void[who].add(trump)
        current = view["trick"]
        return cls(
            seat,
            trump,
            hand,
            FULL_DECK & ~hand & ~played,
            tuple(parse_card(c) for c in current["cards"]),
            parse_seat(current["leader"]),
            tuple(frozenset(v) for v in void),
        )

    def later(self) -> list[int]:
        """The seats still to play to this trick after this one."""
        return [(self.seat + k) % 4 for k in range(1, 4 - len(self.trick))]

    def void_in(self, seat: int, suit: int) -> bool:
        """Whether ``seat`` surely holds no card of ``suit``: it showed a void, or no card of it is out."""
        return suit in self.void[seat] or not self.out & SUIT_MASKS[suit]

    def may_hold(self, seats: list[int], suit: int) -> bool:
        """Whether any of ``seats`` may still hold a card of ``suit``."""
        return any(not self.void_in(s, suit) for s in seats)


def _above(c: int) -> int:
    """The cards of ``c``'s suit higher than ``c``, as a mask."""
    return SUIT_MASKS[c // 13] & ~((1 << (c + 1)) - 1)


def _cheapest_equal(c: int, k: TrumpsView) -> int:
    """The lowest card of the seat's hand that does what ``c`` does: no card still out lies between them
    (cards already played do not separate two of the seat's cards)."""
    low = c
    for d in range(c - 1, (c // 13) * 13 - 1, -1):
        if (k.out >> d) & 1:
            break
        if (k.hand >> d) & 1:
            low = d
    return low


def _master(c: int, k: TrumpsView) -> bool:
    """No card higher than ``c`` in its suit is still out."""
    return not k.out & _above(c)


def _sure(c: int, k: TrumpsView, led: int) -> bool:
    """Whether ``c``, beating the trick so far, wins it whatever the seats still to play hold: none of them
    may beat it in its suit, nor (when ``c`` follows a side suit) ruff it."""
    later = k.later()
    higher = bool(k.out & _above(c))
    if c // 13 == led:
        if higher and any(not k.void_in(s, led) for s in later):
            return False
        return led == k.trump or not k.may_hold([s for s in later if k.void_in(s, led)], k.trump)
    # A ruff: beaten only by a later seat that is void in the suit led too and holds a higher trump.
    return not (higher and any(k.void_in(s, led) and not k.void_in(s, k.trump) for s in later))


def _discard(cards: list[int], k: TrumpsView) -> int:
    """The card least likely to win a trick later: not a winner, low, from a short side suit."""

    def worth(c: int) -> tuple[bool, bool, int, int]:
        length = (k.hand & SUIT_MASKS[c // 13]).bit_count()
        return (c // 13 == k.trump, _master(c, k), c % 13, length)

    return min(cards, key=worth)


def trumps_card(view: dict[str, Any], cards: list[int]) -> int:
    """The card to play among the legal ``cards`` (at least two) in the play of Trumps, from ``view``."""
    k = TrumpsView.read(view)
    if not k.trick:
        return _lead(cards, k)
    trump = k.trump
    led = k.trick[0] // 13
    best = winning_card(k.trick, trump)
    winners = [c for c in cards if beats(c, best, trump)]
    if not winners:
        return _discard(cards, k) if cards[0] // 13 != led else min(cards)
    if len(k.trick) == 3:
        return min(winners, key=lambda c: (c // 13 == trump, c % 13))
    sure = [c for c in winners if _sure(c, k, led)]
    if sure:
        return min(sure, key=lambda c: (c // 13 == trump, c % 13))
    if any(c // 13 == led for c in winners):
        # Following without a sure winner: second hand low, third hand high (forcing out the last hand's
        # honour, or winning when it has none).
        if len(k.trick) == 1:
            return min(cards)
        return _cheapest_equal(max(winners), k)
    # Ruffing without a sure winner: the cheapest ruff still wins against a seat that follows.
    return min(winners)


def _lead(cards: list[int], k: TrumpsView) -> int:
    trump = k.trump
    others = [s for s in range(4) if s != k.seat]
    mine = [c for c in cards if c // 13 == trump]
    side = [c for c in cards if c // 13 != trump]
    drawing = k.may_hold(others, trump)
    if mine and drawing and _master(max(mine), k):
        return _cheapest_equal(max(mine), k)
    cashable = []
    for c in side:
        suit = c // 13
        if not _master(c, k):
            continue
        ruffers = [s for s in others if suit in k.void[s]]
        if not drawing or (not ruffers and (k.out & SUIT_MASKS[suit]).bit_count() >= 2):
            cashable.append(c)
    if cashable:
        # The suit with the most cards out first: the others are least likely to be void in it.
        return max(cashable, key=lambda c: ((k.out & SUIT_MASKS[c // 13]).bit_count(), c))
    if mine and not drawing:
        return max(mine)
    if not side:
        return min(mine)
    lengths = {s: (k.hand & SUIT_MASKS[s]).bit_count() for s in range(4) if s != trump}
    if len(mine) >= 2 and drawing:
        singles = [c for c in side if lengths[c // 13] == 1 and c % 13 < 10]
        if singles:
            return min(singles)
    return min(side, key=lambda c: (-lengths[c // 13], c % 13))
