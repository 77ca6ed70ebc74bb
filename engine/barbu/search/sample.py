"""Exact uniform sampling of the deals of the unseen cards that agree with what a seat knows.

A deal gives every unseen card to one seat allowed to hold it, each seat receiving exactly its number of
unplayed cards. Cards allowed to the same set of seats are interchangeable ("a type"); a deal is fixed by how
many cards of each type each seat gets (a count matrix) and then by which ones. The number of deals with a
given count matrix is the product over types of multinomial coefficients, so drawing a matrix with
probability proportional to that number, then shuffling each type's cards and cutting them by the counts,
draws every consistent deal with the same probability. The draws are :class:`~.rng.Rng`'s, so the compiled
draw (:mod:`.kernels`) picks the same deal from the same seed.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from math import comb

from engine.barbu.search import kernels
from engine.barbu.search.rng import Rng

if kernels.COMPILED:
    from engine import _kernels

_Packed = tuple[int, tuple[int, ...], tuple[tuple[int, ...], ...], tuple[tuple[int, int], ...]]


class NoConsistentDeal(ValueError):
    """No deal of the unseen cards meets the constraints (a view this engine cannot have made)."""


class DealSampler:
    """Draws deals of the unseen cards uniformly among those that agree with the constraints.

    Args:
        allowed: for each seat 0..3, the bitmask of unseen cards it may hold (0 for the seat that samples).
        sizes: how many unseen cards each seat holds (the sampling seat's entry is ignored when its
            ``allowed`` is 0).
        compiled: draw with the compiled kernel when it is there (:mod:`.kernels`); ``False``: the pure path.

    Raises:
        NoConsistentDeal: no deal meets the constraints.
    """

    def __init__(self, allowed: list[int], sizes: list[int], compiled: bool = True) -> None:
        seats_of: dict[int, list[int]] = {}
        unseen = 0
        for mask in allowed:
            unseen |= mask
        for c in range(52):
            if (unseen >> c) & 1:
                sig = sum(1 << s for s in range(4) if (allowed[s] >> c) & 1)
                seats_of.setdefault(sig, []).append(1 << c)
        need = [sizes[s] if allowed[s] else 0 for s in range(4)]
        if sum(need) != unseen.bit_count():
            raise NoConsistentDeal(f"{unseen.bit_count()} unseen cards for {sum(need)} places")
        # Types with fewer seats first: the last type's split is then forced by what the others left.
        # Each type: its seats and its cards (as single-bit masks).
        self.types: list[tuple[list[int], list[int]]] = sorted(
            (([s for s in range(4) if (sig >> s) & 1], bits) for sig, bits in seats_of.items()),
            key=lambda t: len(t[0]),
        )
        self.weights: list[int] = []  # cumulative
        self.splits: list[list[list[int]]] = []
        self._enumerate(0, need, 1, [])
        if not self.weights:
            raise NoConsistentDeal("no deal of the unseen cards meets the constraints")
        self.total = self.weights[-1]
        # The compiled draw takes the tables as tuples, a total below 2**63 (any deal of 39 unseen cards).
        self._packed: _Packed | None = None
        if compiled and kernels.COMPILED and self.total < 1 << 63:
            self._packed = (
                self.total,
                tuple(self.weights),
                tuple(tuple(k for counts in split for k in counts) for split in self.splits),
                tuple((sum(1 << s for s in seats), sum(bits)) for seats, bits in self.types),
            )

    def _enumerate(self, index: int, left: list[int], weight: int, split: list[list[int]]) -> None:
        if index == len(self.types):
            if not any(left):
                self.weights.append((self.weights[-1] if self.weights else 0) + weight)
                self.splits.append([row[:] for row in split])
            return
        seats, cards = self.types[index]
        n = len(cards)
        if index == len(self.types) - 1:
            counts = [left[s] for s in seats]
            if sum(counts) == n and sum(left) == n:
                self._enumerate(index + 1, [0, 0, 0, 0], weight * _multinomial(n, counts), [*split, counts])
            return
        for counts in _compositions(n, [left[s] for s in seats]):
            rest = left[:]
            for s, k in zip(seats, counts, strict=True):
                rest[s] -= k
            self._enumerate(index + 1, rest, weight * _multinomial(n, counts), [*split, counts])

    @property
    def count(self) -> int:
        """How many consistent deals there are."""
        return self.total

    def sample(self, rng: random.Random) -> list[int]:
        """One consistent deal, drawn uniformly: the unseen cards each seat gets, as bitmasks by seat (one
        64-bit seed taken from ``rng``, then :meth:`draw`)."""
        return self.draw(rng.getrandbits(64))

    def draw(self, seed: int) -> list[int]:
        """The consistent deal that ``seed`` picks, uniformly: the same deal on the compiled and pure paths."""
        if self._packed is not None:
            return _kernels.sample(*self._packed, seed)
        rng = Rng(seed)
        split = self.splits[bisect_right(self.weights, rng.below_total(self.total))]
        out = [0, 0, 0, 0]
        for (seats, bits), counts in zip(self.types, split, strict=True):
            if len(seats) == 1:
                out[seats[0]] |= sum(bits)
                continue
            shuffled = bits[:]
            rng.shuffle(shuffled)
            i = 0
            for s, k in zip(seats, counts, strict=True):
                out[s] |= sum(shuffled[i : i + k])  # distinct single bits: the sum is their union
                i += k
        return out


def _multinomial(n: int, counts: list[int]) -> int:
    out = 1
    for k in counts:
        out *= comb(n, k)
        n -= k
    return out


def _compositions(n: int, caps: list[int]) -> list[list[int]]:
    """Every way to write ``n`` as ``len(caps)`` non-negative parts, part ``i`` at most ``caps[i]``."""
    if len(caps) == 1:
        return [[n]] if n <= caps[0] else []
    out: list[list[int]] = []
    for k in range(min(n, caps[0]) + 1):
        out.extend([k, *rest] for rest in _compositions(n - k, caps[1:]))
    return out
