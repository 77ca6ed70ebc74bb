"""Fast random playouts: a match played to its end with uniformly random legal actions, through the
engine's unchecked fast path (legal cards as a bitmask, no events, no views).

This is what search bots and the self-play benchmark run many times; it makes exactly the choices the
``random`` policy could make, since every card it plays is drawn from :meth:`Hand.legal_mask`.
"""

from __future__ import annotations

import random

from engine.barbu.hand import PLAY
from engine.barbu.match import Match


def random_card(mask: int, rng: random.Random) -> int:
    """A card drawn uniformly from the non-empty bitmask ``mask``."""
    # int(random() * k) rather than randrange: the same uniform draw for k <= 13, at a fraction of the cost.
    n = int(rng.random() * mask.bit_count())
    while n:
        mask &= mask - 1
        n -= 1
    return (mask & -mask).bit_length() - 1


def random_playout(match: Match, rng: random.Random) -> int:
    """Play ``match`` to its end with uniformly random legal actions; returns how many actions were taken."""
    actions = 0
    draw = rng.random
    while not match.over:
        hand = match.hand
        if hand.phase == PLAY:
            legal_mask, play_card = hand.legal_mask, hand.play_card
            while hand.phase == PLAY:
                seat = hand.to_move
                assert seat is not None
                mask = legal_mask(seat)
                if mask:
                    n = int(draw() * mask.bit_count())
                    while n:
                        mask &= mask - 1
                        n -= 1
                    play_card(seat, (mask & -mask).bit_length() - 1)
                else:
                    hand.pass_turn(seat)
                actions += 1
            match.step()
        else:
            seat = hand.to_move
            assert seat is not None
            hand.apply(seat, rng.choice(hand.legal_actions(seat)))
            actions += 1
    return actions
