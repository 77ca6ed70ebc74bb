"""The search's hot paths, compiled when they can be: a determinized hand played to its end with the rollout
rules (legal masks, trick winners, scoring: ``docs/rules/barbu.md``), and the deal sampler's draw.

The compiled extension ``engine._kernels`` (:mod:`engine.compiled`) runs them; without it, or with
``BARBU_PURE=1`` in the environment, the engine's own Python code does (:class:`~engine.barbu.hand.Hand`,
:mod:`.rollout`). Both paths give the same results for the same seed (``tests/test_kernels.py``): the
extension is a faster copy of the rules, never other rules.
A playout may end with its last cards played exactly (perfect information, each seat maximising its own
hand result): ``exact`` of :class:`Position`.
:data:`PATH` says which path runs (``barbu --version`` and the benchmarks print it).
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.barbu.hand import PLAY, Hand
from engine.barbu.rules import CONTRACTS, DOMINOES, TRUMP_DUTY
from engine.barbu.scoring import settle
from engine.barbu.search.rollout import playout as pure_playout
from engine.barbu.search.rollout import solve_exact
from engine.compiled import COMPILED, PATH

__all__ = ["COMPILED", "MAX_EXACT", "PATH", "Position", "pack", "result_weights"]

#: The lead rules in the order of their codes in the packed hand (``Hand.lead_rule``).
LEAD_RULES = (None, "king", "strict", "broken")

if COMPILED:
    from engine import _kernels

Scores = tuple[int, int, int, int]
_NO_WEIGHTS = ((0, 0, 0, 0),) * 4


def pack(hand: Hand) -> tuple[int, ...]:
    """``hand`` (in its play, a seat to move) as the extension's flat tuple of 36 ints: the four hands
    (0-3), contract (index in ``CONTRACTS``), trump (-1: none), trump duty (index in ``TRUMP_DUTY``), lead
    rule (index in :data:`LEAD_RULES`), hearts broken, leader, seat to move (4-10), the trick's length and
    its cards (-1 pads; 11-14), tricks played, cards played (15-16), contract scores (17-20), early end
    (21), the Dominoes playable cards, each row's low and high rank (-1: not opened), seats out and the
    four places' points (22-35).

    Raises:
        ValueError: the hand is not in its play.
    """
    if hand.phase != PLAY or hand.to_move is None or hand.contract is None:
        raise ValueError("only a hand in its play, a seat to move, can be packed")
    trick = hand.trick
    return (
        *hand.hands,
        CONTRACTS.index(hand.contract),
        -1 if hand.trump is None else hand.trump,
        TRUMP_DUTY.index(hand.duty),
        LEAD_RULES.index(hand.lead_rule),
        int(hand.hearts_broken),
        hand.leader,
        hand.to_move,
        len(trick),
        *(trick[i] if i < len(trick) else -1 for i in range(3)),
        len(hand.tricks),
        hand.played,
        *hand.contract_scores,
        int(hand.variants.early_end),
        hand.playable,
        *(-1 if x is None else x for x in hand.low),
        *(-1 if x is None else x for x in hand.high),
        len(hand.finish_order),
        *hand.variants.dominoes_points,
    )


def result_weights(hand: Hand, seat: int) -> list[int]:
    """``seat``'s hand result (contract score plus its settlements: "Settling doubles") as weights on the
    four contract scores: the settlement of the doubles in force is linear in them, so each weight is the
    result of a unit score."""
    return [
        int(t == seat) + settle([int(u == t) for u in range(4)], hand.doubles, hand.redoubles)[seat]
        for t in range(4)
    ]


#: The most cards :class:`Position` solves exactly at the end of a playout (three tricks: at most 6**4
#: lines of play; measured on the compiled path, 8 cards cost a quarter of a playout more, 12 ten times it).
MAX_EXACT = 12


class Position:
    """A hand in its play whose unseen cards come with each playout (a determinized hand, less its deal).

    Args:
        hand: in its play, a seat to move; seats' unseen cards left out (this object keeps it, unchanged).
        compiled: run the compiled kernel (default: when it is there); ``False`` forces the pure path.
        exact: in a trick contract, once this many cards or fewer are left, each playout plays the rest
            exactly (every seat maximising its own hand result with the doubles in force:
            :func:`~.rollout.solve_exact`) instead of by the rollout rules; 0 (the default): never.

    Raises:
        ValueError: the hand is not in its play, or ``exact`` is not from 0 to :data:`MAX_EXACT`.
    """

    __slots__ = ("_flat", "exact", "hand", "packed", "weights")

    def __init__(self, hand: Hand, compiled: bool = COMPILED, exact: int = 0) -> None:
        if not 0 <= exact <= MAX_EXACT:
            raise ValueError(f"exact must be from 0 to {MAX_EXACT} cards, not {exact}")
        self.hand = hand
        packed = pack(hand)
        self.packed = packed if compiled and COMPILED else None
        self.exact = exact if hand.contract != DOMINOES else 0
        self.weights = tuple(tuple(result_weights(hand, s)) for s in range(4)) if self.exact else _NO_WEIGHTS
        self._flat = tuple(w for row in self.weights for w in row)

    def playout(self, deal: Sequence[int], first: int, seed: int) -> Scores:
        """The four contract scores at the end of the hand with ``deal[s]`` added to each seat ``s``, the seat
        to move playing ``first`` (a card it holds, or -1 for the rollout's choice), then every card by the
        rollout rules (:mod:`.rollout`; Dominoes' random draws from ``seed``), the last ``exact`` exactly."""
        if self.packed is not None:
            return _kernels.playout(self.packed, deal, first, seed, self.exact, self._flat)
        hand = self.hand.copy()
        hands = hand.hands
        for s in range(4):
            hands[s] |= deal[s]
        if first >= 0:
            seat = hand.to_move
            assert seat is not None
            hand.play_card(seat, first)
        pure_playout(hand, seed, self.exact)
        if hand.phase == PLAY:  # stopped with ``exact`` cards left
            return solve_exact(hand, self.weights)
        s0, s1, s2, s3 = hand.contract_scores
        return s0, s1, s2, s3
