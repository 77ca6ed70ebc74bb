"""Fast playouts of a determinized hand: every seat plays a cheap rule of thumb on bitmasks through the
engine's unchecked fast path (``Hand.legal_mask``, ``Hand.play_card``, no events).

The rules are the heuristic bot's in miniature: in the negative contracts duck under the card winning the
trick with the highest card that still ducks, and when void throw the card that costs most; in Trumps win
the trick cheaply when last to play, else with the best card; in No Last Two shed high cards early;
Dominoes plays a random fitting card. Optionally the last cards of a trick contract are played exactly
instead (:func:`solve_exact`). ``engine/_kernels.c`` is the same rules compiled (:mod:`.kernels`).
Each card played is one of ``legal_mask``, so a playout is legal.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.barbu.hand import PLAY, Hand
from engine.barbu.rules import (
    ACE_OF_HEARTS,
    BARBU,
    DOMINOES,
    HEARTS_MASK,
    KING_OF_HEARTS,
    NO_HEARTS,
    NO_LAST_TWO,
    NO_QUEENS,
    QUEENS_MASK,
    TRUMPS,
)
from engine.barbu.search.rng import Rng
from engine.cards import SUIT_MASKS

_S0, _S1, _S2, _S3 = SUIT_MASKS
_KH = 1 << KING_OF_HEARTS
_AH = 1 << ACE_OF_HEARTS


def _top(mask: int) -> int:
    return mask.bit_length() - 1


def _bottom(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _highest_rank(mask: int) -> int:
    """The card of the highest rank in ``mask`` (any suit; the first suit on ties)."""
    best, rank = -1, -1
    for base, suit in ((0, _S0), (13, _S1), (26, _S2), (39, _S3)):
        m = mask & suit
        if m:
            c = m.bit_length() - 1
            if c - base > rank:
                best, rank = c, c - base
    return best


def _lowest_rank(mask: int) -> int:
    """The card of the lowest rank in ``mask`` (any suit; the first suit on ties)."""
    best, rank = -1, 13
    for base, suit in ((0, _S0), (13, _S1), (26, _S2), (39, _S3)):
        m = mask & suit
        if m:
            c = (m & -m).bit_length() - 1
            if c - base < rank:
                best, rank = c, c - base
    return best


def _discard(contract: str | None, mask: int) -> int:
    """The card a void player throws in a negative contract: the penalty card first, else its highest."""
    if contract == BARBU:
        if mask & _KH:
            return KING_OF_HEARTS
        if mask & _AH:
            return ACE_OF_HEARTS
    elif contract == NO_HEARTS:
        if mask & HEARTS_MASK:
            return _top(mask & HEARTS_MASK)
    elif contract == NO_QUEENS and mask & QUEENS_MASK:
        return _top(mask & QUEENS_MASK)
    return _highest_rank(mask)


def choose_card(hand: Hand, mask: int) -> int:
    """The rollout's card from the legal cards ``mask`` (at least two) of the seat to move."""
    contract = hand.contract
    trick = hand.trick
    if not trick:
        if contract == TRUMPS or (contract == NO_LAST_TWO and len(hand.tricks) < 9):
            return _highest_rank(mask)
        return _lowest_rank(mask)
    led = trick[0] // 13
    led_mask = SUIT_MASKS[led]
    if contract == TRUMPS:
        trump = hand.trump
        assert trump is not None
        trumps_in = [c for c in trick if c // 13 == trump]
        if mask & led_mask:  # following
            if trumps_in and led != trump:
                return _bottom(mask)
            win = max(c for c in trick if c // 13 == led)
            above = mask & ~((1 << (win + 1)) - 1)
            if not above:
                return _bottom(mask)
            return _bottom(above) if len(trick) == 3 else _top(above)
        trumps = mask & SUIT_MASKS[trump]
        if trumps:
            if trumps_in:
                over = trumps & ~((1 << (max(trumps_in) + 1)) - 1)
                return _bottom(over) if over else _bottom(trumps)
            return _bottom(trumps)
        return _lowest_rank(mask)
    if not mask & led_mask:
        return _discard(contract, mask)
    if contract == NO_LAST_TWO and len(hand.tricks) < 9:
        return _top(mask)
    win = max(c for c in trick if c // 13 == led)
    below = mask & ((1 << win) - 1)
    if below:
        return _top(below)
    return _top(mask)


def solve_exact(hand: Hand, weights: Sequence[Sequence[int]]) -> tuple[int, int, int, int]:
    """The contract scores at the end of ``hand`` (a trick contract in its play, every seat's cards known)
    when every seat plays the card that maximises its own hand result, ``weights[seat]`` dotted with the four
    contract scores (the lowest such card on ties): the perfect-information play of the rest of the hand, by
    trying every card (``hand`` is left unchanged)."""
    seat = hand.to_move
    assert seat is not None
    w0, w1, w2, w3 = weights[seat]
    mask = hand.trick_mask(seat)
    best_value = 0
    best: tuple[int, int, int, int] | None = None
    while mask:
        low = mask & -mask
        mask ^= low
        child = hand.copy()
        child.play_card(seat, low.bit_length() - 1)
        if child.phase == PLAY:
            scores = solve_exact(child, weights)
        else:
            s0, s1, s2, s3 = child.contract_scores
            scores = (s0, s1, s2, s3)
        value = w0 * scores[0] + w1 * scores[1] + w2 * scores[2] + w3 * scores[3]
        if best is None or value > best_value:
            best, best_value = scores, value
    assert best is not None
    return best


def playout(hand: Hand, seed: int, exact: int = 0) -> None:
    """Play ``hand`` (in its play phase, every seat's cards known) to its end with the rollout rules; the
    random draws of Dominoes come from :class:`~.rng.Rng` ``(seed)`` (as in the compiled kernel). With
    ``exact`` > 0, a trick contract stops, still in its play, once ``exact`` cards or fewer are left in the
    hands (for :func:`solve_exact`)."""
    legal_mask, play_card = hand.legal_mask, hand.play_card
    if hand.contract == DOMINOES:
        below = Rng(seed).below
        while hand.phase == PLAY:
            seat = hand.to_move
            assert seat is not None
            mask = legal_mask(seat)
            if not mask:
                hand.pass_turn(seat)
                continue
            n = below(mask.bit_count())
            while n:
                mask &= mask - 1
                n -= 1
            play_card(seat, (mask & -mask).bit_length() - 1)
        return
    # In the play of a trick contract the seat to move is always due a card: the trick rules' mask is
    # legal_mask without its phase and turn checks (a tenth of a playout's time).
    trick_mask = hand.trick_mask
    hands = hand.hands
    while hand.phase == PLAY:
        if exact and (hands[0] | hands[1] | hands[2] | hands[3]).bit_count() <= exact:
            return
        seat = hand.to_move
        assert seat is not None
        mask = trick_mask(seat)
        play_card(seat, choose_card(hand, mask) if mask & (mask - 1) else mask.bit_length() - 1)
